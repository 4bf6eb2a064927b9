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

function answerText(answer) {
  if (answer === "accepted") return _("accepted");
  if (answer === "declined") return _("declined: a computer takes the seat");
  return _("waiting for an answer");
}

/**
 * An open rematch's invited players by seat (view.rematch_invited, games/snapshot.py
 * `rematch_invitees`): one who accepted at the seat they took, the others in the free
 * seats in the order they were invited, so every seat says whom it waits for.
 * @param {object} view the snapshot's view
 * @returns {Object<number, {name: string, answer: "waiting"|"accepted"|"declined"}>} by seat index
 */
export function seatInvitees(view) {
  const out = {};
  const invited = (view && view.rematch_invited) || [];
  const pending = invited.filter((i) => i.seat === null || i.seat === undefined);
  for (const i of invited) if (i.seat !== null && i.seat !== undefined) out[i.seat] = i;
  (view.players || []).forEach((p, s) => { if (p.empty && pending.length) out[s] = pending.shift(); });
  return out;
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
      const invitees = seatInvitees(v);
      list.replaceChildren(...players.map((p, s) => {
        const inv = invitees[s];
        const cls = `${p.empty ? "free" : ""}${s === v.seat ? " me" : ""}${inv ? ` invitee ${inv.answer}` : ""}`.trim();
        return h("li", { class: cls, dataset: { seat: String(s) } },
          p.empty ? (inv ? inv.name : _("free seat")) : playerName(v, s), s === v.seat ? ` (${_("you")})` : "",
          inv ? h("span", { class: "invite-answer" }, answerText(inv.answer)) : null,
          p.user && s !== v.seat ? removeForm(this.config, s) : null);
      }));
    }
    const join = document.getElementById("join-form");
    if (join) join.hidden = !players.some((p) => p.empty) || seated(state);
  }
}
