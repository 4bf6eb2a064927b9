"""`/ws/me/`: one socket per open page of a signed-in player (docs/protocol.md §15).

It carries what concerns the player wherever they are on the site: challenges (a box with
Accept and Decline), their notifications as they come, and the presence of the players
they follow. Opening and closing it is what makes the player's own presence
(`social.presence`): the page says where it is with `?path=` (a table page makes them
"playing" or "watching" there).

Server frames: `hello` {"unread", "challenges": [notification items of the challenges
waiting for them]} once on connect; `notification` {"notification": item, "unread"};
`presence` (`social.presence.presence_frame`); `challenge_accepted`
(`social.challenges.accepted_frame`); `challenge_closed` {"id"}. Texts are in the
socket's language. The client sends only `ping` (answered `pong`, `HeartbeatMixin`);
anything else is ignored. An anonymous socket is closed with 4401.
"""
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone, translation

from games.direct_dispatch import DirectDispatch
from games.errors import error_message
from games.frames import dumps
from games.heartbeat import HeartbeatMixin
from games.play.presence import CAP_CLOSE_CODE
from games.socket_scope import scope_language
from okeysite import socket_groups
from social import challenges, notifications, presence
from social.models import Challenge, Notification, PageSocket

ANONYMOUS_CLOSE_CODE = 4401  # no signed-in user: nothing of this socket concerns a visitor
MAX_PAGES = 30  # open pages counted per player; more are refused (too_many_sockets)


class PageConsumer(DirectDispatch, HeartbeatMixin, AsyncWebsocketConsumer):
    """`/ws/me/?path=<the page's path>`: the player's challenges, notifications and
    friends' presence (see the module docstring)."""

    group = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=ANONYMOUS_CLOSE_CODE)
            return
        self.user = user
        self.language = scope_language(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        path = (query.get("path") or ["/"])[0][:300]
        await self.accept()
        # In the group before the challenges are read, so one made meanwhile still comes;
        # then one trip to the database thread, which every page load of the process shares.
        self.group = socket_groups.pages_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        hello = await database_sync_to_async(self._hello)(path)
        if hello is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            with translation.override(self.language):
                message = error_message("too_many_sockets")
            await self.send(text_data=dumps({"type": "error", "code": "too_many_sockets", "message": message}))
            await self.close(code=CAP_CLOSE_CODE)
            return
        await self.send(text_data=dumps(hello))

    def _hello(self, path):
        # None past MAX_PAGES live pages of the player, else the hello frame
        live = timezone.now() - presence.TTL
        if PageSocket.objects.filter(user=self.user, seen__gte=live).count() >= MAX_PAGES:
            return None
        presence.page_opened(self.channel_name, self.user, path)
        challenges.expire_old()
        waiting = notifications.loaded(Notification.objects.filter(
            user=self.user, kind=Notification.Kind.CHALLENGE, challenge__status=Challenge.Status.PENDING))
        with translation.override(self.language):
            return {"type": "hello", "unread": notifications.unread_count(self.user),
                    "challenges": [notifications.item(note) for note in waiting]}

    async def disconnect(self, code):
        if self.group is not None:
            # the followers hear of it first; leaving the group can wait
            await database_sync_to_async(presence.page_closed)(self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def heartbeat(self):
        if self.group is not None:
            await database_sync_to_async(presence.page_seen)(self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        return  # the page sends nothing but its heartbeat (answered by HeartbeatMixin)

    async def page_frame(self, event):
        await self.send(text_data=dumps(event["frame"]))

    async def page_notification(self, event):
        frame = await database_sync_to_async(self._notification)(event["id"])
        if frame is not None:
            await self.send(text_data=dumps(frame))

    def _notification(self, note_id):
        note = notifications.loaded(Notification.objects.filter(pk=note_id, user=self.user)).first()
        if note is None:
            return None
        with translation.override(self.language):
            return {"type": "notification", "notification": notifications.item(note),
                    "unread": notifications.unread_count(self.user)}

    async def page_challenge(self, event):
        frame = await database_sync_to_async(self._accepted)(event["id"])
        if frame is not None:
            await self.send(text_data=dumps(frame))

    def _accepted(self, challenge_id):
        found = Challenge.objects.filter(pk=challenge_id, challenger=self.user).select_related(
            "challenged", "challenged__player_settings").first()
        if found is None:
            return None
        with translation.override(self.language):
            return challenges.accepted_frame(found)
