// A computer playing the viewer's seat (RULES.md §6): while the seat is on autoplay a
// banner says so with one tap to take the seat back (the `resume` frame,
// docs/protocol.md); after a move time ran out, or once the player is back,
// a note says what the computer did for them ("time's up" / "welcome back"). Hidden
// once the round or the match is over.
import { _ } from "../i18n.js";
import { playedForMe, summary } from "../moves.js";
import { matchOver, roundOver, seated, started } from "../selectors.js";
import { onAutoplay } from "../state-away.js";
import { playerName } from "../text.js";
import { h } from "./dom.js";

export class AwayBanner {
  /** @param {object} ctx {sendFrame(frame) -> boolean, dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.text = h("div", { class: "away-text" });
    this.did = h("div", { class: "away-did" });
    this.resume = h("button", { type: "button", class: "btn primary", id: "resume-btn", onclick: () => this.takeBack() }, _("Play myself"));
    this.ok = h("button", { type: "button", class: "btn small", id: "away-ok", onclick: () => this.dismiss() }, _("OK"));
    this.el = h("div", { id: "away-banner", class: "away-banner", role: "status", "aria-live": "polite", hidden: true },
      h("div", { class: "away-words" }, this.text, this.did), this.resume, this.ok);
    this.last = 0;
  }

  takeBack() {
    if (this.ctx.sendFrame({ type: "resume" })) this.ctx.dispatch({ type: "resume_sent" });
  }

  dismiss() { this.ctx.dispatch({ type: "dismiss_away", number: this.last }); }

  render(state) {
    const v = state.view;
    // Once the round or the match is over the score table or the "Match over" card is
    // what counts; the banner sits above it (on a phone it covers the card's buttons).
    if (!v || !seated(state) || !started(state) || roundOver(state) || matchOver(state)) { this.el.hidden = true; return; }
    const auto = onAutoplay(v);
    const mine = playedForMe(v);
    this.last = mine.length ? mine[mine.length - 1].number : 0;
    const note = !auto && mine.length > 0 && this.last > state.awayDismissed;
    this.el.hidden = !auto && !note;
    if (this.el.hidden) return;
    this.el.classList.toggle("autoplay", auto);
    this.text.textContent = auto ? _("A computer is playing your seat.")
      : state.wasAway ? _("Welcome back! While you were away the computer played for you.")
        : _("Time's up! The computer played your turn.");
    this.did.textContent = summary(v, mine, playerName);
    this.resume.hidden = !auto;
    this.resume.disabled = !!state.resumeSent;
    this.resume.textContent = state.resumeSent ? _("Taking your seat back…") : _("Play myself");
    this.ok.hidden = auto;
  }
}
