"""Players' relations: who follows whom, and who blocked whom.

A follow is one way; two players who follow each other are friends. Following someone
who does not follow you back is a friend request: they accept it by following back
(`social` tells them). A block is one way too and wins over everything: blocking removes
the follows both ways, and a blocked player can no longer follow, challenge or chat to the
one who blocked them (`is_blocked`; the chat asks `blocked_among`).
"""
from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RelationError(ValueError):
    """A refused follow or block: `code` is a key of RELATION_ERRORS."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


RELATION_ERRORS = {
    "self": _("That is you."),
    "blocked": _("You cannot follow or challenge this player."),
    "unknown_player": _("There is no such player."),
}


class Follow(models.Model):
    """`follower` follows `followed` (since `created`)."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "accounts"
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="follow_once")]
        verbose_name = _("follow")
        verbose_name_plural = _("follows")

    def __str__(self):
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """`blocker` blocked `blocked` (since `created`)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "accounts"
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]
        verbose_name = _("block")
        verbose_name_plural = _("blocks")

    def __str__(self):
        return f"{self.blocker} blocked {self.blocked}"


def is_blocked(actor, target):
    """True when `target` (a User or id) blocked `actor` (a User or id): `actor` may not
    follow, challenge or chat to them."""
    return Block.objects.filter(blocker=target, blocked=actor).exists()


def blocked_among(actor, user_ids):
    """The ids among `user_ids` (iterable of int) who blocked `actor` (a User or id): a set."""
    return set(Block.objects.filter(blocked=actor, blocker_id__in=list(user_ids)).values_list("blocker_id", flat=True))


def follow(follower, followed):
    """`follower` follows `followed` (both Users). Returns True when the follow is new,
    False when it was there already. Raises RelationError("self" | "blocked") and stores
    nothing then: nobody follows themselves, nor someone who blocked them."""
    if follower.pk == followed.pk:
        raise RelationError("self")
    if is_blocked(follower, followed):
        raise RelationError("blocked")
    _follow, created = Follow.objects.get_or_create(follower=follower, followed=followed)
    return created


def unfollow(follower, followed):
    """`follower` stops following `followed`. Returns True when a follow was removed."""
    deleted, _rows = Follow.objects.filter(follower=follower, followed=followed).delete()
    return bool(deleted)


def block(blocker, blocked):
    """`blocker` blocks `blocked` (Users): the follows between them go both ways. Returns
    True when the block is new. Raises RelationError("self")."""
    if blocker.pk == blocked.pk:
        raise RelationError("self")
    with transaction.atomic():
        Follow.objects.filter(Q(follower=blocker, followed=blocked) | Q(follower=blocked, followed=blocker)).delete()
        _block, created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    return created


def unblock(blocker, blocked):
    """`blocker` lifts their block of `blocked`. Returns True when a block was removed."""
    deleted, _rows = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    return bool(deleted)


def relation(viewer, other):
    """What `viewer` (a User) is to `other` (a User), for the profile's buttons: a dict
    {"following" (viewer follows other), "follows_me" (other follows viewer), "friends"
    (both), "blocked" (viewer blocked other), "blocks_me" (other blocked viewer)}."""
    following = Follow.objects.filter(follower=viewer, followed=other).exists()
    follows_me = Follow.objects.filter(follower=other, followed=viewer).exists()
    return {"following": following, "follows_me": follows_me, "friends": following and follows_me,
            "blocked": Block.objects.filter(blocker=viewer, blocked=other).exists(),
            "blocks_me": is_blocked(viewer, other)}
