// A form that posts is sent once: a second submit within the guard's time is stopped; a
// GET form, a submit a form's own script took over, and a submit after the guard lapsed
// go through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { guardSubmit } from "../../static/js/send-once.js";

function submit(form) {
  return { target: form, defaultPrevented: false, stopped: false, preventDefault() { this.stopped = true; } };
}

test("a second submit of a POST form soon after the first is stopped", () => {
  const form = { method: "post" };
  const first = submit(form);
  assert.equal(guardSubmit(first, 1000), false);
  assert.equal(first.stopped, false);
  const second = submit(form);
  assert.equal(guardSubmit(second, 1300), true);
  assert.equal(second.stopped, true);
  // another form is its own
  assert.equal(guardSubmit(submit({ method: "POST" }), 1300), false);
});

test("a GET form, a submit taken over by the form's script, and a late resend go through", () => {
  const search = { method: "get" };
  guardSubmit(submit(search), 0);
  assert.equal(guardSubmit(submit(search), 10), false);
  const fetched = { method: "post" };
  for (const at of [0, 10]) {
    const event = { ...submit(fetched), defaultPrevented: true };
    assert.equal(guardSubmit(event, at), false);
  }
  const lost = { method: "post" };
  guardSubmit(submit(lost), 0);
  assert.equal(guardSubmit(submit(lost), 9000), false);
});
