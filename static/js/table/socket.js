// The live-table socket (docs/protocol.md §1-§4): versioned snapshots, actions with ids,
// `sync` on a version gap, automatic reconnect with backoff and resync, and a heartbeat
// (docs/protocol.md): a `ping` every PING_MS; no frame within PONG_MS of it
// means the connection is dead (it is closed and reconnected); after a quiet spell of
// QUIET_MS without any other frame, or on a reconnect, a `sync`, so a broadcast the server
// lost (e.g. while its pub/sub reconnected) never leaves the page a turn behind. The server
// pings too (the player to move, when quiet): a `ping` is answered `pong` at once, from the
// message handler, so a hidden tab whose timers are slowed answers as fast.

export const PING_MS = 20000;
export const PONG_MS = 10000;
export const QUIET_MS = 30000;
// After a 4429 (too many sockets for this user or address) the next try waits CAP_RETRY_MS,
// doubling up to CAP_RETRY_MAX_MS: the server only takes a socket once another tab of the
// game has closed, and the short backoff would knock every 0.5-15 s for nothing. The
// page can still try at once when the player comes back to it (`wake`).
export const CAP_RETRY_MS = 30000;
export const CAP_RETRY_MAX_MS = 300000;

/**
 * @param {object} opts
 * @param {string} opts.url ws:// or wss:// address of /ws/table/<id>/
 * @param {(frame: object) => void} opts.onFrame every accepted server frame
 * @param {(state: "connecting"|"open"|"closed"|"refused", code?: number) => void} [opts.onState]
 *   "refused" (with the close code 4401 not logged in, 4403 suspended, 4404 no such
 *   table) ends the reconnecting for good; "closed" comes with the close code when there
 *   was one (4429: over the socket cap, the next try waits long)
 * @param {(url: string) => WebSocket} [opts.factory] for the demo's fake socket
 * @param {{setInterval, clearInterval, now}} [opts.clock] timers (tests drive their own)
 * @param {{ws, open: boolean, frames: MessageEvent[], closed: CloseEvent|null}|null} [opts.early]
 *   a socket the page opened before its scripts ran (`takeEarlySocket`): the first
 *   connection is that one, with what it saw until now replayed in order
 */
export class TableSocket {
  constructor({ url, onFrame, onState = () => {}, factory = (u) => new WebSocket(u), clock = null, early = null }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onState = onState;
    this.factory = factory;
    this.clock = clock || { setInterval: (f, ms) => setInterval(f, ms), clearInterval: (t) => clearInterval(t),
      now: () => Date.now() };
    this.version = -1;      // last version seen
    this.seq = 0;
    this.retry = 0;         // failed tries since the last healthy connection (the backoff)
    this.capped = false;    // the server refused the socket as one too many (4429)
    this.timer = null;      // the pending reconnect
    this.ws = null;
    this.closed = false;
    this.opened = false;    // a connection was open before: the next open is a reconnect
    this.beat = null;
    this.early = early;
    this.connect();
  }

  /** Every PING_MS while open: judge the last ping, send the next (see the file's head). */
  heartbeat() {
    const now = this.clock.now();
    if (this.pingAt !== null && this.lastFrameAt < this.pingAt && now - this.pingAt >= PONG_MS) {
      // No answer: a dead connection the browser has not noticed. Its close handshake
      // may never finish, so reconnect now rather than on its `close` event.
      const dead = this.ws;
      this.ws = null;
      this.clock.clearInterval(this.beat);
      this.beat = null;
      dead.close();
      this.onState("closed");
      this.reconnectLater();
      return;
    }
    if (now - this.lastOtherAt >= QUIET_MS) { this.lastOtherAt = now; this.send({ type: "sync" }); }
    this.pingAt = now;
    this.send({ type: "ping" });
  }

  connect() {
    this.onState("connecting");
    const early = this.early;
    this.early = null;
    const ws = early ? early.ws : this.factory(this.url);
    this.ws = ws;
    ws.onopen = () => {
      // The backoff is not reset here: a socket over the cap is accepted, then refused
      // (`too_many_sockets`, 4429). It is once the server sends what it serves (`receive`).
      this.lastFrameAt = this.lastOtherAt = this.clock.now();
      this.pingAt = null;
      if (this.beat !== null) this.clock.clearInterval(this.beat);
      this.beat = this.clock.setInterval(() => { if (this.ws === ws) this.heartbeat(); }, PING_MS);
      if (this.opened) this.send({ type: "sync" });   // catch up with what happened while away
      this.opened = true;
      this.onState("open");
    };
    ws.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch (_e) { return; }
      this.lastFrameAt = this.clock.now();
      if (frame.type === "pong") return;
      if (frame.type === "ping") { this.send({ type: "pong" }); return; }
      this.lastOtherAt = this.lastFrameAt;
      this.receive(frame);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      if (this.beat !== null) { this.clock.clearInterval(this.beat); this.beat = null; }
      // 4401/4403/4404: not logged in, suspended, no such table — retrying will not help;
      // 4408 (idle), 4429 (too many sockets), 1008 (flood) and the rest: retry with backoff
      if (ev && [4401, 4403, 4404].includes(ev.code)) { this.closed = true; this.onState("refused", ev.code); return; }
      if (ev && ev.code === 4429) this.overCap();
      this.onState("closed", ev ? ev.code : undefined);
      this.reconnectLater();
    };
    if (early) {
      // what the socket saw before this client existed, in the order it came
      if (early.open) ws.onopen();
      for (const ev of early.frames) ws.onmessage(ev);
      if (early.closed) ws.onclose(early.closed);
    }
  }

  /** Refused as one too many: the long waits start, at their first step. */
  overCap() {
    if (!this.capped) { this.capped = true; this.retry = 0; }
  }

  /**
   * Connect again after a backoff: 0.5 s, 1 s, 2 s ... capped at 15 s; after a refusal
   * for too many sockets 30 s, 1 min ... capped at 5 min (not once closed).
   */
  reconnectLater() {
    if (this.closed) return;
    const n = this.retry++;
    const delay = this.capped ? Math.min(CAP_RETRY_MAX_MS, CAP_RETRY_MS * 2 ** n) : Math.min(15000, 500 * 2 ** n);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; if (!this.closed) this.connect(); }, delay);
  }

  /**
   * The page is in view again: `sync` when open; when a reconnect is waiting (the long
   * wait after a 4429: the player may have just closed the other tab), try it now. The
   * backoff is kept, so a refusal again waits longer still.
   * @returns {boolean} a sync went out
   */
  wake() {
    if (this.sync()) return true;
    if (this.timer !== null && !this.closed) {
      clearTimeout(this.timer);
      this.timer = null;
      this.connect();
    }
    return false;
  }

  /**
   * Handle one server frame: drop stale snapshots, ask for a sync on a gap. An
   * `error` with code `suspended` (sent just before the 4403 close) stops the
   * reconnecting even if the close code gets lost on the way; one with code
   * `too_many_sockets` (before the 4429) makes the next try wait long. Any other frame
   * shows the connection serves: only then does the backoff start again from 0.5 s.
   */
  receive(frame) {
    if (frame.type === "error" && frame.code === "suspended") this.closed = true;
    if (frame.type === "error" && frame.code === "too_many_sockets") this.overCap();
    else if (frame.type !== "error") { this.retry = 0; this.capped = false; }
    const v = typeof frame.version === "number" ? frame.version : null;
    if (frame.type === "snapshot") {
      if (v !== null && v < this.version) return;        // an older view arriving late
      if (v !== null) this.version = v;
    } else if (v !== null && v > this.version + 1 && this.version >= 0) {
      this.send({ type: "sync" });
    }
    this.onFrame(frame);
  }

  send(frame) {
    if (this.ws && this.ws.readyState === 1) { this.ws.send(JSON.stringify(frame)); return true; }
    return false;
  }

  /**
   * Send a RULES.md §7 action (without seat).
   * @returns {string|null} the frame id ("c1", "c2" ...), or null when offline
   */
  action(action) {
    const id = `c${++this.seq}`;
    return this.send({ type: "action", id, version: this.version, action }) ? id : null;
  }

  sync() { return this.send({ type: "sync" }); }

  close() {
    this.closed = true;
    if (this.timer !== null) { clearTimeout(this.timer); this.timer = null; }
    if (this.beat !== null) { this.clock.clearInterval(this.beat); this.beat = null; }
    if (this.ws) this.ws.close();
  }
}

/**
 * Wake `socket` (`TableSocket.wake`) each time `doc` comes back into view: a phone
 * waking up or a tab brought to the front syncs at once, and a socket waiting out its
 * long backoff after a 4429 tries now, as the player may have just closed the other tab.
 * The lobby and the table page both go through here, so they behave the same.
 * @param {TableSocket} socket
 * @param {Document} [doc]
 * @returns {() => void} stops listening (a page that drops its socket)
 */
export function wakeWhenVisible(socket, doc = document) {
  const onChange = () => { if (doc.visibilityState === "visible") socket.wake(); };
  doc.addEventListener("visibilitychange", onChange);
  return () => doc.removeEventListener("visibilitychange", onChange);
}

/**
 * The socket to `path` that the page opened in its head, before its scripts came
 * (templates/games/table.html, `window.okeyEarlySocket`): the server builds the first
 * snapshot while the scripts load. Each is taken once; null when there is none.
 * @param {string} path /ws/table/<id>/
 * @param {object} [win] the window
 * @returns {{ws: WebSocket, open: boolean, frames: MessageEvent[], closed: CloseEvent|null}|null}
 */
export function takeEarlySocket(path, win = typeof window !== "undefined" ? window : {}) {
  const early = win.okeyEarlySocket;
  if (!early || early.path !== path) return null;
  win.okeyEarlySocket = null;
  return early;
}

/** ws(s)://host + path for the page's origin. */
export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}
