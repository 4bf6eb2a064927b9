// The lobby page (templates/games/lobby.html): the create form shows only the chosen
// game's options, and the open tables list stays live through /ws/lobby/ on the table's
// socket client (table/socket.js: reconnect with backoff, `sync` when the page comes
// back into view, e.g. a phone waking up). The lobby consumer sends
// {"type": "tables", "tables": [...]} on connect and on every change. A socket over the
// address's cap is refused (`error` `too_many_sockets`, close 4429): the lists then say
// why above them, dimmed as stale, and the socket waits long before it tries again
// (30 s up to 5 min), or tries as soon as the page is back in view, which is when the
// player has likely closed the other tab the message asks them to close.
import { TableSocket, socketUrl, wakeWhenVisible } from "./table/socket.js";

/**
 * Show only the options of the chosen game: fields marked data-rulesets="okey51 ..."
 * (and, for rami, data-length="rounds"|"target" by the chosen match length), of the
 * chosen mode (data-modes), and the move time (data-move-clock) unless the table is a
 * practice one. The server ignores the hidden ones.
 * @param {HTMLFormElement} form the create-table form
 */
export function showChosenOptions(form) {
  const ruleset = form.querySelector('[name="ruleset"]');
  const length = form.querySelector('[name="rami_length"]');
  for (const el of form.querySelectorAll("[data-rulesets]")) {
    let shown = el.dataset.rulesets.split(" ").includes(ruleset.value);
    if (shown && el.dataset.length) shown = !!length && length.value === el.dataset.length;
    el.hidden = !shown;
  }
  // "private" is for online tables, "practice" (no move clock) for solo ones
  const mode = form.querySelector('[name="mode"]:checked');
  for (const el of form.querySelectorAll("[data-modes]")) {
    el.hidden = !!mode && !el.dataset.modes.split(" ").includes(mode.value);
  }
  // a practice table has no move clock, so its move time is not asked (the hidden field
  // still sends its value, which such a table never uses); practice is for solo tables
  // only, its row hidden for the others
  const practice = form.querySelector('[name="practice"]');
  const row = practice && practice.closest("[data-modes]");
  const noClock = !!practice && practice.checked && !(row && row.hidden);
  for (const el of form.querySelectorAll("[data-move-clock]")) el.hidden = noClock;
}

/** A cell; `label` (its column's title) is shown before the value on a phone, where a
 * row reads as two lines without the header row (site.css). */
function cell(text, label) {
  const td = document.createElement("td");
  td.textContent = String(text);
  if (label) td.dataset.label = label;
  return td;
}

/**
 * A cell naming players, each after their face (accounts/faces.py): `people` is a list of
 * {name, avatar?}; the names are joined by ", " as the plain cell would write them.
 */
function facesCell(people, label) {
  const td = document.createElement("td");
  people.forEach((p, i) => {
    if (i) td.append(", ");
    if (p.avatar) {
      const img = document.createElement("img");
      img.className = "face face-small";
      for (const [k, v] of [["src", p.avatar], ["alt", ""], ["width", "24"], ["height", "24"]]) img.setAttribute(k, v);
      td.append(img);
    }
    td.append(String(p.name));
  });
  if (label) td.dataset.label = label;
  return td;
}

/** The column titles of the list `body` belongs to, as the page's header row says them. */
function columnTitles(body) {
  const table = body.closest("table");
  return table ? [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim()) : [];
}

function joinForm(table, csrf, label) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/table/${table.id}/join/`;
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrf;
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = label;
  form.append(token, button);
  return form;
}

/** The one-cell row a list shows when it has nothing to list. */
function emptyRow(message) {
  const tr = document.createElement("tr");
  tr.className = "empty";
  const td = cell(message);
  td.colSpan = 6;
  tr.append(td);
  return tr;
}

/** A table's game as the lists name it: the ruleset, and "teams" when it is played in teams. */
function gameName(t, text) {
  return (t.ruleset_name || t.ruleset) + (t.options && t.options.teams ? ` · ${text.teams}` : "");
}

/**
 * Fill the open tables' body from a `tables` frame.
 * @param {HTMLElement} body the list's tbody
 * @param {{id, ruleset, ruleset_name?, options?, creator, seats_taken, players, move_time}[]} tables
 * @param {object} page {text: {join, empty, teams} (translated by the server), authenticated, csrf}
 */
export function renderTables(body, tables, { text, authenticated, csrf }) {
  tables = tables.filter((t) => !t.status || t.status === "open");
  body.replaceChildren();
  if (!tables.length) {
    body.append(emptyRow(text.empty));
    return;
  }
  const titles = columnTitles(body);
  for (const t of tables) {
    const tr = document.createElement("tr");
    const game = gameName(t, text);
    tr.append(cell(t.id), cell(game), facesCell([{ name: t.creator, avatar: t.creator_avatar }], titles[2]), cell(`${t.seats_taken}/${t.players}`, titles[3]),
      cell(`${t.move_time} s`, titles[4]));
    const td = document.createElement("td");
    if (authenticated) td.append(joinForm(t, csrf, text.join));
    tr.append(td);
    body.append(tr);
  }
}

/**
 * Fill the running tables' body (public matches to watch) from a `tables` frame.
 * @param {HTMLElement} body the list's tbody
 * @param {{id, status, ruleset, ruleset_name?, options?, seats?: {name, computer, left?}[], round?, spectators?}[]} tables
 * @param {object} page {text: {watch, computer, none_running, teams, round}}
 */
export function renderRunning(body, tables, { text }) {
  const running = tables.filter((t) => t.status === "playing");
  body.replaceChildren();
  if (!running.length) {
    body.append(emptyRow(text.none_running));
    return;
  }
  const titles = columnTitles(body);
  for (const t of running) {
    const tr = document.createElement("tr");
    tr.dataset.table = String(t.id);
    const game = gameName(t, text);
    const seats = (t.seats || []).map((s) => ({ name: s.left ? `${s.name} (${text.computer})` : s.name, avatar: s.avatar }));
    tr.append(cell(t.id), cell(game), facesCell(seats, titles[2]), cell(t.round == null ? "–" : t.round, titles[3]),
      cell(t.spectators || 0, titles[4]));
    const td = document.createElement("td");
    const a = document.createElement("a");
    a.className = "button watch-link";
    a.href = `/table/${t.id}/`;
    a.textContent = text.watch;
    td.append(a);
    tr.append(td);
    body.append(tr);
  }
}

/**
 * Start the lobby's script on `doc`.
 * @param {Document} doc the lobby page
 * @param {object} [opts] {socketFactory(url) -> WebSocket-like} (tests)
 * @returns {{socket: TableSocket|null}} the live list's socket (null without the list)
 */
export function startLobby(doc = document, { socketFactory } = {}) {
  const form = doc.querySelector("form.create-table");
  if (form) {
    for (const name of ["ruleset", "rami_length", "mode", "practice"]) {
      for (const field of form.querySelectorAll(`[name="${name}"]`)) {
        field.addEventListener("change", () => showChosenOptions(form));
      }
    }
    showChosenOptions(form);
  }
  const list = doc.getElementById("open-tables");
  if (!list) return { socket: null };
  const body = list.querySelector("tbody");
  const json = (id) => JSON.parse(doc.getElementById(id).textContent);
  const page = {
    text: json("lobby-i18n"),
    authenticated: json("is-authenticated"),
    csrf: (doc.querySelector('input[name="csrfmiddlewaretoken"]') || {}).value || "",
  };
  const running = doc.getElementById("running-tables");
  const notice = doc.getElementById("lobby-notice");
  /** The refusal's message above the lists, which are stale meanwhile; "" hides it. */
  let shown = "";
  const refused = (message) => {
    shown = message;
    if (notice) { notice.textContent = message; notice.hidden = !message; }
    for (const l of [list, running]) if (l) l.classList.toggle("stale", !!message);
  };
  const socket = new TableSocket({
    url: socketUrl(list.dataset.wsPath || "/ws/lobby/"),
    factory: socketFactory,
    onFrame: (f) => {
      if (f.type === "error" && f.code === "too_many_sockets") refused(f.message || page.text.too_many_sockets || "");
      if (f.type !== "tables") return;
      refused("");
      renderTables(body, f.tables || [], page);
      if (running) renderRunning(running.querySelector("tbody"), f.tables || [], page);
    },
    // the 4429 without its error frame before it: the page's own copy of the message
    onState: (state, code) => { if (state === "closed" && code === 4429 && !shown) refused(page.text.too_many_sockets || ""); },
  });
  wakeWhenVisible(socket, doc);
  return { socket };
}

if (typeof document !== "undefined" && document.getElementById("open-tables")) startLobby();
