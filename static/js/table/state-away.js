// The reducer's part about a computer playing the viewer's seat (RULES.md §6: after a
// move time ran out, two in a row put the seat on autoplay; a disconnect at an online
// table too, a solo table waits for its player): whether
// the seat was on autoplay since the player last played (so the note reads "welcome
// back" rather than "time's up"), which note the player dismissed, and a `resume` sent.
import { playedForMe } from "./moves.js";

/** Is a computer playing the viewer's seat now (view.players[seat].autoplay)? */
export function onAutoplay(view) {
  if (!view || view.seat === null || view.seat === undefined) return false;
  return !!((view.players || [])[view.seat] || {}).autoplay;
}

/**
 * After a snapshot: remember that the seat was on autoplay until the player plays again.
 * @param {object} s the state with its new view
 * @returns {object} the state (a new object only when something changed)
 */
export function awayAfterSnapshot(s) {
  const auto = onAutoplay(s.view);
  const since = playedForMe(s.view).length > 0;
  const wasAutoplay = auto || (s.wasAutoplay && since);
  const resumeSent = auto ? s.resumeSent : false;
  if (wasAutoplay === s.wasAutoplay && resumeSent === s.resumeSent) return s;
  return { ...s, wasAutoplay, resumeSent };
}

export const awayEvents = {
  /** {number}: the player closed the note about the computer's moves up to move `number` */
  dismiss_away: (s, { number }) => ({ ...s, awayDismissed: number }),
  /** the player asked for the seat back (a `resume` frame went out) */
  resume_sent: (s) => ({ ...s, resumeSent: true }),
};
