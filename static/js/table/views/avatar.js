// A seat's face: the player's picture or generated face, or the computers' face, from the
// address the server puts on each player (view.players[s].avatar, accounts/faces.py).
// Decorative next to the name, so it has no text of its own.
import { h } from "./dom.js";

/** An <img class="face"> for player entry `p` (a view.players item), or null without one. */
export function avatarEl(p, size = 28) {
  if (!p || !p.avatar) return null;
  return h("img", { class: "face seat-face", src: p.avatar, alt: "", width: String(size), height: String(size), loading: "lazy", decoding: "async" });
}
