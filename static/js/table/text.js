// Words the table shows about players and moves. Pure: a view (docs/protocol.md §5) in, a
// translated string out; the views put them on screen.
import { _, fmt, pgettext } from "./i18n.js";
import { moveLine, summary, tileName } from "./moves.js";

// computer levels as the server names them (games/models.py BOT_LEVEL_CHOICES)
const LEVELS = () => ({ easy: _("easy"), normal: _("normal"), strong: _("strong") });

/** Display name of a seat's player, with the computer label (PLAYERS.md complaint 2). */
export function playerName(view, seat) {
  const p = (view.players || [])[seat] || {};
  const name = p.name || p.display_name || p.username;
  if (name) return name;
  if (p.computer !== null && p.computer !== undefined) {
    return fmt(_("Computer · %(level)s"), { level: LEVELS()[p.computer] || String(p.computer) });
  }
  if (p.empty) return _("Empty seat");
  return fmt(_("Seat %(n)s"), { n: seat + 1 });
}

/**
 * A label under a human's name: "left" once the player left the match (they chose to, or
 * had no socket for their last turns: the server's games/results.py says so in
 * players[s].left), which a computer then plays to the end; "a computer plays for now"
 * while a computer plays the seat of a player who is still there (timeouts, or a
 * disconnect at an online table: RULES.md §6); else null. Computer seats are named
 * "Computer · level" by playerName (PLAYERS.md complaint 2).
 */
export function playerLabel(view, seat) {
  const p = (view.players || [])[seat] || {};
  if (p.left && p.name) return pgettext("player left the match", "left");
  if (p.autoplay && p.name) return _("a computer plays for now");
  return null;
}

/**
 * How a seat opened, in words.
 * @param {string|boolean|undefined} opened "no", "melds", "pairs" (okey) or "yes" (rami)
 * @returns {string}
 */
export function openedText(opened) {
  if (opened === "melds") return _("opened with melds");
  if (opened === "pairs") return _("opened with pairs");
  if (opened === "yes" || opened === true) return _("opened");
  return _("not opened");
}

/**
 * One in-round penalty as a line for the score table.
 * @param {object} view for names
 * @param {{seat: number, amount: number, reason: string, tile: string|null, by: number|null}} e
 *   reason: penalty_tile (okey51 discard that fits a meld), discard_taken, add, swap,
 *   pair_in_area (okey17 D-12), playable_discard, joker_discard (okey17 refused discards)
 * @returns {string} e.g. "Penalty tile K11 · 100", "Discard taken by Computer · easy · 120"
 */
export function penaltyText(view, e) {
  const by = e.by !== null && e.by !== undefined ? playerName(view, e.by) : "?";
  const tile = tileName(e.tile || "");
  const n = e.amount;
  // add, swap and a pair in the area charge the meld's owner (RULES.md §3): "your" only
  // in the owner's own view, the owner named in everyone else's
  const yours = view && e.seat === view.seat;
  const owner = playerName(view, e.seat);
  const texts = {
    penalty_tile: _("Penalty tile %(tile)s · %(n)s"),
    discard_taken: _("Discard taken by %(by)s · %(n)s"),
    add: yours ? _("%(by)s added %(tile)s to your meld · %(n)s") : _("%(by)s added %(tile)s to %(owner)s's meld · %(n)s"),
    swap: yours ? _("%(by)s swapped your okey out · %(n)s") : _("%(by)s swapped %(owner)s's okey out · %(n)s"),
    pair_in_area: yours
      ? _("%(by)s laid a pair in your area · %(n)s")
      : _("%(by)s laid a pair in %(owner)s's area · %(n)s"),
    playable_discard: _("Playable discard %(tile)s · %(n)s"),
    joker_discard: _("Joker discarded · %(n)s"),
  };
  const t = texts[e.reason] || _("Penalty · %(n)s");
  return fmt(t, { tile, by, n, owner });
}

/**
 * One line about the last accepted action (view.last_action, its public part):
 * the viewer's own moves in the second person ("You discarded R5"), the others'
 * in the third ("ayse drew a tile"); each is a whole sentence for the translators.
 * @param {object} view the snapshot's view ({seat, players, last_action: {seat, type, tile?}})
 * @returns {string} "" when there is no last action or its type is unknown
 */
export function lastActionText(view) {
  const moves = (view && view.moves) || [];
  if (moves.length) {
    const last = moves[moves.length - 1];
    if (last.seat !== view.seat) {
      // another seat's turn so far, oldest first: a computer's whole turn (take, melds,
      // discard) reaches the table as one update, and its discard alone would hide the rest
      let first = moves.length - 1;
      while (first > 0 && moves[first - 1].seat === last.seat) first -= 1;
      const turn = summary(view, moves.slice(first), playerName);
      if (turn) return turn;
    }
    // the move history knows who played (a computer for the viewer after a timeout)
    const line = moveLine(view, last, playerName);
    if (line) {
      const named = line.tiles.flat().map(tileName).join(", ");
      return named ? fmt(_("%(move)s: %(tiles)s"), { move: line.text, tiles: named }) : line.text;
    }
  }
  const a = view && view.last_action;
  if (!a || a.seat === undefined || a.seat === null) return "";
  if (a.seat === view.seat) {
    const mine = {
      draw: _("You drew a tile"),
      take_discard: _("You took the discard"),
      open: _("You opened"),
      meld: _("You laid a meld"),
      add: _("You added a tile"),
      swap: _("You swapped a wild"),
      discard: a.tile ? fmt(_("You discarded %(tile)s"), { tile: tileName(a.tile) }) : _("You discarded a tile"),
      play: _("You played on the table"),
    };
    return mine[a.type] || "";
  }
  const texts = {
    draw: _("%(who)s drew a tile"),
    take_discard: _("%(who)s took the discard"),
    open: _("%(who)s opened"),
    meld: _("%(who)s laid a meld"),
    add: _("%(who)s added a tile"),
    swap: _("%(who)s swapped a wild"),
    discard: _("%(who)s discarded"),
    play: _("%(who)s played on the table"),
  };
  const t = texts[a.type];
  return t ? fmt(t, { who: playerName(view, a.seat) }) : "";
}

/**
 * How a round ended, from the engine's public result (round_end.result, RULES.md §3-5).
 * @param {object} view for names
 * @param {{finisher: number|null, end: string, winner?: number|null, final_discard?: string|null}|null} result
 *   end: hand, okey (final discard was the okey), pairs, direct (okey17 D-13), draw
 *   (the pile ran out, D-10/D-14), rami (went out), blocked (rami: every seat passed, D-15)
 * @returns {string} "" without a result
 */
export function endReasonText(view, result) {
  if (!result || !result.end) return "";
  const who = result.finisher !== null && result.finisher !== undefined ? playerName(view, result.finisher) : "";
  const texts = {
    hand: _("%(who)s finished the round."),
    okey: _("%(who)s finished by discarding the okey."),
    pairs: _("%(who)s finished with pairs."),
    direct: _("%(who)s finished in one go (direct finish)."),
    rami: _("%(who)s went out."),
    draw: _("The pile ran out: nobody finished."),
    blocked: _("Blocked: the pile is empty and nobody could play."),
  };
  let text = texts[result.end] ? fmt(texts[result.end], { who }) : "";
  if (result.end === "blocked" && result.winner !== null && result.winner !== undefined) {
    text += ` ${fmt(_("%(who)s holds the lowest rack."), { who: playerName(view, result.winner) })}`;
  }
  return text;
}
