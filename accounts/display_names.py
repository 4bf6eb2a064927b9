"""Names a player may not take: anything that reads as a computer's label.

Computers are always labelled as such, with their level (PLAYERS.md complaint 2): "Computer 2
· strong", "Ordinateur 2 · fort", "Ordenador 2 · fuerte", "Bilgisayar 2 · güçlü". A
player named like that would pass for a computer (or a computer for them), so display
names and user names that contain the word for "computer" in any of the site's languages —
once case, accents, spacing, punctuation and look-alike digits (C0mputer, B1lgisayar) are
set aside, Cyrillic and Greek letters that look Latin (Сomputer) included — or the words
bot, cpu or robot, are refused.
"""
import re
import unicodedata

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy as _

from okeysite.visible_text import cap_combining

COMPUTER_NAME_MESSAGE = _("This name reads like a computer player's (\"Computer 2 · strong\"): computers "
                          "are labelled so that no one takes a player for one. Choose another name.")
LOOK_ALIKES = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
                             "ı": "i", "|": "l"})
# Cyrillic and Greek letters drawn like Latin ones (after casefolding: "С" is "с"), from
# Unicode's confusables: "Сomputer" with a Cyrillic С reads exactly as "Computer". NFKD
# keeps them as they are, so without this they were dropped as non-Latin and the rest
# ("omputer") no longer matched.
SCRIPT_LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i",
    "ӏ": "l", "ј": "j", "к": "k", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y",
    "ү": "y", "х": "x", "ԝ": "w", "ь": "b", "п": "n", "г": "r",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p",
    "ς": "c", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
})
# The word in languages near the site's: a player reads "Komputer 2" as a computer too.
OTHER_COMPUTER_WORDS = {"komputer", "computador", "computadora", "kompjuter"}
BOT_WORDS = {"bot", "bots", "cpu", "robot"}


def _plain(text):
    """Casefolded, without accents (ç -> c, ü -> u, ı -> i), Cyrillic and Greek look-alikes
    in Latin letters (Cyrillic с -> c)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate({ord("ı"): "i"})
    return plain.translate(SCRIPT_LOOK_ALIKES)


def computer_words():
    """The word for a computer player in each of settings.LANGUAGES, plain (set of str)."""
    words = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            label = gettext("Computer %(number)s · %(level)s").split("%(number)s")[0]
            words.update(_plain(word) for word in (label, gettext("computer")))
    return ({re.sub(r"[^a-z]", "", word) for word in words} | OTHER_COMPUTER_WORDS) - {""}


def reads_as_computer(name):
    """True when `name` (str) would read as a computer's label (see the module's doc)."""
    plain = _plain(name or "")
    letters = re.sub(r"[^a-z]", "", plain.translate(LOOK_ALIKES))
    if any(word in letters for word in computer_words()):
        return True
    tokens = set(re.split(r"[^a-z]+", plain.translate(LOOK_ALIKES)))
    return bool(tokens & BOT_WORDS)


def visible_name(name):
    """`name` (str) without invisible format characters (Unicode category Cf: bidi overrides
    and isolates, zero-width spaces and joiners, word joiners, soft hyphens) and with at most
    `visible_text.MAX_COMBINING` combining marks after each base character,
    spaces stripped. A right-to-left override made "\u202eresu2aq" read as the player
    "qa2user", and "alice\u200b" read as "alice" while passing the check against user
    names; a name of zero-width spaces left a seat with no name at all."""
    shown = "".join(char for char in name or "" if unicodedata.category(char) != "Cf")
    return cap_combining(shown).strip()
