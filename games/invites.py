"""Invite codes of private tables kept in the visitor's session.

Opening a private table's invite link (`games.views.table_invite`) stores its code in the
session under the table id; the table page, its "Take a seat" and its WebSocket (the
session travels with the socket's handshake) then check it with
`games.play.tables.invite_matches`. Anonymous visitors have a session too, so a friend
may watch a running private table from the link without an account.
"""
SESSION_KEY = "okey_invites"
MAX_REMEMBERED = 20  # the most recent invites a session keeps


def remember(request, table):
    """Keep `table`'s invite code in `request.session` (the oldest beyond MAX_REMEMBERED go)."""
    kept = dict(request.session.get(SESSION_KEY) or {})
    kept.pop(str(table.pk), None)
    kept[str(table.pk)] = table.invite_code
    request.session[SESSION_KEY] = dict(list(kept.items())[-MAX_REMEMBERED:])


def code_in_session(session, table_id):
    """The invite code stored for table `table_id` (int) in `session` (a session or a
    dict-like, may be None), or None."""
    if session is None:
        return None
    kept = session.get(SESSION_KEY) or {}
    code = kept.get(str(table_id)) if isinstance(kept, dict) else None
    return code if isinstance(code, str) else None


def code_for(request, table_id):
    """The invite code the request carries for table `table_id`: from the session, else
    the `invite` query parameter. Returns str or None."""
    return code_in_session(getattr(request, "session", None), table_id) or request.GET.get("invite") or None
