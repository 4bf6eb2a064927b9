"""`manage.py verify_round` on stored rounds: the deal against its commitment and seeds
(fairdeal), the move log against the engine's replay; what it says for a tampered deal, a
running round and a round committed but not dealt yet."""
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import fairdeal
from games.models import Round
from games.play import rounds
from tests.games.play.helpers import game_of, play_out
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)


def verify(rnd):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_round", rnd.pk, stdout=out, stderr=err)
    except CommandError as exc:
        return False, err.getvalue() + str(exc)
    return True, out.getvalue()


def test_it_verifies_a_played_round_and_names_what_was_tampered(alice):
    table = solo(alice)
    game = play_out(table)
    rnd = Round.objects.get(pk=game.round_id)
    ok, said = verify(rnd)
    assert ok and f"round {rnd.pk}: deal (okeysite-shuffle-2) and {rnd.moves.count()} moves verified" in said

    Round.objects.filter(pk=rnd.pk).update(client_seeds=["", "", "", "x"])
    ok, said = verify(rnd)
    assert not ok and "seat 3 is a computer but has a client seed: x" in said

    Round.objects.filter(pk=rnd.pk).update(client_seeds=rnd.client_seeds, commitment="0" * 64)
    ok, said = verify(rnd)
    assert not ok and "commitment mismatch" in said and "rack differs" not in said

    dealt = rnd.initial_position
    rack, pile = dealt["seats"][1]["rack"], dealt["pile"]
    i = next(i for i, tile in enumerate(rack) if tile != pile[0])
    rack[i], pile[0] = pile[0], rack[i]  # the deal a cheating server might have preferred
    Round.objects.filter(pk=rnd.pk).update(commitment=rnd.commitment, initial_position=dealt)
    ok, said = verify(rnd)
    assert not ok and "seat 1 rack differs" in said and "pile differs from position 0" in said


def test_a_running_round_is_checked_without_printing_its_server_seed(alice):
    table = solo(alice)
    rnd = game_of(table).round
    ok, said = verify(rnd)
    assert ok and "deal (okeysite-shuffle-2) and 0 moves verified" in said and rnd.server_seed not in said


def test_a_round_committed_before_its_deal_has_nothing_to_check_yet(alice):
    table = solo(alice, options={"rounds": 3})
    game = game_of(table)
    committed = rounds.open_round(table, game.match, 1)
    assert committed.initial_position is None and committed.commitment == fairdeal.commitment(committed.server_seed)
    ok, said = verify(committed)
    assert ok and "committed, not dealt yet" in said
