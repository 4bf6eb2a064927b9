// The move history panel (`#move-history`): the round's last moves of every seat from
// view.moves, newest first, tiles drawn as tiles, a computer's moves marked, penalties
// named with the seat that pays them (text.js penaltyText). Folded until the player opens it (the status bar's
// last-action line already reads the newest move).
import { _, fmt } from "../i18n.js";
import { moveLine } from "../moves.js";
import { okeyTile, started } from "../selectors.js";
import { penaltyText, playerName } from "../text.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";

const SHOWN = 12;   // lines in the panel; the view holds up to 30

export class HistoryPanel {
  constructor() {
    this.latest = h("span", { class: "history-latest" });
    this.list = h("ol", { class: "history-lines", id: "history-lines" });
    // in the menu sheet (views/sheets.js), open there
    this.sheet = "menu";
    this.el = h("details", { id: "move-history", class: "move-history", open: true },
      h("summary", {}, h("b", {}, _("Moves")), " ", this.latest), this.list);
    this.shown = null;
  }

  render(state) {
    const v = state.view;
    this.el.hidden = !v || !started(state) || !(v.moves || []).length;
    if (this.el.hidden || v.moves === this.shown) return;
    this.shown = v.moves;
    const tile = (t) => tileEl(t, { okey: okeyTile(state), rules: state.rules, small: true });
    const lines = v.moves.slice(-SHOWN).reverse().map((m) => {
      const line = moveLine(v, m, playerName);
      if (!line) return null;
      return h("li", { class: `history-line by-${line.subject}${line.actor !== "human" ? " by-computer" : ""}`, dataset: { number: String(m.number), seat: String(m.seat) } },
        h("span", { class: "history-text" }, line.text),
        line.tiles.map((meld) => h("span", { class: "history-meld" }, meld.map(tile))),
        line.penalties.length ? h("ul", { class: "history-penalties" }, line.penalties.map((e) => h("li", {}, fmt(_("%(player)s: %(penalty)s"), { player: playerName(v, e.seat), penalty: penaltyText(v, e) })))) : null);
    }).filter(Boolean);
    this.list.replaceChildren(...lines);
    // the moves of the round so far (the panel shows the last SHOWN of them)
    this.latest.textContent = `(${v.moves[v.moves.length - 1].number})`;
  }
}
