"""One script for a page's ES modules, written at `collectstatic` time.

The table page's client is some sixty small ES modules. Served one by one, each costs a
request that daphne answers in Python, and on a busy two-core host those requests, not the
bytes, were most of the time between the page's HTML and its rack. `bundle` writes the
whole graph of an entry's relative imports as one script: each module's body in its own
function scope, evaluated once, dependencies first (the order the browser evaluates ES
modules in), its imports read from the modules it names and its exports returned.

It understands the forms the site's modules use, and refuses any other with
`BundleError` (collectstatic fails, rather than a page breaking in the browser):
`import { a, b as c } from "./x.js";`, `import "./x.js";`, `export function|class|const f`,
`export { a, b as c };`. Imports read the exported value once, after the dependency ran
(no module re-assigns an export later; `export let` is refused for that reason), and an
import cycle is refused.
"""
import re

_IMPORT = re.compile(r"""^import\s*\{([^}]*)\}\s*from\s*["'](\.{1,2}/[^"']+\.js)["'][ \t]*;?[ \t]*$""", re.MULTILINE)
_BARE_IMPORT = re.compile(r"""^import\s*["'](\.{1,2}/[^"']+\.js)["'][ \t]*;?[ \t]*$""", re.MULTILINE)
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?|class|const)\s+([A-Za-z_$][\w$]*)", re.MULTILINE)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}[ \t]*;?[ \t]*$", re.MULTILINE)
_LEFT = re.compile(r"^\s*(?:import|export)\b(?!\s*\()", re.MULTILINE)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


class BundleError(ValueError):
    """A module the bundler cannot turn into a function scope (a form it does not know,
    an import cycle, a module it cannot read). The message names the module."""


def _resolve(base, spec):
    # "js/table/views" + "../state.js" -> "js/table/state.js"
    out = base.split("/") if base else []
    for part in spec.split("/"):
        if part == "..":
            if not out:
                raise BundleError(f"{spec} leaves the static root")
            out.pop()
        elif part not in (".", ""):
            out.append(part)
    return "/".join(out)


def _pairs(names, where):
    """`a, b as c` -> [("a", "a"), ("b", "c")] (exported name, local name)."""
    pairs = []
    for item in names.split(","):
        item = " ".join(item.split())
        if not item:
            continue
        parts = item.split(" as ")
        if len(parts) > 2 or not all(_NAME.match(p) for p in parts):
            raise BundleError(f"{where}: cannot read the names {{{names.strip()}}}")
        pairs.append((parts[0], parts[-1]))
    return pairs


class _Module:
    def __init__(self, path, text):
        self.path = path
        base = path.rsplit("/", 1)[0] if "/" in path else ""
        self.imports = []        # (dependency path, [(exported, local)])
        self.exports = []        # (exported name, local name)

        def on_import(m):
            self.imports.append((_resolve(base, m.group(2)), _pairs(m.group(1), path)))
            return f"/*import {len(self.imports) - 1}*/"

        def on_bare(m):
            self.imports.append((_resolve(base, m.group(1)), []))
            return ""

        def on_decl(m):
            self.exports.append((m.group(2), m.group(2)))
            return f"{m.group(1)} {m.group(2)}"

        def on_list(m):
            self.exports.extend((exported, local) for local, exported in _pairs(m.group(1), path))
            return ""

        body = _IMPORT.sub(on_import, text)
        body = _BARE_IMPORT.sub(on_bare, body)
        body = _EXPORT_DECL.sub(on_decl, body)
        body = _EXPORT_LIST.sub(on_list, body)
        left = _LEFT.search(body)
        if left:
            line = body[left.start():].splitlines()[0].strip()
            raise BundleError(f"{path}: a form the bundler does not read: {line[:80]!r}")
        self.body = body


def bundle(entries, read):
    """The script that runs the ES modules `entries` (static paths such as
    "js/table/main.js", in that order) and every module they import through relative
    imports, each once, dependencies first.

    `read(path)` returns a module's source (str) for its static path. Returns the script
    (str), meant for `<script type="module">` (strict, deferred). Raises BundleError for a
    form the bundler does not read, an import cycle, or a module `read` cannot give
    (OSError, KeyError)."""
    modules, order, state = {}, [], {}

    def visit(path, chain):
        if state.get(path) == "done":
            return
        if state.get(path) == "open":
            raise BundleError("import cycle: " + " -> ".join([*chain, path]))
        state[path] = "open"
        try:
            text = read(path)
        except (OSError, KeyError) as exc:
            raise BundleError(f"{path}: cannot be read ({exc})") from exc
        module = modules[path] = _Module(path, text)
        for dependency, _names in module.imports:
            visit(dependency, [*chain, path])
        state[path] = "done"
        order.append(path)

    for entry in entries:
        visit(entry, [])
    ids = {path: k for k, path in enumerate(order)}
    parts = ["// The table's ES modules in one script (okeysite/static_bundle.py, written by collectstatic).\n"]
    for path in order:
        module = modules[path]
        body = module.body
        for k, (dependency, names) in enumerate(module.imports):
            if not names:
                continue
            missing = [exported for exported, _local in names
                       if exported not in {e for e, _l in modules[dependency].exports}]
            if missing:
                raise BundleError(f"{path}: {dependency} does not export {', '.join(missing)}")
            reads = ", ".join(exported if exported == local else f"{exported}: {local}" for exported, local in names)
            body = body.replace(f"/*import {k}*/", f"const {{ {reads} }} = __m{ids[dependency]};", 1)
        returned = ", ".join(local if exported == local else f"{exported}: {local}"
                             for exported, local in module.exports)
        parts.append(f"// {path}\nconst __m{ids[path]} = (() => {{\n{body}\nreturn {{ {returned} }};\n}})();\n")
    return "".join(parts)
