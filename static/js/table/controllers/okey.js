// The okey family's controller (okey51 and okey17, RULES.md §3-4): the player's gestures
// on the rack, the centre and the table's melds become RULES.md §7 actions (draw,
// take_discard with `then`, open, meld, add, swap, discard), and it says what the
// family's table has: the indicator and the discards in the centre, melds grouped by
// owner, the buttons of the turn. Pure (controllers/common.js).
import { _, fmt, ngettext } from "../i18n.js";
import { addFit, analyse, meldMove } from "../melds.js";
import { tileName } from "../moves.js";
import { isWild } from "../tiles.js";
import { myOpening, myTurn, okeyTile, prevTop, rackGroups, roundOver, seated, selectedSlots, startsRound } from "../selectors.js";
import { NOTHING, SPACER, after, common, dropped, events, notice, selectTile, sending, sortControls, tapSlot } from "./common.js";

const DOUBLE_TAP_MS = 350;

// What differs between the okey rulesets (the opening thresholds, pairs by count or by
// points, face-down jokers, pairs in another's area) is read from state.rules, the
// ruleset object's facts the server sends (Ruleset.client_rules), never by ruleset id.

// a taken discard rides on the action that places it (RULES.md §3, D-18, D-23)
const PLACES_TAKEN = new Set(["open", "meld", "add"]);

/** Send `action`, inside a take_discard when the previous seat's discard is being placed. */
function play(state, action) {
  if (state.pendingTake && PLACES_TAKEN.has(action.type)) return sending({ type: "take_discard", then: action }, "take");
  return sending(action);
}

/** The tiles of `slots` as the server wants a meld: free wilds written physical=represented. */
function written(state, slots) {
  const tiles = slots.map((i) => state.rack.slots[i]);
  const info = analyse(state.rules, tiles, okeyTile(state));
  return info.valid ? info.written : tiles;
}

function toggleTake(state) {
  if (!state.view) return NOTHING;
  if (state.pendingTake) return events({ type: "take", tile: null });
  const top = prevTop(state);
  if (!top) return notice(_("There is no discard to take."));
  if (!myTurn(state) || state.view.phase !== "draw") return notice(_("You can take the discard only at the start of your turn."));
  return events({ type: "take", tile: top });
}

/** Open with the gap groups of 3+ tiles: the ones that read as runs or groups (else all, for the server to judge). */
function openMelds(state) {
  const groups = rackGroups(state).filter((g) => g.tiles.length >= 3);
  if (!groups.length) return notice(_("Arrange melds on your rack with a gap between them, then press Open."));
  const valid = groups.filter((g) => g.info.valid && g.info.type !== "pair");
  return play(state, { type: "open", melds: (valid.length ? valid : groups).map((g) => (g.info.valid ? g.info.written : g.tiles)) });
}

/** Open with the two-tile gap groups (RULES.md §3-4 pairs openings). */
function openPairs(state) {
  const groups = rackGroups(state).filter((g) => g.tiles.length === 2);
  if (!groups.length) return notice(_("Put each pair on its own, with a gap on both sides, then press Open pairs."));
  const valid = groups.filter((g) => g.info.valid);
  return play(state, { type: "open", melds: (valid.length ? valid : groups).map((g) => (g.info.valid ? g.info.written : g.tiles)) });
}

/** Lay the selected tiles, or the selected tile's whole gap group, as a new meld. */
function lay(state) {
  let slots = selectedSlots(state).sort((a, b) => a - b);
  if (slots.length === 1) slots = (state.rack.groupOf(slots[0]) || { slots }).slots;
  if (!slots.length) return notice(_("Select the tiles of the meld to lay."));
  return play(state, { type: "meld", tiles: written(state, slots) });
}

/**
 * okey17: lay the selected pair in another player's area (RULES.md §4, D-12: a meld
 * player may lay a pair only where a pairs player laid). Tapping an area, not a meld.
 */
function layInArea(state, owner) {
  if (!state.rules.pairs_in_area || owner === state.view.seat) return NOTHING;
  const slots = selectedSlots(state).sort((a, b) => a - b);
  if (slots.length !== 2) return NOTHING;
  return play(state, { type: "meld", tiles: written(state, slots), owner });
}

function discard(state, slot = null) {
  if (slot === null) {
    const s = selectedSlots(state);
    if (!s.length) return notice(_("Select the tile to discard."));
    slot = s[s.length - 1];
  }
  if (state.rack.faceDown.has(slot)) return notice(_("A face-down tile stays in the rack."));
  if (slot === state.rack.taken) return notice(_("The taken discard must go on the table."));
  const tile = state.rack.slots[slot];
  return tile ? play(state, { type: "discard", tile }) : NOTHING;
}

/** The tile in `slot` (default: the last selected) onto meld `meldId`: an add, or a swap where it only takes a wild's place. */
function addTo(state, meldId, slot = null) {
  if (slot === null) {
    const s = selectedSlots(state);
    if (!s.length) return NOTHING;
    slot = s[s.length - 1];
  }
  const tile = state.rack.slots[slot];
  if (!tile) return NOTHING;
  if (state.rack.faceDown.has(slot)) return notice(_("A face-down tile stays in the rack."));
  const meld = (state.view.table || []).find((m) => String(m.id) === String(meldId));
  const move = meld ? meldMove(state.rules, meld.tiles, tile, okeyTile(state)) : null;
  return play(state, { type: move ? move.type : "add", meld: Number(meldId), tile: move ? move.tile : tile });
}

function swapInto(state, meldId) {
  const s = selectedSlots(state);
  if (!s.length) return notice(_("Select the tile that the wild stands for, then press swap."));
  return play(state, { type: "swap", meld: Number(meldId), tile: state.rack.slots[s[s.length - 1]] });
}

/** Assisted tables (RULES.md §6): a double tap adds the tile to the only meld it fits, or asks. */
function assistedAdd(state, slot) {
  const opened = myOpening(state);
  if (!myTurn(state) || state.view.phase !== "play" || !opened || opened === "no") return null;
  const fits = (state.view.table || []).filter((m) => addFit(state.rules, m.tiles, state.rack.slots[slot], okeyTile(state)));
  if (fits.length === 1) return addTo(state, fits[0].id, slot);
  if (fits.length > 1) {
    return events({ type: "select_only", srcs: [`slot:${slot}`] },
      { type: "notice", text: _("This tile fits several melds: tap the one to add it to.") });
  }
  return null;
}

function tapTile(state, { src, at }) {
  const double = state.lastTap.key === src && at - state.lastTap.at < DOUBLE_TAP_MS;
  if (double && src.startsWith("slot:")) {
    const slot = Number(src.slice(5));
    const tapped = { type: "tapped", key: src, at };
    if (state.rules.face_down_wilds && isWild(state.rules, state.rack.slots[slot], okeyTile(state))) {
      return events(tapped, { type: "face_down", slot });
    }
    const added = state.assisted ? assistedAdd(state, slot) : null;
    if (added) return after(tapped, added);
  }
  return selectTile(src, at);
}

function dropOn(state, { src, target }) {
  if (!src.startsWith("slot:")) return NOTHING;
  const slot = Number(src.slice(5));
  if (target.startsWith("slot:")) return events({ type: "rack_move", from: slot, to: Number(target.slice(5)) });
  if (target === "discard") return discard(state, slot);
  if (target.startsWith("meld:")) return addTo(state, target.slice(5), slot);
  return NOTHING;
}

/**
 * Table melds the selected tile fits, for lighting them.
 * @returns {Map<string, "add"|"swap">} meld id -> the action a tap on it sends
 */
function fits(state) {
  const out = new Map();
  const slot = selectedSlots(state).pop();
  const tile = slot !== undefined && state.rack ? state.rack.slots[slot] : null;
  if (!tile) return out;
  for (const m of state.view.table || []) {
    const move = meldMove(state.rules, m.tiles, tile, okeyTile(state));
    if (move) out.set(String(m.id), move.type);
  }
  return out;
}

/** The running opening totals while the player has not opened (PLAYERS.md). */
/**
 * The first-game hint for the seat's phase: the round's first player was dealt one tile
 * more and does not draw (RULES.md §1, §3), a player who drew goes on from there, and out
 * of turn the hint says what the turn will hold.
 * @returns {string}
 */
function firstHint(state) {
  const v = state.view;
  const need = { need: v.threshold ?? state.rules.opening.threshold };
  if (startsRound(state)) {
    return fmt(_("Your first game: you start the round with one tile more, so you do not draw. Arrange your rack into runs and groups, open when your melds reach %(need)s points, then discard one tile."), need);
  }
  if (myTurn(state) && v.phase === "draw") {
    return fmt(_("Your first game: draw a tile (from the pile or the last discard), arrange your rack into runs and groups, open when your melds reach %(need)s points, then discard one tile."), need);
  }
  if (myTurn(state)) {
    return fmt(_("Your first game: arrange your rack into runs and groups, open when your melds reach %(need)s points, then discard one tile."), need);
  }
  return fmt(_("Your first game: wait for your turn. Then draw a tile (from the pile or the last discard), arrange your rack into runs and groups, open when your melds reach %(need)s points, and discard one tile."), need);
}

function openingLine(state) {
  const v = state.view;
  if (!seated(state) || roundOver(state) || !(v.rack || []).length) return [];
  const opened = myOpening(state);
  if (opened && opened !== "no") return [];
  const groups = rackGroups(state);
  const melds = groups.filter((g) => g.tiles.length >= 3 && g.info.valid);
  const total = melds.reduce((a, g) => a + g.info.points, 0);
  const opening = state.rules.opening;
  const need = v.threshold ?? opening.threshold;
  const pairs = groups.filter((g) => g.tiles.length === 2 && g.info.valid);
  const line = [{ cls: `melds-total${total >= need ? " ok" : ""}`,
    text: fmt(_("Melds: %(list)s = %(total)s of %(need)s"), { list: melds.map((g) => g.info.points).join(" + ") || "0", total, need }) }];
  if (opening.pairs && opening.pairs.points) {
    const points = pairs.reduce((a, g) => a + g.info.points, 0);
    const needPairs = v.pairs_threshold ?? opening.pairs.points;
    line.push({ cls: `pairs-total${points >= needPairs ? " ok" : ""}`,
      text: fmt(ngettext("Pairs: %(n)s pair, %(points)s of %(need)s points", "Pairs: %(n)s pairs, %(points)s of %(need)s points", pairs.length),
        { n: pairs.length, points, need: needPairs }) });
  } else if (opening.pairs && opening.pairs.count) {
    const count = opening.pairs.count;
    line.push({ cls: `pairs-total${pairs.length >= count ? " ok" : ""}`, text: fmt(_("Pairs: %(n)s of %(need)s"), { n: pairs.length, need: count }) });
  }
  return line;
}

// A tap on the pile in the play phase: the tile is drawn already (or, for the round's
// first player, was dealt). The server would refuse the draw as wrong_phase, whose text
// (draw first, or you have drawn) says neither which nor what to do now: say it here and
// send nothing.
function drawFromPile(state) {
  if (startsRound(state)) return notice(_("You start with one tile more: discard one."));
  // (a view without its moves cannot tell the two apart: the server answers)
  if (myTurn(state) && state.view.phase === "play" && Array.isArray(state.view.moves)) {
    return notice(_("You have drawn your tile: lay or add tiles, then discard one."));
  }
  return sending({ type: "draw" });
}

/**
 * The controller of the okey rulesets: one for both, what differs is in state.rules.
 * @returns {object} the controller (see controllers/index.js for its shape)
 */
export function okeyController() {
  return {
    family: "okey",
    editsTable: false,
    views: { centre: "discards", table: "by-owner" },
    seatDiscards: true,
    highestWins: false,     // lowest total wins (RULES.md §3-4)
    controls: () => [
      { id: "open-btn", label: _("Open"), title: _("Open with the gap-separated melds on your rack"), gesture: { type: "open" }, cls: "primary", turn: true, untilOpened: true },
      { id: "pairs-btn", label: _("Open pairs"), title: _("Open with the pairs on your rack"), gesture: { type: "open_pairs" }, turn: true, untilOpened: true },
      { id: "lay-btn", label: _("Lay"), title: _("Lay the selected tiles (or the selected tile's group) as a new meld"), gesture: { type: "lay" }, turn: true },
      { id: "discard-btn", label: _("Discard"), title: _("Discard the selected tile"), gesture: { type: "discard" }, cls: "warn", turn: true },
      SPACER, ...sortControls(["runs", "groups", "pairs"]),
    ],
    canDraw: (state) => myTurn(state) && state.view.phase === "draw",
    turnText: (state) => {
      // taking the discard is one action with the meld that places it (D-18): until it is
      // sent the server's phase is still the draw, but the player is placing the tile
      if (state.pendingTake) {
        return fmt(_("Your turn: place %(tile)s in a meld or on one, or put it back"), { tile: tileName(state.pendingTake) });
      }
      return state.view.phase === "draw" ? _("Your turn: draw from the pile or take the discard")
        : _("Your turn: lay or add tiles, then discard");
    },
    firstHint,
    openingLine,
    fits,
    gesture(state, g) {
      switch (g.type) {
        case "draw": return drawFromPile(state);
        case "take": return toggleTake(state);
        case "open": return openMelds(state);
        case "open_pairs": return openPairs(state);
        case "lay": return lay(state);
        case "discard": return discard(state, g.slot ?? null);
        case "tap_meld": return addTo(state, g.meld);
        case "swap": return swapInto(state, g.meld);
        case "tap_area": return layInArea(state, g.owner);
        case "tap_tile": return tapTile(state, g);
        case "tap_slot": return tapSlot(state, g.slot);
        case "drop": return dropped(dropOn(state, g));
        default: return common(state, g);
      }
    },
  };
}
