"""Table chat over the real socket stack: seated players only, size and rate limits,
mutes with their reason, removal by admins and abuse reports."""
import pytest
from channels.db import database_sync_to_async
from django.core import mail

from accounts.moderation import sanction
from games.chat import service as chat
from games.chat.models import ChatMessage, ChatReport
from tests.moderation.sockets import online_table, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_line_reaches_every_socket_at_the_table(alice, bob, carol, session_cookie):
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    b = await open_socket(table, bob, session_cookie)
    watcher = await open_socket(table, carol, session_cookie)
    await a.send({"type": "chat", "text": "  iyi oyunlar!  "})
    for sock in (a, b, watcher):
        line = await sock.recv_type("chat")
        assert (line["user"], line["text"]) == ("alice", "iyi oyunlar!")
    # a spectator may read but not write
    await watcher.send({"type": "chat", "id": "chat1", "text": "hello"})
    refused = await watcher.recv_type("error")
    assert (refused["code"], refused["id"]) == ("not_seated", "chat1")
    # a socket opened later gets the history
    late = await open_socket(table, bob, session_cookie)
    assert [line["text"] for line in late.frames[-1]["lines"]] == ["iyi oyunlar!"]
    for sock in (a, b, watcher, late):
        await sock.close()


async def test_too_long_empty_and_too_fast_lines_are_refused(alice, bob, session_cookie):
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    await a.send({"type": "chat", "text": "x" * (chat.MAX_CHARS + 1)})
    assert (await a.recv_type("error"))["code"] == "chat_too_long"
    await a.send({"type": "chat", "text": "   "})
    assert (await a.recv_type("error"))["code"] == "chat_empty"
    for i in range(chat.RATE_COUNT):
        await a.send({"type": "chat", "text": f"line {i}"})
        assert (await a.recv_type("chat"))["text"] == f"line {i}"
    await a.send({"type": "chat", "id": "chat7", "text": "one more"})
    error = await a.recv_type("error")
    assert error["code"] == "rate_limited" and error["message"]
    assert error["id"] == "chat7"  # the client shows it with the chat, not as a refused move
    assert await database_sync_to_async(ChatMessage.objects.count)() == chat.RATE_COUNT
    await a.close()


async def test_a_muted_player_is_told_why_and_their_line_is_not_sent(alice, bob, carol, session_cookie):
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    await database_sync_to_async(sanction)(alice, "mute", "insults at table 12", None, carol)
    await a.send({"type": "chat", "text": "hello"})
    error = await a.recv_type("error")
    assert error["code"] == "muted" and "insults at table 12" in error["message"]
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await a.close()


async def test_an_admin_removes_a_line_and_the_sockets_drop_it(alice, bob, session_cookie):
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    b = await open_socket(table, bob, session_cookie)
    await a.send({"type": "chat", "text": "something rude"})
    line = await b.recv_type("chat")
    assert await database_sync_to_async(chat.remove)(line["id"]) is True
    assert (await b.recv_type("chat_removed"))["id"] == line["id"]
    assert await database_sync_to_async(chat.history)(table.pk) == []
    await a.close()
    await b.close()


async def test_a_report_copies_the_recent_lines_and_mails_the_admins(alice, bob, session_cookie, settings):
    settings.ADMINS = [("Mod", "mod@example.com")]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    b = await open_socket(table, bob, session_cookie)
    await b.send({"type": "chat", "text": "you play like a bot"})
    await a.recv_type("chat")
    await a.send({"type": "report", "id": "report1", "user": "bob", "reason": "rude"})
    assert (await a.recv_type("reported"))["id"] == "report1"
    report = await database_sync_to_async(ChatReport.objects.select_related("reported").get)()
    assert report.reported.username == "bob" and report.reason == "rude"
    assert [(line["user"], line["text"]) for line in report.lines] == [("bob", "you play like a bot")]
    assert len(mail.outbox) == 1 and "you play like a bot" in mail.outbox[0].body
    # one report per minute per table
    await a.send({"type": "report", "id": "report2", "user": "bob"})
    refused = await a.recv_type("error")
    assert (refused["code"], refused["id"]) == ("rate_limited", "report2")
    await a.close()
    await b.close()


@pytest.mark.parametrize("text", ["gg \uffff", "gg \U0010ffff", "gg \ufdd0", "tab\there", "bell\u0007", "c1\u0085"])
async def test_a_line_with_a_control_character_or_a_noncharacter_is_refused(alice, bob, session_cookie, text):
    # the rule client seeds follow too (games/engine/text_rules.py): U+FFFF and U+10FFFF are not text
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    b = await open_socket(table, bob, session_cookie)
    await a.send({"type": "chat", "id": "chat3", "text": text})
    refused = await a.recv_type("error")
    assert (refused["code"], refused["id"]) == ("bad_text", "chat3") and refused["message"]
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await a.send({"type": "chat", "text": "gg \ufffd é 🀄"})  # the socket still works; other characters pass
    for sock in (a, b):
        assert (await sock.recv_type("chat"))["text"] == "gg \ufffd é 🀄"
    for sock in (a, b):
        await sock.close()
