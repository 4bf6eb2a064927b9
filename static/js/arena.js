// Arena pages: the countdown of each arena (to its start, then to its end) and, on an
// arena's own page, the standings asked for every few seconds; the answer also says when
// the player has been seated, and the page then opens their table.
const { gettext, interpolate } = window;
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

async function poll(arena) {
  try {
    const answer = await fetch(arena.dataset.standings, { credentials: "same-origin" });
    if (!answer.ok) return;
    const data = await answer.json();
    const body = document.querySelector("#arena-standings tbody");
    if (body && data.standings.length) body.replaceChildren(...data.standings.map(row));
    const ready = document.getElementById("arena-table");
    if (data.table_url && ready) {
      ready.hidden = false;
      ready.querySelector("a").href = data.table_url;
      if (!document.hidden) window.location.assign(data.table_url);
    }
  } catch {
    // the next poll tries again
  }
}

tick();
setInterval(tick, 1000);
const arena = document.getElementById("arena");
if (arena) {
  poll(arena);
  setInterval(() => poll(arena), POLL_MS);
}
