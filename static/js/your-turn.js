// A table page in the background says "your turn": the page title starts with "(●) Your
// turn", the favicon gets an orange dot, a browser notification shows when the player
// allowed them, and the notification list gets a "your turn" line (the site's other open
// pages hear of it too). All of it goes when the page comes back into view or the turn
// passes. It reads the turn from the table client's own mark, #table-app.my-turn
// (static/js/table/app.js), so the table's views need not know of it.
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#145a40"/>'
  + '<rect x="14" y="12" width="30" height="40" rx="5" fill="#fff"/><circle cx="46" cy="46" r="15" fill="#d9822b" stroke="#fff" stroke-width="4"/></svg>');

function iconLink() {
  let link = document.querySelector("link[rel~=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

/**
 * Watch the table page's turn. `text` is the page's #social-text ({your_turn, your_turn_at});
 * `csrf()` the form token; `notice(text, tag, url)` shows a browser notification (social.js).
 * Returns a function that stops watching.
 */
export function watchTurn(text, csrf, notice) {
  const app = document.getElementById("table-app");
  const match = location.pathname.match(/\/table\/(\d+)\//);
  if (!app || !match) return () => {};
  const tableId = match[1];
  const title = document.title;
  const link = iconLink();
  const icon = link.getAttribute("href");
  let shown = false;      // the title and favicon say "your turn"
  let announced = false;  // this turn was told already (notification, list line)

  const show = () => {
    if (!shown) {
      document.title = `(●) ${text.your_turn || "Your turn"} · ${title}`;
      link.setAttribute("href", TURN_ICON);
      shown = true;
    }
    if (announced) return;
    announced = true;
    const line = (text.your_turn_at || "").replace("%(table)s", tableId) || document.title;
    notice(line, `okey-turn-/table/${tableId}/`, location.pathname);
    fetch(`/notifications/turn/${tableId}/`, { method: "POST", headers: { "X-CSRFToken": csrf() }, credentials: "same-origin" }).catch(() => {});
  };
  const clear = () => {
    if (!shown) return;
    document.title = title;
    link.setAttribute("href", icon);
    shown = false;
  };
  const update = () => {
    const mine = app.classList.contains("my-turn") && !app.classList.contains("blocked");
    if (!mine) { announced = false; clear(); return; }
    if (document.hidden) show();
    else clear();
  };
  const observer = new MutationObserver(update);
  observer.observe(app, { attributes: true, attributeFilter: ["class"] });
  document.addEventListener("visibilitychange", update);
  update();
  return () => { observer.disconnect(); document.removeEventListener("visibilitychange", update); clear(); };
}
