"""Screenshot every demo scenario on a phone and a desktop viewport.

Run from the repo root with `python -m http.server 8765` serving it:
    .venv/bin/python tools/dev/shoot.py [scenario ...]
Writes /tmp/shots/<scenario>-<phone|desktop>.png and prints console errors.
"""
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = "http://127.0.0.1:8765/tools/dev/table-demo.html"
SCENARIOS = sys.argv[1:] or ["draw", "play", "waiting", "melds", "assisted", "roundend", "matchover",
                             "okey17", "notstarted", "spectator", "rami", "ramiopen"]
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}

out = Path("/tmp/shots")
out.mkdir(exist_ok=True)
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for name, (w, h) in VIEWPORTS.items():
        page = browser.new_page(viewport={"width": w, "height": h}, has_touch=name == "phone")
        errors = []
        # bound per page, so a late message lands in its own page's list
        page.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        for s in SCENARIOS:
            page.goto(f"{BASE}?s={s}")
            page.wait_for_selector("#turn-status")
            page.wait_for_timeout(150)
            page.screenshot(path=str(out / f"{s}-{name}.png"), full_page=True)
            scroll = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
            if scroll:
                errors.append(f"{s}: horizontal scroll on {name}")
        for e in errors:
            print(name, "ERROR", e)
    browser.close()
print("shots in", out)
