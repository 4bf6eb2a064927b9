"""Django's `{# … #}` comment ends on its own line: one that runs onto the next line is not
a comment at all, and its words show on the page. Longer notes use `{% comment %}`."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_short_template_comment_closes_on_its_line():
    open_ended = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2:]
                if "#}" not in rest:
                    open_ended.append(f"{path.relative_to(ROOT)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2:]
    assert not open_ended, f"{{# comments that do not close on their line (use {{% comment %}}): {open_ended}"
