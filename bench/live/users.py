"""Benchmark players: real ``User`` rows and logged-in sessions, made with the ORM.

Run by :meth:`bench.live.stack.Stack.make_users` in a child process with the stack's
environment (so the load generator itself never sets Django up on one database or
another): ``python -m bench.live.users COUNT PREFIX`` prints a JSON list of
``{"username", "cookies": {session cookie name: session key}}``.

The session is what Django's ``login()`` stores (user id, backend, session auth hash) in
the configured session engine, so the site sees an ordinary logged-in browser.
"""
from __future__ import annotations

import json
import sys


def make(count: int, prefix: str) -> list[dict]:
    """Create ``count`` users ``<prefix>0`` ... (unusable passwords: nobody logs in with
    them) and one session each. Returns the list printed by :func:`main`."""
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.db import connections

    user_model = get_user_model()
    users = []
    for i in range(count):
        user = user_model(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid")
        user.set_unusable_password()
        users.append(user)
    user_model.objects.bulk_create(users, batch_size=500)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    out = []
    for user in user_model.objects.filter(username__startswith=prefix).order_by("pk"):
        session = store()
        session[SESSION_KEY] = user._meta.pk.value_to_string(user)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        out.append({"username": user.get_username(), "cookies": {settings.SESSION_COOKIE_NAME: session.session_key}})
    connections.close_all()
    return out


def main(argv=None) -> int:
    """Command line: COUNT PREFIX."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not args[0].isdigit():
        print("usage: python -m bench.live.users COUNT PREFIX", file=sys.stderr)
        return 2
    json.dump(make(int(args[0]), args[1]), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
