// A small stand-in for the browser DOM, enough for TableApp to build, render and take
// taps in `node --test` (no jsdom in this project). Selectors: comma lists of
// compound selectors (tag, #id, .class, [attr] / [attr="v"], :checked) with descendant spaces.
// Import it before the table modules: it defines document, window, Node, CSS.

// The apps under test keep their clock tick, heartbeat and reconnect timers running and
// the tests never stop them: unref'd, those timers cannot hold the test process open for
// the whole heartbeat period after the last test has finished.
for (const name of ["setInterval", "setTimeout"]) {
  const original = globalThis[name];
  globalThis[name] = (...args) => {
    const timer = original(...args);
    if (timer && typeof timer.unref === "function") timer.unref();
    return timer;
  };
}

class Node {
  constructor() { this.parentElement = null; this.childNodes = []; }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(v) { this.replaceChildren(String(v ?? "") === "" ? [] : new Text(String(v))); }
}

class Text extends Node {
  constructor(text) { super(); this.data = text; }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
}

class ClassList {
  constructor(el) { this.el = el; }
  get set() { return new Set(this.el.className.split(/\s+/).filter(Boolean)); }
  write(s) { this.el.className = [...s].join(" "); }
  add(...c) { const s = this.set; c.forEach((x) => s.add(x)); this.write(s); }
  remove(...c) { const s = this.set; c.forEach((x) => s.delete(x)); this.write(s); }
  contains(c) { return this.set.has(c); }
  toggle(c, force) {
    const on = force === undefined ? !this.contains(c) : !!force;
    if (on) this.add(c); else this.remove(c);
    return on;
  }
}

const dataAttr = (k) => `data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

class Element extends Node {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.className = "";
    this.attrs = new Map();
    this.dataset = {};
    this.listeners = {};
    this.hidden = false;
    this.disabled = false;
    this.tabIndex = -1;
    this.style = { setProperty() {} };
    this.classList = new ClassList(this);
  }
  get id() { return this.attrs.get("id") || ""; }
  set id(v) { this.attrs.set("id", String(v)); }
  get title() { return this.attrs.get("title") || ""; }
  set title(v) { this.attrs.set("title", String(v)); }
  get children() { return this.childNodes.filter((c) => c instanceof Element); }
  setAttribute(k, v) {
    if (k === "hidden") this.hidden = true;
    else if (k === "disabled") this.disabled = true;
    else this.attrs.set(k, String(v));
  }
  getAttribute(k) {
    if (k.startsWith("data-")) {
      const key = k.slice(5).replace(/-([a-z])/g, (_m, c) => c.toUpperCase());
      return this.dataset[key] ?? null;
    }
    if (k === "class") return this.className;
    return this.attrs.has(k) ? this.attrs.get(k) : null;
  }
  hasAttribute(k) { return this.getAttribute(k) !== null; }
  removeAttribute(k) { this.attrs.delete(k); }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  dispatch(type, ev = {}) {
    const e = { type, target: this, stopPropagation() { this.stopped = true; }, preventDefault() {}, ...ev };
    for (let el = this; el && !e.stopped; el = el.parentElement) for (const fn of el.listeners[type] || []) fn.call(el, e);
    return e;
  }
  click() { if (!this.disabled) this.dispatch("click"); }
  focus() { document.activeElement = this; }
  append(...nodes) {
    for (const n of nodes) {
      const node = n instanceof Node ? n : new Text(String(n));
      if (node.parentElement) node.parentElement.childNodes = node.parentElement.childNodes.filter((c) => c !== node);
      node.parentElement = this;
      this.childNodes.push(node);
    }
  }
  replaceChildren(...nodes) {
    for (const c of this.childNodes) c.parentElement = null;
    this.childNodes = [];
    this.append(...nodes.flat());
  }
  set innerHTML(v) { if (v !== "") throw new Error("dom-shim: innerHTML only clears"); this.replaceChildren(); }
  contains(n) { for (let x = n; x; x = x.parentElement) if (x === this) return true; return false; }
  closest(sel) { for (let x = this; x; x = x.parentElement) if (x instanceof Element && x.matches(sel)) return x; return null; }
  *descendants() { for (const c of this.children) { yield c; yield* c.descendants(); } }
  matches(sel) { return sel.split(",").some((s) => matchChain(this, s.trim().split(/\s+/))); }
  querySelectorAll(sel) { return [...this.descendants()].filter((e) => e.matches(sel)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
}

function matchOne(el, simple) {
  const re = /([a-zA-Z][\w-]*)|#([\w\\-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]|(:checked)/g;
  let m, seen = 0;
  while ((m = re.exec(simple))) {
    seen += m[0].length;
    if (m[1] && el.tagName !== m[1].toUpperCase()) return false;
    if (m[2] && el.id !== m[2].replace(/\\/g, "")) return false;
    if (m[3] && !el.classList.contains(m[3])) return false;
    if (m[4]) {
      const v = el.getAttribute(m[4]);
      if (v === null || (m[5] !== undefined && v !== m[5])) return false;
    }
    if (m[6] && !el.checked) return false;
  }
  if (seen !== simple.length) throw new Error(`dom-shim: unsupported selector ${simple}`);
  return true;
}

function matchChain(el, parts) {
  if (!matchOne(el, parts[parts.length - 1])) return false;
  if (parts.length === 1) return true;
  for (let a = el.parentElement; a; a = a.parentElement) if (matchChain(a, parts.slice(0, -1))) return true;
  return false;
}

// Element keeps data-* in dataset; attribute selectors read it through getAttribute.
const origSet = Element.prototype.setAttribute;
Element.prototype.setAttribute = function setAttribute(k, v) {
  if (k.startsWith("data-")) this.dataset[k.slice(5).replace(/-([a-z])/g, (_m, c) => c.toUpperCase())] = String(v);
  else origSet.call(this, k, v);
};
void dataAttr;

class Document extends Element {
  constructor() { super("#document"); this.body = new Element("body"); this.append(this.body); this.activeElement = this.body; }
  createElement(tag) { return new Element(tag); }
  createTextNode(text) { return new Text(text); }
  getElementById(id) { return this.querySelector(`#${id}`); }
}

globalThis.Node = Node;
globalThis.document = new Document();
globalThis.window = globalThis;
globalThis.location = { protocol: "http:", host: "table.test" };
globalThis.CSS = { escape: (s) => String(s).replace(/[^\w-]/g, (c) => `\\${c}`) };

/** A fake socket for TableApp: records sent frames; `deliver` plays a server frame. */
export class FakeSocket {
  constructor() { this.readyState = 1; this.sent = []; }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  deliver(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
  shut(code) { this.onclose({ code }); }
}

/** A localStorage stand-in. */
export class MemoryStorage {
  constructor() { this.data = new Map(); }
  getItem(k) { return this.data.has(k) ? this.data.get(k) : null; }
  setItem(k, v) { this.data.set(k, String(v)); }
  removeItem(k) { this.data.delete(k); }
}

/** A fresh #table-app root attached to the document (the previous one removed). */
export function freshRoot(tableId = "7") {
  document.body.replaceChildren();
  const root = document.createElement("div");
  root.id = "table-app";
  root.dataset.tableId = tableId;
  root.dataset.lobbyUrl = "/lobby/";
  document.body.append(root);
  return root;
}
