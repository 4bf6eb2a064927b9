// The action bar: the family's buttons (controllers: `controls()`), the turn's ones
// disabled out of turn, the opening ones (`untilOpened`) gone once the player opened. Only a seated player in a round being played sees it.
import { myOpening, myTurn, roundOver, seated, started } from "../selectors.js";
import { h } from "./dom.js";

export class Actions {
  constructor(ctx) {
    this.controls = ctx.controller.controls();
    this.buttons = new Map();
    this.el = h("div", { class: "actions" }, this.controls.map((c) => {
      if (c.spacer) return h("span", { class: "spacer" });
      const b = h("button", { type: "button", id: c.id, class: `btn ${c.cls || ""}`.trim(), title: c.title,
        onclick: () => ctx.gesture(c.gesture) }, c.label);
      this.buttons.set(c, b);
      return b;
    }));
  }

  render(state) {
    if (!state.view) return;
    this.el.hidden = !seated(state) || !(started(state) && !roundOver(state));
    const opening = myOpening(state);
    const opened = !!opening && opening !== "no";
    for (const [c, b] of this.buttons) {
      if (c.turn) b.disabled = !myTurn(state);
      if (c.untilOpened) b.hidden = opened;     // an opening is done once (RULES.md §3-4)
    }
  }
}
