// The table's top bar and its sheets: the table fills one screen, and what a player
// needs only now and then opens over it in a sheet (a modal <dialog>: Escape or the ×
// closes it, the focus stays inside). The bar holds, after the turn banner:
//   the menu (`#table-menu`, in the page's template: the site's links, the table's own
//     head — rules, invite, leave — once the match runs, the move history, the fair deal),
//   the chat (`#chat-sheet`, with the unread count),
//   the sound (`#sound-sheet`: on or off and the volume),
//   "?", the keyboard shortcuts (`#shortcuts-sheet`); on a touch-only device the rules.
// Other views name the sheet their element goes in (`sheet = "menu" | "chat" | "sound"`);
// views/layout.js puts them there.
import { _ } from "../i18n.js";
import { started } from "../selectors.js";
import { h } from "./dom.js";

/** Open a sheet (a <dialog>) over the table; a browser without showModal shows it in place. */
export function openSheet(dialog) {
  if (!dialog) return;
  if (typeof dialog.showModal === "function") { if (!dialog.open) dialog.showModal(); } else dialog.open = true;
}

function closeButton(dialog) {
  return h("button", { type: "button", class: "sheet-close", "aria-label": _("Close"), onclick: () => closeSheet(dialog) }, "×");
}

function closeSheet(dialog) {
  if (typeof dialog.close === "function") dialog.close(); else dialog.open = false;
}

/** A sheet of the table: a titled modal dialog, closed by a tap outside its card too. */
function sheet(id, title, ...body) {
  const heading = h("h2", { id: `${id}-title` }, title);
  const dialog = h("dialog", { id, class: "sheet", "aria-labelledby": `${id}-title` });
  dialog.append(h("div", { class: "sheet-bar" }, heading, closeButton(dialog)), ...body);
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) closeSheet(dialog); });
  return dialog;
}

// the keyboard's shortcuts, as views/comforts.js reads them
export const SHORTCUTS = () => [
  ["P", _("Draw from the pile")], ["T", _("Take the previous player's discard")], ["O", _("Open")],
  ["A", _("Open with pairs")], ["L", _("Lay the selected tiles")], ["D", _("Discard the selected tile")],
  ["S", _("Play the table (rami)")], ["U", _("Undo the turn (rami)")],
  ["← →", _("Walk the rack's tiles")], [_("Enter or Space"), _("Select the tile")], ["Esc", _("Clear the selection")],
  ["?", _("This list")],
];

export class TopBar {
  /** @param {object} ctx {dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    // the icons are CSS masks (table-screen.css): no emoji font needed
    const tool = (id, label, icon, onclick) => h("button", { type: "button", id, class: "tool", "aria-label": label, title: label, onclick },
      h("span", { class: `tool-icon icon-${icon}`, "aria-hidden": "true" }, icon === "help" ? "?" : ""));
    this.chat = sheet("chat-sheet", _("Chat"));
    this.sound = sheet("sound-sheet", _("Sound"));
    this.help = sheet("shortcuts-sheet", _("Keyboard shortcuts"),
      h("dl", { class: "shortcuts" }, SHORTCUTS().flatMap(([key, what]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, what)])));
    this.chat.addEventListener("close", () => ctx.dispatch({ type: "chat_panel", open: false }));
    this.count = h("span", { class: "tool-count", "aria-hidden": "true" });
    this.menuBtn = tool("menu-btn", _("Menu"), "menu", () => openSheet(document.getElementById("table-menu")));
    this.chatBtn = tool("chat-btn", _("Chat"), "chat", () => { openSheet(this.chat); ctx.dispatch({ type: "chat_panel", open: true }); });
    this.chatBtn.append(this.count);
    this.soundBtn = tool("sound-btn", _("Sound"), "sound", () => openSheet(this.sound));
    // a touch-only device has no keyboard: there "?" opens the rules of the table's game
    // (the head's link, already in the player's language) instead of a list of keys
    const rules = typeof document !== "undefined" ? document.getElementById("rules-link") : null;
    const touchOnly = () => typeof matchMedia === "function" && matchMedia("(hover: none) and (pointer: coarse)").matches;
    this.helpBtn = tool("help-btn", _("Keyboard shortcuts"), "help", () => {
      if (rules && touchOnly()) window.open(rules.href, "_blank", "noopener");
      else openSheet(this.help);
    });
    if (rules && touchOnly()) {
      const label = rules.textContent.trim();
      this.helpBtn.setAttribute("aria-label", label);
      this.helpBtn.setAttribute("title", label);
    }
    // what the table's head says that matters during play stays on the table (with the notes)
    this.badges = h("div", { class: "tbl-badges" });
    this.el = h("div", { class: "tbl-tools" }, this.chatBtn, this.soundBtn, this.helpBtn, this.menuBtn, this.chat, this.sound, this.help);
    document.addEventListener("keydown", (ev) => {
      const t = ev.target;
      if (ev.key !== "?" || (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable))) return;
      if (this.el.parentElement && this.el.parentElement.parentElement) { openSheet(this.help); ev.preventDefault(); }
    });
  }

  /** The sheet element a view named, or null (the menu lives in the page's template). */
  sheetFor(name) {
    if (name === "chat") return this.chat;
    if (name === "sound") return this.sound;
    if (name === "menu") return typeof document !== "undefined" ? document.getElementById("table-menu-body") : null;
    return null;
  }

  render(state) {
    const c = state.chat;
    const unread = c && c.unread ? String(c.unread) : "";
    if (this.count.textContent !== unread) this.count.textContent = unread;
    this.chatBtn.setAttribute("aria-label", unread ? `${_("Chat")} (${unread})` : _("Chat"));
    // once the match runs the table's head (title, rules, invite, leave) goes into the menu;
    // that the viewer watches, how many watch and the next arena table stay in sight
    if (state.view && started(state) && typeof document !== "undefined") {
      const head = document.querySelector(".table-head");
      const body = document.getElementById("table-menu-body");
      if (head && body && head.parentElement !== body) {
        for (const id of ["spectator-badge", "watching", "arena-next"]) {
          const badge = document.getElementById(id);
          if (badge) this.badges.append(badge);
        }
        body.prepend(head);
        // a guest's note (sign up to keep the games) goes first in the menu
        const guest = document.getElementById("guest-banner");
        if (guest) body.prepend(guest);
      }
    }
  }
}
