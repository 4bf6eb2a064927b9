"""Helpers for the tests of `games.play`: tables in a known state, timers run as the
worker would run them, and checks that the stored deadline has its timer."""
from datetime import timedelta

from django.utils import timezone

from games import tasks
from games.engine import api, fairdeal
from games.models import Game, Round
from games.play import tables, timers, turns
from games.play.timers import TIMER_TASKS, timer_args

TASKS = {"move": tasks.turn_timeout, "bot": tasks.bot_turn, "next_round": tasks.next_round,
         "seed": tasks.seeding_timeout}


def game_of(table):
    """The stored Game of `table`, read now."""
    return Game.objects.select_related("round", "match", "table").get(table=table)


def online_table(creator, *others, ruleset="okey51", options=None, **kwargs):
    """An online table of `creator` with `others` seated (the first facing the creator),
    match started. Returns the Table."""
    table = tables.create_table(creator, ruleset, options or {"rounds": 1}, mode="online", move_time=30, **kwargs)
    for user in others:
        tables.join_table(user, table.pk)
    tables.start_match(creator, table.pk)
    return table


def fixed_deal(table, seed="fixed", table_key=None):
    """Deal the first round of `table`'s started match again from the server seed
    `fairdeal.seed_from_text(seed)` (round number, table id and client seeds as the site
    deals them, so the round still verifies), keeping its deadline; the computers' choices
    derive from the server seed too. Returns the game.

    The table id is part of the deal, and it depends on how many tables the tests before
    created in the same database: `table_key` (str, a table id's characters) deals in
    place of the id, the same round whichever test ran first (such a round no longer
    verifies)."""
    game = game_of(table)
    rnd = game.round
    server_seed = fairdeal.seed_from_text(seed)
    key = str(table.pk) if table_key is None else table_key
    deal_seed = fairdeal.deal_seed(server_seed, rnd.number, key, rnd.client_seeds)
    position = api.ruleset(table.ruleset).deal(table.options, deal_seed, table.players, rnd.first)
    # dealt again as a shuffle-1 round (no chain): the same tiles as ever, and it verifies
    Round.objects.filter(pk=rnd.pk).update(server_seed=server_seed, commitment=fairdeal.commitment(server_seed),
                                           initial_position=position, algorithm=fairdeal.SHUFFLE_1, chain_tip="")
    Game.objects.filter(pk=game.pk).update(position=position)
    return game_of(table)


def solo_table(user, seed="fixed", **kwargs):
    """A solo okey51 table of `user` (options `kwargs.pop("options", {})`) dealt from the
    text seed `seed` (`fixed_deal`). Returns the Table."""
    table = tables.create_table(user, "okey51", kwargs.pop("options", {}), mode="solo", **kwargs)
    fixed_deal(table, seed)
    return table


def run_timer(game):
    """Run the task the game's deadline is armed for, as the worker would. Returns its result."""
    return TASKS[game.deadline_kind](*timer_args(game))


def play_out(table, until=lambda game: False, max_steps=3000):
    """Fire timers (past deadlines first) until the match ends or `until(game)`. Returns the game."""
    for _ in range(max_steps):
        game = game_of(table)
        if not game.deadline_kind or until(game):
            return game
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game.refresh_from_db()
        assert run_timer(game) is True
    raise AssertionError("the match did not end")


def timers_of(published, game):
    """The timer tasks published for `game` (any version), oldest first."""
    return [t for t in published if t["task"] in TIMER_TASKS.values() and t["args"][:1] == [game.pk]]


def assert_armed(published, game, kind):
    """`game` (read now) has a `kind` deadline and exactly one timer went to the broker
    for that deadline (a version that keeps the deadline sends none), due at it: sent by
    the writer when the deadline was due soon (`timers.due_soon`), else by none yet, and
    then by the sweep run as it runs a second before the deadline."""
    assert game.deadline_kind == kind and game.deadline is not None
    sent = [t for t in timers_of(published, game) if t["args"] == timer_args(game)]
    if not timers.due_soon(game.deadline, timezone.now()) and game.timer_sent != game.deadline:
        assert sent == [], f"a timer sent {game.deadline - timezone.now()} before its deadline: {sent}"
        turns.send_due_timers(now=game.deadline - timedelta(seconds=1))
        sent = [t for t in timers_of(published, game) if t["args"] == timer_args(game)]
    assert [t["task"] for t in sent] == [TIMER_TASKS[kind]], sent
    assert abs((sent[0]["eta"] - game.deadline).total_seconds()) < 1.0


def assert_cleared(game):
    """`game` (read now) has no deadline, so no timer can act on it (each is armed for a
    deadline, `timers.timer_args`)."""
    assert (game.deadline, game.deadline_kind) == (None, "")
