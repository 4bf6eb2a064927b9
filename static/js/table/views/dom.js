// DOM helpers shared by the views: an element builder, keeping the focus across a
// re-render, and making a blocked table inert.

/** Create an element: h("div", {class: "x", dataset: {...}, onclick}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * A key that finds the focused control again after a re-render: its id, or its
 * data-src / data-slot / data-meld-id / data-seat inside the table. null when nothing
 * in the table has focus.
 * @param {Element|null} el document.activeElement
 * @param {Element} root the table
 * @returns {string|null} a selector
 */
export function focusKey(el, root) {
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

/** Focus the control `key` (from focusKey) names again, if it is still there and usable. */
export function restoreFocus(key, root) {
  if (!key) return;
  const el = root.querySelector(key);
  if (el && el !== document.activeElement && !el.disabled && !el.closest("[hidden]")) el.focus({ preventScroll: true });
}

/**
 * The player can no longer act: disable every control of the table and of the seat
 * list above it (#prestart), except the way back to the lobby, and take the tiles
 * out of the keyboard order.
 * @param {Element} root the table
 */
export function disableControls(root) {
  const controls = [...root.querySelectorAll("button, input, textarea, select"),
    ...document.querySelectorAll("#prestart button")];
  for (const c of controls) if (c.id !== "back-to-lobby") c.disabled = true;
  for (const t of root.querySelectorAll(".tile")) { t.tabIndex = -1; t.removeAttribute("role"); }
}
