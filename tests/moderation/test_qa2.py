"""QA pass 2 server defects: sanctioned players lose their seats, closed tables say why,
chat reports name someone from the table, chat lines lose bidi controls and mark floods,
ruleset display names, admin names, the 404 page and the DEBUG default."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from accounts.moderation import ChatMessage, ChatReport, sanction
from games import chat, services
from games.models import Game, Seat, Table
from leaderboards.chart import rating_svg
from tests.leaderboards.helpers import BASE_TIME, finished_match

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def _online_started(creator, *others):
    table = services.create_table(creator, "okey51", {"rounds": 1}, mode="online", move_time=30)
    for user in others:
        services.join_table(user, table.pk)
    services.start_match(creator, table.pk)
    return table


def test_a_banned_players_solo_table_closes_with_the_reason(alice, staff):
    table = services.create_table(alice, "okey51", {"rounds": 1}, mode="solo")  # starts at once
    assert table.status == Table.Status.PLAYING or Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    sanction(alice, "ban", "abusive names", by=staff)
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == (Table.Status.CLOSED, "abusive names")
    assert Game.objects.get(table=table).deadline is None  # no more computer turns


def test_a_suspended_players_online_seat_goes_to_the_computer(alice, bob, carol, staff):
    table = _online_started(alice, bob, carol)
    game = Game.objects.get(table=table)
    turn_seat = Seat.objects.get(table=table, index=game.position["turn"])
    sanctioned = turn_seat.user if turn_seat.user is not None else alice
    sanction(sanctioned, "suspend", "stalling", by=staff)
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, user=sanctioned)
    game.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the others' match goes on
    assert seat.autoplay is True
    others = Seat.objects.filter(table=table).exclude(user=sanctioned)
    assert not any(s.autoplay for s in others)
    if turn_seat.user == sanctioned:
        assert game.deadline_kind == Game.Deadline.BOT  # the computer moves for them now


def test_a_suspended_player_leaves_an_online_table_not_started(alice, bob, staff):
    table = services.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    services.join_table(bob, table.pk)
    sanction(bob, "suspend", "spam", by=staff)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_a_mute_keeps_the_seats(alice, bob, staff):
    table = _online_started(alice, bob)
    sanction(bob, "mute", "caps lock", by=staff)
    assert Seat.objects.get(table=table, user=bob).autoplay is False


def test_the_match_page_of_a_closed_table_says_closed_and_why(alice, bob, staff):
    table = _online_started(alice, bob)
    services.close_table(table.pk, "stuck table, sorry", by=staff)
    page = Client().get(f"/table/{table.pk}/match/").content.decode()
    assert "Closed" in page and "stuck table, sorry" in page
    assert "In progress" not in page and "still being played" not in page


def test_a_report_must_name_someone_from_the_table_and_a_short_reason(alice, bob, carol):
    table = _online_started(alice, bob)
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
    table = _online_started(alice, bob)
    ChatMessage.objects.create(table=table, user=carol, text="hello")  # e.g. seated before, now gone
    assert chat.report(alice, table.pk, "carol", "").reported == carol


def test_chat_drops_bidi_controls_and_caps_combining_marks(alice, bob):
    table = _online_started(alice, bob)
    line = chat.post(alice, table.pk, "a\u202eb\u2066c\u2069d" + "e" + "\u0301" * 40 + "f\u0300")
    assert line["text"] == "abcde\u0301\u0301f\u0300"
    with pytest.raises(chat.ChatError) as refused:
        chat.post(alice, table.pk, "\u202a\u202c\u2067")  # nothing left to show
    assert refused.value.code == "chat_empty"


def test_players_see_ruleset_display_names(alice, bob):
    match = finished_match([alice, bob, None, None], [10, 20, 30, 40], ruleset="okey17")
    profile = Client().get("/players/alice/").content.decode()
    assert "<td>Okey 17</td>" in profile and "<td>okey17</td>" not in profile
    page = Client().get(f"/table/{match.table_id}/match/").content.decode()
    assert "(Okey 17)" in page and "(okey17)" not in page
    svg = rating_svg({"rami": [(BASE_TIME, 1500), (BASE_TIME, 1510)]})
    assert ">Rami</text>" in svg and ">rami</text>" not in svg


def test_admin_sections_and_french_model_names(staff):
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/").content.decode()
    assert "Players and moderation" in page  # not a second "Accounts" next to allauth's
    from games.models import Match

    with translation.override("fr"):
        assert str(Match._meta.verbose_name_plural) == "parties"


def test_an_unknown_page_is_a_plain_404(client):
    response = client.get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404 and "Page not found" in body and "Back to the lobby" in body
    assert "URLconf" not in body


def test_debug_is_off_unless_asked():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "ALLOWED_HOSTS", "OKEY_SERVE_STATIC")}
    env.pop("REDIS_URL", None)  # embedded mode
    code = ("import okeysite.settings as s; "
            "print(s.DEBUG, s.ALLOWED_HOSTS, s.OKEY_SERVE_STATIC, s.EMAIL_BACKEND.rsplit('.', 2)[-2])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout.split(None, 1)
    assert out[0] == "False"
    assert out[1].strip() == "['localhost', '127.0.0.1', '[::1]'] True console"
