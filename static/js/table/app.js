// The live table page: renders the server's view (PROTOCOL.md "The view") for one
// seat and turns the player's clicks and drags into RULES.md §7 actions.
import { _, fmt, ngettext } from "./i18n.js";
import { h, tileEl, playerName, playerLabel, scoreTable, lastActionText } from "./render.js";
import { Rack } from "./rack.js";
import { sortRack } from "./sorting.js";
import { analyse, addFit, meldMove } from "./melds.js";
import { isWild } from "./tiles.js";
import { RamiTable } from "./rami.js";
import { TableSocket, socketUrl } from "./socket.js";
import { TableChat } from "./chat.js";

const FINISHED = new Set(["finished", "over", "done", "ended", "complete", "completed"]);
const DOUBLE_TAP_MS = 350;

/**
 * Start the table client in `root`.
 * @param {HTMLElement} root the page's #table-app element (data-table-id, data-lobby-url)
 * @param {object} config table_config: {ruleset, options, seat, ws_path, assisted, move_time}
 * @param {object} [opts] {socketFactory(url) -> WebSocket-like, storage: Storage}
 * @returns {TableApp}
 */
export function startTable(root, config, opts = {}) {
  return new TableApp(root, config, opts);
}

export class TableApp {
  constructor(root, config, { socketFactory, storage } = {}) {
    this.root = root;
    this.config = config || {};
    this.ruleset = this.config.ruleset || "okey51";
    this.isRami = this.ruleset === "rami";
    this.assisted = !!this.config.assisted;
    this.storage = storage !== undefined ? storage : safeStorage();
    this.tableId = root.dataset.tableId || String(this.config.table_id || "demo");
    this.view = null;
    this.rack = null;
    this.rackKey = null;
    this.sel = [];              // selected sources: "slot:3", "meld:1:0" (rami)
    this.pendingTake = null;    // okey: the previous seat's discard being placed
    this.pending = new Map();   // action id -> kind
    this.sortKind = "runs";
    this.manualMoved = false;
    this.rami = null;           // RamiTable during my rami turn
    this.turnStart = null;      // rami: {slots, table} at the start of my turn
    this.lastScores = null;
    this.scoreClosedFor = null;
    this.lastTap = { key: null, at: 0 };
    this.sortables = [];
    this.blocked = null;        // why the player can no longer act here (suspended, closed ...)
    this.buildSkeleton();
    this.lastDrop = null;
    document.addEventListener("drop", (ev) => {
      this.lastDrop = ev.target && ev.target.closest ? ev.target.closest("[data-drop]") : null;
    }, true);
    this.clockTimer = setInterval(() => this.renderClock(), 250);
    this.chat = new TableChat(this.root, (f) => this.socket.send(f), this.config.username || root.dataset.username || null);
    const url = this.config.ws_url || socketUrl(this.config.ws_path || `/ws/table/${this.tableId}/`);
    this.socket = new TableSocket({
      url, factory: socketFactory,
      onFrame: (f) => this.onFrame(f),
      onState: (s, code) => this.onConnState(s, code),
    });
  }

  get seat() { return this.view ? this.view.seat : this.config.seat ?? null; }
  get myTurn() { return !!this.view && this.view.seat !== null && this.view.seat !== undefined && this.view.turn === this.view.seat && !this.roundOver; }
  get roundOver() { return !!(this.view && (this.view.result || this.view.round_end || FINISHED.has(this.view.status))); }
  get okey() { return this.view ? this.view.okey || null : null; }
  get players() {
    const v = this.view || {};
    return (v.rack_counts || v.players || []).length || this.config.players || 4;
  }

  // ---------------------------------------------------------------- skeleton
  buildSkeleton() {
    const r = this.root;
    r.innerHTML = "";
    r.classList.add("tbl", `rs-${this.ruleset}`);
    if (this.assisted) r.classList.add("assisted");
    const btn = (id, text, title, onclick, extra = "") =>
      h("button", { type: "button", id, class: `btn ${extra}`.trim(), title, onclick }, text);
    this.el = {};
    const E = this.el;
    E.status = h("div", { class: "tbl-status" },
      E.turn = h("div", { id: "turn-status", "aria-live": "polite" }, _("Connecting…")),
      E.clock = h("div", { id: "clock", "aria-label": _("Move clock") }, ""),
      E.round = h("div", { id: "round-info", class: "round-info" }),
      E.last = h("div", { id: "last-action", class: "last-action" }),
      E.conn = h("div", { id: "conn-state", class: "conn" }));
    E.opponents = h("div", { id: "opponents", class: "opponents" });
    E.pile = h("button", { id: "pile", type: "button", class: "pile", title: _("Draw a tile from the pile"),
      onclick: () => this.draw() }, h("span", { class: "pile-label" }, _("Pile")), h("span", { class: "pile-count" }, "–"));
    if (this.isRami) {
      E.center = h("div", { id: "center", class: "center" }, E.pile);
    } else {
      E.indicator = h("div", { class: "indicator-box" },
        h("div", { class: "mini-label" }, _("Indicator")), h("div", { id: "indicator" }));
      E.okeyBox = h("div", { class: "indicator-box" },
        h("div", { class: "mini-label" }, _("Okey")), h("div", { id: "okey" }));
      E.prev = h("div", { id: "prev-discard", class: "discard-slot", onclick: (ev) => { if (ev.target.closest(".tile")) this.toggleTake(); } });
      E.take = btn("take-discard", _("Take"), _("Take the previous player's discard (it must go on the table this turn)"), () => this.toggleTake(), "small");
      E.discardZone = h("div", { id: "discard-zone", class: "discard-slot drop", dataset: { drop: "discard" },
        title: _("Drop a tile here to discard it"), onclick: () => this.discard() });
      E.center = h("div", { id: "center", class: "center" },
        E.indicator, E.okeyBox, E.pile,
        h("div", { class: "discard-box" }, h("div", { class: "mini-label" }, _("To take")), E.prev, E.take),
        h("div", { class: "discard-box" }, h("div", { class: "mini-label" }, _("Discard")), E.discardZone));
    }
    E.melds = h("div", { id: "table-melds", class: "table-melds", "aria-label": _("Table") });
    E.error = h("div", { id: "error-box", role: "alert", class: "error-box" });
    E.info = h("div", { id: "opening-info", class: "opening-info", "aria-live": "polite" });
    if (this.isRami) {
      E.actions = h("div", { class: "actions" },
        btn("submit-play", _("Play"), _("Submit the table as arranged"), () => this.submitPlay(), "primary"),
        btn("undo-turn", _("Undo"), _("Put everything back as it was at the start of the turn"), () => this.undoTurn()),
        btn("draw-btn", _("Draw"), _("Draw a tile and end the turn"), () => this.draw()),
        h("span", { class: "spacer" }),
        btn("sort-runs", "123", _("Sort the rack by runs"), () => this.sortBy("runs"), "sort"),
        btn("sort-groups", "777", _("Sort the rack by groups"), () => this.sortBy("groups"), "sort"));
    } else {
      E.actions = h("div", { class: "actions" },
        btn("open-btn", _("Open"), _("Open with the gap-separated melds on your rack"), () => this.openMelds(), "primary"),
        btn("pairs-btn", _("Open pairs"), _("Open with the pairs on your rack"), () => this.openPairs()),
        btn("lay-btn", _("Lay"), _("Lay the selected tiles (or the selected tile's group) as a new meld"), () => this.lay()),
        btn("discard-btn", _("Discard"), _("Discard the selected tile"), () => this.discard(), "warn"),
        h("span", { class: "spacer" }),
        btn("sort-runs", "123", _("Sort the rack by runs"), () => this.sortBy("runs"), "sort"),
        btn("sort-groups", "777", _("Sort the rack by groups"), () => this.sortBy("groups"), "sort"),
        btn("sort-pairs", "44", _("Sort the rack by pairs"), () => this.sortBy("pairs"), "sort"));
    }
    E.rack = h("div", { id: "rack", class: "rack", "aria-label": _("Your rack") });
    E.scores = h("div", { id: "score-table", class: "overlay-card", hidden: true, role: "dialog", "aria-label": _("Scores") });
    E.matchOver = h("div", { id: "match-over", class: "overlay-card", hidden: true, role: "dialog", "aria-label": _("Match over") });
    E.overlay = h("div", { class: "overlay", hidden: true }, E.matchOver, E.scores);
    r.append(E.status, E.opponents, E.center, E.melds, E.error, E.info, E.actions, E.rack, E.overlay);
  }

  // ---------------------------------------------------------------- frames
  onConnState(state, code) {
    if (state === "refused") {
      this.block(code === 4401 ? _("You are signed out. Sign in again to play at this table.")
        : code === 4404 ? _("This table does not exist any more.")
        : _("You cannot play at this table now."));
      return;
    }
    if (this.blocked) return;
    this.el.conn.textContent = state === "open" ? "" : state === "connecting" ? _("Connecting…") : _("Connection lost, reconnecting…");
    this.el.conn.classList.toggle("bad", state !== "open");
  }

  /**
   * The player can no longer act at this table: the message replaces the turn
   * banner, the clock stops, every control is disabled and the table greys out.
   * The first reason wins (the server's `suspended` message, with its reason and end
   * date, comes before the generic text of the 4403 close).
   * @param {string} text the translated reason shown to the player
   */
  block(text) {
    if (!this.blocked) this.blocked = text;
    clearInterval(this.clockTimer);
    this.pending.clear();
    this.sel = [];
    this.pendingTake = null;
    this.render();
    this.renderBlocked();
  }

  renderBlocked() {
    const E = this.el;
    if (!this.blocked) return;
    this.root.classList.add("blocked");
    this.root.classList.remove("my-turn");
    E.turn.textContent = this.blocked;
    E.turn.classList.remove("my-turn");
    E.turn.classList.add("blocked-banner");
    E.turn.setAttribute("role", "alert");
    E.clock.textContent = "";
    E.clock.className = "";
    E.conn.textContent = "";
    E.conn.classList.remove("bad");
    E.pile.classList.remove("can");
    if (E.take) E.take.classList.remove("can");
    for (const s of this.sortables) s.destroy();
    this.sortables = [];
    const controls = [...this.root.querySelectorAll("button, input, textarea, select"),
      ...document.querySelectorAll("#prestart button")];
    for (const c of controls) if (c.id !== "back-to-lobby") c.disabled = true;
    for (const t of this.root.querySelectorAll(".tile")) { t.tabIndex = -1; t.removeAttribute("role"); }
  }

  onFrame(f) {
    if (f.type === "error" && f.code === "suspended") { this.block(f.message || _("You cannot play at this table now.")); return; }
    if (this.chat && this.chat.receive(f)) return;
    if (f.type === "snapshot") this.onSnapshot(f.view || {});
    else if (f.type === "ack") this.onAck(f);
    else if (f.type === "error") {
      this.pending.delete(f.id);
      this.showError(f.message || f.code || _("Refused"));
      // okey17 refused playable/joker discards keep their penalty: the next snapshot shows it
      this.penaltyWatch = ["playable_discard", "joker_discard"].includes(f.code)
        ? { text: f.message || f.code, before: ((this.view && this.view.penalty) || [])[this.seat] || 0 } : null;
      if (f.code === "stale_version") this.socket.sync();   // the game moved on: catch up
    }
    else if (f.type === "round_end") {
      this.lastScores = { ...f, roundKey: this.rackKey };
      if (f.match_over) this.matchEnded = f;
      this.render();
    }
    else if (f.type === "match_end") { this.matchEnded = f; this.renderMatchOver(); }
  }

  onAck(f) {
    const kind = this.pending.get(f.id);
    this.pending.delete(f.id);
    if (kind === "take") this.pendingTake = null;
    this.sel = [];              // the snapshot that follows re-renders the rack
    this.showError("");
  }

  onSnapshot(view) {
    const prev = this.view;
    this.view = view;
    const key = `okeysite:rack:${this.tableId}:${view.round_index ?? 0}:${view.seat ?? "x"}`;
    if (key !== this.rackKey) this.newRound(key);
    if (this.pendingTake && !(this.myTurn && view.phase === "draw" && this.prevTop() === this.pendingTake)) {
      this.pendingTake = null;
    }
    if (this.penaltyWatch && view.seat !== null && view.seat !== undefined) {
      const now = (view.penalty || [])[view.seat] || 0;
      if (now > this.penaltyWatch.before) {
        this.showError(`${this.penaltyWatch.text} ${fmt(_("Penalty: %(n)s points."), { n: now - this.penaltyWatch.before })}`);
        this.penaltyWatch = null;
      }
    }
    if (this.isRami) this.syncRami(prev);
    const before = this.rack.tiles().length;
    this.reconcile();
    const arrived = this.rack.tiles().length > before;
    // mark a drawn tile until the player touches the rack (not the whole deal)
    if (arrived && prev && (prev.rack || []).length) this.freshSlots = new Set(this.rack.fresh);
    else if (!arrived) this.freshSlots = this.freshSlots || new Set();
    else this.freshSlots = new Set();
    // a fresh rack starts sorted (never re-sorted later, unless the table is assisted
    // and the player has not moved a tile by hand since the last sort)
    const autoSort = !this.sortedOnce || (this.assisted && !this.manualMoved && arrived);
    if (autoSort && view.rack && view.rack.length) {
      this.rack.layout(sortRack(this.sortKind, this.ruleset, this.rack.tiles(), this.okey));
      this.sortedOnce = true;
    }
    this.noteTurnStart();
    this.rack.save();
    if (view.round_end && !this.lastScores) {
      this.lastScores = { ...view.round_end, roundKey: this.rackKey };
    } else if (this.roundOver && !this.lastScores && view.result) {
      this.lastScores = { scores: view.result.scores, penalties: view.penalty, totals: view.totals, penalty_events: view.result.penalty_events, roundKey: this.rackKey };
    }
    this.render();
  }

  newRound(key) {
    this.rackKey = key;
    this.rack = new Rack({ storage: this.storage, rows: 2 });
    const loaded = this.rack.load(key) && this.rack.tiles().length > 0;
    this.sortedOnce = loaded;
    this.manualMoved = loaded;
    this.sel = [];
    this.pendingTake = null;
    this.rami = null;
    this.turnStart = null;
    if (this.lastScores && this.lastScores.roundKey !== key) {
      this.lastScores = null;
      this.el.scores.hidden = true;
    }
  }

  reconcile() {
    let server = [...(this.view.rack || [])];
    if (this.rami) {
      for (const t of this.rami.fromRack()) {
        const i = server.indexOf(t);
        if (i >= 0) server.splice(i, 1);
      }
    }
    this.rack.reconcile(server, this.pendingTake);
  }

  // rami: a fresh working table at the start of my turn and whenever I am not editing
  syncRami(prev) {
    const v = this.view;
    const mine = this.myTurn;
    const turnBegan = mine && !(prev && prev.turn === v.turn && prev.seat === v.seat && (prev.round_index ?? 0) === (v.round_index ?? 0) && this.rami);
    if (!mine || turnBegan || !this.rami || !this.rami.dirty) {
      if (turnBegan) this.turnStart = null;
      this.rami = (mine && this.loadRami()) || new RamiTable(v.table || []);
    }
    if (!mine) { this.forgetRami(); this.turnStart = null; }
  }

  /**
   * rami: remember the rack as the player sees it at the start of the turn (after the
   * snapshot's tiles are placed and the first sort), for `#undo-turn`. Called once the
   * rack is final for the snapshot; a reload mid-turn gets it back from loadRami.
   */
  noteTurnStart() {
    if (this.isRami && this.myTurn && !this.turnStart) this.turnStart = { slots: [...this.rack.slots] };
  }

  // rami: the turn's arrangement survives a reload. It is kept per table, round and
  // seat with the turn's fingerprint (the table and my rack as the server sent them at
  // the start of the turn): once the turn has passed the fingerprint no longer matches.
  ramiKey() { return `okeysite:rami:${this.tableId}:${this.view.round_index ?? 0}:${this.view.seat ?? "x"}`; }
  ramiPrint() { return JSON.stringify([this.view.table || [], [...(this.view.rack || [])].sort()]); }

  loadRami() {
    if (!this.storage) return null;
    try {
      const data = JSON.parse(this.storage.getItem(this.ramiKey()) || "null");
      if (!data || data.print !== this.ramiPrint()) { this.forgetRami(); return null; }
      const r = RamiTable.fromJSON(data.table);
      if (Array.isArray(data.start)) this.turnStart = { slots: data.start.map((t) => (typeof t === "string" ? t : null)) };
      // every tile it takes from the rack must still be there
      const rack = [...(this.view.rack || [])];
      for (const t of r ? r.fromRack() : []) {
        const i = rack.indexOf(t);
        if (i < 0) { this.forgetRami(); return null; }
        rack.splice(i, 1);
      }
      return r && r.dirty ? r : null;
    } catch (_e) { return null; }
  }

  saveRami() {
    if (!this.storage || !this.isRami || !this.rami || !this.myTurn) return;
    try {
      if (!this.rami.dirty) { this.forgetRami(); return; }
      this.storage.setItem(this.ramiKey(), JSON.stringify({ print: this.ramiPrint(), table: this.rami.toJSON(),
        start: this.turnStart ? this.turnStart.slots : null }));
    } catch (_e) { /* storage full or disabled */ }
  }

  forgetRami() {
    try { if (this.storage && this.view) this.storage.removeItem(this.ramiKey()); } catch (_e) { /* ignore */ }
  }

  // ---------------------------------------------------------------- sending
  send(action, kind = action.type) {
    if (this.blocked) return;
    this.showError("");
    let act = action;
    if (this.pendingTake && !this.isRami && ["open", "meld", "add"].includes(action.type)) {
      act = { type: "take_discard", then: action };
      kind = "take";
    }
    const id = this.socket.action(act);
    if (!id) { this.showError(_("Not connected. Reconnecting…")); return; }
    this.pending.set(id, kind);
  }

  showError(text) {
    this.el.error.textContent = text;
    this.el.error.classList.toggle("shown", !!text);
  }

  selectedSlots() {
    return this.sel.filter((s) => s.startsWith("slot:")).map((s) => Number(s.slice(5)));
  }

  // ---------------------------------------------------------------- okey actions
  draw() { this.send({ type: "draw" }); }

  prevSeat() { const n = this.players; return ((this.view.seat ?? 0) + n - 1) % n; }
  prevTop() {
    const d = (this.view.discards || [])[this.prevSeat()] || [];
    return d.length ? d[d.length - 1] : null;
  }

  toggleTake() {
    if (!this.view) return;
    if (this.pendingTake) {
      this.pendingTake = null;
    } else {
      const top = this.prevTop();
      if (!top) { this.showError(_("There is no discard to take.")); return; }
      if (!this.myTurn || this.view.phase !== "draw") {
        this.showError(_("You can take the discard only at the start of your turn."));
        return;
      }
      this.pendingTake = top;
      this.showError("");
    }
    this.reconcile();
    if (this.pendingTake && this.rack.taken !== null) this.sel = [`slot:${this.rack.taken}`];
    else this.sel = [];
    this.render();
  }

  /** Gap groups of the rack, read as melds. */
  rackGroups() {
    return this.rack.groups().map((g) => ({ ...g, info: analyse(this.ruleset, g.tiles, this.okey) }));
  }

  openMelds() {
    const groups = this.rackGroups().filter((g) => g.tiles.length >= 3);
    if (!groups.length) { this.showError(_("Arrange melds on your rack with a gap between them, then press Open.")); return; }
    const valid = groups.filter((g) => g.info.valid && g.info.type !== "pair");
    const melds = (valid.length ? valid : groups).map((g) => (g.info.valid ? g.info.written : g.tiles));
    this.send({ type: "open", melds });
  }

  openPairs() {
    const groups = this.rackGroups().filter((g) => g.tiles.length === 2);
    if (!groups.length) { this.showError(_("Put each pair on its own, with a gap on both sides, then press Open pairs.")); return; }
    const valid = groups.filter((g) => g.info.valid);
    const melds = (valid.length ? valid : groups).map((g) => (g.info.valid ? g.info.written : g.tiles));
    this.send({ type: "open", melds });
  }

  lay() {
    let slots = this.selectedSlots().sort((a, b) => a - b);
    if (slots.length === 1) slots = (this.rack.groupOf(slots[0]) || { slots }).slots;
    if (!slots.length) { this.showError(_("Select the tiles of the meld to lay.")); return; }
    const tiles = slots.map((i) => this.rack.slots[i]);
    const info = analyse(this.ruleset, tiles, this.okey);
    this.send({ type: "meld", tiles: info.valid ? info.written : tiles });
  }

  /**
   * okey17: lay the selected pair in another player's area (RULES.md §4, D-12: a meld
   * player may lay a pair only where a pairs player laid). Tapping an area, not a meld.
   */
  layInArea(owner) {
    if (this.ruleset !== "okey17" || owner === this.view.seat) return;
    const slots = this.selectedSlots().sort((a, b) => a - b);
    if (slots.length !== 2) return;
    const tiles = slots.map((i) => this.rack.slots[i]);
    const info = analyse(this.ruleset, tiles, this.okey);
    this.send({ type: "meld", tiles: info.valid ? info.written : tiles, owner });
  }

  discard(slot = null) {
    if (slot === null) {
      const s = this.selectedSlots();
      if (!s.length) { this.showError(_("Select the tile to discard.")); return; }
      slot = s[s.length - 1];
    }
    if (this.rack.faceDown.has(slot)) { this.showError(_("A face-down tile stays in the rack.")); return; }
    if (slot === this.rack.taken) { this.showError(_("The taken discard must go on the table.")); return; }
    const tile = this.rack.slots[slot];
    if (!tile) return;
    this.send({ type: "discard", tile });
  }

  addTo(meldId, slot = null) {
    if (slot === null) {
      const s = this.selectedSlots();
      if (!s.length) return false;
      slot = s[s.length - 1];
    }
    const tile = this.rack.slots[slot];
    if (!tile) return false;
    if (this.rack.faceDown.has(slot)) { this.showError(_("A face-down tile stays in the rack.")); return true; }
    const meld = (this.view.table || []).find((m) => String(m.id) === String(meldId));
    // a meld that only takes the tile in a wild's place gets a swap, never an add
    const move = meld ? meldMove(this.ruleset, meld.tiles, tile, this.okey) : null;
    this.send({ type: move ? move.type : "add", meld: Number(meldId), tile: move ? move.tile : tile });
    return true;
  }

  swapInto(meldId) {
    const s = this.selectedSlots();
    if (!s.length) { this.showError(_("Select the tile that the wild stands for, then press swap.")); return; }
    const tile = this.rack.slots[s[s.length - 1]];
    this.send({ type: "swap", meld: Number(meldId), tile });
  }

  /**
   * Table melds the tile in `slot` fits (assisted lighting).
   * @returns {Map<string, "add"|"swap">} meld id -> the action a tap on it sends
   */
  fitsFor(slot) {
    const out = new Map();
    const tile = this.rack.slots[slot];
    if (!tile || this.isRami) return out;
    for (const m of this.view.table || []) {
      const move = meldMove(this.ruleset, m.tiles, tile, this.okey);
      if (move) out.set(String(m.id), move.type);
    }
    return out;
  }

  assistedAdd(slot) {
    const opened = (this.view.opened || [])[this.view.seat];
    if (!this.myTurn || this.view.phase !== "play" || !opened || opened === "no") return false;
    const fits = (this.view.table || []).filter((m) => addFit(this.ruleset, m.tiles, this.rack.slots[slot], this.okey));
    if (fits.length === 1) { this.addTo(fits[0].id, slot); return true; }
    if (fits.length > 1) {
      this.sel = [`slot:${slot}`];
      this.render();
      this.showError(_("This tile fits several melds: tap the one to add it to."));
      return true;
    }
    return false;
  }

  sortBy(kind) {
    if (!this.rack) return;
    this.sortKind = kind;
    this.manualMoved = false;
    this.rack.layout(sortRack(kind, this.ruleset, this.rack.tiles(), this.okey));
    this.rack.save();
    this.sel = [];
    this.render();
  }

  // ---------------------------------------------------------------- rami actions
  submitPlay() {
    if (!this.rami) return;
    this.send({ type: "play", table: this.rami.toTable() });
  }

  undoTurn() {
    if (!this.view) return;
    this.rami = new RamiTable(this.view.table || []);
    if (this.turnStart) this.rack.restore(this.turnStart.slots, this.view.rack || []);
    else this.reconcile();
    this.rack.save();
    this.sel = [];
    this.showError("");
    this.render();
  }

  /** Move a rami source ("slot:i" | "meld:m:k") to meld m at index (m = length: new meld). */
  ramiMove(src, m, index) {
    if (!this.myTurn) { this.showError(_("Wait for your turn to arrange the table.")); return; }
    const item = this.takeSource(src);
    if (!item) return;
    this.rami.insert(m, index, item);
    this.rami.prune();
  }

  takeSource(src) {
    const p = src.split(":").map((x, i) => (i ? Number(x) : x));
    if (p[0] === "slot") {
      const t = this.rack.slots[p[1]];
      if (!t) return null;
      this.rack.slots[p[1]] = null;
      return { t, fromRack: true };
    }
    return this.rami.take(p[1], p[2]);
  }

  ramiToRack(src, slot) {
    const [, m, k] = src.split(":").map(Number);
    const item = this.rami.melds[m]?.tiles[k];
    if (!item) return;
    if (!item.fromRack) { this.showError(_("Table tiles cannot go to your rack.")); return; }
    this.rami.take(m, k);
    this.rami.prune();
    if (slot !== null && this.rack.slots[slot] === null) this.rack.slots[slot] = item.t;
    else this.reconcile();
  }

  // ---------------------------------------------------------------- clicks and drops
  onTileTap(src, ev) {
    ev.stopPropagation();
    this.freshSlots = new Set();
    const now = Date.now();
    const dbl = this.lastTap.key === src && now - this.lastTap.at < DOUBLE_TAP_MS;
    this.lastTap = { key: src, at: now };
    if (dbl && src.startsWith("slot:")) {
      const slot = Number(src.slice(5));
      const tile = this.rack.slots[slot];
      if (this.ruleset === "okey17" && isWild(this.ruleset, tile, this.okey)) {
        this.rack.toggleFaceDown(slot);
        this.rack.save();
        this.sel = this.sel.filter((s) => s !== src);
        this.render();
        return;
      }
      if (this.assisted && this.assistedAdd(slot)) return;
    }
    const i = this.sel.indexOf(src);
    if (i >= 0) this.sel.splice(i, 1); else this.sel.push(src);
    this.render();
  }

  onSlotTap(slot) {
    if (this.rack.slots[slot] !== null) return;
    const chosen = this.sel[this.sel.length - 1];
    if (!chosen) return;
    if (chosen.startsWith("slot:")) {
      this.rack.move(Number(chosen.slice(5)), slot);
      this.manualMoved = true;
    } else if (this.isRami) {
      this.ramiToRack(chosen, slot);
    }
    this.sel = [];
    this.rack.save();
    this.render();
  }

  onMeldTap(m) {
    if (!this.isRami) { this.addTo(m); return; }
    if (!this.sel.length) return;
    if (!this.myTurn) { this.showError(_("Wait for your turn to arrange the table.")); return; }
    const target = this.rami.melds[m];
    const items = [...this.sel].sort(bySourceDesc).map((s) => this.takeSource(s)).filter(Boolean).reverse();
    const idx = this.rami.melds.indexOf(target);
    for (const it of items) this.rami.insert(idx < 0 ? this.rami.melds.length : idx, 99, it);
    this.rami.prune();
    this.sel = [];
    this.rack.save();
    this.render();
  }

  /**
   * rami: a tap on a table tile. With tiles selected elsewhere (rack or another meld)
   * they move into this meld before the tapped tile; otherwise the tile is selected.
   */
  onMeldTileTap(m, k, ev) {
    const mine = `meld:${m}:`;
    if (this.sel.length && this.sel.some((s) => !s.startsWith(mine))) {
      ev.stopPropagation();
      if (!this.myTurn) { this.showError(_("Wait for your turn to arrange the table.")); return; }
      const target = this.rami.melds[m];
      const before = target.tiles[k];
      const items = [...this.sel].sort(bySourceDesc).map((s) => this.takeSource(s)).filter(Boolean).reverse();
      const idx = this.rami.melds.indexOf(target);
      let at = target.tiles.indexOf(before);
      for (const it of items) this.rami.insert(idx, at < 0 ? 99 : at++, it);
      this.rami.prune();
      this.sel = [];
      this.rack.save();
      this.render();
      return;
    }
    this.onTileTap(`meld:${m}:${k}`, ev);
  }

  onNewMeldTap() {
    if (!this.sel.length) return;
    if (!this.myTurn) { this.showError(_("Wait for your turn to arrange the table.")); return; }
    const items = [...this.sel].sort(bySourceDesc).map((s) => this.takeSource(s)).filter(Boolean).reverse();
    if (!items.length) return;
    const meld = this.rami.melds.length;
    for (const it of items) this.rami.insert(meld, 99, it);
    this.rami.prune();
    this.sel = [];
    this.rack.save();
    this.render();
  }

  /** A drag ended: `src` is the tile's source, `drop` the target's data-drop, `index` its place. */
  onDrop(src, drop, index) {
    this.freshSlots = new Set();
    if (!drop) return;
    if (drop.startsWith("slot:")) {
      const to = Number(drop.slice(5));
      if (src.startsWith("slot:")) { this.rack.move(Number(src.slice(5)), to); this.manualMoved = true; }
      else if (this.isRami) this.ramiToRack(src, to);
    } else if (drop === "discard" && src.startsWith("slot:")) {
      this.discard(Number(src.slice(5)));
    } else if (drop.startsWith("meld:")) {
      if (this.isRami) this.ramiMove(src, Number(drop.slice(5)), index);
      else if (src.startsWith("slot:")) this.addTo(drop.slice(5), Number(src.slice(5)));
    } else if (drop === "new-meld" && this.isRami) {
      this.ramiMove(src, this.rami.melds.length, 0);
    }
    this.sel = [];
    this.rack.save();
  }

  // ---------------------------------------------------------------- rendering
  render() {
    if (!this.view) return;
    if (this.view.status === "closed" && !this.blocked) {
      this.blocked = _("This table is closed.");
      clearInterval(this.clockTimer);
    }
    // a snapshot arriving mid-drag would destroy the dragged tile's list: wait for the drop
    if (this.dragging && Date.now() - this.dragging < 10000) { this.renderLater = true; return; }
    for (const s of this.sortables) s.destroy();
    this.sortables = [];
    const focus = focusKey(document.activeElement, this.root);
    if (this.isRami) this.saveRami();
    this.renderPrestart();
    this.renderStatus();
    this.renderOpponents();
    this.renderCenter();
    this.renderMelds();
    this.renderRack();
    this.renderInfo();
    this.renderScores();
    this.renderMatchOver();
    this.renderClock();
    this.renderUsable();
    this.renderBlocked();
    restoreFocus(focus, this.root);
  }

  /** Has the match been dealt? (A table still open has no rack counts.) */
  get started() {
    const v = this.view;
    return !!v && Array.isArray(v.rack_counts) && v.status !== "open" && v.status !== "closed";
  }

  /**
   * The seat list above the table while it is open (templates/games/table.html
   * `#prestart`), from the live snapshot so joiners show at once; the whole block
   * (start, join, leave) goes away once the match starts.
   */
  renderPrestart() {
    const box = document.getElementById("prestart");
    if (!box) return;
    const v = this.view;
    if (v.status && v.status !== "open") { box.hidden = true; return; }
    const list = document.getElementById("prestart-seats");
    const players = v.players || [];
    if (list && players.length) {
      list.replaceChildren(...players.map((p, s) => h("li", { class: `${p.empty ? "free" : ""}${s === v.seat ? " me" : ""}`.trim(), dataset: { seat: String(s) } },
        p.empty ? _("free seat") : playerName(v, s), s === v.seat ? ` (${_("you")})` : "")));
    }
    const join = document.getElementById("join-form");
    if (join) join.hidden = !players.some((p) => p.empty) || (v.seat !== null && v.seat !== undefined);
  }

  /**
   * Hide what cannot be used: before the deal and for spectators no rack, no action
   * buttons; out of turn the turn actions are disabled (sorting stays).
   */
  renderUsable() {
    const E = this.el;
    const v = this.view;
    const seated = v.seat !== null && v.seat !== undefined;
    const playing = this.started && !this.roundOver;
    E.center.hidden = !this.started;
    // before the deal the seat list above the table (#prestart) already names the seats
    const prestart = document.getElementById("prestart");
    E.opponents.hidden = !this.started && !!prestart && !prestart.hidden;
    E.melds.hidden = !this.started;
    E.rack.hidden = !seated || !this.started;
    E.actions.hidden = !seated || !playing;
    this.root.classList.toggle("spectator", !seated);
    this.root.classList.toggle("not-started", !this.started);
    const turnIds = ["open-btn", "pairs-btn", "lay-btn", "discard-btn", "submit-play", "undo-turn", "draw-btn"];
    for (const id of turnIds) {
      const b = E.actions.querySelector(`#${id}`);
      if (b) b.disabled = !this.myTurn;
    }
    E.round.hidden = !this.started;
    if (E.take) {
      E.prev.parentElement.hidden = !seated;
      E.discardZone.parentElement.hidden = !seated;
      E.take.hidden = !seated;
      E.take.disabled = !(this.myTurn && v.phase === "draw") && !this.pendingTake;
    }
  }

  renderStatus() {
    const v = this.view;
    const E = this.el;
    let text;
    if (this.matchIsOver()) text = _("Match over");
    else if (this.roundOver) text = _("Round over");
    else if (this.myTurn) {
      text = this.isRami ? _("Your turn: play tiles, or draw")
        : v.phase === "draw" ? _("Your turn: draw from the pile or take the discard")
        : _("Your turn: lay or add tiles, then discard");
    } else if (v.status === "closed") {
      text = _("This table is closed.");
    } else if (v.turn !== null && v.turn !== undefined) {
      text = fmt(_("%(name)s is playing"), { name: playerName(v, v.turn) });
    } else text = _("Waiting for the match to start");
    E.turn.textContent = text;
    E.turn.classList.toggle("my-turn", this.myTurn);
    this.root.classList.toggle("my-turn", this.myTurn);
    const rounds = v.rounds ? fmt(_("Round %(n)s of %(total)s"), { n: (v.round_index ?? 0) + 1, total: v.rounds })
      : fmt(_("Round %(n)s"), { n: (v.round_index ?? 0) + 1 });
    const myPen = v.seat !== null && v.seat !== undefined ? (v.penalty || [])[v.seat] || 0 : 0;
    E.round.textContent = myPen ? `${rounds} · ${fmt(_("your penalty %(n)s"), { n: myPen })}` : rounds;
    E.last.textContent = lastActionText(v);
  }

  /** The move clock counts down to view.deadline (epoch ms); a computer's short delay
   * is not a move clock, and the pause between rounds counts down in the score table. */
  renderClock() {
    const v = this.view;
    const el = this.el.clock;
    const d = v && v.deadline;
    const left = d ? Math.max(0, Math.ceil((d - Date.now()) / 1000)) : null;
    const next = document.getElementById("next-round");
    if (next && v && v.deadline_kind === "next_round" && left !== null) {
      next.textContent = fmt(_("The next round starts in %(n)s s."), { n: left });
    }
    if (!d || this.blocked || this.roundOver || (v.deadline_kind && v.deadline_kind !== "move")) {
      el.textContent = "";
      el.className = "";
      return;
    }
    el.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("low", left <= 10);
    el.classList.toggle("mine", this.myTurn);
  }

  openedText(o) {
    if (o === "melds") return _("opened with melds");
    if (o === "pairs") return _("opened with pairs");
    if (o === "yes" || o === true) return _("opened");
    return _("not opened");
  }

  renderOpponents() {
    const v = this.view;
    const n = this.players;
    const me = v.seat ?? 0;
    const E = this.el;
    E.opponents.innerHTML = "";
    E.opponents.dataset.count = String(n - (v.seat === null || v.seat === undefined ? 0 : 1));
    const order = [];
    for (let k = n - 1; k >= 1; k--) order.push((me + k) % n);  // left, across, right
    if (v.seat === null || v.seat === undefined) order.unshift(me);
    for (const s of order) E.opponents.append(this.seatCard(s));
  }

  seatCard(s) {
    const v = this.view;
    const p = (v.players || [])[s] || {};
    const partner = v.options && v.options.teams && v.seat !== null && v.seat !== undefined && s !== v.seat && (s - v.seat) % 2 === 0;
    const label = partner ? _("partner") : playerLabel(v, s);
    const count = (v.rack_counts || [])[s];
    const pen = (v.penalty || [])[s] || 0;
    const disc = (v.discards || [])[s] || [];
    const top = disc.length ? disc[disc.length - 1] : null;
    if (p.empty) {
      return h("div", { class: "seat-card free", dataset: { seat: String(s) } },
        h("div", { class: "seat-name" }, _("free seat")));
    }
    if (!this.started) {
      return h("div", { class: `seat-card${p.connected === false ? " away" : ""}`, dataset: { seat: String(s) } },
        h("div", { class: "seat-name" }, playerName(v, s), p.connected === false ? h("span", { class: "away-dot", title: _("disconnected") }, "●") : null));
    }
    return h("div", { class: `seat-card${v.turn === s && !this.roundOver ? " active" : ""}${p.connected === false ? " away" : ""}`, dataset: { seat: String(s) } },
      h("div", { class: "seat-name" }, playerName(v, s), p.connected === false ? h("span", { class: "away-dot", title: _("disconnected") }, "●") : null),
      label ? h("div", { class: "who-label" }, label) : null,
      h("div", { class: "seat-meta" },
        count !== undefined ? h("span", { class: "rack-count" }, fmt(ngettext("%(n)s tile", "%(n)s tiles", count), { n: count })) : null,
        h("span", { class: `opened o-${(v.opened || [])[s]}` }, this.openedText((v.opened || [])[s])),
        pen ? h("span", { class: "penalty" }, fmt(_("penalty %(n)s"), { n: pen })) : null,
        (v.totals || [])[s] !== undefined ? h("span", { class: "total" }, fmt(_("total %(n)s"), { n: v.totals[s] })) : null),
      this.isRami ? null : h("div", { class: "seat-discard", title: _("Discard pile") },
        top ? tileEl(top, { okey: this.okey, ruleset: this.ruleset, small: true }) : h("span", { class: "empty-discard" }),
        disc.length > 1 ? h("span", { class: "disc-count" }, `×${disc.length}`) : null));
  }

  renderCenter() {
    const v = this.view;
    const E = this.el;
    E.pile.querySelector(".pile-count").textContent = String(v.pile_count ?? "–");
    E.pile.classList.toggle("can", this.myTurn && (this.isRami || v.phase === "draw"));
    if (this.isRami) return;
    E.indicator.querySelector("#indicator").replaceChildren(v.indicator ? tileEl(v.indicator, { ruleset: this.ruleset }) : "");
    E.okeyBox.querySelector("#okey").replaceChildren(this.okey ? tileEl(this.okey, { okey: this.okey, ruleset: this.ruleset }) : "");
    const top = this.prevTop();
    E.prev.replaceChildren(top ? tileEl(top, { okey: this.okey, ruleset: this.ruleset }) : h("span", { class: "empty-discard" }));
    E.prev.classList.toggle("taking", !!this.pendingTake);
    E.take.textContent = this.pendingTake ? _("Put back") : _("Take");
    E.take.classList.toggle("can", this.myTurn && v.phase === "draw" && !!top);
    const mine = (v.discards || [])[v.seat] || [];
    E.discardZone.replaceChildren(mine.length ? tileEl(mine[mine.length - 1], { okey: this.okey, ruleset: this.ruleset }) : h("span", { class: "drop-hint" }, _("Discard here")));
    if (v.seat !== null && v.seat !== undefined) this.makeDropTarget(E.discardZone, { put: (from, item) => item.dataset.src?.startsWith("slot:") && !item.classList.contains("face-down") });
  }

  renderMelds() {
    const v = this.view;
    const E = this.el;
    E.melds.innerHTML = "";
    if (this.isRami) return this.renderRamiMelds();
    const melds = v.table || [];
    const selTile = this.selectedSlots().map((i) => this.rack.slots[i]).pop();
    const fits = selTile ? this.fitsFor(this.selectedSlots().pop()) : new Map();
    if (!melds.length) E.melds.append(h("div", { class: "empty-table" }, _("No melds on the table yet.")));
    const owners = [...new Set(melds.map((m) => m.owner))];
    for (const owner of owners) {
      const area = h("div", { class: "owner-area", dataset: { owner: String(owner) },
        onclick: () => this.layInArea(owner) },
        h("div", { class: "owner-name" }, playerName(v, owner)));
      for (const m of melds.filter((x) => x.owner === owner)) {
        const fit = fits.get(String(m.id));
        const el = h("div", { class: `meld${fit === "add" ? " fits" : fit === "swap" ? " fits-swap" : ""}`, dataset: { meldId: String(m.id), owner: String(m.owner), drop: `meld:${m.id}` },
          title: fit === "swap" ? _("Tap to swap the selected tile for the wild") : _("Tap with a tile selected to add it"),
          onclick: (ev) => { ev.stopPropagation(); this.onMeldTap(m.id); } },
          m.tiles.map((t) => tileEl(t, { okey: this.okey, ruleset: this.ruleset, small: true })),
          m.tiles.some((t) => t.includes("=")) ? h("button", { type: "button", class: "swap-btn", title: _("Swap: give the tile the wild stands for and take the wild"),
            onclick: (ev) => { ev.stopPropagation(); this.swapInto(m.id); } }, "⇄") : null);
        this.makeDropTarget(el, { put: (from, item) => item.dataset.src?.startsWith("slot:") && !item.classList.contains("face-down") });
        area.append(el);
      }
      E.melds.append(area);
    }
  }

  renderRamiMelds() {
    const E = this.el;
    const work = this.rami || new RamiTable(this.view.table || []);
    const editable = this.myTurn;
    work.melds.forEach((m, i) => {
      const info = work.info(i);
      const el = h("div", { class: `meld rami-meld${info.valid ? "" : " invalid"}${m.orig ? "" : " changed"}`, dataset: { meldIndex: String(i), drop: `meld:${i}` },
        onclick: () => this.onMeldTap(i) },
        m.tiles.map((x, k) => {
          const src = `meld:${i}:${k}`;
          const t = tileEl(m.orig && x.t === "J" ? m.orig[k] : x.t, { ruleset: "rami", small: true });
          t.dataset.src = src;
          if (x.fromRack) t.classList.add("from-rack");
          if (this.sel.includes(src)) t.classList.add("selected");
          if (editable) t.addEventListener("click", (ev) => this.onMeldTileTap(i, k, ev));
          return t;
        }),
        info.valid ? h("span", { class: "meld-points" }, String(info.points)) : h("span", { class: "meld-bad", title: _("not a valid meld") }, "✗"));
      if (editable) this.makeDropTarget(el, { sort: true, put: () => true });
      E.melds.append(el);
    });
    if (!work.melds.length) E.melds.append(h("div", { class: "empty-table" }, _("No melds on the table yet.")));
    if (editable) {
      const nm = h("div", { id: "new-meld", class: "meld new-meld", dataset: { drop: "new-meld" }, onclick: () => this.onNewMeldTap() }, _("New meld"));
      this.makeDropTarget(nm, { put: () => true });
      E.melds.append(nm);
    }
  }

  renderRack() {
    const E = this.el;
    const v = this.view;
    if (v.seat === null || v.seat === undefined || !this.started) { E.rack.innerHTML = ""; return; }
    E.rack.innerHTML = "";
    E.rack.style.setProperty("--per-row", String(this.rack.perRow));
    const penalties = countOf(v.penalty_tiles || []);
    const groups = this.rackGroups();
    const badge = new Map();
    for (const g of groups) {
      if (g.tiles.length >= 2 && g.info.valid) badge.set(g.slots[0], g.info);
    }
    this.rack.slots.forEach((t, i) => {
      const slot = h("div", { class: "slot", dataset: { slot: String(i), drop: `slot:${i}` }, onclick: () => this.onSlotTap(i) });
      if (t !== null) {
        const src = `slot:${i}`;
        const el = tileEl(t, { okey: this.okey, ruleset: this.ruleset, faceDown: this.rack.faceDown.has(i) });
        el.dataset.src = src;
        if (this.sel.includes(src)) el.classList.add("selected");
        if (i === this.rack.taken) el.classList.add("taken");
        if (this.freshSlots && this.freshSlots.has(i)) el.classList.add("fresh");
        if (penalties.get(t) > 0 && !this.rack.faceDown.has(i)) { el.classList.add("penalty"); el.title += ` — ${_("discarding it costs a penalty")}`; }
        el.addEventListener("click", (ev) => this.onTileTap(src, ev));
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", this.sel.includes(src) ? "true" : "false");
        el.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.onTileTap(src, ev); }
        });
        slot.append(el);
      }
      const info = badge.get(i);
      if (info) {
        slot.append(h("span", { class: `group-points${info.valid ? "" : " bad"}` }, info.valid ? String(info.points) : "✗"));
      }
      this.makeDropTarget(slot, { put: (from, item) => {
        const s = item.dataset.src || "";
        if (s.startsWith("slot:")) return true;
        return this.isRami && item.classList.contains("from-rack");
      } });
      E.rack.append(slot);
    });
  }

  renderInfo() {
    const v = this.view;
    const E = this.el;
    E.info.innerHTML = "";
    if (v.seat === null || v.seat === undefined || this.roundOver || !(v.rack || []).length) return;
    const opened = (v.opened || [])[v.seat];
    if (this.isRami) {
      if (opened === "yes" || opened === true) return;
      const pts = this.rami ? this.rami.initialPoints() : 0;
      E.info.append(h("span", { class: pts >= (v.threshold || 30) ? "ok" : "" },
        fmt(_("Initial meld: %(points)s of %(need)s points"), { points: pts, need: v.threshold || 30 })));
      return;
    }
    if (opened && opened !== "no") return;
    const groups = this.rackGroups();
    const melds = groups.filter((g) => g.tiles.length >= 3 && g.info.valid);
    const total = melds.reduce((a, g) => a + g.info.points, 0);
    const need = v.threshold ?? (this.ruleset === "okey17" ? 17 : 51);
    const pairs = groups.filter((g) => g.tiles.length === 2 && g.info.valid);
    const pairPts = pairs.reduce((a, g) => a + g.info.points, 0);
    E.info.append(h("span", { class: `melds-total${total >= need ? " ok" : ""}` },
      fmt(_("Melds: %(list)s = %(total)s of %(need)s"), { list: melds.map((g) => g.info.points).join(" + ") || "0", total, need })));
    const pairText = this.ruleset === "okey17"
      ? fmt(ngettext("Pairs: %(n)s pair, %(points)s of %(need)s points", "Pairs: %(n)s pairs, %(points)s of %(need)s points", pairs.length),
        { n: pairs.length, points: pairPts, need: v.pairs_threshold ?? 26 })
      : fmt(_("Pairs: %(n)s of 5"), { n: pairs.length });
    E.info.append(h("span", { class: `pairs-total${(this.ruleset === "okey17" ? pairPts >= (v.pairs_threshold ?? 26) : pairs.length >= 5) ? " ok" : ""}` }, pairText));
  }

  matchIsOver() {
    const v = this.view;
    return !!(this.matchEnded || (v && (FINISHED.has(v.status) || v.match_over || (v.round_end && v.round_end.match_over))));
  }

  renderScores() {
    const E = this.el;
    const over = this.matchIsOver();
    const show = !!(this.lastScores && this.view && (over || this.scoreClosedFor !== this.lastScores));
    E.scores.hidden = !show;
    if (show) {
      E.scores.replaceChildren(...[
        h("h2", {}, fmt(_("Round %(n)s scores"), { n: (this.lastScores.round_index ?? this.view.round_index ?? 0) + 1 })),
        scoreTable(this.view, this.lastScores),
        over ? null : h("p", { class: "hint", id: "next-round" }, _("The next round starts shortly.")),
        over ? null : h("button", { type: "button", class: "btn", id: "score-close",
          onclick: () => { this.scoreClosedFor = this.lastScores; this.renderScores(); } }, _("Close")),
      ].filter(Boolean));
    }
    this.syncOverlay();
  }

  syncOverlay() { this.el.overlay.hidden = this.el.scores.hidden && this.el.matchOver.hidden; }

  renderMatchOver() {
    const E = this.el;
    if (!this.matchIsOver() || !this.view) { E.matchOver.hidden = true; this.syncOverlay(); return; }
    const v = this.view;
    const totals = (this.matchEnded && this.matchEnded.totals) || (v.round_end && v.round_end.totals) || v.totals || [];
    const high = this.isRami;   // rami: highest total wins; okey: lowest (RULES.md §3-5)
    const order = totals.map((t, s) => s).sort((a, b) => (high ? totals[b] - totals[a] : totals[a] - totals[b]) || a - b);
    const lobby = this.root.dataset.lobbyUrl || (this.config.urls && this.config.urls.lobby) || "/";
    E.matchOver.replaceChildren(
      h("h2", {}, _("Match over")),
      h("ol", { class: "standings" }, order.map((s) => h("li", { class: s === v.seat ? "me" : "" },
        playerName(v, s), " — ", String(totals[s])))),
      ...[this.teamStandings(totals)].filter(Boolean),   // replaceChildren would write null as "null"
      h("a", { class: "btn primary", href: lobby, id: "back-to-lobby" }, _("Back to the lobby")));
    E.matchOver.hidden = false;
    this.syncOverlay();
  }

  /** okey51 team play: the two teams (seats 0+2, 1+3), lowest total first (RULES.md §3). */
  teamStandings(totals) {
    const v = this.view;
    if (!(v.options && v.options.teams) || totals.length !== 4) return null;
    const teams = [0, 1].map((a) => ({ a, total: totals[a] + totals[a + 2] })).sort((x, y) => x.total - y.total || x.a - y.a);
    return h("ol", { class: "standings team-standings" }, teams.map((t) => h("li", { class: v.seat === t.a || v.seat === t.a + 2 ? "me" : "" },
      fmt(_("Team %(a)s & %(b)s"), { a: playerName(v, t.a), b: playerName(v, t.a + 2) }), " — ", String(t.total))));
  }

  // ---------------------------------------------------------------- drag and drop
  makeDropTarget(el, { put, sort = false }) {
    const S = window.Sortable;
    if (!S || this.blocked) return;
    const app = this;
    const s = S.create(el, {
      group: { name: "tiles", pull: true, put: (to, from, item) => put(from, item) },
      sort,
      draggable: ".tile",
      filter: ".face-down.outside, .swap-btn, .group-points",
      preventOnFilter: false,
      animation: 120,
      delayOnTouchOnly: true,
      delay: 60,
      fallbackTolerance: 4,
      ghostClass: "ghost",
      chosenClass: "chosen",
      onStart() { app.dragging = Date.now(); },
      onMove(evt) {
        // a face-down tile moves only within the rack (RULES.md §6)
        if (evt.dragged.classList.contains("face-down") && !(evt.to.dataset.drop || "").startsWith("slot:")) return false;
        return true;
      },
      onEnd(evt) {
        const src = evt.item.dataset.src;
        let drop = evt.to.dataset.drop;
        let index = evt.newDraggableIndex ?? evt.newIndex;
        if (evt.to === evt.from && !sort) {
          // a quick drag can end on a target before Sortable moved the tile there:
          // fall back to the element the native drop landed on
          const t = app.lastDrop || dropUnder(evt.originalEvent);
          if (t && t !== evt.from && app.root.contains(t)) { drop = t.dataset.drop; index = 99; }
          else drop = null;
        }
        app.lastDrop = null;
        setTimeout(() => {
          app.dragging = 0;
          app.renderLater = false;
          if (src && drop) app.onDrop(src, drop, index);
          app.render();
        }, 0);
      },
    });
    this.sortables.push(s);
  }
}

/** The drop target under the pointer or finger where a drag ended (touch has no `drop`). */
function dropUnder(ev) {
  if (!ev) return null;
  const p = ev.changedTouches && ev.changedTouches.length ? ev.changedTouches[0] : ev;
  if (typeof p.clientX !== "number") return null;
  const el = document.elementFromPoint(p.clientX, p.clientY);
  return el && el.closest ? el.closest("[data-drop]") : null;
}

function countOf(list) {
  const m = new Map();
  for (const t of list) m.set(t, (m.get(t) || 0) + 1);
  return m;
}

// take higher positions first so earlier indexes stay valid while removing
function bySourceDesc(a, b) {
  const pa = a.split(":").map(Number), pb = b.split(":").map(Number);
  return (pb[1] - pa[1]) || ((pb[2] || 0) - (pa[2] || 0));
}

function safeStorage() {
  try { return window.localStorage; } catch (_e) { return null; }
}

/**
 * A key that finds the focused control again after a re-render: its id, or its
 * data-src / data-slot / data-meld-id inside the table. null when nothing in the
 * table has focus.
 */
function focusKey(el, root) {
  if (!el || el === document.body || !root.contains(el)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const a of ["src", "slot", "meldId", "seat"]) {
    if (el.dataset && el.dataset[a] !== undefined) {
      const attr = a.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      return `${el.tagName.toLowerCase()}[data-${attr}="${CSS.escape(el.dataset[a])}"]`;
    }
  }
  return null;
}

function restoreFocus(key, root) {
  if (!key) return;
  const el = root.querySelector(key);
  if (el && el !== document.activeElement && !el.disabled && !el.closest("[hidden]")) el.focus({ preventScroll: true });
}
