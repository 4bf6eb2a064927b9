// The status bar: the turn banner (or why the player can no longer act), the move
// clock, the round and the viewer's penalty, the last action, the connection.
import { _, fmt } from "../i18n.js";
import { matchOver, myTurn, roundOver, seated, started } from "../selectors.js";
import { lastActionText, playerName } from "../text.js";
import { onAutoplay } from "../state-away.js";
import { h } from "./dom.js";

export class StatusBar {
  constructor(ctx) {
    this.ctx = ctx;
    this.turn = h("div", { id: "turn-status", "aria-live": "polite" }, _("Connecting…"));
    this.clock = h("div", { id: "clock", "aria-label": _("Move clock") }, "");
    this.round = h("div", { id: "round-info", class: "round-info" });
    this.last = h("div", { id: "last-action", class: "last-action" });
    this.conn = h("div", { id: "conn-state", class: "conn" });
    this.el = h("div", { class: "tbl-status" }, this.turn, this.clock, this.round, this.last, this.conn);
  }

  render(state) {
    if (state.view) this.renderTurn(state);
    if (state.blocked) this.renderBlocked(state);
    else {
      this.conn.textContent = state.conn === "open" ? "" : state.conn === "connecting" ? _("Connecting…") : _("Connection lost, reconnecting…");
      this.conn.classList.toggle("bad", state.conn !== "open");
    }
    this.tick(state);
  }

  renderTurn(state) {
    const v = state.view;
    let text;
    if (matchOver(state)) text = _("Match over");
    else if (roundOver(state)) text = _("Round over");
    else if (myTurn(state) && onAutoplay(v)) text = _("A computer is playing your turn");
    else if (myTurn(state)) text = this.ctx.controller.turnText(state);
    else if (v.status === "closed") text = _("This table is closed.");
    // the seeding window before a deal (docs/fair-deals.md §1): the match has started, the
    // tiles are on their way
    else if (state.seeding && !started(state)) text = _("Dealing the tiles…");
    else if (v.turn !== null && v.turn !== undefined) text = fmt(_("%(name)s is playing"), { name: playerName(v, v.turn) });
    // a seated player who is not the creator cannot start the match: say who does
    else if (seated(state) && v.seat !== v.creator_seat && v.creator_seat !== null && v.creator_seat !== undefined
      && !(v.players || [])[v.creator_seat]?.empty) {
      text = fmt(_("Waiting for %(name)s to start the match"), { name: playerName(v, v.creator_seat) });
    } else text = _("Waiting for the match to start");
    this.turn.textContent = text;
    this.turn.classList.toggle("my-turn", myTurn(state));
    const rounds = v.rounds ? fmt(_("Round %(n)s of %(total)s"), { n: (v.round_index ?? 0) + 1, total: v.rounds })
      : fmt(_("Round %(n)s"), { n: (v.round_index ?? 0) + 1 });
    const myPen = seated(state) ? (v.penalty || [])[v.seat] || 0 : 0;
    const myTotal = seated(state) ? (v.totals || [])[v.seat] : undefined;
    const parts = [rounds];
    if (myTotal !== undefined && myTotal !== null) parts.push(fmt(_("your total %(n)s"), { n: myTotal }));
    if (myPen) parts.push(fmt(_("your penalty %(n)s"), { n: myPen }));
    this.round.textContent = parts.join(" · ");
    this.round.hidden = !started(state);
    this.last.textContent = lastActionText(v);
  }

  /** The reason replaces the turn banner; the clock and the connection line go quiet. */
  renderBlocked(state) {
    this.turn.textContent = state.blocked;
    this.turn.classList.remove("my-turn");
    this.turn.classList.add("blocked-banner");
    this.turn.setAttribute("role", "alert");
    this.conn.textContent = "";
    this.conn.classList.remove("bad");
  }

  /** The move clock counts down to view.deadline (epoch ms); a computer's short delay
   * is not a move clock, and the pause between rounds counts down in the score table. */
  tick(state) {
    const v = state.view;
    const d = v && v.deadline;
    if (!d || state.blocked || roundOver(state) || (v.deadline_kind && v.deadline_kind !== "move")) {
      this.clock.textContent = "";
      this.clock.className = "";
      return;
    }
    const left = Math.max(0, Math.ceil((d - Date.now()) / 1000));
    this.clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    this.clock.classList.toggle("low", left <= 10);
    this.clock.classList.toggle("mine", myTurn(state));
  }
}
