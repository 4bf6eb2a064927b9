// The table page coming back into view wakes its socket the way the lobby's does
// (socket.js wakeWhenVisible): a sync when open, and at once the reconnect that the
// long wait after a refusal for too many sockets (4429) holds back.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { RULES } from "./rules.mjs";

function table() {
  const sockets = [];
  const app = new TableApp(freshRoot("9"), { ruleset: "okey51", rules: RULES.okey51 },
    { socketFactory: () => { const ws = new FakeSocket(); sockets.push(ws); return ws; }, storage: new MemoryStorage() });
  return { app, sockets };
}

/** The server refusing the table's socket as one too many (games consumers, 4429). */
function refuse(ws) {
  ws.onopen();
  ws.deliver({ type: "error", code: "too_many_sockets", message: "Too many open connections: close another tab." });
  ws.readyState = 3;
  ws.shut(4429);
}

function comeBack(state = "visible") {
  document.visibilityState = state;
  document.dispatch("visibilitychange");
}

test("back in view after a 4429, the table tries again at once instead of waiting 30 s", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { app, sockets } = table();
    refuse(sockets[0]);
    mock.timers.tick(29999);
    assert.equal(sockets.length, 1);              // the long wait, not 0.5 s
    comeBack("hidden");
    assert.equal(sockets.length, 1);              // going out of view changes nothing
    comeBack();                                   // the player closed the other tab
    assert.equal(sockets.length, 2);
    refuse(sockets[1]);                           // still one too many: the wait grows
    mock.timers.tick(59999);
    assert.equal(sockets.length, 2);
    mock.timers.tick(1);
    assert.equal(sockets.length, 3);
    app.stop();
  } finally {
    mock.timers.reset();
  }
});

test("back in view, an open table asks for a sync; a stopped one no longer listens", () => {
  const { app, sockets } = table();
  sockets[0].onopen();
  comeBack();
  assert.deepEqual(sockets[0].sent, [{ type: "sync" }]);
  clearInterval(app.clockTimer);
  app.stop();
  comeBack();
  assert.deepEqual(sockets[0].sent, [{ type: "sync" }]);
});
