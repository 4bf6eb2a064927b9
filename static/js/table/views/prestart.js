// The seat list above the table while it is open (templates/games/table.html
// `#prestart`, server-rendered), redrawn from every snapshot so joiners show at once;
// the whole block (start, join, leave) goes away once the match starts. It lives
// outside the table element, so this view has no element of its own. A seat lost while
// the page stays open (the creator removed the viewer) reloads the page: the server
// then says why and offers only the controls the viewer is still allowed.
import { _ } from "../i18n.js";
import { seated } from "../selectors.js";
import { playerName } from "../text.js";
import { h } from "./dom.js";

/** The creator's "Remove" form for another player's seat (posts to urls.remove + seat). */
function removeForm(config, seat) {
  const csrf = document.querySelector('#prestart input[name="csrfmiddlewaretoken"]');
  if (!config.is_creator || !config.urls || !config.urls.remove || !csrf) return null;
  return h("form", { method: "post", action: `${config.urls.remove}${seat}/`, class: "inline-form remove-form" },
    h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf.value }),
    h("button", { type: "submit", class: "remove-btn" }, _("Remove")));
}

export class Prestart {
  constructor(ctx = {}) { this.el = null; this.config = ctx.config || {}; this.seat = Number.isInteger(this.config.seat) ? this.config.seat : null; this.reload = ctx.reload || (() => typeof location !== "undefined" && location.reload()); }

  render(state) {
    const v = state.view;
    const box = document.getElementById("prestart");
    if (!v || !box) return;
    if (v.status && v.status !== "open") { box.hidden = true; return; }
    // the seat the page was rendered with counts too: a removal can reach this socket
    // before any snapshot that still showed the seat
    const had = this.seat;
    this.seat = seated(state) ? v.seat : null;
    if (had !== null && this.seat === null) { this.reload(); return; }
    const list = document.getElementById("prestart-seats");
    const players = v.players || [];
    if (list && players.length) {
      list.replaceChildren(...players.map((p, s) => h("li", { class: `${p.empty ? "free" : ""}${s === v.seat ? " me" : ""}`.trim(), dataset: { seat: String(s) } },
        p.empty ? _("free seat") : playerName(v, s), s === v.seat ? ` (${_("you")})` : "",
        p.user && s !== v.seat ? removeForm(this.config, s) : null)));
    }
    const join = document.getElementById("join-form");
    if (join) join.hidden = !players.some((p) => p.empty) || seated(state);
  }
}
