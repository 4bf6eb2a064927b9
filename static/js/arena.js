// Arena pages: the countdown of each arena (to its start, then to its end) and, on an
// arena's own page, the live standings over /ws/arena/<id>/ (one frame per change, the top
// of the standings; the socket's pings keep the player present so the arena pairs them).
// An `arena_table` frame names the table the arena seated the player at: the page opens
// it. Without a socket the page asks for the standings every few seconds instead.
const { gettext, ngettext, interpolate } = window;
const POLL_MS = 5000;

function left(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${m}:${s}`;
}

function tick() {
  const now = Date.now();
  for (const el of document.querySelectorAll(".countdown")) {
    const starts = Number(el.dataset.starts) * 1000;
    const ends = Number(el.dataset.ends) * 1000;
    if (now < starts) el.textContent = interpolate(gettext("starts in %s"), [left(starts - now)]);
    else if (now < ends) el.textContent = interpolate(gettext("running · %s left"), [left(ends - now)]);
    else el.textContent = gettext("over");
  }
}

function row(entry) {
  const tr = document.createElement("tr");
  const cells = [String(entry.rank), entry.name, String(entry.score), String(entry.matches)];
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (i === 1) {
      if (entry.fire) td.append(" 🔥");
      if (entry.paused) td.append(` (${gettext("paused")})`);
      if (entry.withdrawn) td.append(` (${gettext("withdrawn")})`);
    }
    if (i >= 2) td.className = "num";
    tr.append(td);
  });
  return tr;
}

function more(count) {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = 4;
  td.className = "muted";
  td.textContent = interpolate(ngettext("and %s more player", "and %s more players", count), [count]);
  tr.append(td);
  return tr;
}

function show(arena, standings, tableUrl, players = standings.length) {
  const body = document.querySelector("#arena-standings tbody");
  const rows = standings.map(row);
  if (players > standings.length) rows.push(more(players - standings.length));
  if (body && standings.length) body.replaceChildren(...rows);
  const ready = document.getElementById("arena-table");
  if (tableUrl && ready) {
    ready.hidden = false;
    ready.querySelector("a").href = tableUrl;
    if (!document.hidden) window.location.assign(tableUrl);
  }
}

async function poll(arena) {
  try {
    const answer = await fetch(arena.dataset.standings, { credentials: "same-origin" });
    if (!answer.ok) return;
    const data = await answer.json();
    show(arena, data.standings, data.table_url);
  } catch {
    // the next poll tries again
  }
}

function live(arena) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let socket;
  let pinger;
  let polling;
  const connect = () => {
    socket = new WebSocket(`${scheme}://${window.location.host}${arena.dataset.socket}`);
    socket.addEventListener("open", () => {
      clearInterval(polling);
      polling = undefined;
      pinger = setInterval(() => socket.send('{"type":"ping"}'), POLL_MS);
    });
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "standings") show(arena, frame.standings, null, frame.players);
      else if (frame.type === "arena_table") show(arena, [], frame.url);
    });
    socket.addEventListener("close", () => {
      clearInterval(pinger);
      if (!polling) polling = setInterval(() => poll(arena), POLL_MS);
      setTimeout(connect, POLL_MS * 2);
    });
  };
  connect();
}

tick();
setInterval(tick, 1000);
const arena = document.getElementById("arena");
if (arena) live(arena);
