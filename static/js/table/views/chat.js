// The table chat panel (`#chat`, PLAYERS.md: chat at the table, with a way to report
// abuse): the lines from the state (state-chat.js), a form to post one, a report
// button per line of another player and one for the table.
import { _, fmt } from "../i18n.js";
import { h } from "./dom.js";

export class ChatPanel {
  /** @param {object} ctx {sendFrame(frame) -> boolean (false when offline), dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.shown = null;        // the lines last drawn: redraw (and scroll down) only when they change
    this.count = h("span", { class: "chat-count" });
    this.lines = h("ol", { id: "chat-lines", class: "chat-lines", "aria-live": "polite" });
    this.status = h("div", { id: "chat-status", class: "chat-status", role: "status" });
    this.input = h("input", { id: "chat-input", type: "text", maxlength: "300", autocomplete: "off",
      placeholder: _("Say something to the table"), "aria-label": _("Chat message") });
    const form = h("form", { id: "chat-form", class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.post(); } },
      this.input, h("button", { type: "submit", class: "btn small", id: "chat-send" }, _("Send")));
    const report = h("button", { type: "button", class: "btn small link-btn", id: "chat-report",
      onclick: () => this.report(null) }, _("Report abuse"));
    // one tap sends a common phrase or an emoji (in the sender's language, as typed lines are)
    const quick = [_("Good luck!"), _("Well played!"), _("Thanks!"), _("Your turn, please"), "👍", "😄", "😮", "👏"];
    const phrases = h("div", { class: "chat-quick", id: "chat-quick" }, quick.map((text) =>
      h("button", { type: "button", class: "btn small quick-line", onclick: () => this.post(text) }, text)));
    this.el = h("details", { id: "chat", class: "chat", ontoggle: () => ctx.dispatch({ type: "chat_panel", open: !!this.el.open }) },
      h("summary", {}, _("Chat"), " ", this.count),
      this.lines, phrases, form, h("div", { class: "chat-foot" }, this.status, report));
  }

  /** Send `quick` (a quick phrase), or the typed line. */
  post(quick = null) {
    const text = quick || this.input.value.trim();
    if (!text) return;
    if (this.ctx.sendFrame({ type: "chat", text })) {
      if (!quick) this.input.value = "";
      this.ctx.dispatch({ type: "chat_sent" });
    } else this.ctx.dispatch({ type: "chat_offline" });
  }

  /** Report abuse at the table, about `user` (a username) or the table in general. */
  report(user) {
    const reason = window.prompt(user ? fmt(_("Report %(name)s to the admins: what happened?"), { name: user })
      : _("Report abuse at this table to the admins: what happened?"));
    if (reason === null) return;
    if (this.ctx.sendFrame({ type: "report", user, reason: reason.slice(0, 300) })) this.ctx.dispatch({ type: "report_sent" });
  }

  render(state) {
    const c = state.chat;
    if (this.status.textContent !== c.status) this.status.textContent = c.status;
    this.count.textContent = c.unread ? `(${c.unread})` : "";
    if (c.lines === this.shown) return;
    this.shown = c.lines;
    this.lines.replaceChildren(...c.lines.map((l) => h("li", { class: `chat-line${l.user === c.me ? " mine" : ""}`, dataset: { id: String(l.id) } },
      h("span", { class: "chat-time" }, l.at ? new Date(l.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""),
      h("b", { class: "chat-name" }, l.name || l.user), " ",
      h("span", { class: "chat-text" }, l.text),
      l.user && l.user !== c.me ? h("button", { type: "button", class: "report-line", title: _("Report this player"),
        "aria-label": _("Report this player"), onclick: () => this.report(l.user) }, "⚑") : null)));
    this.lines.scrollTop = this.lines.scrollHeight;
  }
}
