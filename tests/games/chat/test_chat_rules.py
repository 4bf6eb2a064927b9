"""Chat rules off the socket (`games.chat.service`): what a report must name, and what
a line may show."""
import pytest

from games.chat import service as chat
from games.chat.models import ChatMessage, ChatReport
from tests.games.play.helpers import online_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_report_must_name_someone_from_the_table_and_a_short_reason(alice, bob, carol):
    table = online_table(alice, bob)
    with pytest.raises(chat.ChatError) as refused:
        chat.report(alice, table.pk, "carol", "never here")
    assert refused.value.code == "report_unknown_user" and "report_unknown_user" not in refused.value.message()
    with pytest.raises(chat.ChatError) as refused:
        chat.report(alice, table.pk, "nobody-by-that-name", "")
    assert refused.value.code == "report_unknown_user"
    with pytest.raises(chat.ChatError) as refused:
        chat.report(alice, table.pk, "bob", "x" * 301)
    assert refused.value.code == "report_too_long"
    assert not ChatReport.objects.exists()
    report = chat.report(alice, table.pk, "bob", "y" * 300)
    assert report.reported == bob and len(report.reason) == 300


def test_a_player_who_only_chatted_there_can_be_reported(alice, bob, carol):
    table = online_table(alice, bob)
    ChatMessage.objects.create(table=table, user=carol, text="hello")  # e.g. seated before, now gone
    assert chat.report(alice, table.pk, "carol", "").reported == carol


def test_chat_drops_bidi_controls_and_caps_combining_marks(alice, bob):
    table = online_table(alice, bob)
    line = chat.post(alice, table.pk, "a\u202eb\u2066c\u2069d" + "e" + "\u0301" * 40 + "f\u0300")
    assert line["text"] == "abcde\u0301\u0301f\u0300"
    with pytest.raises(chat.ChatError) as refused:
        chat.post(alice, table.pk, "\u202a\u202c\u2067")  # nothing left to show
    assert refused.value.code == "chat_empty"
