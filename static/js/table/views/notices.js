// Two lines under the table: the error line (a refusal, a hint) and the running
// opening totals while the player has not opened (the family's `openingLine`).
import { h } from "./dom.js";

export class ErrorBox {
  constructor() { this.el = h("div", { id: "error-box", role: "alert", class: "error-box" }); }

  render(state) {
    if (this.el.textContent !== state.notice) this.el.textContent = state.notice;
    this.el.classList.toggle("shown", !!state.notice);
    // a hint (what to do now) reads calmly; a refusal keeps the error's colours
    this.el.classList.toggle("hint", !!state.notice && !!state.noticeHint);
  }
}

export class OpeningInfo {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h("div", { id: "opening-info", class: "opening-info", "aria-live": "polite" });
  }

  render(state) {
    if (!state.view) return;
    this.el.replaceChildren(...this.ctx.controller.openingLine(state).map((p) => h("span", { class: p.cls }, p.text)));
  }
}
