// Every page of a signed-in player: its `/ws/me/` socket (docs/protocol.md §15) brings
// challenges (a box with Accept and Decline, on every open page at once), notifications
// (the menu's counter, a short toast, a browser notification when the player allowed
// them and the page is in the background) and the presence of the players they follow
// (the friends list, live). The texts come written by the server in the page's language;
// the few of the page itself are in #social-text.
// A table page also loads the your-turn module (title, favicon, notification).
const TEXT = JSON.parse(document.getElementById("social-text")?.textContent || "{}");
const live = document.getElementById("social-live");
const PING_EVERY = 20000;  // ms, the heartbeat HeartbeatMixin answers
const RETRY = [1000, 2000, 5000, 10000, 30000];  // ms before the n-th reconnect in a row

function csrf() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function setUnread(n) {
  const badge = document.getElementById("unread-count");
  if (!badge) return;
  badge.textContent = String(n);
  badge.hidden = !n;
}

/** A browser notification, only when the player allowed them and this page is not in view. */
export function browserNotice(text, tag, url) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return null;
  try {
    const note = new Notification(text, { tag, icon: "/static/icons/icon-192.png" });
    note.onclick = () => { window.focus(); if (url) location.assign(url); note.close(); };
    return note;
  } catch (e) {
    return null;  // Android Chrome allows them from a service worker only
  }
}

function closeBox(box) {
  box.remove();
}

function toast(text, url, cls = "") {
  const box = el("div", { class: `social-box toast ${cls}`, role: "status" },
    url ? el("a", { href: url, class: "toast-text" }, text) : el("span", { class: "toast-text" }, text),
    el("button", { type: "button", class: "box-close", "aria-label": TEXT.close || "×", onclick: () => closeBox(box) }, "×"));
  live.append(box);
  setTimeout(() => box.remove(), 12000);
  return box;
}

async function answer(url, box) {
  box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  try {
    const response = await fetch(url, { method: "POST", headers: { "X-CSRFToken": csrf(), Accept: "application/json" }, credentials: "same-origin" });
    const data = await response.json();
    if (data.url) { location.assign(data.url); return; }
    if (data.error) { box.querySelector(".box-text").textContent = data.error; }
    else closeBox(box);
  } catch (e) {
    box.querySelectorAll("button").forEach((b) => { b.disabled = false; });
  }
}

function challengeBox(item) {
  const c = item.challenge;
  if (!c || live.querySelector(`.challenge-box[data-challenge="${c.id}"]`)) return;
  const box = el("div", { class: "social-box challenge-box", role: "alertdialog", "aria-label": item.text, "data-challenge": String(c.id) },
    el("p", { class: "box-text" }, item.text),
    el("div", { class: "box-actions" },
      el("button", { type: "button", class: "primary challenge-accept", onclick: () => answer(c.accept_url, box) }, c.accept),
      el("button", { type: "button", class: "challenge-decline", onclick: () => answer(c.decline_url, box) }, c.decline)));
  live.prepend(box);
}

const STATE_TEXT = { playing: "at_table", watching: "watching", online: "online", offline: "offline" };

function presence(frame) {
  for (const li of document.querySelectorAll(`#friends-list .person[data-user="${frame.user}"]`)) {
    li.dataset.state = frame.state;
    const badge = li.querySelector(".presence");
    if (badge) badge.dataset.state = frame.state;
    const text = li.querySelector(".presence-text");
    if (text) text.textContent = TEXT[STATE_TEXT[frame.state]] || frame.state;
    const link = li.querySelector(".presence-table");
    if (link) {
      link.hidden = !frame.table;
      if (frame.table) link.href = `/table/${frame.table}/`;
    }
  }
}

function handle(frame) {
  switch (frame.type) {
    case "hello":
      setUnread(frame.unread);
      (frame.challenges || []).forEach(challengeBox);
      break;
    case "notification": {
      setUnread(frame.unread);
      const item = frame.notification;
      if (item.challenge) challengeBox(item);
      else if (!(item.kind === "your_turn" && item.url === location.pathname)) toast(item.text, item.url, `note-${item.kind}`);
      const tag = item.kind === "your_turn" ? `okey-turn-${item.url}` : `okey-note-${item.id}`;
      browserNotice(item.text, tag, item.url);
      break;
    }
    case "unread":
      setUnread(frame.unread);
      break;
    case "presence":
      presence(frame);
      break;
    case "challenge_accepted": {
      const box = el("div", { class: "social-box accepted-box", role: "alert" },
        el("p", { class: "box-text" }, frame.text),
        el("div", { class: "box-actions" }, el("a", { class: "button primary", href: frame.url }, frame.go),
          el("button", { type: "button", class: "box-close", "aria-label": TEXT.close || "×", onclick: () => closeBox(box) }, "×")));
      live.prepend(box);
      browserNotice(frame.text, `okey-accepted-${frame.id}`, frame.url);
      break;
    }
    case "challenge_closed":
      live.querySelectorAll(`.challenge-box[data-challenge="${frame.id}"]`).forEach(closeBox);
      break;
    default:
      break;
  }
}

function connect(attempt = 0) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${proto}//${location.host}/ws/me/?path=${encodeURIComponent(location.pathname)}`);
  let ping = null;
  let opened = false;
  socket.addEventListener("open", () => {
    opened = true;
    ping = setInterval(() => socket.readyState === 1 && socket.send('{"type":"ping"}'), PING_EVERY);
  });
  socket.addEventListener("message", (event) => {
    try { handle(JSON.parse(event.data)); } catch (e) { /* a frame this page cannot use */ }
  });
  socket.addEventListener("close", (event) => {
    clearInterval(ping);
    if (event.code === 4401 || event.code === 4429) return;  // signed out, or too many pages open
    const next = opened ? 0 : attempt + 1;
    setTimeout(() => connect(next), RETRY[Math.min(next, RETRY.length - 1)]);
  });
  window.okeyPageSocket = socket;
}

function allowButton() {
  const button = document.getElementById("allow-notifications");
  const on = document.getElementById("notifications-allowed");
  if (!button || !("Notification" in window)) return;
  const show = () => {
    button.hidden = Notification.permission !== "default";
    if (on) on.hidden = Notification.permission !== "granted";
  };
  // the browser's prompt comes from this click only, never on its own when a page loads
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    show();
  });
  show();
}

/**
 * The boxes stand over the bottom of the page, a challenge until it is answered: the page
 * gets room below its content as tall as they are, so that its last controls ("Delete my
 * account" on a phone) can still be scrolled above them. The table page keeps its one-screen
 * layout.
 */
function keepRoomBelow() {
  if (typeof ResizeObserver === "undefined" || document.body.classList.contains("table-page")) return;
  new ResizeObserver(() => {
    const tall = live.offsetHeight;
    document.body.style.paddingBottom = tall ? `${tall + 16}px` : "";
  }).observe(live);
}

if (live) {
  connect();
  allowButton();
  keepRoomBelow();
  if (document.getElementById("table-app")) import("./your-turn.js").then((m) => m.watchTurn(TEXT, csrf, browserNotice));
}
