// The rami family's controller (RULES.md §5): in their turn the player rearranges a
// working table (tiles from the rack and between melds, new melds, undo) and sends it
// whole as one `play`, or draws. It says what the family's table has: only the pile in
// the centre, the working table, the buttons of the turn. Pure (controllers/common.js).
import { _, fmt } from "../i18n.js";
import { myOpening, myTurn, roundOver, seated } from "../selectors.js";
import { NOTHING, SPACER, common, dropped, events, notice, selectTile, sending, sortControls, tapSlot } from "./common.js";

const WAIT = () => _("Wait for your turn to arrange the table.");
// RULES.md §5 (`initial_meld_touches_table`): refused where it is tried, not at Play
const UNTOUCHED = () => _("Until your initial meld is down the table cannot be touched: lay new melds from your rack.");

/** The first-game hint: a rami turn is one play or one draw (RULES.md §5). */
function firstHint(state) {
  const need = { need: (state.view && state.view.threshold) ?? state.rules.opening.threshold };
  return myTurn(state)
    ? fmt(_("Your first game: lay runs and groups from your rack (your first play must reach %(need)s points), or draw a tile to end your turn."), need)
    : fmt(_("Your first game: wait for your turn. Then lay runs and groups from your rack (your first play must reach %(need)s points), or draw a tile to end your turn."), need);
}

function opened(state) {
  const o = myOpening(state);
  return o === "yes" || o === true;
}

/** Before the initial meld: does moving `srcs` into meld `meld` touch the table's melds? */
function touchesTable(state, srcs, meld) {
  if (opened(state) || !state.rami) return false;
  const tableTile = (src) => {
    const [kind, m, k] = src.split(":");
    if (kind !== "meld") return false;
    const item = state.rami.melds[Number(m)] && state.rami.melds[Number(m)].tiles[Number(k)];
    return !!item && !item.fromRack;
  };
  const target = state.rami.melds[meld];
  return srcs.some(tableTile) || (!!target && target.tiles.some((x) => !x.fromRack));
}

/** Move the selection into meld `meld` (the number of melds: a new meld), before `before` when given. */
function moveSelection(state, meld, before = null) {
  if (!state.sel.length || !state.rami) return NOTHING;
  if (!myTurn(state)) return notice(WAIT());
  if (touchesTable(state, state.sel, meld)) return events({ type: "clear_selection" }, { type: "notice", text: UNTOUCHED() });
  return events({ type: "rami_move", srcs: [...state.sel], meld, before });
}

/** A working-table tile laid from the rack this turn may go back; table tiles never go to a rack. */
function backToRack(state, src, slot) {
  const [, m, k] = src.split(":").map(Number);
  const item = state.rami && state.rami.melds[m] ? state.rami.melds[m].tiles[k] : null;
  if (!item) return [];
  if (!item.fromRack) return [{ type: "notice", text: _("Table tiles cannot go to your rack.") }];
  return [{ type: "rami_to_rack", src, slot }];
}

/**
 * A tap on a working-table tile: with tiles selected elsewhere (the rack or another
 * meld) they move into this meld before the tapped tile; otherwise the tile is selected.
 */
function tapMeldTile(state, { meld, index, at }) {
  const here = `meld:${meld}:`;
  if (state.sel.length && state.sel.some((s) => !s.startsWith(here))) return moveSelection(state, meld, index);
  if (myTurn(state) && touchesTable(state, [`${here}${index}`], -1)) return notice(UNTOUCHED());
  return selectTile(`${here}${index}`, at);
}

function dropOn(state, { src, target, index }) {
  if (target.startsWith("slot:")) {
    const to = Number(target.slice(5));
    if (src.startsWith("slot:")) return events({ type: "rack_move", from: Number(src.slice(5)), to });
    return events(...backToRack(state, src, to));
  }
  const meld = target.startsWith("meld:") ? Number(target.slice(5)) : target === "new-meld" && state.rami ? state.rami.melds.length : null;
  if (meld === null || !state.rami) return NOTHING;
  if (!myTurn(state)) return notice(WAIT());
  if (touchesTable(state, [src], meld)) return notice(UNTOUCHED());
  return events({ type: "rami_move", srcs: [src], meld, at: target === "new-meld" ? 0 : index });
}

/** The initial meld's running total while the player has not laid it (RULES.md §5). */
function openingLine(state) {
  const v = state.view;
  if (!seated(state) || roundOver(state) || !(v.rack || []).length) return [];
  const opened = myOpening(state);
  if (opened === "yes" || opened === true) return [];
  const points = state.rami ? state.rami.initialPoints(state.rules) : 0;
  const need = v.threshold ?? state.rules.opening.threshold;
  return [{ cls: points >= need ? "ok" : "", text: fmt(_("Initial meld: %(points)s of %(need)s points"), { points, need }) }];
}

/** The rami controller (see controllers/index.js for its shape). */
export const ramiController = {
  family: "rami",
  editsTable: true,
  views: { centre: "pile", table: "working" },
  seatDiscards: false,
  highestWins: true,        // highest total wins (RULES.md §5)
  controls: () => [
    { id: "submit-play", label: _("Play"), title: _("Submit the table as arranged"), gesture: { type: "submit" }, cls: "primary", turn: true },
    { id: "undo-turn", label: _("Undo"), title: _("Put everything back as it was at the start of the turn"), gesture: { type: "undo" }, turn: true },
    { id: "draw-btn", label: _("Draw"), title: _("Draw a tile and end the turn"), gesture: { type: "draw" }, turn: true },
    SPACER, ...sortControls(["runs", "groups"]),
  ],
  canDraw: myTurn,
  turnText: () => _("Your turn: play tiles, or draw"),
  firstHint,
  openingLine,
  fits: () => new Map(),
  gesture(state, g) {
    switch (g.type) {
      case "draw": return sending({ type: "draw" });
      case "submit": return state.rami ? sending({ type: "play", table: state.rami.toTable(state.rules) }) : NOTHING;
      case "undo": return state.view ? events({ type: "rami_undo" }) : NOTHING;
      case "tap_tile": return selectTile(g.src, g.at);
      case "tap_meld": return moveSelection(state, g.meld);
      case "tap_meld_tile": return tapMeldTile(state, g);
      case "tap_new_meld": return state.rami ? moveSelection(state, state.rami.melds.length) : NOTHING;
      case "tap_slot": return tapSlot(state, g.slot, (src) => backToRack(state, src, g.slot));
      case "drop": return dropped(dropOn(state, g));
      default: return common(state, g);
    }
  },
};
