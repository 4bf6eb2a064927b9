// The table chat panel (`#chat`, PLAYERS.md: chat at the table, with a way to report
// abuse): the lines from the state (state-chat.js), a form to post one, a report
// button per line of another player and one for the table. The server takes chat lines
// and reports from the seated players only (`not_seated`), so a spectator reads the
// lines and, instead of controls that would be refused, the rule itself.
import { _, fmt } from "../i18n.js";
import { seated } from "../selectors.js";
import { h } from "./dom.js";

/** Does the viewer watch without a seat? The page's seat until a view says. */
function watching(state) {
  return state.view ? !seated(state) : state.seat === null || state.seat === undefined;
}

export class ChatPanel {
  /** @param {object} ctx {sendFrame(frame) -> boolean (false when offline), dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.shown = null;        // the lines last drawn: redraw (and scroll down) only when they change
    this.lines = h("ol", { id: "chat-lines", class: "chat-lines", "aria-live": "polite" });
    this.status = h("div", { id: "chat-status", class: "chat-status", role: "status" });
    this.input = h("input", { id: "chat-input", type: "text", maxlength: "300", autocomplete: "off",
      placeholder: _("Say something to the table"), "aria-label": _("Chat message") });
    this.form = h("form", { id: "chat-form", class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.post(); } },
      this.input, h("button", { type: "submit", class: "btn small", id: "chat-send" }, _("Send")));
    this.reportBtn = h("button", { type: "button", class: "btn small link-btn", id: "chat-report",
      onclick: () => this.report(null) }, _("Report abuse"));
    // one tap sends a common phrase or an emoji (in the sender's language, as typed lines are)
    const quick = [_("Good luck!"), _("Well played!"), _("Thanks!"), _("Your turn, please"), "👍", "😄", "😮", "👏"];
    this.phrases = h("div", { class: "chat-quick", id: "chat-quick" }, quick.map((text) =>
      h("button", { type: "button", class: "btn small quick-line", onclick: () => this.post(text) }, text)));
    this.rule = h("p", { id: "chat-rule", class: "chat-rule muted", hidden: true }, _("Only the players at this table can chat."));
    // in the chat sheet (views/sheets.js), which says when it opens and closes
    this.sheet = "chat";
    this.el = h("section", { id: "chat", class: "chat", "aria-label": _("Chat") },
      this.lines, this.phrases, this.form, this.rule, h("div", { class: "chat-foot" }, this.status, this.reportBtn));
    this.spectator = null;
    // typed lines sent and not yet answered, by frame id: a refused one (too fast, muted)
    // goes back into the empty input rather than being lost with the cleared field
    this.typed = new Map();
    this.restored = null;
  }

  /** Send `quick` (a quick phrase), or the typed line. */
  post(quick = null) {
    const text = quick || this.input.value.trim();
    if (!text) return;
    const id = this.nextId("chat");
    if (this.ctx.sendFrame({ type: "chat", id, text })) {
      if (!quick) {
        this.input.value = "";
        this.typed.set(id, text);
        if (this.typed.size > 20) this.typed.delete(this.typed.keys().next().value);
      }
      this.ctx.dispatch({ type: "chat_sent", id });
    } else this.ctx.dispatch({ type: "chat_offline" });
  }

  /** Report abuse at the table, about `user` (a username) or the table in general. */
  report(user) {
    const reason = window.prompt(user ? fmt(_("Report %(name)s to the admins: what happened?"), { name: user })
      : _("Report abuse at this table to the admins: what happened?"));
    if (reason === null) return;
    const id = this.nextId("report");
    if (this.ctx.sendFrame({ type: "report", id, user, reason: reason.slice(0, 300) })) this.ctx.dispatch({ type: "report_sent", id });
  }

  /** A frame id for a chat line or report: the server's answer names it (state-chat.js). */
  nextId(kind) {
    this.seq = (this.seq || 0) + 1;
    return `${kind}${this.seq}`;
  }

  render(state) {
    const c = state.chat;
    const spectator = watching(state);
    if (spectator !== this.spectator) {
      this.spectator = spectator;
      this.shown = null;          // the lines' report buttons come or go with the seat
      for (const part of [this.form, this.phrases, this.reportBtn]) part.hidden = spectator;
      this.rule.hidden = !spectator;
    }
    if (this.status.textContent !== c.status) this.status.textContent = c.status;
    if (c.refused && c.refused !== this.restored) {
      this.restored = c.refused;
      const text = this.typed.get(c.refused);
      this.typed.delete(c.refused);
      if (text && !this.input.value.trim()) this.input.value = text;
    }
    if (c.lines === this.shown) return;
    this.shown = c.lines;
    this.lines.replaceChildren(...c.lines.map((l) => h("li", { class: `chat-line${l.user === c.me ? " mine" : ""}`, dataset: { id: String(l.id) } },
      h("span", { class: "chat-time" }, l.at ? new Date(l.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""),
      h("b", { class: "chat-name" }, l.name || l.user), " ",
      h("span", { class: "chat-text" }, l.text),
      !spectator && l.user && l.user !== c.me ? h("button", { type: "button", class: "report-line", title: _("Report this player"),
        "aria-label": _("Report this player"), onclick: () => this.report(l.user) }, "⚑") : null)));
    this.lines.scrollTop = this.lines.scrollHeight;
  }
}
