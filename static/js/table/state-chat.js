// The reducer's part for the table chat (PLAYERS.md: chat at the table, with a way to
// report abuse). Frames from games/consumers.py: `chat_history` {lines}, `chat` {id, user,
// name, text, at}, `chat_removed` {id}, `reported`, and an `error` without id while a
// chat line or report waits for its answer; local events from the chat panel.
import { _ } from "./i18n.js";

const MAX_LINES = 200;

/** The chat before any frame; `me` is this user's username (own lines, no report button). */
export function chatState(me = null) {
  return { me, lines: [], unread: 0, awaiting: false, status: "", open: false };
}

function withChat(state, change) {
  return { ...state, chat: { ...state.chat, ...change } };
}

/** An `error` frame answering the chat line or report that was waiting. */
export function chatError(state, f) {
  return withChat(state, { awaiting: false, status: f.message || f.code });
}

export const chatEvents = {
  chat_history: (s, f) => withChat(s, { lines: [...(f.lines || [])] }),
  chat: (s, f) => {
    const c = s.chat;
    const mine = f.user === c.me;
    return withChat(s, { lines: [...c.lines, f].slice(-MAX_LINES), awaiting: mine ? false : c.awaiting,
      unread: !c.open && !mine ? c.unread + 1 : c.unread });
  },
  chat_removed: (s, f) => withChat(s, { lines: s.chat.lines.filter((l) => l.id !== f.id) }),
  reported: (s) => withChat(s, { awaiting: false, status: _("Thank you: the admins will read the report.") }),
  /** the player's line went out */
  chat_sent: (s) => withChat(s, { awaiting: true, status: "" }),
  /** the player's line could not go out */
  chat_offline: (s) => withChat(s, { status: _("Not connected. Reconnecting…") }),
  /** a report went out */
  report_sent: (s) => withChat(s, { awaiting: true }),
  /** {open}: the panel was opened (its lines are read) or closed */
  chat_panel: (s, { open }) => withChat(s, { open, unread: open ? 0 : s.chat.unread }),
};
