"""The move log says who played each move: a move the computer played for a player after
a move time ran out or a disconnect never reads as the player's own, in any language."""
from django.utils import translation

from games.move_text import describe_move
from games.replays import move_lines


def test_a_move_the_computer_played_for_a_player_says_so():
    with translation.override("en"):
        own = describe_move("qa_phone", {"seat": 1, "type": "discard", "tile": "R11"}, "ok", "human")
        for_them = describe_move("qa_phone", {"seat": 1, "type": "discard", "tile": "R11"}, "ok", "timeout")
    assert own == "qa_phone discarded red 11"
    assert for_them == "qa_phone discarded red 11 (the computer played for qa_phone)"


def test_the_match_page_move_lines_say_who_played_in_every_language():
    moves = [{"number": 1, "actor": "timeout", "action": {"seat": 1, "type": "draw"}, "result": "ok", "penalties": []},
             {"number": 2, "actor": "timeout", "action": {"seat": 1, "type": "discard", "tile": "R11"},
              "result": "ok", "penalties": []},
             {"number": 3, "actor": "human", "action": {"seat": 0, "type": "draw"}, "result": "ok", "penalties": []}]
    words = {"en": "the computer played for", "fr": "l'ordinateur a joué pour",
             "es": "el ordenador jugó por", "tr": "adına oynadı"}
    for language, said in words.items():
        with translation.override(language):
            lines = move_lines(moves, ["alice", "qa_phone"])
        assert said in lines[0]["text"] and said in lines[1]["text"], (language, lines)
        assert said not in lines[2]["text"], language
