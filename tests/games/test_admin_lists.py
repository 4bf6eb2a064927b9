"""The admin's lists of the big tables: a search by table number or by player on
tables, matches, rounds, games and moves; the chat lines' search; the move log's result
filter; a users list whose standing column costs one query for the page; and the
paginator's count that never reads a big table whole."""
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import Sanction, sanction
from games.chat.models import ChatMessage
from games.models import LEGACY_SHUFFLE, Game, Match, Move, Round, Table
from okeysite import admin_counts
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def with_round(match, moves=2):
    rnd = Round.objects.create(match=match, index=0, server_seed="s" * 64, commitment="c" * 64,
                               algorithm=LEGACY_SHUFFLE, totals=match.totals, finished=match.finished,
                               initial_position={"big": "deal"}, final_position={"big": "end"})
    for number in range(1, moves + 1):
        Move.objects.create(round=rnd, number=number, seat=0, action={"type": "draw"}, version=number,
                            result="ok" if number % 2 else "not_your_turn", events=[])
    Game.objects.create(table=match.table, match=match, round=rnd, version=moves, position={"big": "position"})
    return rnd


def listed(client, model, **params):
    response = client.get(reverse(f"admin:games_{model}_changelist"), params)
    assert response.status_code == 200
    return response.context["cl"]


def test_the_game_lists_find_a_table_by_number_and_by_player(staff_client, alice, bob, carol):
    ours = finished_match([alice, bob, None, None], [1, 2, 3, 4])
    theirs = finished_match([carol, bob, None, None], [1, 2, 3, 4], minutes=1)
    for match in (ours, theirs):
        with_round(match)
    tables = {"table": lambda t: t.pk, "match": lambda t: t.match.pk, "round": lambda t: t.match.rounds.get().pk,
              "game": lambda t: t.game.pk}
    for model, key in tables.items():
        by_number = listed(staff_client, model, q=str(ours.table_id))
        assert [row.pk for row in by_number.result_list] == [key(ours.table)], model
        by_player = listed(staff_client, model, q="ALICE")  # any case
        assert [row.pk for row in by_player.result_list] == [key(ours.table)], model
        both = listed(staff_client, model, q="bob")
        assert sorted(row.pk for row in both.result_list) == sorted([key(ours.table), key(theirs.table)]), model
        assert listed(staff_client, model, q="nobody").result_count == 0
    moves = listed(staff_client, "move", q="carol")
    assert {m.round.match_id for m in moves.result_list} == {theirs.pk}
    assert len(moves.result_list) == 2


def test_the_move_log_filters_accepted_and_refused_moves(staff_client, alice, bob):
    with_round(finished_match([alice, bob, None, None], [1, 2, 3, 4]), moves=5)
    assert {m.result for m in listed(staff_client, "move", outcome="ok").result_list} == {"ok"}
    refused = listed(staff_client, "move", outcome="refused").result_list
    assert [m.number for m in refused] == [2, 4]
    assert len(listed(staff_client, "move").result_list) == 5


def test_the_round_list_leaves_the_deals_unread(staff_client, alice, bob):
    with_round(finished_match([alice, bob, None, None], [1, 2, 3, 4]))
    with CaptureQueriesContext(connection) as ctx:
        listed(staff_client, "round")
    rows = [q["sql"] for q in ctx.captured_queries if 'FROM "games_round"' in q["sql"]]
    assert rows and not any("initial_position" in sql or "final_position" in sql for sql in rows)
    # the change page still shows a finished round's deal
    page = staff_client.get(reverse("admin:games_round_change", args=[Round.objects.get().pk]))
    assert page.status_code == 200 and "deal" in page.content.decode()


def test_the_chat_lines_are_found_by_table_player_or_words(staff_client, alice, bob):
    match = finished_match([alice, bob, None, None], [1, 2, 3, 4])
    other = finished_match([bob, alice, None, None], [1, 2, 3, 4], minutes=1)
    hello = ChatMessage.objects.create(table=match.table, user=alice, text="hello there")
    gg = ChatMessage.objects.create(table=other.table, user=bob, text="GG all")

    def found(term):
        response = staff_client.get(reverse("admin:games_chatmessage_changelist"), {"q": term})
        assert response.status_code == 200
        return sorted(m.pk for m in response.context["cl"].result_list)

    assert found(str(match.table_id)) == [hello.pk]
    assert found("Alice") == [hello.pk]
    assert found("gg") == [gg.pk]
    assert found("zzz") == []


def test_a_word_of_one_or_two_letters_finds_the_lines_where_it_is_a_whole_word(staff_client, alice, bob):
    match = finished_match([alice, bob, None, None], [1, 2, 3, 4])
    lines = {text: ChatMessage.objects.create(table=match.table, user=alice, text=text).pk
             for text in ("gg", "GG all!", "well played, gg.", "ggwp", "eggs", "ok", "o k")}

    def found(term):
        response = staff_client.get(reverse("admin:games_chatmessage_changelist"), {"q": term})
        assert response.status_code == 200
        return sorted(m.pk for m in response.context["cl"].result_list)

    assert found("gg") == sorted(lines[t] for t in ("gg", "GG all!", "well played, gg."))
    assert found("Ok") == [lines["ok"]]
    assert found("k") == [lines["o k"]]
    assert found("ggw") == [lines["ggwp"]]  # three letters: anywhere in the line, as before
    assert found("!") == [lines["GG all!"]]  # no letter: any line that contains it
    help_text = staff_client.get(reverse("admin:games_chatmessage_changelist")).content.decode()
    assert "stands as a whole word" in help_text


def test_the_rows_checkbox_is_djangos_markup(alice):
    from django.contrib import admin as django_admin

    from games.chat.admin import ChatMessageAdmin

    match = finished_match([alice, None, None, None], [1, 2, 3, 4])
    line = ChatMessage.objects.create(table=match.table, user=alice, text='<b>"gg" & \'wp\'</b>')
    model_admin = ChatMessageAdmin(ChatMessage, django_admin.site)
    assert model_admin.action_checkbox(line) == django_admin.ModelAdmin.action_checkbox(model_admin, line)


def test_the_users_list_reads_the_standings_in_one_query_for_the_page(staff_client, make_user, staff):
    def cost():
        staff_client.get(reverse("admin:auth_user_changelist"))  # the session and the staff checks, once
        with CaptureQueriesContext(connection) as ctx:
            response = staff_client.get(reverse("admin:auth_user_changelist"))
        assert response.status_code == 200
        return len(ctx.captured_queries), response.content.decode()

    for k in range(2):
        sanction(make_user(f"banned{k}"), Sanction.Kind.BAN, "spam", None, by=staff)
    few, _page = cost()
    for k in range(2, 8):
        sanction(make_user(f"banned{k}"), Sanction.Kind.BAN, "spam", None, by=staff)
    suspended = make_user("later")
    sanction(suspended, Sanction.Kind.SUSPEND, "rude", timezone.now() + timezone.timedelta(days=2), by=staff)
    many, page = cost()
    assert many == few
    assert page.count(str(Sanction.Kind.BAN.label)) >= 8


def test_the_user_page_lists_the_players_latest_matches(staff_client, alice, bob):
    matches = [finished_match([alice, bob, None, None], [1, 2, 3, 4], minutes=k) for k in range(35)]
    page = staff_client.get(reverse("admin:auth_user_change", args=[alice.pk])).content.decode()
    shown = [m for m in matches if reverse("admin:games_match_change", args=[m.pk]) in page]
    assert shown == matches[-30:]


def test_a_filtered_list_is_counted_up_to_the_cap_and_a_big_one_estimated(alice, bob, monkeypatch):
    for k in range(5):
        finished_match([alice, bob, None, None], [1, 2, 3, 4], minutes=k)
    filtered = Table.objects.filter(creator=alice).order_by("-pk")
    assert admin_counts.EstimatedCountPaginator(filtered, 2).count == 5
    monkeypatch.setattr(admin_counts, "COUNT_CAP", 3)
    assert admin_counts.EstimatedCountPaginator(filtered, 2).count == 4  # "more than 3"
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match")
    monkeypatch.setattr(admin_counts, "ESTIMATE_ABOVE", 1)
    assert admin_counts.EstimatedCountPaginator(Match.objects.order_by("-pk"), 2).count == 5  # the estimate
