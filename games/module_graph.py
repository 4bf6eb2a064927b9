"""The ES modules a page's entry scripts import, directly or not, so that the page can name
them all up front (`<link rel="modulepreload">`): the browser then fetches the whole graph
at once instead of discovering it one import level per round trip, which is most of the
time between a new table's page arriving and its rack being shown."""
import re
from functools import lru_cache

from django.conf import settings

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"'`;]*?["'](\.{1,2}/[^"']+\.js)["']""", re.MULTILINE)


@lru_cache(maxsize=8)
def module_closure(*entries):
    """The static paths (relative to the first of STATICFILES_DIRS, e.g. "js/table/app.js")
    of the modules `entries` (such paths) import through relative `import ... from "./x.js"`
    statements, entries first, each once. A file that cannot be read ends its branch.
    Returns a tuple of str."""
    root = settings.STATICFILES_DIRS[0]
    seen, todo = [], list(entries)
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        try:
            text = (root / path).read_text(encoding="utf-8")
        except OSError:
            continue
        base = path.rsplit("/", 1)[0] if "/" in path else ""
        for spec in _IMPORT.findall(text):
            parts = (base.split("/") if base else []) + spec.split("/")
            out = []
            for part in parts:
                if part == "..":
                    if out:
                        out.pop()
                elif part not in (".", ""):
                    out.append(part)
            todo.append("/".join(out))
    return tuple(seen)
