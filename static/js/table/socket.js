// The live-table socket (PROTOCOL.md): versioned snapshots, actions with ids,
// `sync` on a version gap, automatic reconnect with backoff and resync.

/**
 * @param {object} opts
 * @param {string} opts.url ws:// or wss:// address of /ws/table/<id>/
 * @param {(frame: object) => void} opts.onFrame every accepted server frame
 * @param {(state: "connecting"|"open"|"closed"|"refused", code?: number) => void} [opts.onState]
 *   "refused" (with the close code 4401 not logged in, 4403 suspended, 4404 no such
 *   table) ends the reconnecting for good
 * @param {(url: string) => WebSocket} [opts.factory] for the demo's fake socket
 */
export class TableSocket {
  constructor({ url, onFrame, onState = () => {}, factory = (u) => new WebSocket(u) }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onState = onState;
    this.factory = factory;
    this.version = -1;      // last version seen
    this.seq = 0;
    this.retry = 0;
    this.ws = null;
    this.closed = false;
    this.connect();
  }

  connect() {
    this.onState("connecting");
    const ws = this.factory(this.url);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; this.onState("open"); };
    ws.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch (_e) { return; }
      this.receive(frame);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      // 4401/4403/4404: not logged in, suspended, no such table — retrying will not help
      if (ev && [4401, 4403, 4404].includes(ev.code)) { this.closed = true; this.onState("refused", ev.code); return; }
      this.onState("closed");
      if (this.closed) return;
      // backoff: 0.5 s, 1 s, 2 s ... capped at 15 s; the server sends a snapshot on connect
      const delay = Math.min(15000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  /**
   * Handle one server frame: drop stale snapshots, ask for a sync on a gap. An
   * `error` with code `suspended` (sent just before the 4403 close) stops the
   * reconnecting even if the close code gets lost on the way.
   */
  receive(frame) {
    if (frame.type === "error" && frame.code === "suspended") this.closed = true;
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

  close() { this.closed = true; if (this.ws) this.ws.close(); }
}

/** ws(s)://host + path for the page's origin. */
export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}
