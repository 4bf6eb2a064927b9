// What the table keeps in localStorage: the player's rack arrangement per table, round
// and seat (PLAYERS.md: the arrangement is never reset behind the player's back), and
// rami's working table for the turn, so a reload mid-turn keeps both. The reducer never
// touches storage: the app reads what was saved for a snapshot's round and seat, passes
// it in with the frame (`savedFor`), and writes the new state back after each change
// (`persist`). Storage may be missing, full or disabled: the table then works for this
// page only.
import { myTurn } from "./selectors.js";

/** localStorage, or null where the browser refuses it. */
export function safeStorage() {
  try { return window.localStorage; } catch (_e) { return null; }
}

/** Storage key of the rack arrangement for `view`'s round and seat. */
export function rackKey(tableId, view) {
  return `okeysite:rack:${tableId}:${view.round_index ?? 0}:${view.seat ?? "x"}`;
}

/** Storage key of rami's working table for `view`'s round and seat. */
export function ramiKey(tableId, view) {
  return `okeysite:rami:${tableId}:${view.round_index ?? 0}:${view.seat ?? "x"}`;
}

/**
 * The turn's fingerprint for a saved rami working table: the table and the rack as the
 * server sent them. Once the turn has passed the fingerprint no longer matches.
 * @param {object} view a rami view
 * @returns {string}
 */
export function turnPrint(view) {
  return JSON.stringify([view.table || [], [...(view.rack || [])].sort()]);
}

function read(storage, key) {
  if (!storage) return null;
  try { return JSON.parse(storage.getItem(key) || "null"); } catch (_e) { return null; }
}

function write(storage, key, data) {
  try {
    if (data === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(data));
  } catch (_e) { /* storage full or disabled: the arrangement lives for this page only */ }
}

/**
 * What was saved for the round and seat of `view`, for the reducer's `snapshot` event.
 * @param {Storage|null} storage
 * @param {string} tableId
 * @param {object} view the snapshot's view
 * @returns {{rack: object|null, rami: object|null}} parsed JSON as `persist` wrote it
 */
export function savedFor(storage, tableId, view) {
  return { rack: read(storage, rackKey(tableId, view)), rami: read(storage, ramiKey(tableId, view)) };
}

/**
 * Write back what changed from `prev` to `next`: the rack arrangement whenever it changed,
 * and (tables with a working table) the working table while it holds changes in the
 * viewer's turn; otherwise the saved one is dropped.
 * @param {Storage|null} storage
 * @param {object} prev the state before the event
 * @param {object} next the state after it
 */
export function persist(storage, prev, next) {
  if (!storage || !next.view) return;
  if (next.rack && next.rackKey && next.rack !== prev.rack) write(storage, next.rackKey, next.rack.toJSON());
  if (!next.editsTable || (next.rami === prev.rami && next.turnStart === prev.turnStart && next.view === prev.view)) return;
  const key = ramiKey(next.tableId, next.view);
  if (myTurn(next) && next.rami && next.rami.dirty) {
    write(storage, key, { print: turnPrint(next.view), table: next.rami.toJSON(),
      start: next.turnStart ? next.turnStart.slots : null });
  } else {
    write(storage, key, null);
  }
}

/** Storage key of the client seed this browser gave for the whole match at `tableId` (okeysite-shuffle-2). */
export function matchSeedKey(tableId) {
  return `okeysite:fairdeal:${tableId}:match`;
}

/**
 * The seed this browser gave for the match at `tableId`, or null: {seat, chain_tip (the tip
 * it saw before sending), client_seed (the seed it sent), seeded (the server's `seeded`
 * answer, or null until it came)} (docs/fair-deals.md §10).
 * @param {Storage|null} storage
 * @param {string} tableId
 */
export function keptMatchSeed(storage, tableId) {
  return read(storage, matchSeedKey(tableId));
}

/** Keep `entry` (see keptMatchSeed) for the match at `tableId`; storage may refuse. */
export function keepMatchSeed(storage, tableId, entry) {
  if (storage) write(storage, matchSeedKey(tableId), entry);
}
