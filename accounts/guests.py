"""Guest accounts: one click to play before signing up.

A guest is an ordinary `User` row named "Guest-XXXX", with no e-mail and no usable
password, marked by a `Guest` row. Guests play solo and "Play now" like anyone, but are
never rated and never listed in a ranking (`leaderboards.recording`, `leaderboards.views`
ask `is_guest` / `listed`). Signing up from a guest session turns the same row into the
new account (`accounts.login_limits.AccountAdapter.new_user`), so its matches, seats and
solo records simply stay where they are. A guest unused for `GUEST_LIFETIME` is removed
by the periodic sweep (`accounts.erasure.remove_stale_guests`, run from `games.tasks.sweep`).
"""
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

GUEST_PREFIX = "Guest-"
GUEST_LIFETIME = timedelta(days=7)  # unused this long: removed
SEEN_EVERY = timedelta(hours=1)  # `last_seen` is written at most this often per guest
SEEN_KEY = "okey_guest_seen"  # in a guest's session: when `last_seen` was last written (epoch s)
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread at a table

class Guest(models.Model):
    """Marks `user` as a guest account; `last_seen` is the last request they made
    (written at most once per `SEEN_EVERY`)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest")
    created = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        app_label = "accounts"
        verbose_name = _("guest")
        verbose_name_plural = _("guests")

    def __str__(self):
        return f"guest {self.user}"


def listed():
    """The filter (a Q) of the rows with a `user` that a ranking may list: not guests, not
    erased accounts (`accounts.erasure`). Both are a NOT EXISTS over the few such users:
    PostgreSQL plans it as an anti-join with a sound estimate, where a LEFT JOIN's
    `guest.id IS NULL` was guessed to leave one row and turned the ranking into a loop over
    every user, and a join for `user.is_active` read every user to count a ranking's rows
    (the erased ones are read from their partial index, `auth_user_inactive`)."""
    erased = get_user_model().objects.filter(pk=OuterRef("user_id"), is_active=False)
    return Q(~Exists(Guest.objects.filter(user_id=OuterRef("user_id"))), ~Exists(erased))


def is_guest(user):
    """True when `user` (a User, AnonymousUser or None) is a guest account."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    try:
        return user.guest is not None
    except Guest.DoesNotExist:
        return False


def guest_username():
    """A fresh name "Guest-XXXX" (4 characters of `_ALPHABET`, str). Not checked for use:
    `start_guest` retries on a clash."""
    return GUEST_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(4))


def start_guest(request):
    """Log the visitor of `request` in as a new guest account, unless they are logged in
    already (a guest stays the same guest). Returns the User."""
    if request.user.is_authenticated:
        return request.user
    users = get_user_model()
    for _attempt in range(20):
        try:
            with transaction.atomic():
                user = users(username=guest_username(), email="")
                user.set_unusable_password()
                user.save()
                Guest.objects.create(user=user)
            break
        except IntegrityError:
            continue  # the name is taken: draw another
    else:  # 32^4 names nearly all in use: a longer one
        with transaction.atomic():
            user = users(username=GUEST_PREFIX + secrets.token_hex(6).upper(), email="")
            user.set_unusable_password()
            user.save()
            Guest.objects.create(user=user)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[SEEN_KEY] = timezone.now().timestamp()
    return user


class GuestActivityMiddleware:
    """Keep a guest's `last_seen` fresh (at most one write per `SEEN_EVERY`), so that a
    guest who keeps playing is never removed. Only a guest's session holds `SEEN_KEY`:
    other requests cost nothing. Put after `AuthenticationMiddleware`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        seen = session.get(SEEN_KEY) if session is not None else None
        if seen is not None and request.user.is_authenticated:
            now = timezone.now()
            if now.timestamp() - seen >= SEEN_EVERY.total_seconds():
                Guest.objects.filter(user_id=request.user.pk).update(last_seen=now)
                session[SEEN_KEY] = now.timestamp()
        return self.get_response(request)


def guest_context(request):
    """Template context processor: `is_guest` (bool) for the page's banner and links. Reads
    only the session (`SEEN_KEY` is in a guest's session alone): no query."""
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    return {"is_guest": bool(session is not None and SEEN_KEY in session and user is not None
                             and user.is_authenticated)}
