"""Who left a match and what every result shows (games.results, docs/results.md): a player
who chose Leave or had no socket for their last OKEY_LEFT_AFTER_TURNS turns is last
everywhere and never wins; a player a computer played after timeouts while their socket
stayed open is rated by their real place."""
import pytest
from django.test import override_settings
from django.urls import reverse

from games import records, results, snapshot
from games.models import Match, Move, Seat
from games.play import presence, tables
from leaderboards import ratings
from leaderboards.models import Rating, RatingChange
from leaderboards.recording import record_result
from leaderboards.stats import player_stats
from tests.games.play.helpers import game_of, online_table, play_out
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db


def changes_of(match):
    return {c.user.username: c for c in RatingChange.objects.filter(match=match).select_related("user")}


def test_a_leaver_with_the_best_total_is_last_on_the_profile_match_page_record_and_ratings(client, alice, bob,
                                                                                         carol):
    # alice has by far the best okey total, but she chose Leave: the computer finished for her
    match = finished_match([alice, bob, carol, None], [-400, 175, 90, 120], abandoned={0})
    record_result(match)

    assert changes_of(match)["alice"].place == 3 and changes_of(match)["alice"].abandoned
    assert Rating.objects.get(user=alice).wins == 0 and Rating.objects.get(user=carol).wins == 1

    seats = list(Seat.objects.filter(table=match.table).order_by("index"))
    outcome = results.result_of(match, seats)
    assert outcome.order == [2, 3, 1, 0] and outcome.places == [4, 3, 1, 2]
    assert outcome.winners == {2} and outcome.left == {0}

    stats = player_stats(alice)
    assert stats["rulesets"]["okey51"]["wins"] == 0
    recent = stats["recent"][0]
    assert (recent["place"], recent["won"], recent["left"]) == (4, False, True)
    assert player_stats(carol)["recent"][0]["won"] and player_stats(carol)["rulesets"]["okey51"]["wins"] == 1

    page = client.get(reverse("match", args=[match.table_id])).content.decode()
    standings = page.split("Final standings", 1)[1].split("</table>", 1)[0]
    rows = standings.split('<tr class="standing')[1:]
    assert [r.split('data-seat="', 1)[1].split('"', 1)[0] for r in rows] == ["2", "3", "1", "0"]
    assert "alice" in rows[-1] and "left" in rows[-1] and "★" not in rows[-1]
    assert "carol" in rows[0] and "★" in rows[0]

    header = records.header_of(Match.objects.select_related("table").get(pk=match.pk))
    assert header["standings"] == [2, 3, 1, 0] and header["left"] == [0]


def test_the_admin_lists_a_leaver_last_without_a_star(client, alice, bob, carol, staff):
    match = finished_match([alice, bob, carol, None], [-400, 175, 90, 120], abandoned={0})
    record_result(match)
    client.force_login(staff)
    page = client.get("/admin/games/match/").content.decode()
    result = page.split("1. carol ★", 1)[1].split("</td>", 1)[0]  # the match's result column
    assert result.endswith("3. bob, 4. alice (left)") and "★" not in result


def test_a_player_who_chose_leave_is_last_and_the_dozing_ones_are_rated_by_their_place(alice, bob, carol):
    # three humans at okey51; carol leaves 40 s in, alice and bob keep a socket open and
    # let every turn time out (two in a row put them on autoplay)
    table = online_table(alice, bob, carol)
    for user in (alice, bob):
        presence.set_connected(user, table.pk, True)
    tables.leave_match(carol, table.pk)
    carol_seat = Seat.objects.get(table=table, user=carol).index

    # at the table the seat reads "left" for the rest of the match
    _version, view, _seat = snapshot.snapshot(table.pk, alice)
    assert view["players"][carol_seat]["left"] is True

    game = play_out(table)
    match = game.match
    assert match.finished is not None
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert all(s.autoplay for s in seats if s.user_id in (alice.pk, bob.pk))
    assert match.standings[-1] == carol_seat

    _version, view, _seat = snapshot.snapshot(table.pk, alice)
    assert view["players"][carol_seat]["left"] is True
    assert view["round_end"]["left"] == [carol_seat] and view["round_end"]["standings"][-1] == carol_seat

    record_result(match)
    changes = changes_of(match)
    assert not changes["alice"].abandoned and not changes["bob"].abandoned
    total = {s.user_id: match.totals[s.index] for s in seats if s.user_id}
    a, b = total[alice.pk], total[bob.pk]
    # places are dense: behind two who tie for first the leaver is 2nd, and last either way
    assert changes["carol"].abandoned and changes["carol"].place == (3 if a != b else 2)
    assert (changes["alice"].place, changes["bob"].place) == ((1, 2) if a < b else (2, 1) if b < a else (1, 1))
    assert changes["carol"].mu_after < ratings.DEFAULT_MU < min(changes["alice"].mu_after, changes["bob"].mu_after)
    if a != b:  # a real placing moves the two who stayed apart
        best, worst = ("alice", "bob") if a < b else ("bob", "alice")
        assert changes[best].mu_after > changes[worst].mu_after


def test_two_dozing_players_with_sockets_open_are_rated_not_abandoned(alice, bob):
    # "Play now" with two humans whose phones stay on the table but who never move
    table = online_table(alice, bob)
    for user in (alice, bob):
        presence.set_connected(user, table.pk, True)
    game = play_out(table)
    assert all(s.autoplay and not s.left for s in Seat.objects.filter(table=table, user__isnull=False))
    record_result(game.match)
    changes = changes_of(game.match)
    assert not changes["alice"].abandoned and not changes["bob"].abandoned
    places = {name: c.place for name, c in changes.items()}
    totals = game.match.totals
    seat = {s.user.username: s.index for s in Seat.objects.filter(table=table, user__isnull=False)}
    if totals[seat["alice"]] != totals[seat["bob"]]:
        assert sorted(places.values()) == [1, 2]
        winner = min(seat, key=lambda n: totals[seat[n]])
        assert places[winner] == 1 and changes[winner].mu_after > ratings.DEFAULT_MU


def test_no_socket_for_the_last_turns_counts_as_leaving(alice, bob):
    table = online_table(alice, bob)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(bob, table.pk, True)
    bob_seat = Seat.objects.get(table=table, user=bob)
    # bob's phone locks in the middle of the round and never comes back
    play_out(table, until=lambda g: g.version >= 12)
    presence.set_connected(bob, table.pk, False)
    closed_at = game_of(table).version
    game = play_out(table)
    bob_seat.refresh_from_db()
    bob_turns = Move.objects.filter(round__match=game.match, seat=bob_seat.index, version__gt=closed_at)
    assert bob_turns.values("version").distinct().count() >= results.left_span()
    assert bob_seat.absent and not bob_seat.left  # frozen at the end: the match reads the same whatever comes later
    presence.set_connected(bob, table.pk, True)  # back after the end: nothing changes
    record_result(game.match)
    changes = changes_of(game.match)
    assert changes["bob"].abandoned and changes["bob"].place == 2
    assert not changes["alice"].abandoned and changes["alice"].place == 1
    assert game_of(table).match.standings[-1] == bob_seat.index


def test_a_socket_back_before_the_span_starts_the_count_again(alice, bob):
    table = online_table(alice, bob)
    presence.set_connected(alice, table.pk, True)
    bob_seat = Seat.objects.get(table=table, user=bob)

    def away(_game):
        return Seat.objects.get(pk=bob_seat.pk).away_turns

    play_out(table, until=lambda g: away(g) == results.left_span() - 1)
    assert not results.has_left(Seat.objects.get(pk=bob_seat.pk))
    assert not snapshot.snapshot(table.pk, alice)[1]["players"][bob_seat.index]["left"]
    play_out(table, until=lambda g: away(g) == results.left_span())
    # gone for the span: the seat reads "left" while the absence lasts
    assert snapshot.snapshot(table.pk, alice)[1]["players"][bob_seat.index]["left"]
    presence.set_connected(bob, table.pk, True)  # the phone wakes up: not a leaver
    assert Seat.objects.get(pk=bob_seat.pk).away_turns == 0
    game = play_out(table)
    record_result(game.match)
    assert not changes_of(game.match)["bob"].abandoned
    assert not Seat.objects.get(pk=bob_seat.pk).absent


@override_settings(OKEY_LEFT_AFTER_TURNS=10_000)
def test_an_absence_shorter_than_the_span_the_settings_name_is_not_leaving(alice, bob):
    table = online_table(alice, bob)
    presence.set_connected(alice, table.pk, True)  # bob never opens the table at all
    game = play_out(table)
    record_result(game.match)
    changes = changes_of(game.match)
    assert not changes["bob"].abandoned and not Seat.objects.get(table=table, user=bob).absent


@pytest.mark.parametrize("language, heading, word", [
    ("en", "Fair play", "3 turns"), ("fr", "Fair-play", "3 derniers tours"),
    ("es", "Juego limpio", "3 turnos"), ("tr", "Centilmenlik", "son 3 elinizde")])
@pytest.mark.parametrize("ruleset", ["okey51", "okey17", "rami"])
def test_every_rules_page_says_who_has_left_in_its_language(client, language, heading, word, ruleset):
    client.cookies["django_language"] = language
    page = client.get(reverse("rules", args=[ruleset]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = page.split('id="fair-play"', 1)[1]
    assert heading in section.split("</h2>", 1)[0] and word in section
    assert 'href="#fair-play"' in page  # listed in the contents
