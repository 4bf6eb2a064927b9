// The reducer's part about a computer playing the viewer's seat (RULES.md §6: after a
// move time ran out, two in a row put the seat on autoplay; a disconnect at an online
// table too, a solo table waits for its player): whether the player was away since they
// last played (so the note reads "welcome back" rather than "time's up"), which note the
// player dismissed, and a `resume` sent.
//
// The server gives the seat back as its player's socket opens, so the snapshot a page
// loaded after an absence gets no longer says `autoplay`, and its moves' actor is
// `timeout` for a move time run out as for a disconnect. What tells them apart is
// whether this page was following the table when the computer played: moves that are
// already in the first snapshot after the page opened, or after its socket came back,
// were played while the player was not here.
import { playedForMe } from "./moves.js";

/** Is a computer playing the viewer's seat now (view.players[seat].autoplay)? */
export function onAutoplay(view) {
  if (!view || view.seat === null || view.seat === undefined) return false;
  return !!((view.players || [])[view.seat] || {}).autoplay;
}

/** The number of the last move in `view` (0 without a view or moves). */
function lastMove(view) {
  const moves = (view && view.moves) || [];
  return moves.length ? moves[moves.length - 1].number : 0;
}

/**
 * After a snapshot: remember that the player was away (the seat on autoplay, or the
 * computer's moves for them played while this page was not following the table) until
 * the player plays again.
 * @param {object} s the state with its new view
 * @param {object} before the state the snapshot came to (its `view` and `following`)
 * @returns {object} the state (a new object only when something changed)
 */
export function awayAfterSnapshot(s, before) {
  const auto = onAutoplay(s.view);
  const mine = playedForMe(s.view);
  const unseen = !before.following && mine.length > 0 && mine[mine.length - 1].number > lastMove(before.view);
  const wasAway = auto || unseen || (s.wasAway && mine.length > 0);
  const resumeSent = auto ? s.resumeSent : false;
  if (wasAway === s.wasAway && resumeSent === s.resumeSent && s.following) return s;
  return { ...s, wasAway, resumeSent, following: true };
}

/** The socket's state changed: once it is not open, what the server does next goes unseen. */
export function awayAfterConnection(s, status) {
  return status === "open" || !s.following ? s : { ...s, following: false };
}

export const awayEvents = {
  /** {number}: the player closed the note about the computer's moves up to move `number` */
  dismiss_away: (s, { number }) => ({ ...s, awayDismissed: number }),
  /** the player asked for the seat back (a `resume` frame went out) */
  resume_sent: (s) => ({ ...s, resumeSent: true }),
};
