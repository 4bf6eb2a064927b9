"""The chat frames of a table socket (docs/protocol.md §2-§3 `chat`, `report`, `chat_removed`): the
socket side of `games.chat.service`. Chat lines are public: they travel on the table
group, never with a rack (ARCHITECTURE.md invariant 3)."""
from channels.db import database_sync_to_async
from django.utils import translation

from games import frames
from games.chat import service as chat


class ChatFrames:
    """Mixin of `games.consumers.TableConsumer`: needs `user`, `table_id`, `language`,
    `send_error` and `send_frame`."""

    async def send_chat_history(self):
        """Send the table's recent chat lines (`chat_history` {lines}), once a socket is admitted."""
        lines = await database_sync_to_async(chat.history)(self.table_id)
        await self.send_frame({"type": "chat_history", "lines": lines})

    async def receive_chat(self, frame):
        """`chat` {text, id?}: `games.chat.service.post`; the line comes back to every socket through the group.
        A text with a control character or a lone surrogate is refused `bad_text`; an
        anonymous spectator cannot chat (`not_seated`). A refusal carries the frame's `id`,
        so the client shows it with the chat, never as a refused move."""
        frame_id = frames.frame_id(frame)
        if self.user is None:
            await self.send_error("not_seated", frame_id)
            return
        if frames.bad_text(frame.get("text")):
            await self.send_error("bad_text", frame_id)
            return
        try:
            await database_sync_to_async(chat.post)(self.user, self.table_id, frame.get("text"))
        except chat.ChatError as exc:
            await self.send_chat_error(exc, frame_id)

    async def receive_report(self, frame):
        """`report` {user?, reason?, id?}: `games.chat.service.report`; answered with `reported`.
        A user or reason with a control character or a lone surrogate is refused `bad_text`;
        an anonymous spectator cannot report (`not_seated`). The answer, `reported` or a
        refusal, carries the frame's `id`."""
        frame_id = frames.frame_id(frame)
        if self.user is None:
            await self.send_error("not_seated", frame_id)
            return
        if frames.bad_text(frame.get("user")) or frames.bad_text(frame.get("reason")):
            await self.send_error("bad_text", frame_id)
            return
        try:
            await database_sync_to_async(chat.report)(self.user, self.table_id, frame.get("user"), frame.get("reason"))
        except chat.ChatError as exc:
            await self.send_chat_error(exc, frame_id)
            return
        answer = {"type": "reported"}
        if frame_id is not None:
            answer["id"] = frame_id
        await self.send_frame(answer)

    async def send_chat_error(self, exc, frame_id=None):
        """A refused chat line or report, in the socket's language, with the refused frame's `id` when it had one."""
        with translation.override(self.language):
            frame = {"type": "error", "code": exc.code, "message": exc.message()}
        if frame_id is not None:
            frame["id"] = frame_id
        await self.send_frame(frame)

    async def chat_message(self, event):
        """Group message from `games.chat.service`: one public chat line."""
        await self.send_frame(dict(event["line"], type="chat"))

    async def chat_removed(self, event):
        """Group message from `games.chat.service.remove`: an admin removed line `id`."""
        await self.send_frame({"type": "chat_removed", "id": event["id"]})
