"""Creating a solo table -> its rack on the screen, in the README's embedded mode.

Starts the site as `tests/browser` does (daphne, SQLite, in-memory layer, worker in the
process; the site's own OKEY_SEED_WINDOW and OKEY_SOLO_SEED_CAP defaults), signs a player
up in headless chromium and, `--count` times, submits the lobby's create-table form (solo,
okey51) in a fresh browser context (a cold cache) and times the click to the first tile of
the rack. `--latency MS` adds that much to every request and socket frame (Chrome's network
emulation). Prints each figure and the median and worst, in seconds. A figure, not a test:

    .venv/bin/python -m bench.table_start --count 5 [--latency 300]
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.browser.conftest import CHROMIUM, base_env, register, serve


def create_and_time(browser, url, latency_ms, storage_state):
    context = browser.new_context(storage_state=storage_state)
    page = context.new_page()
    if latency_ms:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                      "downloadThroughput": -1, "uploadThroughput": -1})
    page.goto(url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    start = time.perf_counter()
    page.locator("form.create-table button[type=submit]").click()
    page.locator("#rack .tile").first.wait_for(state="visible", timeout=60_000)
    took = time.perf_counter() - start
    context.close()
    return took


def main(argv=None):
    """Run the bench (see the module doc); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--latency", type=int, default=0, help="added latency per request, ms")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="table-start-"))
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_SEED_WINDOW="3",
                   OKEY_MAX_ACTIVE_TABLES="100", OKEY_TABLES_PER_HOUR="1000")
    with serve(workdir, env, name="bench-table-start") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        register(page, url, f"bench{int(time.time())}")
        state = page.context.storage_state()
        figures = [create_and_time(browser, url, args.latency, state) for _ in range(args.count)]
        browser.close()
    for k, took in enumerate(figures, 1):
        print(f"table {k}: create -> rack shown {took:.3f} s")
    print(f"median {statistics.median(figures):.3f} s, worst {max(figures):.3f} s"
          f" (latency +{args.latency} ms, {args.count} tables)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
