"""Any sequence of legal ``rami`` turns from a random deal keeps the invariants
(Hypothesis ``RuleBasedStateMachine``): every tile in exactly one place, only valid
melds on the table, refused actions change nothing, a view shows no other seat's
tiles, replaying the action log gives the same position, and every action
``legal_actions`` yields is accepted."""
from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import permutations

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import api
from games.engine.rulesets.rami import RAMI as rami, THRESHOLD
from games.engine.tiles import COLOURS, JOKER, parse_face
from tests.deals import text_deal_seed


def find_melds(rack: list[str]) -> list[list[str]]:
    """Greedy: runs of 3+ of one colour, then groups of 3-4 colours, then a pair of
    neighbours (run or group) completed by a joker.  Tiles are used once."""
    left = Counter(rack)
    found: list[list[str]] = []
    for colour in COLOURS:
        numbers = sorted({parse_face(t).number for t in left if t != JOKER and t[0] == colour})
        streak: list[int] = []
        for n in numbers + [99]:
            if streak and n == streak[-1] + 1:
                streak.append(n)
                continue
            if len(streak) >= 3:
                meld = [f"{colour}{m}" for m in streak]
                left -= Counter(meld)
                found.append(meld)
            streak = [n]
    for number in range(1, 14):
        meld = [f"{c}{number}" for c in COLOURS if left[f"{c}{number}"]]
        if len(meld) >= 3:
            left -= Counter(meld)
            found.append(meld)
    while left[JOKER]:
        plain = sorted(t for t in left.elements() if t != JOKER)
        pair = next(((a, b) for a, b in permutations(plain, 2) if (
            (a[0] == b[0] and parse_face(b).number == parse_face(a).number + 1 < 13)
            or (a[1:] == b[1:] and a[0] != b[0]))), None)
        if pair is None:
            break
        a, b = pair
        if a[0] == b[0]:
            wild = f"J={a[0]}{parse_face(b).number + 1}"
        else:
            wild = "J=" + next(c for c in COLOURS if c not in (a[0], b[0])) + a[1:]
        left -= Counter([a, b, JOKER])
        found.append([a, b, wild])
    return found


class RamiRound(RuleBasedStateMachine):
    """One round from a random deal; the pile may be cut short so rounds can end, and
    every seat may start opened so that table play is frequent."""

    @initialize(seed=st.integers(0, 10**9), players=st.integers(2, 6),
                keep=st.one_of(st.none(), st.integers(0, 4)), opened=st.booleans(),
                rack_size=st.one_of(st.none(), st.integers(1, 6)))
    def start(self, seed, players, keep, opened, rack_size):
        pos = rami.deal({}, text_deal_seed(str(seed), players), players=players, first=seed % players)
        if opened:  # a loaded position: everyone laid the initial meld, melds on the table
            for seat in pos["seats"]:
                seat["opened"] = "yes"
            pos["table"] = [rami.canonical_meld(m) for m in find_melds(pos["pile"])]
            on_table = Counter(t.split("=")[0] for meld in pos["table"] for t in meld)
            pos["pile"] = list((Counter(pos["pile"]) - on_table).elements())
            random.Random(seed).shuffle(pos["pile"])
        if rack_size is not None:  # short racks, so that players go out
            for seat in pos["seats"]:
                seat["rack"] = seat["rack"][:rack_size]
        if keep is not None:  # a loaded position with a short pile, so rounds end
            pos["pile"] = pos["pile"][:keep]
        self.initial = copy.deepcopy(pos)
        self.pos = pos
        self.log: list[dict] = []
        self.tiles = self.everything(pos)

    @staticmethod
    def everything(pos):
        racks = [t for s in pos["seats"] for t in s["rack"]]
        table = [t.split("=")[0] for meld in pos["table"] for t in meld]
        return Counter(racks + table + pos["pile"])

    def accept(self, action):
        done = api.step(self.pos, action)
        assert done.accepted, (action, done.code)
        assert done.round_result == done.position["result"]
        self.pos = done.position
        self.log.append(action)

    def running(self):
        return not rami.is_over(self.pos)

    @property
    def seat(self):
        return self.pos["turn"]

    @precondition(running)
    @rule()
    def draw(self):
        self.accept({"seat": self.seat, "type": "draw"})

    @precondition(running)
    @rule(data=st.data())
    def play_a_legal_action(self, data):
        actions = list(api.legal_actions(self.pos, self.seat))
        assert actions and all(a["seat"] == self.seat for a in actions)
        self.accept(data.draw(st.sampled_from(actions)))

    @precondition(running)
    @rule()
    def lay_melds(self):
        me = self.pos["seats"][self.seat]
        melds = find_melds(me["rack"])
        points = sum(rami.meld_info(m)["points"] for m in melds)
        if not melds or (me["opened"] == "no" and points < THRESHOLD):
            return
        self.accept({"seat": self.seat, "type": "play", "table": self.pos["table"] + melds})

    @precondition(running)
    @rule(data=st.data())
    def add_one_tile(self, data):
        rack = self.pos["seats"][self.seat]["rack"]
        options = [(t, i) for t in sorted(set(rack)) for i in rami.add_targets(self.pos, self.seat, t)]
        if options:
            tile, index = data.draw(st.sampled_from(options))
            self.accept(rami.add_action(self.pos, self.seat, tile, index))

    @precondition(running)
    @rule()
    def swap_out_a_joker(self):
        """Give the real tile for a table joker and reuse the joker on another meld."""
        me = self.pos["seats"][self.seat]
        if me["opened"] != "yes":
            return
        for i, meld in enumerate(self.pos["table"]):
            for j, tile in enumerate(meld):
                real = tile.partition("=")[2]
                if tile.startswith("J=") and real in me["rack"]:
                    table = copy.deepcopy(self.pos["table"])
                    table[i][j] = real
                    for k, other in enumerate(table):
                        forms = rami.wild_forms(other)
                        if forms:
                            table[k] = other + [forms[0]]
                            self.accept({"seat": self.seat, "type": "play", "table": table})
                            return

    @rule(data=st.data())
    def refused_action_changes_nothing(self, data):
        seat = self.seat
        table = self.pos["table"]
        candidates = [
            {"seat": (seat + 1) % len(self.pos["seats"]), "type": "draw"},
            {"seat": seat, "type": "play", "table": table + [["F", "J=R1", "R2"]]},
            {"seat": seat, "type": "play", "table": copy.deepcopy(table)},
            {"seat": seat, "type": "play", "table": table + [self.pos["seats"][seat]["rack"][:2]]},
        ]
        if table:
            candidates.append({"seat": seat, "type": "play", "table": table[:-1]})
        action = data.draw(st.sampled_from(candidates))
        before = copy.deepcopy(self.pos)
        done = api.step(self.pos, action)
        assert not done.accepted, f"accepted an illegal action {action}"
        assert done.code != "tile_not_in_rack" and done.position is self.pos and not done.changed
        assert self.pos == before

    @invariant()
    def every_tile_in_exactly_one_place(self):
        assert self.everything(self.pos) == self.tiles

    @invariant()
    def table_holds_only_valid_melds(self):
        assert all(rami.meld_info(meld)["valid"] for meld in self.pos["table"])

    @invariant()
    def views_show_no_other_seat_tiles(self):
        for seat, mine in enumerate(self.pos["seats"]):
            view = rami.view(self.pos, seat)
            assert view["rack"] == mine["rack"]
            assert view["rack_counts"] == [len(s["rack"]) for s in self.pos["seats"]]
            assert view["pile_count"] == len(self.pos["pile"])
            assert "pile" not in view and "seats" not in view
            if view["last_action"] and view["last_action"]["type"] == "draw":
                assert set(view["last_action"]) == {"seat", "type"}
            assert view["table"] == self.pos["table"]
        spectator = rami.view(self.pos, None)
        assert spectator["rack"] == [] and set(spectator) == set(view)

    @invariant()
    def replaying_the_log_gives_the_same_position(self):
        replayed = api.replay_all(self.initial, self.log)
        assert replayed.position == self.pos
        assert all(done.accepted for done in replayed.steps)

    @invariant()
    def an_ended_round_has_scores_that_sum_to_zero(self):
        if rami.is_over(self.pos):
            assert sum(rami.round_scores(self.pos)) == 0


RamiRound.TestCase.settings = settings(max_examples=50, stateful_step_count=40, deadline=None)
TestRamiRound = RamiRound.TestCase
