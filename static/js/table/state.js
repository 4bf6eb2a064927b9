// The table's state and its one reducer: the server's frames (docs/protocol.md §3: snapshot,
// ack, error, round_end, match_end, the chat frames, seeding and seeded) and the player's local events in,
// a new state out. No DOM, socket, storage or clock: times come in the events, what
// storage holds for a round comes with its snapshot (storage.js), and the state given
// is never changed (a rack or working table is copied before it changes), so the app
// can tell what changed by identity.
import { _, fmt } from "./i18n.js";
import { PER_ROW, Rack, minRowsFor } from "./rack.js";
import { sortRack } from "./sorting.js";
import { myTurn, okeyTile, prevTop, roundOver, seated, serverRack } from "./selectors.js";
import { rackKey } from "./storage.js";
import { ramiEvents, syncWorkingTable } from "./state-rami.js";
import { answersChat, chatError, chatEvents, chatState } from "./state-chat.js";
import { fairdealEvents, seedError, seedingOf } from "./state-fairdeal.js";
import { awayAfterConnection, awayAfterSnapshot, awayEvents } from "./state-away.js";

/**
 * The state before the first frame.
 * @param {object} opts
 * @param {string} opts.ruleset "okey51" | "okey17" | "rami" (names the controller only)
 * @param {object} opts.rules table_config.rules, the ruleset's facts (Ruleset.client_rules):
 *   meld rules, wild, opening thresholds, pair rules; the client's one rule book
 * @param {string} opts.tableId for the storage keys
 * @param {boolean} [opts.assisted] assisted table (RULES.md §6)
 * @param {number|null} [opts.players] seats, until a view says
 * @param {number|null} [opts.seat] the viewer's seat, until a view says
 * @param {boolean} [opts.editsTable] the family rearranges a working table (rami)
 * @param {string|null} [opts.username] for the chat (own lines)
 * @param {number} [opts.perRow] rack slots per row for this screen (rack.js perRowFor)
 * @returns {object} the state; its fields are documented inline
 */
export function initialState({ ruleset, rules, tableId, assisted = false, players = null, seat = null,
  editsTable = false, username = null, perRow = PER_ROW }) {
  return {
    ruleset, rules, tableId, assisted: !!assisted, players, seat, editsTable, perRow,
    view: null,            // the last snapshot's view (docs/protocol.md §5)
    rackKey: null,         // storage key of the round and seat the rack belongs to
    rack: null,            // Rack: the player's arrangement
    sel: [],               // selected sources: "slot:3", "meld:1:0" (rami)
    pendingTake: null,     // okey: the previous seat's discard being placed (D-18)
    pending: {},           // action id -> kind, until its ack or error
    ackedVersion: null,    // the version an ack announced, until its snapshot comes (selectors.js awaitingAnswer)
    sortKind: "runs",
    sortedOnce: false,     // the first sort of a fresh rack is done
    manualMoved: false,    // the player moved a tile since the last sort
    fresh: [],             // slots of a drawn tile, marked until the player touches the rack
    rami: null,            // RamiTable: the turn's working table (editsTable)
    turnStart: null,       // {slots}: the rack at the start of the turn, for undo (editsTable)
    lastScores: null,      // the round's score table (round_end), with the roundKey it belongs to
    scoresClosed: false,   // the player closed that score table
    matchEnded: null,      // the match_end frame (or the round_end that ended the match)
    matchOverClosed: false, // the player closed the match-over card
    penaltyWatch: null,    // a refused discard whose penalty the next snapshot shows
    notice: "",            // the error line (#error-box)
    noticeHint: false,     // that line is the client's own hint (what to do), not a refusal
    conn: "connecting",    // the socket: connecting | open | closed
    blocked: null,         // why the player can no longer act here, or null
    lastTap: { key: null, at: 0 },   // for double taps
    chat: chatState(username),
    seeding: null,         // the open seeding window {round, commitment, deadline, sent}, or null (state-fairdeal.js)
    seedAnswer: null,      // the answer to this browser's last seed {round, ok, seed | code, message}
    wasAway: false,        // the player was away (autoplay, or the page not there) while a computer played their seat (state-away.js)
    following: false,      // this page has had a live socket since its last snapshot (state-away.js)
    awayDismissed: 0,      // the number of the last computer move the player's note was closed at
    resumeSent: false,     // a `resume` went out and the seat is still on autoplay
  };
}

/**
 * Apply one event.
 * @param {object} state from initialState or an earlier reduce
 * @param {{type: string}} event a server frame (a snapshot carries `saved` from
 *   storage.savedFor) or a local event (below, state-rami.js, state-chat.js)
 * @returns {object} the new state (`state` itself when the event changes nothing)
 */
export function reduce(state, event) {
  const handler = HANDLERS[event.type];
  return handler ? handler(state, event) : state;
}

function block(state, text) {
  return { ...state, blocked: state.blocked || text, pending: {}, ackedVersion: null, sel: [], pendingTake: null };
}

function newRound(s, key, saved) {
  const shape = { perRow: s.perRow, rows: minRowsFor(s.perRow) };
  const loaded = Rack.fromJSON(saved, shape);
  const kept = !!loaded && loaded.tiles().length > 0;
  return {
    ...s, rackKey: key, rack: kept ? loaded : new Rack(shape), sortedOnce: kept, manualMoved: kept,
    sel: [], pendingTake: null, rami: null, turnStart: null,
    lastScores: s.lastScores && s.lastScores.roundKey !== key ? null : s.lastScores,
  };
}

function snapshot(state, { version = null, view = {}, saved = {} }) {
  const prev = state.view;
  let s = { ...state, view, seeding: seedingOf(view) };
  const at = version ?? view.version;
  if (s.ackedVersion !== null && !(typeof at === "number" && at < s.ackedVersion)) s.ackedVersion = null;
  const key = rackKey(s.tableId, view);
  s = key !== s.rackKey ? newRound(s, key, saved.rack) : { ...s, rack: s.rack.clone() };
  if (s.pendingTake && !(myTurn(s) && view.phase === "draw" && prevTop(s) === s.pendingTake)) s.pendingTake = null;
  if (s.penaltyWatch && seated(s)) {
    const now = (view.penalty || [])[view.seat] || 0;
    if (now > s.penaltyWatch.before) {
      s.notice = `${s.penaltyWatch.text} ${fmt(_("Penalty: %(n)s points."), { n: now - s.penaltyWatch.before })}`;
      s.noticeHint = false;
      s.penaltyWatch = null;
    }
  }
  if (s.editsTable) s = syncWorkingTable(s, prev, saved.rami);
  const rack = s.rack;            // this call's own copy
  const before = rack.tiles().length;
  rack.reconcile(serverRack(s), s.pendingTake);
  const arrived = rack.tiles().length > before;
  // mark a drawn tile until the player touches the rack (not the whole deal)
  if (arrived) s.fresh = prev && (prev.rack || []).length ? [...rack.fresh] : [];
  // a fresh rack starts sorted (never re-sorted later, unless the table is assisted
  // and the player has not moved a tile by hand since the last sort)
  const autoSort = !s.sortedOnce || (s.assisted && !s.manualMoved && arrived);
  if (autoSort && view.rack && view.rack.length) {
    rack.layout(sortRack(s.sortKind, s.rules, rack.tiles(), okeyTile(s)));
    s.sortedOnce = true;
  }
  // the rack as the player sees it at the start of the turn, for the undo
  if (s.editsTable && myTurn(s) && !s.turnStart) s.turnStart = { slots: [...rack.slots] };
  if (view.round_end && !s.lastScores) {
    s.lastScores = { ...view.round_end, roundKey: s.rackKey };
    s.scoresClosed = false;
  } else if (roundOver(s) && !s.lastScores && view.result) {
    s.lastScores = { scores: view.result.scores, penalties: view.penalty, totals: view.totals,
      penalty_events: view.result.penalty_events, roundKey: s.rackKey };
    s.scoresClosed = false;
  }
  if (view.status === "closed" && !s.blocked) s.blocked = _("This table is closed.");
  // a refusal about the last turn no longer applies once the turn moved on
  if (s.notice && s.notice === state.notice && prev
      && (prev.turn !== view.turn || prev.phase !== view.phase || prev.round_index !== view.round_index)) s.notice = "";
  return awayAfterSnapshot(s, state);
}

function ack(state, { id, version }) {
  const pending = { ...state.pending };
  const kind = pending[id];
  delete pending[id];
  // the snapshot that follows re-renders the rack; until it comes, an action would carry
  // the version before this one and be refused stale_version
  const ackedVersion = typeof version === "number" && version > ((state.view && state.view.version) ?? -1) ? version : null;
  return { ...state, pending, ackedVersion, pendingTake: kind === "take" ? null : state.pendingTake, sel: [], notice: "" };
}

function error(state, f) {
  if (f.code === "suspended") return block(state, f.message || _("You cannot play at this table now."));
  if (answersChat(state, f)) return chatError(state, f);
  const refusedSeed = seedError(state, f);
  if (refusedSeed) return refusedSeed;
  const pending = { ...state.pending };
  delete pending[f.id];
  const seat = state.view ? state.view.seat : state.seat;
  // okey17 refused playable/joker discards keep their penalty: the next snapshot shows it
  const penaltyWatch = ["playable_discard", "joker_discard"].includes(f.code)
    ? { text: f.message || f.code, before: ((state.view && state.view.penalty) || [])[seat] || 0 } : null;
  return { ...state, pending, notice: f.message || f.code || _("Refused"), noticeHint: false, penaltyWatch };
}

function connection(prior, { status, code }) {
  const state = awayAfterConnection(prior, status);
  // a closed socket answers nothing more: what it left unanswered the resync shows
  if (status === "closed") return { ...state, conn: status, pending: {}, ackedVersion: null };
  if (status !== "refused") return { ...state, conn: status };
  return block(state, code === 4401 ? _("You are signed out. Sign in again to play at this table.")
    : code === 4404 ? _("This table does not exist any more.")
    : _("You cannot play at this table now."));
}

/** The rack changes on a copy: `change(rack)` mutates it, the new state holds it. */
/** Slots (a turn's start, for the undo) laid out again on rows of another width. */
function reshapedSlots(slots, perRow, shape) {
  const rack = new Rack({ perRow, rows: 1 });
  rack.slots = [...slots];
  return rack.reshaped(shape).slots;
}

function withRack(state, change, extra = {}) {
  if (!state.rack) return state;
  const rack = state.rack.clone();
  change(rack);
  return { ...state, ...extra, rack };
}

const HANDLERS = {
  snapshot,
  ack,
  error,
  round_end: (s, f) => ({ ...s, lastScores: { ...f, roundKey: s.rackKey }, scoresClosed: false,
    matchEnded: f.match_over ? f : s.matchEnded }),
  match_end: (s, f) => ({ ...s, matchEnded: f }),
  /** {status: "connecting"|"open"|"closed"|"refused", code?} from the socket */
  connection,

  /** {src}: select a tile, or unselect it */
  select: (s, { src }) => ({ ...s, sel: s.sel.includes(src) ? s.sel.filter((x) => x !== src) : [...s.sel, src] }),
  /** {srcs}: exactly these are selected */
  select_only: (s, { srcs }) => ({ ...s, sel: [...srcs] }),
  clear_selection: (s) => (s.sel.length ? { ...s, sel: [] } : s),
  /** {key, at (ms)}: a tap, remembered for the next one's double tap */
  tapped: (s, { key, at }) => ({ ...s, lastTap: { key, at }, fresh: [] }),
  /** the player touched the rack: the drawn tile is no longer marked */
  touched: (s) => ({ ...s, fresh: [] }),
  /** {text, hint = true}: the error line; a hint of the client's own (nothing was refused)
   * unless `hint` is false (the action could not go out: that reads as an error) */
  notice: (s, { text, hint = true }) => ({ ...s, notice: text, noticeHint: hint }),
  /** {kind: "runs"|"groups"|"pairs"}: the sort buttons */
  sort: (s, { kind }) => withRack(s, (r) => r.layout(sortRack(kind, s.rules, r.tiles(), okeyTile(s))),
    { sortKind: kind, manualMoved: false, sel: [] }),
  /** {from, to}: a rack tile moved by hand (onto a tile: the row shifts, rack.js `shift`) */
  rack_move: (s, { from, to }) => withRack(s, (r) => r.shift(from, to), { manualMoved: true }),
  /** {perRow}: the screen's width changed (a phone turned): the rack is laid out again on
   * rows of that many slots (rack.js perRowFor), each of the player's groups kept whole */
  screen: (s, { perRow }) => {
    if (perRow === s.perRow) return s;
    const shape = { perRow, rows: minRowsFor(perRow) };
    const turnStart = s.turnStart && { slots: reshapedSlots(s.turnStart.slots, s.perRow, shape) };
    return { ...s, perRow, rack: s.rack && s.rack.reshaped(shape), sel: [], fresh: [], turnStart };
  },
  /** {slot}: a joker turned face down or up (okey17), and unselected */
  face_down: (s, { slot }) => withRack(s, (r) => r.toggleFaceDown(slot), { sel: s.sel.filter((x) => x !== `slot:${slot}`) }),
  /** {tile|null}: okey: take the previous seat's discard into the rack until it is placed, or put it back */
  take: (s, { tile }) => {
    const next = withRack(s, (r) => r.reconcile(serverRack(s), tile), { pendingTake: tile, notice: tile ? "" : s.notice });
    return { ...next, sel: tile && next.rack.taken !== null ? [`slot:${next.rack.taken}`] : [] };
  },
  /** an action is about to go out: the last refusal no longer applies */
  sending: (s) => ({ ...s, notice: "" }),
  /** {id, kind}: an action went out; its ack or error will name the id */
  sent: (s, { id, kind }) => ({ ...s, pending: { ...s.pending, [id]: kind } }),
  close_scores: (s) => ({ ...s, scoresClosed: true }),
  /** the player closed the match-over card (the score table stays behind it) */
  close_match_over: (s) => ({ ...s, matchOverClosed: true }),

  ...ramiEvents,
  ...chatEvents,
  ...fairdealEvents,
  ...awayEvents,
};
