"""The stored player summaries (`leaderboards.summaries`) stay equal to the figures of
the matches they stand for: a played match adds itself once when it is recorded, a void
takes it out, an erased player's go, and the migration that created them fills them with
what the stored matches say."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from accounts.erasure import erase_user
from games.models import LEGACY_SHUFFLE, Match, Round, Seat
from leaderboards import summaries
from leaderboards.models import PlayerSummary
from leaderboards.recording import record_pending, record_result, void_match
from leaderboards.stats import player_stats
from tests.games.play.helpers import online_table, play_out
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def figures(user):
    """{ruleset: (matches, wins, rounds, round_sum, openings, penalties)} stored for `user`."""
    return {row.ruleset: tuple(getattr(row, f) for f in summaries.FIELDS)
            for row in PlayerSummary.objects.filter(user=user)}


def with_round(match, totals, penalties=(0, 0, 0, 0), opened=("melds", "no", "no", "no")):
    """Give `match` one finished round with these per-seat `totals`, `penalties` and
    openings. Returns the match."""
    Round.objects.create(match=match, index=match.rounds.count(), server_seed="s" * 64, commitment="c" * 64,
                         algorithm=LEGACY_SHUFFLE, scores=list(totals), penalties=list(penalties),
                         totals=list(totals), finished=match.finished,
                         final_position={"seats": [{"opened": o} for o in opened]})
    return match


def test_a_played_match_adds_itself_to_each_players_summary_once(alice, bob):
    table = online_table(alice, bob)
    Seat.objects.filter(table=table).update(autoplay=True)  # the computers play both humans
    play_out(table)
    match = Match.objects.get(table=table)
    assert match.recorded is not None
    rounds = list(match.rounds.filter(finished__isnull=False))
    seats = {s.user_id: s.index for s in Seat.objects.filter(table=table, user__isnull=False)}
    for user in (alice, bob):
        seat = seats[user.pk]
        matches, wins, played, round_sum, openings, penalties = figures(user)["okey51"]
        assert (matches, played) == (1, len(rounds))
        assert round_sum == sum(r.totals[seat] for r in rounds)
        assert penalties == sum(r.penalties[seat] for r in rounds)
        assert openings == sum(1 for r in rounds if r.final_position["seats"][seat].get("opened", "no") != "no")
    assert figures(alice)["okey51"][1] + figures(bob)["okey51"][1] <= 1  # at most one of them won
    before = {u.pk: figures(u) for u in (alice, bob)}
    # the sweeper and a second call find it recorded: nothing is counted twice
    assert record_pending() == 0
    record_result(match)
    assert {u.pk: figures(u) for u in (alice, bob)} == before


def test_the_profile_shows_the_summary_of_every_recorded_match(alice, bob):
    for minute in range(3):  # alice wins twice (lower okey total), bob once
        totals = [10, 20, 30, 40] if minute < 2 else [50, 20, 30, 40]
        record_result(with_round(finished_match([alice, bob, None, None], totals, minutes=minute), totals,
                                 penalties=[100, 0, 0, 0]))
    stats = player_stats(alice)["rulesets"]["okey51"]
    assert stats == {"matches": 3, "wins": 2, "rounds": 3, "average_round": round(70 / 3, 1), "openings": 3,
                     "penalties": 300}
    assert player_stats(bob)["rulesets"]["okey51"]["wins"] == 1
    html = Client().get(reverse("player_profile", args=["alice"])).content.decode()
    row = html.split('<tr class="stats-okey51">', 1)[1].split("</tr>", 1)[0]
    assert [cell.split("<", 1)[0] for cell in row.split('<td class="num">')[1:]] == ["3", "2", "3", "23.3", "3",
                                                                                      "300"]


def test_a_match_finished_but_not_recorded_is_not_counted_until_it_is(alice, bob):
    match = with_round(finished_match([alice, bob, None, None], [10, 20, 30, 40]), [10, 20, 30, 40])
    assert figures(alice) == {}
    assert record_pending() == 1
    assert figures(alice)["okey51"][:3] == (1, 1, 1)
    assert Match.objects.get(pk=match.pk).recorded is not None


def test_voiding_a_recorded_match_takes_it_out_and_one_voided_before_is_never_added(alice, bob, staff):
    kept = with_round(finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=1), [10, 20, 30, 40])
    voided = with_round(finished_match([alice, bob, None, None], [-50, 20, 30, 40], minutes=2), [-50, 20, 30, 40],
                        penalties=[0, 100, 0, 0])
    record_result(kept)
    only_kept = {u.pk: figures(u) for u in (alice, bob)}
    record_result(voided)
    assert figures(alice)["okey51"] == (2, 2, 2, -40, 2, 0) and figures(bob)["okey51"][5] == 100
    void_match(voided, "collusion", by=staff)
    assert {u.pk: figures(u) for u in (alice, bob)} == only_kept
    void_match(voided, "again", by=staff)  # already voided: nothing moves
    assert {u.pk: figures(u) for u in (alice, bob)} == only_kept

    late = with_round(finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=3), [10, 20, 30, 40])
    void_match(late, "never played", by=staff)  # voided before the recording ran
    record_result(late)
    assert Match.objects.get(pk=late.pk).recorded is not None
    assert {u.pk: figures(u) for u in (alice, bob)} == only_kept


def test_an_erased_players_summary_goes_and_the_others_stay(alice, bob, make_user):
    record_result(with_round(finished_match([alice, bob, None, None], [10, 20, 30, 40]), [10, 20, 30, 40]))
    bobs = figures(bob)
    assert erase_user(alice) == "anonymised"  # shares a game with bob: the row stays, emptied
    assert figures(alice) == {} and figures(bob) == bobs
    loner = make_user("loner")
    record_result(with_round(finished_match([loner, None, None, None], [10, 20, 30, 40], mode="solo"),
                             [10, 20, 30, 40]))
    assert figures(loner)["okey51"][0] == 1
    loner_id = loner.pk
    assert erase_user(loner) == "deleted"
    assert not PlayerSummary.objects.filter(user_id=loner_id).exists()


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def test_the_migration_fills_the_summaries_from_the_recorded_matches(alice, bob, carol, staff):
    for minute in range(4):
        totals = [10 + minute, 20, 30 - minute * 10, 40]
        record_result(with_round(finished_match([alice, bob, carol, None], totals, minutes=minute), totals,
                                 penalties=[0, 50 * minute, 0, 0], opened=("melds", "pairs", "no", "no")))
    record_result(with_round(finished_match([alice, None, None, None], [300, 1, 2, 3], ruleset="rami",
                                            mode="solo", minutes=9), [300, 1, 2, 3]))
    void_match(Match.objects.order_by("pk").first(), "test", by=staff)
    with_round(finished_match([alice, bob, None, None], [1, 2, 3, 4], minutes=20), [1, 2, 3, 4])  # not recorded
    kept = {u.pk: figures(u) for u in (alice, bob, carol)}
    assert kept[alice.pk]["okey51"][0] == 3 and kept[alice.pk]["rami"][0] == 1
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        _migrate([("leaderboards", "0005_player_summaries")])
        assert not PlayerSummary.objects.exists()
    finally:
        _migrate(leaves)
    assert {u.pk: figures(u) for u in (alice, bob, carol)} == kept
