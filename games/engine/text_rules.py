"""What a player may type: one character rule for chat lines and client seeds.

Both refuse the code points the Unicode standard fixes once and for all as not text:
controls (C0, DEL and C1), surrogates (never a character on their own) and noncharacters
(U+FDD0..U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF ...
U+10FFFF).  The set is the same in every Unicode version, so the server, the browser and
the record checkers agree on it whatever Unicode their runtime knows.  A client seed is
then held to the record grammar's printable ASCII (docs/fair-deals.md §2), the rule
``games/engine/fairdeal.py`` checks records with; chat keeps every other character.
"""
from games.engine import fairdeal


def refused_code_point(code):
    """Whether the code point ``code`` (int, 0 .. 0x10FFFF) is refused in typed text: a
    control (U+0000..U+001F, U+007F..U+009F), a surrogate (U+D800..U+DFFF) or a
    noncharacter (U+FDD0..U+FDEF, and U+xFFFE, U+xFFFF of every plane)."""
    return (code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF
            or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)


def refused_char(text):
    """The first character of ``text`` (str) that :func:`refused_code_point` refuses, or
    None when there is none."""
    return next((ch for ch in text if refused_code_point(ord(ch))), None)


def seed_text(text):
    """A client seed a browser sent, in its canonical form (docs/fair-deals.md §2): spaces
    trimmed at both ends, then 1 to ``fairdeal.CLIENT_SEED_MAX`` printable ASCII
    characters.  Returns the str.  Raises ValueError (with the reason) for anything else:
    not a string, empty, a refused character (:func:`refused_char`), a character
    outside printable ASCII, too long."""
    if not isinstance(text, str):
        raise ValueError("a client seed is a string")
    bad = refused_char(text)
    if bad is not None:
        raise ValueError(f"a client seed may not hold U+{ord(bad):04X}")
    seed = text.strip(" ")
    fault = fairdeal.seed_text_fault(seed)
    if fault:
        raise ValueError(fault)
    return seed
