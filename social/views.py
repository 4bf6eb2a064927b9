"""The social pages and actions: follow, unfollow, block and unblock from a profile; the
friends page; challenges and their answers; the notification list and the table page's
"your turn" line."""
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.player_settings import display_name
from accounts.relations import RELATION_ERRORS, Follow, RelationError, block, follow, unblock, unfollow
from games.models import Seat, Table
from social import challenges
from social.friends import friends_context
from social.models import Notification
from social.notifications import LIST_LENGTH, item, loaded, notify, push

YOUR_TURN_AGAIN = 60  # seconds before a second "your turn" line for the same table
KEEP = timedelta(days=30)  # older notifications go when the player opens the list


def _back(request, fallback):
    # `next` when it is a page of this site, else `fallback` (a URL name or a path)
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect(fallback)


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")


def _player(username):
    return get_object_or_404(get_user_model(), username=username, is_active=True)


@login_required
@require_POST
def relation_action(request, username, action):
    """POST `/players/<username>/<follow|unfollow|block|unblock>/`: change the viewer's
    relation to the player (`accounts.relations`), then back to `next` or the profile.
    A new follow the other has not returned tells them (a friend request); a block also
    cancels the challenges waiting between the two. A refusal is a message."""
    if action not in ("follow", "unfollow", "block", "unblock"):
        raise Http404
    other = _player(username)
    name = display_name(other)
    try:
        if action == "follow":
            if follow(request.user, other):
                if not Follow.objects.filter(follower=other, followed=request.user).exists():
                    notify(other.pk, Notification.Kind.FRIEND_REQUEST, actor=request.user)
                messages.success(request, gettext("You follow %(name)s.") % {"name": name})
        elif action == "unfollow":
            unfollow(request.user, other)
            messages.success(request, gettext("You no longer follow %(name)s.") % {"name": name})
        elif action == "block":
            block(request.user, other)
            challenges.cancel_between(request.user, other)
            messages.success(request, gettext("You blocked %(name)s.") % {"name": name})
        elif action == "unblock":
            unblock(request.user, other)
            messages.success(request, gettext("You unblocked %(name)s.") % {"name": name})
    except RelationError as refused:
        messages.error(request, str(RELATION_ERRORS[refused.code]))
    return _back(request, "friends" if action == "block" else reverse("player_profile", args=[other.get_username()]))


@login_required
@require_GET
def friends(request):
    """`/friends/`: the players the viewer follows with their presence (live), the requests
    of those who follow them, the challenge form, and the players they blocked."""
    return render(request, "social/friends.html", friends_context(request.user))


@login_required
@require_POST
def challenge(request, username):
    """POST `/players/<username>/challenge/` with `ruleset`: challenge the player
    (`social.challenges.challenge`); back to `next` or the friends page with a message."""
    other = _player(username)
    try:
        challenges.challenge(request.user, other, request.POST.get("ruleset", ""))
    except challenges.ChallengeError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("Challenge sent to %(name)s.") % {"name": display_name(other)})
    return _back(request, "friends")


@login_required
@require_POST
def challenge_answer(request, challenge_id, answer):
    """POST `/challenges/<id>/<accept|decline>/`: answer a challenge made to the viewer.
    Accept: to the new table (JSON {"url"} for the pages' box). Decline: back (JSON
    {"ok": true}). A challenge no longer waiting: a message (JSON {"error"}, status 409)."""
    try:
        if answer == "accept":
            table = challenges.accept(request.user, challenge_id)
            url = reverse("table", args=[table.pk])
            return JsonResponse({"url": url}) if _wants_json(request) else redirect(url)
        challenges.decline(request.user, challenge_id)
    except challenges.ChallengeError as refused:
        if _wants_json(request):
            return JsonResponse({"error": str(refused)}, status=409)
        messages.error(request, str(refused))
        return _back(request, "notifications")
    return JsonResponse({"ok": True}) if _wants_json(request) else _back(request, "notifications")


@login_required
@require_GET
def notification_list(request):
    """`/notifications/`: the viewer's last LIST_LENGTH notifications, newest first; seeing
    the list marks them read (the pages' counters go to 0) and removes those older than
    KEEP."""
    Notification.objects.filter(user=request.user, created__lt=timezone.now() - KEEP).delete()
    notes = list(loaded(Notification.objects.filter(user=request.user))[:LIST_LENGTH])
    rows = [{**item(note), "when": note.created} for note in notes]
    if Notification.objects.filter(user=request.user, read=False).update(read=True):
        push(request.user.pk, {"type": "page.frame", "frame": {"type": "unread", "unread": 0}})
    return render(request, "social/notifications.html", {"notifications": rows})


@login_required
@require_POST
def your_turn(request, table_id):
    """POST `/notifications/turn/<table_id>/`: the table's page, in the background, saw the
    player's turn come: a "your turn" line for the list and the other pages. Only for a
    player seated at that running table, at most once a minute per table. JSON {"id"} (or
    {"id": null} when nothing was added); 404 for a table where they do not play."""
    if not Seat.objects.filter(table_id=table_id, user=request.user, left=False,
                               table__status=Table.Status.PLAYING).exists():
        return JsonResponse({"error": "not_seated"}, status=404)
    recent = timezone.now() - timedelta(seconds=YOUR_TURN_AGAIN)
    if Notification.objects.filter(user=request.user, kind=Notification.Kind.YOUR_TURN, table_id=table_id,
                                   created__gte=recent).exists():
        return JsonResponse({"id": None})
    note = notify(request.user.pk, Notification.Kind.YOUR_TURN, table=Table.objects.get(pk=table_id))
    return JsonResponse({"id": note.pk})
