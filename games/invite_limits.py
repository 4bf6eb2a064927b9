"""The limit on invite codes tried: a guesser of private tables' codes gets a few tries a
minute, not thousands.

Every code a request tries (an invite link, the lobby's "Have an invite code?" form, an
`?invite=` in a table's address) takes one attempt of the request's user and one of its
client address before it is checked; a right code gives them back. Each side has
settings.OKEY_INVITE_GUESSES slots in the shared cache (Redis in the scaled set-up, so
every process counts together); an attempt takes a free slot with the cache's atomic
`add`, and the slot frees itself OKEY_INVITE_GUESS_WINDOW seconds later. So at most that
many wrong codes are checked in any such span, however many requests race, and once the
slots are full every try, right or wrong, is answered 429 (`refusal`) without being
checked: the answer says nothing about the code. While the cache is unreachable it
answers as empty (`okeysite.cache`) and codes are checked without a limit.
"""
from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import render

KEY_PREFIX = "invite-guess"


class TooManyWrongCodes(Exception):
    """The request's user or address has no attempt left for now."""


class Attempt:
    """One invite code being tried: the cache slots it holds (`keys`, list of str)."""

    def __init__(self, keys):
        self.keys = keys

    def give_back(self):
        """The code was right: free the slots it took, so a player's own links never add up."""
        if self.keys:
            cache.delete_many(self.keys)
        self.keys = []


def _address(request):
    try:
        return get_adapter(request).get_client_ip(request)  # the login limits' rule (trusted proxies)
    except PermissionDenied:
        return ""


def _sides(request):
    sides = [f"address:{_address(request)}"]
    if request.user.is_authenticated:
        sides.append(f"user:{request.user.pk}")
    return sides


def _take_slot(side):
    slots = [f"{KEY_PREFIX}:{side}:{n}" for n in range(settings.OKEY_INVITE_GUESSES)]
    taken = cache.get_many(slots)
    for key in slots:
        if key not in taken and cache.add(key, 1, timeout=settings.OKEY_INVITE_GUESS_WINDOW):
            return key
    return None


def attempt(request):
    """Take one attempt for the invite code `request` tries, before checking it. Returns
    an Attempt (call `give_back()` when the code was right). Raises TooManyWrongCodes when
    the user or the address has used every attempt of the window (nothing is taken then)."""
    keys = []
    for side in _sides(request):
        key = _take_slot(side)
        if key is None:
            Attempt(keys).give_back()
            raise TooManyWrongCodes
        keys.append(key)
    return Attempt(keys)


def refusal(request):
    """The HTTP 429 page, in the visitor's language, for a request with no attempt left."""
    return render(request, "429.html", status=429)
