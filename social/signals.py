"""What the social app hears from the others: a new public table (its creator's followers
are told) and an account being erased (its challenges, notifications and open pages go)."""
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.erasure import erasing
from accounts.relations import Block, Follow
from games.models import Table
from social.models import Challenge, Notification, PageSocket
from social.notifications import notify


@receiver(post_save, sender=Table)
def public_table_opened(sender, instance, created, **kwargs):
    """A player opened a public online table (not one "Play now" made, which fills on its
    own): each of their followers whom they did not block gets a notification."""
    table = instance
    if not created or kwargs.get("raw") or table.private or table.quick or table.mode != Table.Mode.ONLINE:
        return
    blocked = Block.objects.filter(blocker_id=table.creator_id).values_list("blocked_id", flat=True)
    for follower in (Follow.objects.filter(followed_id=table.creator_id).exclude(follower_id__in=blocked)
                     .values_list("follower_id", flat=True)):
        notify(follower, Notification.Kind.TABLE_STARTED, actor=table.creator, table=table)


@receiver(erasing)
def forget_erased(sender, user, **kwargs):
    """Remove the erased `user`'s challenges, notifications (theirs and those about them)
    and open pages."""
    Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).delete()
    Notification.objects.filter(Q(user=user) | Q(actor=user)).delete()
    PageSocket.objects.filter(user=user).delete()
