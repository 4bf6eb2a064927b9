// A table area taller than its box scrolls inside itself; a hint says so, so that the
// last melds and "New meld" are not lost below the fold (`.scrolls`, data-hint).
import { _ } from "../i18n.js";

/**
 * Mark `el` when its content overflows it (call after a render).
 * @param {HTMLElement} el a scrolling box (the table melds)
 */
export function markScroll(el) {
  const more = el.scrollHeight > el.clientHeight + 2;
  el.classList.toggle("scrolls", more);
  if (more) el.dataset.hint = _("Scroll for more melds");
}
