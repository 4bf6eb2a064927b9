"""What an erased account looks like to the pages that still show it: the emptied `User`
row of a deleted account keeps the user name "deleted-<id>" (`accounts.erasure.erase_user`)
and is shown as "deleted player". Kept apart from the erasing itself so that the modules
erasing empties (settings, sign-up) can read it without importing the eraser."""

DELETED_PREFIX = "deleted-"


def is_erased(user):
    """True when `user` (a `User` or None) is the emptied row of a deleted account (a
    placeholder in others' games). Reads no database row."""
    return (user is not None and not getattr(user, "is_active", True)
            and (user.get_username() or "").startswith(DELETED_PREFIX))
