import { mock, test } from "node:test";
import assert from "node:assert/strict";
import { TableSocket, takeEarlySocket } from "../../static/js/table/socket.js";

class FakeWs {
  constructor() { this.readyState = 1; this.sent = []; }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  deliver(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
}

function open() {
  const frames = [];
  let ws;
  const sock = new TableSocket({ url: "ws://x/", onFrame: (f) => frames.push(f), factory: () => (ws = new FakeWs()) });
  return { sock, ws, frames };
}

test("actions carry a fresh id and the last version seen", () => {
  const { sock, ws } = open();
  ws.deliver({ type: "snapshot", version: 7, view: {} });
  assert.equal(sock.action({ type: "draw" }), "c1");
  assert.equal(sock.action({ type: "discard", tile: "R5" }), "c2");
  assert.deepEqual(ws.sent[0], { type: "action", id: "c1", version: 7, action: { type: "draw" } });
  assert.equal(ws.sent[1].id, "c2");
});

test("an older snapshot arriving late is dropped; a version gap asks for a sync", () => {
  const { ws, frames } = open();
  ws.deliver({ type: "snapshot", version: 5, view: { n: 5 } });
  ws.deliver({ type: "snapshot", version: 4, view: { n: 4 } });
  assert.deepEqual(frames.map((f) => f.version), [5]);
  ws.deliver({ type: "ack", id: "c1", version: 6 });      // next version: no sync
  assert.equal(ws.sent.length, 0);
  ws.deliver({ type: "round_end", version: 9, scores: [] });   // 6..8 missed
  assert.deepEqual(ws.sent, [{ type: "sync" }]);
});

test("offline actions are not sent and return null", () => {
  const { sock, ws } = open();
  ws.readyState = 3;
  assert.equal(sock.action({ type: "draw" }), null);
  assert.equal(ws.sent.length, 0);
});

test("a suspended frame or a 4401/4403/4404 close stops reconnecting and reports the code", () => {
  const states = [];
  let made = 0;
  let ws;
  const sock = new TableSocket({ url: "ws://x/", onFrame: () => {}, onState: (s, code) => states.push([s, code]),
    factory: () => { made++; return (ws = new FakeWs()); } });
  ws.deliver({ type: "error", code: "suspended", message: "Suspended until 1 Dec" });
  assert.equal(sock.closed, true);
  ws.onclose({ code: 4403 });
  assert.deepEqual(states.at(-1), ["refused", 4403]);
  assert.equal(made, 1);
  const other = [];
  let w2;
  new TableSocket({ url: "ws://x/", onFrame: () => {}, onState: (s, code) => other.push([s, code]), factory: () => (w2 = new FakeWs()) });
  w2.onclose({ code: 4404 });
  assert.deepEqual(other.at(-1), ["refused", 4404]);
});

function clocked() {
  const clock = { t: 0, beats: [], now: () => clock.t, setInterval: (f) => { clock.beats.push(f); return clock.beats.length; },
    clearInterval: (id) => { clock.beats[id - 1] = null; } };
  clock.tick = (ms) => { clock.t += ms; for (const f of clock.beats) if (f) f(); };
  const made = [];
  const frames = [];
  const sock = new TableSocket({ url: "ws://x/", onFrame: (f) => frames.push(f), clock,
    factory: () => { const ws = new FakeWs(); ws.closed = false; ws.close = () => { ws.closed = true; }; made.push(ws); return ws; } });
  return { sock, clock, made, frames };
}

test("an open socket pings and a pong keeps it; pongs never reach the page", () => {
  const { clock, made, frames } = clocked();
  made[0].onopen();
  assert.deepEqual(made[0].sent, []);            // a first connection needs no sync
  clock.tick(20000);
  assert.deepEqual(made[0].sent.at(-1), { type: "ping" });
  made[0].deliver({ type: "pong" });
  clock.tick(20000);
  assert.equal(made.length, 1);
  assert.equal(made[0].closed, false);
  assert.deepEqual(frames, []);
});

test("a server ping is answered pong at once, without a timer, and never reaches the page", () => {
  const { made, frames } = clocked();
  made[0].onopen();
  made[0].deliver({ type: "ping" });
  assert.deepEqual(made[0].sent, [{ type: "pong" }]);
  assert.deepEqual(frames, []);
});

test("no answer to a ping closes the socket and connects again, which asks for a sync", async () => {
  const { clock, made } = clocked();
  made[0].onopen();
  clock.tick(20000);                               // ping, then silence
  clock.tick(20000);
  assert.equal(made[0].closed, true);
  await new Promise((r) => setTimeout(r, 600));    // the first backoff step is 0.5 s
  assert.equal(made.length, 2);
  made[1].onopen();
  assert.deepEqual(made[1].sent, [{ type: "sync" }]);
});

test("a quiet spell without frames other than pongs asks for a sync", () => {
  const { clock, made } = clocked();
  made[0].onopen();
  made[0].deliver({ type: "snapshot", version: 3, view: {} });
  clock.tick(20000);
  made[0].deliver({ type: "pong" });
  assert.ok(!made[0].sent.some((f) => f.type === "sync"));
  clock.tick(20000);                               // 40 s since the last snapshot
  assert.ok(made[0].sent.some((f) => f.type === "sync"));
});

test("4408, 4429 and 1008 closes reconnect; only 4401/4403/4404 stop", () => {
  for (const code of [4408, 4429, 1008]) {
    const states = [];
    let ws;
    const sock = new TableSocket({ url: "ws://x/", onFrame: () => {}, onState: (s) => states.push(s),
      factory: () => (ws = new FakeWs()) });
    ws.onclose({ code });
    assert.equal(states.at(-1), "closed");
    assert.equal(sock.closed, false);
    sock.close();
  }
});

/** A socket the server refuses as one too many: accepted, `too_many_sockets`, then 4429. */
function refuse(ws, { frame = true, code = 4429 } = {}) {
  ws.onopen();
  if (frame) ws.deliver({ type: "error", code: "too_many_sockets", message: "Too many open connections" });
  ws.onclose({ code });
}

test("a socket over the cap waits 30 s, then longer, instead of knocking every 0.5 s", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const made = [];
    const states = [];
    const sock = new TableSocket({ url: "ws://x/", onFrame: () => {}, onState: (s, code) => states.push([s, code]),
      factory: () => { const ws = new FakeWs(); made.push(ws); return ws; } });
    refuse(made[0]);
    assert.deepEqual(states.at(-1), ["closed", 4429]);
    mock.timers.tick(29999);
    assert.equal(made.length, 1);                 // no 0.5 s, 1 s ... tries meanwhile
    mock.timers.tick(1);
    assert.equal(made.length, 2);
    refuse(made[1]);                              // its onopen did not reset the backoff
    mock.timers.tick(59999);
    assert.equal(made.length, 2);
    mock.timers.tick(1);
    assert.equal(made.length, 3);
    for (let i = 3; i < 8; i++) { refuse(made[i - 1]); mock.timers.tick(300000); }
    assert.equal(made.length, 8);                 // at most 5 min apart
    refuse(made[7], { frame: false });            // the close code alone says it too
    mock.timers.tick(299999);
    assert.equal(made.length, 8);
    sock.close();
  } finally {
    mock.timers.reset();
  }
});

test("the error frame alone makes the wait long, and the backoff restarts once the socket serves", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const made = [];
    const sock = new TableSocket({ url: "ws://x/", onFrame: () => {},
      factory: () => { const ws = new FakeWs(); made.push(ws); return ws; } });
    refuse(made[0], { code: 1006 });              // the 4429 lost on the way
    mock.timers.tick(29999);
    assert.equal(made.length, 1);
    mock.timers.tick(1);
    made[1].onopen();
    made[1].deliver({ type: "snapshot", version: 1, view: {} });
    made[1].onclose({ code: 1006 });              // an ordinary drop of a healthy socket
    mock.timers.tick(500);
    assert.equal(made.length, 3);
    made[2].onopen();                             // opened, then dropped before any frame
    made[2].onclose({ code: 1006 });
    mock.timers.tick(999);
    assert.equal(made.length, 3);                 // the backoff grew: 1 s
    mock.timers.tick(1);
    assert.equal(made.length, 4);
    sock.close();
  } finally {
    mock.timers.reset();
  }
});

test("wake() syncs an open socket, and tries a waiting reconnect at once", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const made = [];
    const sock = new TableSocket({ url: "ws://x/", onFrame: () => {},
      factory: () => { const ws = new FakeWs(); made.push(ws); return ws; } });
    made[0].onopen();
    assert.equal(sock.wake(), true);
    assert.deepEqual(made[0].sent, [{ type: "sync" }]);
    made[0].readyState = 3;
    refuse(made[0]);
    sock.wake();                                  // the player closed the other tab and came back
    assert.equal(made.length, 2);
    mock.timers.tick(30000);
    assert.equal(made.length, 2);                 // the long wait's timer went with it
    made[1].readyState = 3;
    refuse(made[1]);
    mock.timers.tick(59999);
    assert.equal(made.length, 2);                 // refused again: it waits longer still
    sock.close();
    sock.wake();
    mock.timers.tick(600000);
    assert.equal(made.length, 2);                 // nothing after close()
  } finally {
    mock.timers.reset();
  }
});

test("the socket the page opened early is taken over: its open and frames replayed in order, once", () => {
  const ws = new FakeWs();
  const snapshot = { type: "snapshot", version: 3, view: { n: 3 } };
  const win = { okeyEarlySocket: { path: "/ws/table/9/", ws, open: true, closed: null,
    frames: [{ data: JSON.stringify({ type: "ping" }) }, { data: JSON.stringify(snapshot) }] } };
  assert.equal(takeEarlySocket("/ws/table/8/", win), null, "another table's socket is not taken");
  const early = takeEarlySocket("/ws/table/9/", win);
  assert.equal(early.ws, ws);
  assert.equal(takeEarlySocket("/ws/table/9/", win), null, "taken once");
  const states = [];
  const frames = [];
  let made = 0;
  const sock = new TableSocket({ url: "ws://x/ws/table/9/", onFrame: (f) => frames.push(f), onState: (s) => states.push(s),
    factory: () => { made++; return new FakeWs(); }, early });
  assert.equal(made, 0, "no second socket");
  assert.deepEqual(states, ["connecting", "open"]);
  assert.deepEqual(frames, [snapshot]);
  assert.deepEqual(ws.sent, [{ type: "pong" }], "the early ping is answered");
  assert.equal(sock.version, 3);
  ws.deliver({ type: "ack", id: "c1", version: 4 });
  assert.equal(frames.length, 2, "later frames come through the client's own handler");
});

test("an early socket that closed before the client came is reconnected like any other", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const dead = new FakeWs();
    dead.readyState = 3;
    const states = [];
    let made = 0;
    new TableSocket({ url: "ws://x/", onFrame: () => {}, onState: (s) => states.push(s),
      factory: () => { made++; return new FakeWs(); }, early: { path: "/", ws: dead, open: false, frames: [], closed: { code: 1006 } } });
    assert.deepEqual(states, ["connecting", "closed"]);
    mock.timers.tick(600);
    assert.equal(made, 1, "a fresh socket after the backoff");
  } finally {
    mock.timers.reset();
  }
});
