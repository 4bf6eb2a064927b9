"""The rules pages (function views, open to visitors and players alike).

``/rules/`` lists the games; ``/rules/<ruleset>/`` is one game's rules: the long text lives in
a template per language (``templates/rules/<ruleset>/<language>.html``, English when the
active language has none) and places the example figures of ``render.py``.
"""
from __future__ import annotations

import re

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string, select_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext, pgettext_lazy

from games import results
from games.engine import api

from .examples import EXAMPLES
from .render import render_examples
from .tiles import COLOUR_NAMES, MARKS, tile_view

SUMMARIES = {
    "okey51": pgettext_lazy("rules", "The 101-style okey: open with melds worth 51 or with five pairs, add tiles to "
                                     "anyone's melds, avoid the penalty tiles; the lowest score wins."),
    "okey17": pgettext_lazy("rules", "Okey where melds count by their value: open with 17, then every opening must "
                                     "beat the one before; seven rounds, the lowest total wins."),
    "rami": pgettext_lazy("rules", "Rummikub: an initial meld of 30 from your own tiles, then rearrange the whole "
                                   "table as you like; the first to lay every tile wins the round."),
}
"""One sentence per game for the index (RULES.md's table of rulesets, for players)."""

HEADING = re.compile(r'<h2 id="([a-z0-9-]+)"[^>]*>(.*?)</h2>', re.S)


def _games(current: str | None = None) -> list[dict]:
    return [{"id": rid, "name": api.ruleset(rid).name, "summary": SUMMARIES[rid], "current": rid == current}
            for rid in EXAMPLES]


def index(request):
    """``/rules/``: the three games in a sentence each, with a link to each one's rules."""
    return render(request, "rules/index.html", {"games": _games()})


def ruleset_page(request, ruleset: str):
    """``/rules/<ruleset>/``: the rules of one game in the active language (404 for a
    ruleset without a rules page).  The contents list is read from the body's ``<h2 id>``
    headings, so each language's text names its own sections."""
    if ruleset not in EXAMPLES:
        raise Http404("no rules page for this game")
    language = (get_language() or "en").split("-")[0]
    body_template = select_template([f"rules/{ruleset}/{language}.html", f"rules/{ruleset}/en.html"])
    body = body_template.render({"ex": render_examples(ruleset)}, request)
    # One "Fair play" section for every game: who has left a match (games.results).
    body += render_to_string("rules/_fair_play.html", {"span": results.left_span()}, request)
    intro, _, rest = body.partition("<h2 ")  # the lead paragraph goes above the contents
    name = api.ruleset(ruleset).name
    legend = [{"tile": tile_view(f"{colour}7", ruleset), "name": COLOUR_NAMES[colour], "mark": MARKS[colour]}
              for colour in MARKS]
    return render(request, "rules/page.html", {
        "ruleset": ruleset, "games": _games(ruleset),
        "title": pgettext("rules", "Rules of %(game)s") % {"game": name},
        # both come from our own autoescaping templates
        "intro": mark_safe(intro), "body": mark_safe("<h2 " + rest if rest else ""),
        "toc": HEADING.findall(body), "legend": legend,
    })
