"""Template helpers of the social app: the unread count in the menu, the friends panel."""
from django import template
from django.utils.translation import gettext

from social.friends import friends_context
from social.notifications import unread_count

register = template.Library()


@register.simple_tag
def unread_notifications(user):
    """How many notifications `user` has not seen (int; 0 for a visitor)."""
    return unread_count(user) if user.is_authenticated else 0


@register.inclusion_tag("social/_friends_panel.html", takes_context=True)
def friends_panel(context):
    """The friends list with live presence (`social.friends.friends_context`) for the
    signed-in viewer; nothing for a visitor."""
    user = context["request"].user
    if not user.is_authenticated:
        return {"show": False}
    return {"show": True, "request": context["request"], "csrf_token": context.get("csrf_token"),
            "compact": True, **friends_context(user)}


@register.simple_tag
def social_text():
    """The texts social.js and your-turn.js write themselves, in the active language (a
    dict for `json_script`)."""
    return {
        "close": gettext("Close"), "online": gettext("online"), "at_table": gettext("at a table"),
        "watching": gettext("watching"), "offline": gettext("offline"), "your_turn": gettext("Your turn"),
        "your_turn_at": gettext("It's your turn at table %(table)s."),
    }
