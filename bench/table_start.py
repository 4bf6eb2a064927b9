"""Creating a solo table -> its rack on the screen, in the README's embedded mode.

Starts the site as `make run` does (`collectstatic` first, so the table's modules go out as
the one compressed bundle; daphne, SQLite, in-memory layer, worker in the process; the
site's own OKEY_SEED_WINDOW and OKEY_SOLO_SEED_CAP defaults; `--source` serves `static/` as
it is, the way the browser tests do), signs a player
up in headless chromium and, `--count` times, submits the lobby's create-table form (solo,
okey51) in a fresh browser context (a cold cache) and times the click to the first tile of
the rack, on the table page's own clock: from the form's submission (the navigation's
start, the redirect included) to the first rack tile in the page; Playwright's own click
to visible tile, which adds its polling, is printed beside it. After each table, the same
run's baseline: a fresh context opens the rules page (a page of the same server with no
table), timed to DOMContentLoaded. `--latency MS` adds that
much to every request and socket frame (Chrome's network emulation). Prints each figure
and the median and worst, in seconds. A figure, not a test:

    .venv/bin/python -m bench.table_start --count 5 [--latency 300]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.browser.conftest import CHROMIUM, ROOT, base_env, register, serve


def create_and_time(browser, url, latency_ms, storage_state):
    context = browser.new_context(storage_state=storage_state)
    page = context.new_page()
    if latency_ms:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                      "downloadThroughput": -1, "uploadThroughput": -1})
    # when the table page's socket opened, sent the seed, and got its first and the dealt snapshot
    page.add_init_script("""
      window.__marks = {};
      const mark = (k) => { if (!(k in window.__marks)) window.__marks[k] = performance.now(); };
      const Send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (String(data).includes('"type":"seed"')) mark("seed sent");
        if (!this.__watched) {
          this.__watched = true;
          this.addEventListener("message", (e) => {
            const text = String(e.data);
            if (text.includes('"type":"snapshot"')) mark("first snapshot");
            if (text.includes('"rack"')) mark("dealt");
          });
        }
        return Send.call(this, data);
      };
      new MutationObserver(() => { if (document.querySelector("#rack .tile")) mark("rack in the page"); })
        .observe(document, { childList: true, subtree: true });
    """)
    page.goto(url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    start = time.perf_counter()
    page.locator("form.create-table button[type=submit]").click()
    page.locator("#rack .tile").first.wait_for(state="visible", timeout=60_000)
    took = time.perf_counter() - start
    nav = page.evaluate("""() => { const n = performance.getEntriesByType("navigation")[0];
      return {"page asked": n.requestStart, "page received": n.responseEnd,
              "page loaded (DOMContentLoaded)": n.domContentLoadedEventEnd,
              ...window.__marks}; }""")
    context.close()
    return took, nav


def page_load(browser, url, storage_state):
    """The same run's baseline: a fresh context (cold cache) opens the rules page, a page of
    the same server with no table, socket or deal. Returns seconds from the navigation's
    start to DOMContentLoaded."""
    context = browser.new_context(storage_state=storage_state)
    page = context.new_page()
    page.goto(url + "/rules/")
    took = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") / 1000
    context.close()
    return took


def main(argv=None):
    """Run the bench (see the module doc); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--latency", type=int, default=0, help="added latency per request, ms")
    parser.add_argument("--source", action="store_true",
                        help="serve static/ uncollected (the browser tests' way), not as `make run` does")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="table-start-"))
    static_root = workdir / "static"
    static_root.mkdir()
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_SEED_WINDOW="3",
                   OKEY_MAX_ACTIVE_TABLES="100", OKEY_TABLES_PER_HOUR="1000", OKEY_STATIC_ROOT=str(static_root))
    if not args.source:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                       env={**os.environ, **env}, check=True)
    with serve(workdir, env, name="bench-table-start") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        register(page, url, f"bench{int(time.time())}")
        state = page.context.storage_state()
        figures, baseline = [], []
        for _ in range(args.count):  # interleaved, so that both see the same load
            figures.append(create_and_time(browser, url, args.latency, state))
            baseline.append(page_load(browser, url, state))
        browser.close()
    for k, (took, marks) in enumerate(figures, 1):
        steps = ", ".join(f"{name} {ms / 1000:.3f}" for name, ms in sorted(marks.items(), key=lambda kv: kv[1]))
        print(f"table {k}: form submitted -> rack in the page {marks['rack in the page'] / 1000:.3f} s"
              f" (Playwright click -> tile visible {took:.3f} s); steps, s: {steps}")
    times = [marks["rack in the page"] / 1000 for _, marks in figures]
    walls = [took for took, _ in figures]
    print(f"create -> rack shown: median {statistics.median(times):.3f} s, worst {max(times):.3f} s"
          f" (Playwright wall clock median {statistics.median(walls):.3f} s; latency +{args.latency} ms,"
          f" {args.count} tables, cold cache each, static files {'as in static/' if args.source else 'collected'})")
    print(f"same run, baseline: a cold context opens the rules page (no table, no socket), to DOMContentLoaded:"
          f" median {statistics.median(baseline):.3f} s, worst {max(baseline):.3f} s; load average"
          f" {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
