"""games.frames: what a table socket accepts, checked before anything else reads it."""
import json

import pytest

from games import frames
from games.frames import Refused


def refusal(text=None, data=None):
    with pytest.raises(Refused) as caught:
        frames.decode(text, data)
    return caught.value.code, caught.value.close


def test_a_frame_is_a_json_object_with_a_string_type():
    assert frames.decode('{"type": "sync"}') == {"type": "sync"}
    assert frames.decode(None, b'{"type": "sync"}') == {"type": "sync"}
    for text in ("nope", "[]", '{"type": 3}', '{"type": NaN}', '{"x": Infinity}', "1" * 5000):
        assert refusal(text) == ("bad_frame", None)


def test_size_and_encoding_close_the_socket_before_parsing():
    assert refusal("x" * (frames.MAX_FRAME_CHARS + 1)) == (None, 1009)
    assert refusal(None, b"\xff\xfe{") == (None, 1007)
    assert refusal('{"type": "chat", "text": "\ud800"}') == (None, 1007)  # a raw lone surrogate
    assert refusal(None, b"x" * (4 * frames.MAX_FRAME_CHARS + 1)) == (None, 1009)


def test_deep_nesting_is_a_bad_frame_found_without_recursion():
    for depth in (frames.MAX_DEPTH + 1, 1000, 8000):  # 8000: the deepest list under the size limit
        assert refusal("[" * depth + "]" * depth) == ("bad_frame", None)
    for depth in (frames.MAX_DEPTH + 1, 1000, 2000):
        assert refusal('{"type": "x", "a": ' + '{"a": ' * depth + "1" + "}" * depth + "}") == ("bad_frame", None)
    legal = {"type": "action", "id": "a", "version": 1,
             "action": {"type": "take_discard", "then": {"type": "open", "melds": [["R1", "R2", "R3"]]}}}
    assert frames.decode(json.dumps(legal)) == legal
    # brackets inside strings do not count, escaped quotes do not end a string
    text = json.dumps({"type": "chat", "text": '\\"' + "[" * 500})
    assert frames.decode(text)["type"] == "chat"
    assert frames.nesting_depth('["\\\\", ' + "[" * 20 + "]" * 20 + "]", limit=20) == 21  # "\\" ends


def test_bad_text_is_nul_controls_and_lone_surrogates():
    for text in ("a\x00b", "line\nbreak", "tab\t", "\x7f", "\x85", "\ud800", "x\udfffy"):
        assert frames.bad_text(text), repr(text)
    for text in ("hello", "çğış ünlü", "日本語", "emoji 🀄", "", None, 5):
        assert not frames.bad_text(text), repr(text)


def test_actions_keep_only_their_rules_fields():
    assert frames.normalise_action({"type": "discard", "tile": "R5", "seat": 3, "junk": "x" * 15000}) == \
        {"type": "discard", "tile": "R5"}
    assert frames.normalise_action({"type": "take_discard", "extra": 1,
                                    "then": {"type": "meld", "tiles": ["R1", "R2", "R3"], "owner": 2, "x": []}}) == \
        {"type": "take_discard", "then": {"type": "meld", "tiles": ["R1", "R2", "R3"], "owner": 2}}
    assert frames.normalise_action({"type": "take_discard", "then": {"type": "take_discard", "then": {}}}) == \
        {"type": "take_discard", "then": {"type": "take_discard"}}
    assert frames.normalise_action({"type": "add", "meld": 3, "tile": "F=R7", "note": "hi"}) == \
        {"type": "add", "meld": 3, "tile": "F=R7"}
    assert frames.normalise_action({"type": "discard"}) == {"type": "discard"}  # missing: the engine's bad_action


@pytest.mark.parametrize("action", [
    "draw", None, {"type": "fly"}, {"type": 1}, {"tile": "R1"},
    {"type": "discard", "tile": 123}, {"type": "discard", "tile": "R\x00"}, {"type": "discard", "tile": "R" * 40},
    {"type": "open", "melds": "R1"}, {"type": "open", "melds": [["R1", 2]]}, {"type": "open", "melds": [[["R1"]]]},
    {"type": "add", "meld": "3", "tile": "R1"}, {"type": "add", "meld": True, "tile": "R1"},
    {"type": "take_discard", "then": 5}, {"type": "meld", "tiles": ["R1"], "owner": "2"},
    {"type": "play", "table": [["R1"]] * 200},
])
def test_ill_typed_actions_are_bad_action(action):
    with pytest.raises(Refused) as caught:
        frames.normalise_action(action)
    assert caught.value.code == "bad_action"


def test_the_budget_answers_a_few_drops_then_closes_a_flood():
    now = [0.0]
    budget = frames.FrameBudget(rate=10, burst=3, flood_limit=20, clock=lambda: now[0])
    verdicts = [budget.take() for _ in range(30)]
    assert verdicts[:3] == ["ok"] * 3
    assert verdicts[3:3 + frames.ANSWERED_DROPS] == ["answer"] * frames.ANSWERED_DROPS
    assert set(verdicts[3 + frames.ANSWERED_DROPS:23]) == {"drop"}
    assert verdicts[23:] == ["close"] * 7
    # a client that slows down earns its tokens back and its flood score decays
    calm = frames.FrameBudget(rate=10, burst=3, flood_limit=20, clock=lambda: now[0])
    for _ in range(200):
        now[0] += 0.1
        assert calm.take() == "ok"


@pytest.mark.parametrize("value", [
    {"type": "snapshot", "players": [{"name": "Bilgisayar 2 · normal"}, {"name": "Ayşe Öztürk"}]},
    {"text": "emoji 😀, CJK 漢字, separators \u2028\u2029, controls \x00\x1f\x7f \n\t\"\\ /"},
    {"seats": {0: "a", 3: "b"}, "nested": [[], {}, [None, True, False]], "n": -(2 ** 63), "big": 2 ** 64},
    {"lone": "\ud800 a lone surrogate"},
    {"tiles": ["R1", "F"], "deadline": 1765000000000, "half": 0.5, "empty": ""},
])
def test_dumps_writes_exactly_the_standard_librarys_compact_text(value):
    # Clients and the views serialised by the writer read the bytes json.dumps gave.
    assert frames.dumps(value) == json.dumps(value, separators=(",", ":"))


def test_dumps_refuses_what_is_not_json():
    with pytest.raises(TypeError):
        frames.dumps({"when": object()})
