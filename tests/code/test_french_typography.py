"""French typography: a narrow no-break space before : ; ! ? in every French text the
site shows (the pages' and the table client's catalogues, the French rules pages),
as tools/french_typography.py writes it; and the rule leaves times, addresses and
query strings alone."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("french_typography", ROOT / "tools" / "french_typography.py")
typography = importlib.util.module_from_spec(spec)
spec.loader.exec_module(typography)


def test_the_rule_puts_the_narrow_space_before_ending_marks_only():
    fix = typography.fix_text
    assert fix("a défaussé: rouge 4") == "a défaussé\u202f: rouge 4"
    assert fix("Motif : %(reason)s") == "Motif\u202f: %(reason)s"
    assert fix("Prêt ?") == "Prêt\u202f?" and fix("Bravo !") == "Bravo\u202f!"
    assert fix("trop vite ; ralentissez") == "trop vite\u202f; ralentissez"
    for untouched in ("à 12:30", "https://okey.example.com", "/replay/frames/?round=1", "a != b", "déjà\u202f: ok"):
        assert fix(untouched) == untouched


def test_every_french_text_has_its_narrow_spaces():
    missing = typography.missing()
    assert missing == [], "run python3 tools/french_typography.py:\n" + "\n".join(
        f"{path}:{number}: {line}" for path, number, line in missing[:20])
