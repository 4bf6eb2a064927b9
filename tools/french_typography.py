"""French typography for the French texts: a narrow no-break space (U+202F) before
: ; ! ? wherever French puts a space there, in the French catalogues (pages and the
table's client) and the French rules pages.

    python3 tools/french_typography.py          # rewrite the files in place
    python3 tools/french_typography.py --check  # list what is missing, exit 1 if any

A mark counts as punctuation when it ends a word: it follows a letter, digit, closing
bracket, quote or placeholder, and is followed by a space, the end of the text or a
closing quote. So "12:30", "https://…", "?round=1", "!=" and CSS or HTML markup are left
alone. A plain or no-break space before the mark becomes the narrow one.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NNBSP = "\u202f"
FILES = ["locale/fr/LC_MESSAGES/django.po", "locale/fr/LC_MESSAGES/djangojs.po",
         "templates/rules/okey51/fr.html", "templates/rules/okey17/fr.html", "templates/rules/rami/fr.html"]

# the mark, the space (or none) before it, and what follows (space, end, quote, tag or escape)
MARK = re.compile(r"(?<=[^\s\u202f])([ \u00a0]?)([:;!?])(?=\s|$|\\n|\\\"|\"|<|»|\))")


def fix_text(text):
    """`text` (one French string or line) with a narrow no-break space before each
    ending : ; ! ?. Returns the new text."""
    def repl(match):
        before = text[max(0, match.start() - 8):match.start() + len(match.group(1))]
        if match.group(2) == ":" and re.search(r"(https?|mailto)$", before):
            return match.group(0)
        return NNBSP + match.group(2)
    return MARK.sub(repl, text)


def _po_lines(text):
    # only the translations (msgstr lines and their continuation lines) change
    out, in_msgstr, header = [], False, True
    for line in text.split("\n"):
        if header:  # the catalogue's header entry ("Key: value" fields) comes first
            header = line != ""
            out.append(line)
            continue
        if line.startswith("msgstr"):
            in_msgstr = True
        elif not line.startswith('"'):
            in_msgstr = False
        if in_msgstr and '"' in line and not line.startswith('msgstr ""') or (in_msgstr and line.startswith('"')):
            head, _, body = line.partition('"')
            out.append(head + '"' + fix_text(body[:-1]) + '"' if body.endswith('"') else line)
        else:
            out.append(line)
    return "\n".join(out)


def _html_lines(text):
    # text between tags only: attributes and template tags keep their characters
    return re.sub(r">([^<]+)<", lambda m: ">" + fix_text(m.group(1)) + "<", text)


def fixed(path):
    """The content `path` (one of FILES, relative to the repository) should have."""
    text = (ROOT / path).read_text(encoding="utf-8")
    return _po_lines(text) if path.endswith(".po") else _html_lines(text)


def missing():
    """[(file, line number, line)] of the lines whose typography is not right yet."""
    found = []
    for path in FILES:
        now = (ROOT / path).read_text(encoding="utf-8").split("\n")
        for number, (old, new) in enumerate(zip(now, fixed(path).split("\n")), 1):
            if old != new:
                found.append((path, number, old))
    return found


if __name__ == "__main__":
    if "--check" in sys.argv:
        lines = missing()
        for path, number, line in lines:
            print(f"{path}:{number}: {line}")
        sys.exit(1 if lines else 0)
    for path in FILES:
        (ROOT / path).write_text(fixed(path), encoding="utf-8")
