// A form that posts is sent once: a second press of its button while the first request is
// still on its way (a double click, a thumb's second tap on a slow connection) would run
// the action twice on the server, such as the lobby's "Create the table" making two tables.
// A form whose own script took the submit over (defaultPrevented: it sends by fetch) is
// left alone. The guard lapses after a while, so a request lost to the network can be sent
// again, and when the page comes back from the back-forward cache.
const RESEND_AFTER_MS = 8000;
const sentAt = new WeakMap();

/**
 * Stop a second submit of the same POST form within RESEND_AFTER_MS.
 * @param {SubmitEvent} event the document's submit event (bubbling phase)
 * @param {number} now the time in ms (performance.now())
 * @returns {boolean} whether the submit was stopped
 */
export function guardSubmit(event, now) {
  const form = event.target;
  if (event.defaultPrevented || !form || (form.method || "").toLowerCase() !== "post") return false;
  const last = sentAt.get(form);
  if (last !== undefined && now - last < RESEND_AFTER_MS) {
    event.preventDefault();
    return true;
  }
  sentAt.set(form, now);
  return false;
}

if (typeof document !== "undefined") {
  document.addEventListener("submit", (event) => guardSubmit(event, performance.now()));
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of document.forms) sentAt.delete(form);
  });
}
