// Table chat (PLAYERS.md: chat at the table, with a way to report abuse). Frames from
// games/consumers.py: in `chat_history` {lines}, `chat` {id, user, name, text, at},
// `chat_removed` {id}, `reported`; out `chat` {text}, `report` {user, reason}.
import { _, fmt } from "./i18n.js";
import { h } from "./render.js";

const MAX_LINES = 200;

export class TableChat {
  /**
   * @param {HTMLElement} mount where the panel goes
   * @param {(frame: object) => boolean} send sends a frame; false when offline
   * @param {string|null} me this user's username (no report button on own lines)
   */
  constructor(mount, send, me = null) {
    this.send = send;
    this.me = me;
    this.lines = [];
    this.unread = 0;
    this.awaiting = false;   // a chat or report frame is waiting for its answer
    this.el = {};
    const E = this.el;
    E.count = h("span", { class: "chat-count" });
    E.lines = h("ol", { id: "chat-lines", class: "chat-lines", "aria-live": "polite" });
    E.status = h("div", { id: "chat-status", class: "chat-status", role: "status" });
    E.input = h("input", { id: "chat-input", type: "text", maxlength: "300", autocomplete: "off",
      placeholder: _("Say something to the table"), "aria-label": _("Chat message") });
    E.form = h("form", { id: "chat-form", class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.post(); } },
      E.input, h("button", { type: "submit", class: "btn small", id: "chat-send" }, _("Send")));
    E.report = h("button", { type: "button", class: "btn small link-btn", id: "chat-report",
      onclick: () => this.report(null) }, _("Report abuse"));
    E.panel = h("details", { id: "chat", class: "chat", ontoggle: () => { if (E.panel.open) { this.unread = 0; this.renderCount(); } } },
      h("summary", {}, _("Chat"), " ", E.count),
      E.lines, E.form, h("div", { class: "chat-foot" }, E.status, E.report));
    mount.append(E.panel);
  }

  /** Handle a chat frame; returns true when the frame was a chat one. */
  receive(f) {
    if (f.type === "chat_history") { this.lines = [...(f.lines || [])]; this.render(); return true; }
    if (f.type === "chat") {
      this.lines.push(f);
      if (this.lines.length > MAX_LINES) this.lines.shift();
      if (f.user === this.me) this.awaiting = false;
      if (!this.el.panel.open && f.user !== this.me) this.unread += 1;
      this.render();
      return true;
    }
    if (f.type === "chat_removed") { this.lines = this.lines.filter((l) => l.id !== f.id); this.render(); return true; }
    if (f.type === "reported") { this.awaiting = false; this.status(_("Thank you: the admins will read the report.")); return true; }
    if (f.type === "error" && !f.id && this.awaiting) { this.awaiting = false; this.status(f.message || f.code); return true; }
    return false;
  }

  post() {
    const text = this.el.input.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text })) {
      this.awaiting = true;
      this.el.input.value = "";
      this.status("");
    } else this.status(_("Not connected. Reconnecting…"));
  }

  /** Report abuse at the table, about `user` (a username) or the table in general. */
  report(user) {
    const reason = window.prompt(user ? fmt(_("Report %(name)s to the admins: what happened?"), { name: user })
      : _("Report abuse at this table to the admins: what happened?"));
    if (reason === null) return;
    if (this.send({ type: "report", user, reason: reason.slice(0, 300) })) this.awaiting = true;
  }

  status(text) { this.el.status.textContent = text; }

  renderCount() { this.el.count.textContent = this.unread ? `(${this.unread})` : ""; }

  render() {
    const E = this.el;
    E.lines.replaceChildren(...this.lines.map((l) => h("li", { class: `chat-line${l.user === this.me ? " mine" : ""}`, dataset: { id: String(l.id) } },
      h("span", { class: "chat-time" }, l.at ? new Date(l.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""),
      h("b", { class: "chat-name" }, l.name || l.user), " ",
      h("span", { class: "chat-text" }, l.text),
      l.user && l.user !== this.me ? h("button", { type: "button", class: "report-line", title: _("Report this player"),
        "aria-label": _("Report this player"), onclick: () => this.report(l.user) }, "⚑") : null)));
    E.lines.scrollTop = E.lines.scrollHeight;
    this.renderCount();
  }
}
