"""A client seed that breaks the record grammar (docs/fair-deals.md §2: 1-128 printable
ASCII characters) is refused on the live socket with `bad_seed`, the seat's seed stays
what it was, and the socket goes on working: the server never stores a seed the
checkers would call malformed."""
import pytest
from channels.db import database_sync_to_async

from games.engine import fairdeal
from games.models import Seat
from games.play import tables
from tests.moderation.sockets import open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

REFUSED = ["Zoë", "x" * 129, "", "   ", "a\tb", "\uffff", "\U0010ffff", "\ud800", "\u00a0nbsp", "ｆｕｌｌ", 7, None,
           ["abc"]]


@database_sync_to_async
def open_table(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="online", move_time=30)
    tables.join_table(bob, table.pk, seat_index=2)
    return table


@database_sync_to_async
def seat_seed(table, index):
    return Seat.objects.get(table=table, index=index).client_seed


@pytest.mark.parametrize("seed", REFUSED, ids=repr)
async def test_a_seed_outside_the_grammar_is_refused_and_changes_nothing(alice, bob, session_cookie, seed):
    table = await open_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    await a.send({"type": "seed", "id": "seed-1", "round": 1, "seed": "first ok"})
    assert (await a.recv_type("seeded"))["seed"] == "first ok"
    await a.send({"type": "seed", "id": "seed-1", "round": 1, "seed": seed})
    refused = await a.recv_type("error")
    assert (refused["code"], refused["id"]) == ("bad_seed", "seed-1") and "128" in refused["message"]
    assert await seat_seed(table, 0) == "first ok"
    longest = "~" * fairdeal.CLIENT_SEED_MAX
    await a.send({"type": "seed", "id": "seed-1", "round": 1, "seed": f"  {longest} "})
    assert (await a.recv_type("seeded"))["seed"] == longest
    assert await seat_seed(table, 0) == longest
    await a.close()
