// The last move drawn attention to for a moment (CSS `.just`, 2.5 s; none with reduced
// motion): the tile just discarded, the melds just laid or added to. A move is "just"
// played for JUST_MS after this page first saw it, so a reload does not flash old moves
// again and later re-renders in that time keep the mark.
const JUST_MS = 2500;
const seen = new Map();   // table id -> Map(round:move number -> when this page first saw it, ms)

/**
 * The round's last move if it arrived less than JUST_MS ago, else null.
 * @param {object} state the table state (state.view.moves)
 * @param {number} [now] ms, for tests
 * @returns {object|null} a move of view.moves
 */
export function justPlayed(state, now = Date.now()) {
  const moves = (state.view && state.view.moves) || [];
  const last = moves[moves.length - 1];
  if (!last) return null;
  const key = `${state.view.round_index}:${last.number}`;
  const table = String(state.tableId);
  if (!seen.has(table)) seen.set(table, new Map());
  const times = seen.get(table);
  // the first snapshot after a (re)load shows the table as it is: nothing flashes
  if (!times.has(key)) times.set(key, times.size ? now : -Infinity);
  return now - times.get(key) < JUST_MS ? last : null;
}

// the motion of a move (table-screen.css `.tbl.moving`) lasts at most this long (ms)
export const MOTION_MS = 250;

/**
 * Did the round's last move arrive less than MOTION_MS ago? The views redraw their
 * elements on every change: a tile's arrival is animated only in its first moment, so a
 * later redraw does not play it again.
 * @param {object} state the table state
 * @param {number} [now] ms, for tests
 * @returns {boolean}
 */
export function justNow(state, now = Date.now()) {
  const m = justPlayed(state, now);
  if (!m) return false;
  const times = seen.get(String(state.tableId));
  return now - times.get(`${state.view.round_index}:${m.number}`) < MOTION_MS;
}

/** Is `seat`'s top discard the tile just discarded? */
export function justDiscarded(state, seat) {
  const m = justPlayed(state);
  return !!m && m.type === "discard" && m.seat === seat && (m.result || "ok") === "ok";
}

/**
 * okey: the ids of the table melds the last move laid or added to.
 * @param {object} state
 * @returns {Set<string>} meld ids as strings
 */
export function justMelds(state) {
  const m = justPlayed(state);
  const out = new Set();
  if (!m) return out;
  const action = m.type === "take_discard" && m.then ? m.then : m;
  if (action.type === "add" || action.type === "swap") out.add(String(action.meld));
  if (action.type === "open" || action.type === "meld") {
    const n = action.type === "open" ? (action.melds || []).length : 1;
    const owner = action.owner ?? m.seat;
    const mine = ((state.view.table || []).filter((x) => x.owner === owner)).sort((a, b) => b.id - a.id);
    for (const x of mine.slice(0, n)) out.add(String(x.id));
  }
  return out;
}
