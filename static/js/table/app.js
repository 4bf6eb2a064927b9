// The live table page. The socket (socket.js) brings the server's frames, the reducer
// (state.js) turns them and the player's local events into the state, the ruleset
// family's controller (controllers/) turns the player's gestures into RULES.md §7
// actions, and the views (views/layout.js) draw the state. This module only wires them:
// it sends what the controller asks, keeps the rack in storage (storage.js) and
// re-renders after every change.
import { offerArenaTable } from "./arena-next.js";
import { _ } from "./i18n.js";
import { controllerFor } from "./controllers/index.js";
import { perRowFor } from "./rack.js";
import { awaitingAnswer, myTurn, seated, started } from "./selectors.js";
import { TableSocket, socketUrl, takeEarlySocket, wakeWhenVisible } from "./socket.js";
import { initialState, reduce } from "./state.js";
import { persist, safeStorage, savedFor } from "./storage.js";
import { DropTargets } from "./views/dnd.js";
import { disableControls, focusKey, restoreFocus } from "./views/dom.js";
import { placeViews, tableLayout } from "./views/layout.js";
import { justNow } from "./views/just.js";

const TICK_MS = 250;

/**
 * Start the table client in `root`.
 * @param {HTMLElement} root the page's #table-app element (data-table-id, data-lobby-url, data-username)
 * @param {object} config table_config: {ruleset, rules, options, seat, ws_path, assisted, move_time, players, urls}
 * @param {object} [opts] {socketFactory(url) -> WebSocket-like, storage: Storage|null}
 * @returns {TableApp}
 */
export function startTable(root, config, opts = {}) {
  return new TableApp(root, config, opts);
}

export class TableApp {
  constructor(root, config, { socketFactory, storage } = {}) {
    this.root = root;
    this.config = config || {};
    const ruleset = this.config.ruleset || "okey51";
    // the rules come from the server's ruleset object (games/views.py _table_config):
    // without them the client would have to know the rules by ruleset id
    if (!this.config.rules || !this.config.rules.meld) throw new Error("table_config.rules is missing");
    this.controller = controllerFor(ruleset);
    this.storage = storage !== undefined ? storage : safeStorage();
    const tableId = root.dataset.tableId || String(this.config.table_id || "demo");
    this.state = initialState({
      ruleset, rules: this.config.rules, tableId, assisted: this.config.assisted, players: this.config.players || null,
      seat: this.config.seat ?? null, editsTable: this.controller.editsTable,
      username: this.config.username || root.dataset.username || null,
      perRow: perRowFor(typeof window !== "undefined" && window.innerWidth),
    });
    root.innerHTML = "";
    // laid out as before the deal until the first snapshot says otherwise (table-screen.css)
    root.classList.add("tbl", `rs-${ruleset}`, "not-started");
    if (this.state.assisted) root.classList.add("assisted");
    this.dnd = new DropTargets({ root, onEnd: (src, target, index) => (src && target ? this.gesture({ type: "drop", src, target, index }) : this.render()) });
    this.views = tableLayout({
      controller: this.controller, config: this.config, dnd: this.dnd,
      lobbyUrl: root.dataset.lobbyUrl || (this.config.urls && this.config.urls.lobby) || "/",
      gesture: (g) => this.gesture(g),
      dispatch: (event) => this.apply([event]),
      sendFrame: (frame) => !!this.socket && this.socket.send(frame),
      storage: this.storage,
    });
    placeViews(root, this.views);
    this.clockTimer = setInterval(() => this.tick(), TICK_MS);
    const path = this.config.ws_path || `/ws/table/${tableId}/`;
    const url = this.config.ws_url || socketUrl(path);
    this.socket = new TableSocket({
      url, factory: socketFactory, early: socketFactory || this.config.ws_url ? null : takeEarlySocket(path),
      onFrame: (f) => this.onFrame(f),
      onState: (status, code) => this.apply([{ type: "connection", status, code }]),
    });
    // back into view: a sync, or at once the reconnect a 4429's long backoff holds back
    this.stopWaking = wakeWhenVisible(this.socket);
    // a phone turned or a window resized: the rack's rows follow the new width
    this.onResize = () => {
      const perRow = perRowFor(window.innerWidth);
      if (perRow !== this.state.perRow) this.apply([{ type: "screen", perRow }]);
    };
    if (typeof window !== "undefined" && window.addEventListener) window.addEventListener("resize", this.onResize);
  }

  /** A server frame: a snapshot comes with what storage holds for its round and seat. */
  onFrame(f) {
    if (f.type === "arena_table") { offerArenaTable(document, f); return; }
    const event = f.type === "snapshot" ? { ...f, saved: savedFor(this.storage, this.state.tableId, f.view || {}) } : f;
    this.apply([event]);
    if (f.type === "error" && f.code === "stale_version") this.socket.sync();   // the game moved on: catch up
  }

  /**
   * A gesture from a view: the controller answers local events and maybe an action.
   * The action goes out after the events, once the last refusal is cleared: a socket
   * may answer at once (the demo's does), and that answer must stay on screen. While an
   * action is unanswered nothing more goes out (a double tap would be refused as stale).
   * @param {object} g see controllers/common.js
   */
  gesture(g) {
    const { events, send } = this.controller.gesture(this.state, g);
    if (!send || this.state.blocked || awaitingAnswer(this.state)) { this.apply(events); return; }
    this.apply([...events, { type: "sending" }], false);
    const id = this.socket.action(send.action);
    this.apply([id ? { type: "sent", id, kind: send.kind } : { type: "notice", text: _("Not connected. Reconnecting…"), hint: false }]);
  }

  /** Reduce `events` in order, save what changed, and (unless told not to) render. */
  apply(events, render = true) {
    const before = this.state;
    let state = before;
    for (const e of events) state = reduce(state, e);
    this.state = state;
    persist(this.storage, before, state);
    if (state.blocked) clearInterval(this.clockTimer);
    if (render) this.render();
  }

  render() {
    const s = this.state;
    if (this.dnd.busy) return;      // the drop renders
    this.dnd.clear();
    this.dnd.enabled = !s.blocked;
    const focus = focusKey(document.activeElement, this.root);
    if (s.view) {
      this.root.classList.toggle("my-turn", myTurn(s));
      this.root.classList.toggle("spectator", !seated(s));
      this.root.classList.toggle("not-started", !started(s));
      // a move's tiles move in its first moment only (table-screen.css)
      this.root.classList.toggle("moving", justNow(s));
    }
    for (const v of this.views) v.render(s);
    if (s.blocked) {
      // the reason replaces the turn banner, the clock stops, the table greys out and
      // every control is disabled
      this.root.classList.add("blocked");
      this.root.classList.remove("my-turn");
      disableControls(this.root);
    }
    restoreFocus(focus, this.root);
  }

  tick() {
    for (const v of this.views) if (v.tick) v.tick(this.state);
  }

  /** Stop the clock and the socket (a test, or a page that drops the table). */
  stop() {
    clearInterval(this.clockTimer);
    this.stopWaking();
    if (typeof window !== "undefined" && window.removeEventListener) window.removeEventListener("resize", this.onResize);
    this.socket.close();
  }
}
