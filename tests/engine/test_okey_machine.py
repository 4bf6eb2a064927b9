"""Random legal okey play from random deals keeps every invariant at every step
(Hypothesis ``RuleBasedStateMachine``, one per okey ruleset): each tile of the set
in exactly one place, only valid melds on the table, a refused action changes
nothing except penalties that stay, a view shows no other seat's tiles nor the
pile, replaying the action log from ``deal()`` gives the same position, every action
``legal_actions`` yields is accepted, and each Step's penalties are exactly the rise of
the seats' running penalties."""
from __future__ import annotations

import copy
from collections import Counter

from hypothesis import HealthCheck, event, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from games.engine import api
from games.engine.melds import classify
from games.engine.tiles import full_set
from tests.deals import text_deal
from tests.engine.okey_play import add_moves, candidate_melds, candidate_pairs, pick_disjoint, swap_moves

VIEW_KEYS = {"ruleset", "options", "seat", "turn", "phase", "rack", "rack_counts", "pile_count",
             "discards", "table", "indicator", "okey", "opened", "penalty", "highest_opening", "threshold",
             "pairs_threshold", "turn_state", "last_action", "result"}


class OkeyMachine(RuleBasedStateMachine):
    ruleset = "okey51"

    @initialize(seed=st.text(min_size=1, max_size=6), first=st.integers(0, 3), options=st.fixed_dictionaries({}))
    def start(self, seed, first, options):
        if self.ruleset == "okey51":
            options = {"teams": bool(first % 2), "doubling": len(seed) % 2 == 0}
        self.seed, self.first, self.options = seed, first, options
        self.pos = text_deal(self.ruleset, seed, first=first, options=options)
        self.log: list[dict] = []
        self.refusals = 0

    # ---- acting
    def act(self, action: dict) -> bool:
        """Step; on refusal check that only lasting penalties changed. True if accepted."""
        before = copy.deepcopy(self.pos)
        done = api.step(self.pos, action)
        assert self.pos == before, "step mutated its input"
        seat = action["seat"]
        charged = [0] * 4
        for p in done.penalties:
            assert p.amount > 0 and p.by in (None, seat) and (p.by is None) == (p.seat == seat)
            charged[p.seat] += p.amount
        new = done.position
        assert [s["penalty"] for s in new["seats"]] == [s["penalty"] + c for s, c in zip(self.pos["seats"], charged)]
        if not done.accepted:
            self.refusals += 1
            event(f"{action.get('type')} refused: {done.code}")
            if not done.changed:
                assert new is self.pos
                return False
            assert done.code in ("playable_discard", "joker_discard")
            assert [p.reason for p in done.penalties] == [done.code]
            changed = copy.deepcopy(new)
            changed["seats"][seat]["penalty"] = self.pos["seats"][seat]["penalty"]
            for key in ("turn_state", "players", "result", "last_action"):
                changed.pop(key, None)
                before.pop(key, None)
            assert changed == before, "a refusal changed more than the penalty"
            self.pos = new
            self.log.append(action)
            return False
        assert done.round_result == (new["result"] or None)
        self.pos = new
        self.log.append(action)
        event(f"{action['type']} accepted" + (f" ({new['result']['end']} end)" if new.get("result") else ""))
        return True

    def threshold(self) -> int:
        return api.view(self.pos, self.pos["turn"])["threshold"] or 0

    def table_moves(self, seat: int) -> list[dict]:
        me = self.pos["seats"][seat]
        rack, ind = me["rack"], self.pos["indicator"]
        moves = []
        if me["opened"] == "no":
            melds, points = pick_disjoint(rack, candidate_melds(rack, self.ruleset, ind), self.ruleset, ind)
            if melds and points >= self.threshold():
                moves.append({"seat": seat, "type": "open", "melds": melds})
            pairs, ppoints = pick_disjoint(rack, candidate_pairs(rack, self.ruleset, ind), self.ruleset, ind)
            enough = (len(pairs) >= 5 if self.ruleset == "okey51"
                      else ppoints >= api.view(self.pos, seat)["pairs_threshold"])
            if pairs and enough:
                moves.append({"seat": seat, "type": "open", "melds": pairs})
            return moves
        shapes = candidate_pairs if me["opened"] == "pairs" else candidate_melds
        for m in shapes(rack, self.ruleset, ind)[:6]:
            if len(m) < len(rack):
                moves.append({"seat": seat, "type": "meld", "tiles": m})
        moves += add_moves(self.pos, seat) + swap_moves(self.pos, seat)
        return moves

    def discard_moves(self, seat: int, careless: bool) -> list[dict]:
        rack = self.pos["seats"][seat]["rack"]
        bad = set(api.penalty_tiles(self.pos, seat)) if self.ruleset == "okey17" and not careless else set()
        good = [t for t in dict.fromkeys(rack) if t not in bad]
        return [{"seat": seat, "type": "discard", "tile": t} for t in (good or rack)]

    # ---- rules
    @rule(data=st.data(), turns=st.integers(1, 4))
    def play_turns(self, data, turns):
        for _ in range(turns):
            if api.is_over(self.pos):
                self.check_round_over(data.draw(st.integers(0, 3)))
                return
            self.play_a_turn(data)

    def play_a_turn(self, data):
        seat = self.pos["turn"]
        if self.pos["phase"] == "draw":
            took = False
            prev = (seat - 1) % 4
            if self.pos["discards"][prev] and data.draw(st.integers(0, 3)) == 0:
                tile = self.pos["discards"][prev][-1]
                trial = copy.deepcopy(self.pos)
                trial["seats"][seat]["rack"].append(tile)
                trial["phase"] = "play"
                saved, self.pos = self.pos, trial
                options = [m for m in self.table_moves(seat) if tile in str(m)]
                self.pos = saved
                if options:
                    then = dict(data.draw(st.sampled_from(options)))
                    then.pop("seat")
                    took = self.act({"seat": seat, "type": "take_discard", "then": then})
            if not took:
                self.act({"seat": seat, "type": "draw"})
        for _ in range(data.draw(st.integers(0, 4))):
            moves = self.table_moves(seat)
            if not moves or api.is_over(self.pos):
                break
            self.act(data.draw(st.sampled_from(moves)))
        for _ in range(3):  # okey17 may refuse a discard; the penalty stays
            if api.is_over(self.pos) or self.pos["turn"] != seat:
                break
            careless = data.draw(st.integers(0, 5)) == 0
            self.act(data.draw(st.sampled_from(self.discard_moves(seat, careless))))

    @rule(data=st.data())
    def play_a_legal_action(self, data):
        if api.is_over(self.pos):
            return
        seat = self.pos["turn"]
        actions = list(api.legal_actions(self.pos, seat))
        assert actions, "the seat to move always has a legal action"
        assert self.act(data.draw(st.sampled_from(actions)))

    @rule(data=st.data(), kind=st.sampled_from(["draw", "take_discard", "open", "meld", "add", "swap", "discard"]))
    def try_any_action(self, data, kind):
        seat = data.draw(st.sampled_from([self.pos["turn"]] * 3 + [0, 1, 2, 3]))
        tiles = full_set(self.ruleset)
        tile = data.draw(st.sampled_from(tiles + self.pos["seats"][seat]["rack"]))
        meld = data.draw(st.sampled_from(tiles))
        action = {"seat": seat, "type": kind, "tile": tile, "meld": data.draw(st.integers(0, 6)),
                  "tiles": [tile, meld, data.draw(st.sampled_from(tiles))], "melds": [[tile, meld, tile]],
                  "then": {"type": "meld", "tiles": [tile, meld]}}
        if api.is_over(self.pos):
            self.check_round_over(seat)
        else:
            self.act(action)

    def check_round_over(self, seat):
        done = api.step(self.pos, {"seat": seat, "type": "draw"})
        assert not done.accepted and done.code == "round_over" and done.position is self.pos
        assert list(api.legal_actions(self.pos, seat)) == []

    # ---- invariants
    @invariant()
    def every_tile_in_exactly_one_place(self):
        p = self.pos
        places = Counter(p["pile"]) + Counter([p["indicator"]])
        for s in p["seats"]:
            places += Counter(s["rack"])
        for d in p["discards"]:
            places += Counter(d)
        for m in p["table"]:
            places += Counter(t.partition("=")[0] for t in m["tiles"])
        assert places == Counter(full_set(self.ruleset))

    @invariant()
    def the_table_holds_only_valid_melds(self):
        for m in self.pos["table"]:
            c = classify(m["tiles"], self.ruleset, self.pos["indicator"])
            assert c is not None, m
            assert tuple(m["tiles"]) == c.tiles  # stored order (D-5)
        ids = [m["id"] for m in self.pos["table"]]
        assert len(set(ids)) == len(ids)

    @invariant()
    def views_show_only_the_own_rack(self):
        p = self.pos
        for seat in (None, 0, 1, 2, 3):
            v = api.view(p, seat)
            assert set(v) <= VIEW_KEYS
            assert v["rack"] == (p["seats"][seat]["rack"] if seat is not None else [])
            assert v["rack_counts"] == [len(s["rack"]) for s in p["seats"]]
            if not api.is_over(p):
                assert v["result"] is None

    @invariant()
    def the_log_replays_to_the_same_position(self):
        initial = text_deal(self.ruleset, self.seed, first=self.first, options=self.options)
        replayed = api.replay_all(initial, self.log)
        assert replayed.position == self.pos
        assert all(done.changed for done in replayed.steps)

    @invariant()
    def the_end_scores_every_seat(self):
        if api.is_over(self.pos):
            scores = api.round_scores(self.pos)
            assert len(scores) == 4
            totals = api.round_totals(self.pos)
            assert totals == [a + s["penalty"] for a, s in zip(scores, self.pos["seats"])]
            finisher = self.pos["result"]["finisher"]
            if finisher is not None:
                assert scores[finisher] < 0 and self.pos["seats"][finisher]["rack"] == []


class Okey17Machine(OkeyMachine):
    ruleset = "okey17"


SETTINGS = settings(max_examples=60, stateful_step_count=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TestOkey51Machine = OkeyMachine.TestCase
TestOkey51Machine.settings = SETTINGS
TestOkey17Machine = Okey17Machine.TestCase
TestOkey17Machine.settings = SETTINGS
