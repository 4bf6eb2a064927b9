// The reducer's part for the table chat (PLAYERS.md: chat at the table, with a way to
// report abuse). Frames from games/consumers.py: `chat_history` {lines}, `chat` {id, user,
// name, text, at}, `chat_removed` {id}, `reported` {id}, and an `error` whose id names a
// chat line or report this page sent; local events from the chat panel.
//
// The panel gives each `chat` and `report` frame an id of its own, which the server's
// refusal carries back: the error is the chat's by that id, so a refused line (too fast,
// muted …) is never taken for a refused move, however the answers interleave.
import { _ } from "./i18n.js";

const MAX_LINES = 200;
const MAX_ASKED = 20;       // ids kept: the latest lines and reports are the ones answered

/** The chat before any frame; `me` is this user's username (own lines, no report button). */
export function chatState(me = null) {
  return { me, lines: [], unread: 0, awaiting: false, status: "", open: false, asked: [] };
}

function withChat(state, change) {
  return { ...state, chat: { ...state.chat, ...change } };
}

function ask(state, id) {
  return id ? [...state.chat.asked, id].slice(-MAX_ASKED) : state.chat.asked;
}

/** Does the `error` frame `f` answer a chat line or report of this page (by its id)? */
export function answersChat(state, f) {
  return !!f.id && state.chat.asked.includes(f.id);
}

/** An `error` frame answering a chat line or report of this page; `refused` names the
 * refused frame, so the panel can give the player back the line they typed. */
export function chatError(state, f) {
  return withChat(state, { awaiting: false, status: f.message || f.code, refused: f.id,
    asked: state.chat.asked.filter((x) => x !== f.id) });
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
  reported: (s, f) => withChat(s, { awaiting: false, status: _("Thank you: the admins will read the report."),
    asked: s.chat.asked.filter((x) => x !== f.id) }),
  /** {id}: the player's line went out with this frame id */
  chat_sent: (s, { id } = {}) => withChat(s, { awaiting: true, status: "", asked: ask(s, id) }),
  /** the player's line could not go out */
  chat_offline: (s) => withChat(s, { status: _("Not connected. Reconnecting…") }),
  /** {id}: a report went out with this frame id */
  report_sent: (s, { id } = {}) => withChat(s, { awaiting: true, asked: ask(s, id) }),
  /** {open}: the panel was opened (its lines are read) or closed */
  chat_panel: (s, { open }) => withChat(s, { open, unread: open ? 0 : s.chat.unread }),
};
