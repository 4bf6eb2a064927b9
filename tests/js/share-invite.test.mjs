// The invite link's button: the share sheet on a touch screen whose browser has the Web
// Share API, the clipboard elsewhere; a cancelled share copies nothing, a failed one copies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { canShare, shareOrCopy } from "../../static/js/share-invite.js";

const DATA = { url: "https://okey.example/invite/ABC123/", title: "Table", text: "Join my okey table" };

function phone(coarse = true) {
  return { matchMedia: (query) => ({ matches: query === "(pointer: coarse)" && coarse }) };
}

function browser({ share, canShareResult = true } = {}) {
  const calls = { shared: [], copied: [] };
  const nav = { clipboard: { writeText: async (text) => { calls.copied.push(text); } } };
  if (share) {
    nav.share = async (data) => { calls.shared.push(data); return share(data); };
    nav.canShare = () => canShareResult;
  }
  return { nav, calls };
}

test("a phone with the Web Share API opens the share sheet with the link", async () => {
  const { nav, calls } = browser({ share: () => undefined });
  assert.equal(canShare(nav, phone(), DATA), true);
  assert.equal(await shareOrCopy(nav, phone(), DATA, () => assert.fail("no fallback")), "shared");
  assert.deepEqual(calls.shared, [DATA]);
  assert.deepEqual(calls.copied, []);
});

test("a desktop browser copies the link even when it has navigator.share", async () => {
  const { nav, calls } = browser({ share: () => undefined });
  assert.equal(canShare(nav, phone(false), DATA), false);
  assert.equal(await shareOrCopy(nav, phone(false), DATA, () => {}), "copied");
  assert.deepEqual(calls.copied, [DATA.url]);
  assert.deepEqual(calls.shared, []);
});

test("a phone without the Web Share API copies the link", async () => {
  const { nav, calls } = browser();
  assert.equal(canShare(nav, phone(), DATA), false);
  assert.equal(await shareOrCopy(nav, phone(), DATA, () => {}), "copied");
  assert.deepEqual(calls.copied, [DATA.url]);
});

test("data the browser says it cannot share is copied", async () => {
  const { nav, calls } = browser({ share: () => undefined, canShareResult: false });
  assert.equal(await shareOrCopy(nav, phone(), DATA, () => {}), "copied");
  assert.deepEqual(calls.shared, []);
  assert.deepEqual(calls.copied, [DATA.url]);
});

test("a share the player cancels is left at that; a failing share copies instead", async () => {
  const abort = browser({ share: () => { throw Object.assign(new Error("cancel"), { name: "AbortError" }); } });
  assert.equal(await shareOrCopy(abort.nav, phone(), DATA, () => {}), "cancelled");
  assert.deepEqual(abort.calls.copied, []);
  const broken = browser({ share: () => { throw Object.assign(new Error("no"), { name: "NotAllowedError" }); } });
  assert.equal(await shareOrCopy(broken.nav, phone(), DATA, () => {}), "copied");
  assert.deepEqual(broken.calls.copied, [DATA.url]);
});

test("without clipboard access the page's own copy runs", async () => {
  const nav = { clipboard: { writeText: async () => { throw new Error("denied"); } } };
  let fallback = 0;
  assert.equal(await shareOrCopy(nav, phone(false), DATA, () => { fallback += 1; }), "copied");
  assert.equal(fallback, 1);
});
