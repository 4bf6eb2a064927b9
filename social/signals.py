"""What the social app hears from the others: a new public table (its creator's followers
are told), an account being erased (its challenges, notifications and open pages go) and
a player's data being exported (their challenges and notifications go in)."""
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.data_export import exporting
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


@receiver(exporting)
def export_social(sender, user, **kwargs):
    """The `user`'s challenges (made and received) and notifications for their data
    download: {"challenges": [...], "notifications": [...]}."""
    def when(value):
        return value.isoformat() if value else None

    made = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).select_related("challenger", "challenged")
    return {
        "challenges": [{"from": c.challenger.get_username(), "to": c.challenged.get_username(), "ruleset": c.ruleset,
                        "status": c.status, "table": c.table_id, "at": when(c.created), "answered": when(c.answered)}
                       for c in made.order_by("pk")],
        "notifications": [{"kind": n.kind, "about": n.actor.get_username() if n.actor_id else None,
                           "table": n.table_id, "at": when(n.created), "read": n.read}
                          for n in Notification.objects.filter(user=user).select_related("actor").order_by("pk")],
    }
