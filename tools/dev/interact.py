"""Drive the demo harness through the main flows and check the frames the client sends.

    python -m http.server 8765 &   # from the repo root
    .venv/bin/python tools/dev/interact.py
Prints one line per check and exits 1 if any failed. Dev tool, not part of the test suite
(the real-server browser tests live in tests/browser/).
"""
import json
import sys

from playwright.sync_api import sync_playwright

BASE = "http://127.0.0.1:8765/tools/dev/table-demo.html"
failures = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else f"  {detail}"))
    if not cond:
        failures.append(name)


def sent(page):
    return [json.loads(line[3:]) for line in page.evaluate("window.demoFrames || []") if line.startswith("-> ")]


def actions(page):
    return [f["action"] for f in sent(page) if f.get("type") == "action"]


def rack_tiles(page):
    return page.eval_on_selector_all("#rack .slot",
                                     "els => els.map(e => e.querySelector('.tile')?.dataset.tile || null)")


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # draw, then discard the selected tile
    page.goto(BASE + "?s=draw")
    page.wait_for_selector("#rack .tile")
    check("turn status says it is my turn", "my-turn" in page.get_attribute("#turn-status", "class"))
    check("fresh rack starts sorted into gap groups",
          rack_tiles(page)[:4] == ["R1", "R2", "R3", None], rack_tiles(page))
    page.click("#pile")
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 15")
    check("draw action sent", actions(page)[-1] == {"type": "draw"}, actions(page))
    page.click('#rack .tile[data-tile="K2"]')
    check("click selects", "selected" in page.get_attribute('#rack .tile[data-tile="K2"]', "class"))
    page.click("#discard-btn")
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 14")
    check("discard sends the selected tile", actions(page)[-1] == {"type": "discard", "tile": "K2"}, actions(page))

    # open with the gap groups; a refused lay shows the reason
    page.goto(BASE + "?s=play")
    page.wait_for_selector("#rack .tile")
    check("running opening total shown (the okey completes B4 B5)",
          "84 of 51" in page.inner_text("#opening-info"), page.inner_text("#opening-info"))
    page.click("#open-btn")
    page.wait_for_selector(".meld[data-meld-id]")
    check("open sends the gap groups that read as melds",
          actions(page)[-1] == {"type": "open", "melds": [["R1", "R2", "R3"], ["Y11", "Y12", "Y13"],
                                                          ["B9", "K9", "Y9"], ["B4", "B5", "R6=B6"]]},
          actions(page))
    check("melds on the table with the owner", page.locator(".owner-area .meld").count() == 4)
    page.click('#rack .tile[data-tile="B13"]')
    page.click('#rack .tile[data-tile="K2"]')
    page.click("#lay-btn")
    page.wait_for_selector("#error-box.shown")
    check("refusal shown", "invalid_meld" in page.inner_text("#error-box"), page.inner_text("#error-box"))
    page.click('#rack .tile[data-tile="K2"]')   # deselect K2: B13 stays selected after the refusal
    page.click('.meld[data-meld-id="1"]')
    page.wait_for_timeout(100)
    check("tap a meld with a selected tile adds it",
          actions(page)[-1] == {"type": "add", "meld": 1, "tile": "B13"}, actions(page)[-1])
    page.click('#rack .tile[data-tile="B13"]')   # the refused add keeps B13 selected: clear it

    # move a tile by click into a gap, then by drag
    before = rack_tiles(page)
    gap = before.index(None)
    page.click('#rack .tile[data-tile="B13"]')
    page.click(f'#rack .slot[data-slot="{gap}"]')
    after = rack_tiles(page)
    check("tap-tap moves a tile into a gap", after[gap] == "B13" and after.count("B13") == 1, after)
    last = len(after) - 1
    page.locator('#rack .tile[data-tile="K2"]').drag_to(page.locator(f'#rack .slot[data-slot="{last}"]'))
    page.wait_for_timeout(200)
    after = rack_tiles(page)
    check("drag moves a tile into a gap", after[last] == "K2" and after.count("K2") == 1, after)
    page.goto(BASE + "?s=play&fresh=0")   # reload keeping localStorage
    page.wait_for_selector("#rack .tile")
    again = rack_tiles(page)
    check("the arrangement survives a reload", again[gap] == "B13" and again[last] == "K2", again)
    page.locator('#rack .tile[data-tile="K2"]').drag_to(page.locator("#discard-zone"))
    page.wait_for_timeout(200)
    check("drag to the discard zone discards",
          actions(page)[-1:] == [{"type": "discard", "tile": "K2"}], actions(page)[-1:])

    # take the previous discard and lay it in a meld
    page.goto(BASE + "?s=draw")
    page.wait_for_selector("#rack .tile")
    page.click("#take-discard")
    check("taken discard appears in the rack, selected", page.locator("#rack .tile.taken.selected").count() == 1)
    page.click('#rack .tile[data-tile="Y11"]')
    page.click('#rack .tile[data-tile="Y12"]')
    page.click("#lay-btn")
    page.wait_for_timeout(100)
    a = actions(page)[-1]
    check("lay with a taken discard wraps it in take_discard/then",
          a.get("type") == "take_discard" and a["then"]["type"] == "meld", a)

    # rami: arrange a new meld, see its points, undo, redo, submit
    page.goto(BASE + "?s=rami")
    page.wait_for_selector("#rack .tile")
    for t in ("R10", "R11", "R12"):
        page.click(f'#rack .tile[data-tile="{t}"]')
    page.click("#new-meld")
    check("new meld made from selected rack tiles", page.locator(".rami-meld").count() == 4)
    check("initial meld total shown", "33" in page.inner_text("#opening-info"), page.inner_text("#opening-info"))
    page.click("#undo-turn")
    check("undo puts the tiles back",
          page.locator(".rami-meld").count() == 3 and page.locator('#rack .tile[data-tile="R10"]').count() == 1)
    page.locator('#rack .tile[data-tile="J"]').drag_to(page.locator("#new-meld"))
    page.wait_for_timeout(200)
    check("drag a joker onto the table marks an invalid meld", page.locator(".rami-meld.invalid").count() == 1)
    page.click("#undo-turn")
    for t in ("K4", "B4", "Y4", "J"):
        page.click(f'#rack .tile[data-tile="{t}"]')
    page.click("#new-meld")
    page.click("#submit-play")
    page.wait_for_timeout(100)
    a = actions(page)[-1]
    check("play sends the whole table with the joker written",
          a.get("type") == "play" and any(sorted(m) == ["B4", "J=R4", "K4", "Y4"] for m in a["table"]), a)

    # okey17: double-tap a joker turns it face down; it cannot be discarded
    page.goto(BASE + "?s=okey17")
    page.wait_for_selector("#rack .tile")
    page.locator('#rack .tile[data-tile="Y13"]').first.dblclick()
    check("double-tap turns the okey face down", page.locator("#rack .tile.face-down").count() == 1)

    # assisted: a selected tile lights the melds it fits; a double tap adds it to the only one
    page.goto(BASE + "?s=assisted")
    page.wait_for_selector("#rack .tile")
    check("penalty tiles are marked", page.locator("#rack .tile.penalty").count() == 3)
    page.click('#rack .tile[data-tile="B13"]')
    check("the meld it fits is lit", page.locator(".meld.fits").count() == 1 and
          page.get_attribute(".meld.fits", "data-meld-id") == "1")
    page.locator('#rack .tile[data-tile="Y10"]').dblclick()
    page.wait_for_timeout(100)
    check("double tap adds to the only fitting meld",
          actions(page)[-1:] == [{"type": "add", "meld": 3, "tile": "Y10"}], actions(page)[-1:])
    page.locator('#rack .tile[data-tile="R6"]').dblclick()
    page.wait_for_timeout(100)
    check("several fits: it asks",
          page.locator("#error-box.shown").count() == 1 and page.locator(".meld.fits").count() > 1,
          page.inner_text("#error-box"))
    page.click('.meld[data-meld-id="1"]')
    page.wait_for_timeout(100)
    check("then a tap on a meld adds the wild with its place",
          actions(page)[-1:] == [{"type": "add", "meld": 1, "tile": "R6=B13"}],
          actions(page)[-1:])

    # chat: history on connect, send a line, report a player
    page.goto(BASE + "?s=waiting")
    page.wait_for_selector("#chat-lines li", state="attached")
    page.click("#chat summary")
    page.fill("#chat-input", "bonne chance")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-lines li.mine")
    check("own chat line shown", "bonne chance" in page.inner_text("#chat-lines"))
    page.once("dialog", lambda d: d.accept("insults"))
    page.click("#chat-lines li:not(.mine) .report-line")
    page.wait_for_timeout(100)
    check("report sent with the player's username",
          sent(page)[-1] == {"type": "report", "user": "mehmet", "reason": "insults"}, sent(page)[-1])
    check("report acknowledged", "admins" in page.inner_text("#chat-status"))

    # a dropped connection shows a banner, reconnects and resyncs
    page.goto(BASE + "?s=draw")
    page.wait_for_selector("#rack .tile")
    page.evaluate("() => { const ws = window.okeyTable.socket.ws; ws.readyState = 3; ws.onclose({ code: 1006 }); }")
    check("connection lost banner",
          "reconnecting" in page.inner_text("#conn-state").lower(), page.inner_text("#conn-state"))
    page.wait_for_function("document.querySelector('#conn-state').textContent === ''", timeout=5000)
    check("reconnected with a fresh snapshot", page.locator("#rack .tile").count() == 14)

    check("no page errors", not errors, errors)

    # touch: finger drags through the DevTools protocol on a touch phone
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(BASE + "?s=play")
    page.wait_for_selector("#rack .tile")
    cdp = ctx.new_cdp_session(page)

    def centre(sel):
        bb = page.locator(sel).bounding_box()
        return bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2

    def finger_drag(a, b):
        (x0, y0), (x1, y1) = centre(a), centre(b)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        page.wait_for_timeout(150)
        for i in range(1, 16):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x1 - x0) * i / 15, "y": y0 + (y1 - y0) * i / 15}]})
            page.wait_for_timeout(20)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(300)

    last = len(rack_tiles(page)) - 1
    finger_drag('#rack .tile[data-tile="K2"]', f'#rack .slot[data-slot="{last}"]')
    check("finger drag moves a tile into a gap", rack_tiles(page)[last] == "K2", rack_tiles(page))
    finger_drag('#rack .tile[data-tile="B4"]', "#discard-zone")
    check("finger drag to the discard zone discards",
          actions(page)[-1:] == [{"type": "discard", "tile": "B4"}], actions(page))
    browser.close()
sys.exit(1 if failures else 0)
