"""The table's ES modules as one script (okeysite/static_bundle.py): the bundle of the real
modules runs in Node from its first module to its last; the bundler keeps each module's
names to itself, reads the forms the modules use and refuses the others and import
cycles; `collectstatic` writes the bundle with its hash and its compressed copies."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from okeysite.static_bundle import BundleError, bundle
from okeysite.static_storage import BUNDLES, TABLE_BUNDLE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STATIC = os.path.join(ROOT, "static")

# a page without the table's elements: main.js and table-extras.js find nothing to start
RUN = """globalThis.document = { getElementById: () => null };
globalThis.window = globalThis; globalThis.navigator ??= {};
await import(process.argv[1]);
console.log("ran");"""


def read_static(path):
    with open(os.path.join(STATIC, path), encoding="utf-8") as f:
        return f.read()


def from_dict(files):
    return lambda path: files[path]


@pytest.mark.skipif(shutil.which("node") is None, reason="`make test` installs node")
def test_the_table_bundle_runs_every_module_in_node(tmp_path):
    script = tmp_path / "table.bundle.mjs"
    script.write_text(bundle(BUNDLES[TABLE_BUNDLE], read_static), encoding="utf-8")
    done = subprocess.run(["node", "--input-type=module", "-e", RUN, script.as_uri()],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ran"


@pytest.mark.skipif(shutil.which("node") is None, reason="`make test` installs node")
def test_modules_keep_their_own_names_and_read_what_they_import(tmp_path):
    files = {
        "js/a.js": 'import { twice, NAME as label } from "./lib/b.js";\nconst helper = 1;\n'
                   'export const out = twice(20 + helper) + label;\n',
        "js/lib/b.js": 'import "../c.js";\nconst helper = 2;\nexport function twice(n) { return n * helper; }\n'
                       'const NAME = "!";\nexport { NAME };\n',
        "js/c.js": "globalThis.order = (globalThis.order || []).concat('c');\n",
        "js/main.js": 'import { out } from "./a.js";\nconsole.log(JSON.stringify([out, globalThis.order]));\n',
    }
    script = tmp_path / "b.mjs"
    script.write_text(bundle(["js/main.js"], from_dict(files)), encoding="utf-8")
    done = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["42!", ["c"]]


@pytest.mark.parametrize("source, refusal", [
    ('import * as all from "./b.js";\n', "does not read"),
    ('export default 3;\n', "does not read"),
    ('export let count = 0;\n', "does not read"),
    ('import { missing } from "./b.js";\n', "does not export missing"),
    ('import { x } from "./cycle.js";\n', "import cycle"),
    ('import { x } from "./absent.js";\n', "cannot be read"),
])
def test_the_bundler_refuses_what_it_cannot_keep_whole(source, refusal):
    files = {"js/a.js": source, "js/b.js": "export const x = 1;\n",
             "js/cycle.js": 'import { y } from "./a.js";\nexport const x = y;\n'}
    with pytest.raises(BundleError, match=refusal):
        bundle(["js/a.js"], from_dict(files))


def test_collectstatic_writes_the_table_bundle_hashed_and_compressed(tmp_path):
    env = {**os.environ, "OKEY_STATIC_ROOT": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())
    hashed = manifest["paths"][TABLE_BUNDLE]
    assert hashed != TABLE_BUNDLE and hashed.startswith("js/table.bundle.")
    for suffix in ("", ".br", ".gz"):
        assert (tmp_path / (hashed + suffix)).stat().st_size > 0
    assert (tmp_path / hashed).read_text(encoding="utf-8") == bundle(BUNDLES[TABLE_BUNDLE], read_static)
