"""The table page's load in Chromium: bytes transferred and time to the rack, cold and warm.

Starts the site twice as `tests/browser` does (daphne, SQLite, in-memory layer, worker in
the process), side by side on this machine, and measures them in turn (one cold load of
each, then the next round) so a busy host weighs on both alike:

- **source files** (the baseline): nothing collected, WhiteNoise serves `static/` as it
  is, plain names, no compression, no long cache (how the site served its files before
  `collectstatic` ran in `make run`);
- **collected** (the product): `manage.py collectstatic` first (okeysite/static_storage.py:
  hashed names, Brotli/gzip copies, far-future cache headers, the table's modules as one
  script), as `make run` and production do;
- with `--against REF`, one more: the collected site at commit REF (a `git worktree`), so
  that a change's before and after come from the same run.

On each it signs a player up, creates a solo okey51 table and waits for the deal; then,
`--count` times, it opens the table page in a fresh browser context (a cold cache) and
measures, on the page's own clock (from the navigation's start):

- the bytes transferred for the page and everything it loaded (the Resource Timing
  `transferSize` of the document and each resource; the table's socket frames are not
  counted), and the number of requests;
- when the first rack tile is in the page;
- then a reload in the same context (a warm cache): when the first rack tile is in the page.

Prints every run and the medians. Goals: the page <= 150 KB, the rack <= 1.0 s cold,
<= 0.5 s warm. A figure, not a test:

    .venv/bin/python -m bench.page_load --count 5 [--latency 0] [--against main]
"""
import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.browser.conftest import CHROMIUM, ROOT, base_env, register, serve

RACK_MARK = """
  window.__rackAt = null; window.__snapshotAt = null;
  const Plain = window.WebSocket;
  window.WebSocket = class extends Plain {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (window.__snapshotAt === null && String(e.data).includes('"type":"snapshot"')) {
          window.__snapshotAt = performance.now();
        }
      });
    }
  };
  new MutationObserver((_, obs) => {
    if (document.querySelector("#rack .tile")) { window.__rackAt = performance.now(); obs.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
"""

TRANSFER = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  return {bytes: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
          requests: 1 + res.length, fromNetwork: res.filter((r) => r.transferSize > 0).length,
          largest: [nav, ...res].map((r) => [r.transferSize, r.encodedBodySize, r.name.replace(location.origin, '')])
            .sort((a, b) => b[0] - a[0]).slice(0, 8)};
}"""


def _latency(context, page, ms):
    if ms:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": ms,
                                                      "downloadThroughput": -1, "uploadThroughput": -1})


def _rack_at(page):
    """Seconds from the navigation's start to the first rack tile, and the steps before it
    (the HTML's last byte, DOMContentLoaded, the socket's first snapshot), in s."""
    page.locator("#rack .tile").first.wait_for(state="attached", timeout=30_000)
    page.wait_for_function("window.__rackAt !== null", timeout=30_000)
    marks = page.evaluate("""() => ({rack: window.__rackAt, snapshot: window.__snapshotAt,
      dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
      html: performance.getEntriesByType("navigation")[0].responseEnd})""")
    return marks["rack"] / 1000, {k: (v or 0) / 1000 for k, v in marks.items()}


def measure(browser, table_url, storage_state, latency_ms):
    """One cold load and one warm reload of `table_url`. Returns a dict: bytes (int),
    requests (int), cold (s), warm (s), warm_bytes (int)."""
    context = browser.new_context(storage_state=storage_state, viewport={"width": 1366, "height": 800})
    context.add_init_script(RACK_MARK)
    page = context.new_page()
    _latency(context, page, latency_ms)
    page.goto(table_url)
    cold, cold_steps = _rack_at(page)
    page.wait_for_load_state("load")
    cold_transfer = page.evaluate(TRANSFER)
    page.reload()
    warm, _ = _rack_at(page)
    page.wait_for_load_state("load")
    warm_transfer = page.evaluate(TRANSFER)
    context.close()
    return {"bytes": cold_transfer["bytes"], "requests": cold_transfer["requests"], "cold": cold,
            "largest": cold_transfer["largest"],
            "warm": warm, "steps": cold_steps, "warm_bytes": warm_transfer["bytes"],
            "warm_network": warm_transfer["fromNetwork"]}


def a_table(browser, url, name):
    """Sign `name` up and create a solo okey51 table; returns (table URL, storage state)
    once the rack is dealt."""
    page = browser.new_page()
    register(page, url, name)
    page.goto(url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.locator("#rack .tile").first.wait_for(state="visible", timeout=60_000)
    table_url, state = page.url, page.context.storage_state()
    page.context.close()
    return table_url, state


@contextlib.contextmanager
def a_side(pw, label, collected, latency_ms, root=ROOT):
    """Serve the site from checkout `root` (collected or not) and make its table; yields a
    function that measures one cold load and warm reload (`measure`)."""
    workdir = Path(tempfile.mkdtemp(prefix="page-load-"))
    static_root = workdir / "static"
    static_root.mkdir()
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_STATIC_ROOT=str(static_root),
                   OKEY_MAX_ACTIVE_TABLES="100", OKEY_TABLES_PER_HOUR="1000", OKEY_SEED_WINDOW="1")
    if collected:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=root,
                       env={**os.environ, **env}, check=True)
    with serve(workdir, env, name=f"bench-page-load-{label}", root=root) as url:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            table_url, state = a_table(browser, url, f"load{label}{int(time.time())}")
            yield lambda: measure(browser, table_url, state, latency_ms)
        finally:
            browser.close()


@contextlib.contextmanager
def checkout(ref):
    """A `git worktree` of `ref` beside this checkout (with this checkout's compiled rami
    core), removed afterwards; yields its path."""
    where = Path(tempfile.mkdtemp(prefix="page-load-ref-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(where), ref], cwd=ROOT, check=True)
    try:
        for core in (ROOT / "games" / "bots").glob("_rami_core*.so"):
            shutil.copy(core, where / "games" / "bots" / core.name)
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, check=False)


def main(argv=None):
    """Run the bench (see the module doc); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--latency", type=int, default=0, help="added latency per request, ms")
    parser.add_argument("--against", metavar="REF", help="also the collected site at this commit"
                        " (a git worktree), measured in turn with the others")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start")
    names = {"source": "baseline, source files", "collected": "product, collected   "}
    sides = {}
    with sync_playwright() as pw, contextlib.ExitStack() as stack:
        measures = {"source": stack.enter_context(a_side(pw, "source", False, args.latency))}
        if args.against:
            label = f"at-{args.against}"
            names[label] = f"collected at {args.against}"
            measures[label] = stack.enter_context(
                a_side(pw, "ref", True, args.latency, root=stack.enter_context(checkout(args.against))))
        measures["collected"] = stack.enter_context(a_side(pw, "collected", True, args.latency))
        # in turn, one cold load of each side after the other, so that the host's load,
        # which moves by the minute, weighs on every side alike
        for _ in range(args.count):
            for label, one in measures.items():
                sides.setdefault(label, []).append(one())
    for label, runs in sides.items():
        for k, r in enumerate(runs, 1):
            print(f"{label} {k}: {r['bytes'] / 1024:.1f} KB in {r['requests']} requests, rack {r['cold']:.3f} s cold;"
                  f" reload: {r['warm_bytes'] / 1024:.1f} KB, {r['warm_network']} from the network,"
                  f" rack {r['warm']:.3f} s; cold steps: HTML {r['steps']['html']:.3f} s,"
                  f" DOMContentLoaded {r['steps']['dcl']:.3f} s, first snapshot {r['steps']['snapshot']:.3f} s")
    for label, runs in sides.items():
        print(f"{label}: the largest transfers of the first cold load (bytes on the wire, body):")
        for size, body, name in runs[0]["largest"]:
            print(f"  {size:7d} {body:7d}  {name}")
    print(f"latency +{args.latency} ms, {args.count} cold loads each, medians:")
    for label, runs in sides.items():
        kb = statistics.median(r["bytes"] for r in runs) / 1024
        cold = statistics.median(r["cold"] for r in runs)
        warm = statistics.median(r["warm"] for r in runs)
        requests = statistics.median(r["requests"] for r in runs)
        steps = {k: statistics.median(r["steps"][k] for r in runs) for k in ("html", "dcl", "snapshot")}
        print(f"  {names[label]:24s}: table page {kb:6.1f} KB ({requests:.0f} requests), rack {cold:.3f} s cold,"
              f" {warm:.3f} s warm reload (HTML {steps['html']:.3f} s, DOMContentLoaded {steps['dcl']:.3f} s,"
              f" first snapshot {steps['snapshot']:.3f} s)")
    print("goals: <= 150 KB, rack <= 1.000 s cold, <= 0.500 s warm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
