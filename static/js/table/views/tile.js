// A tile face (RULES.md §1 notation): colour, number, wild and joker marks, face down.
import { _, fmt } from "../i18n.js";
import { face, isWild, splitWild } from "../tiles.js";
import { h } from "./dom.js";

const COLOUR_NAMES = { R: "red", B: "blue", K: "black", Y: "yellow" };

function colourName(c) {
  return { R: _("red"), B: _("blue"), K: _("black"), Y: _("yellow") }[c] || COLOUR_NAMES[c];
}

/**
 * A tile face.
 * @param {string} text "R5", "F", "J", or a meld tile "R6=B5" / "J=K7"
 * @param {object} ctx {okey, rules (table_config.rules: which tile is wild; none: no tile is
 *   marked wild), faceDown, small}
 * @returns {HTMLElement} `.tile[data-tile]` with colour class c-R/c-B/c-K/c-Y
 */
export function tileEl(text, { okey = null, rules = null, faceDown = false, small = false } = {}) {
  const { physical, represented } = splitWild(text);
  const wild = !!rules && isWild(rules, physical, okey);
  const shown = represented ? face(represented) : physical === "F" ? null : face(physical);
  const classes = ["tile"];
  if (small) classes.push("small");
  if (wild) classes.push("wild");
  if (physical === "F") classes.push("false-joker");
  if (physical === "J") classes.push("joker");
  if (faceDown) classes.push("face-down");
  let label;
  if (faceDown) {
    label = "";
  } else if (physical === "J" && !represented) {
    classes.push("c-K");
    label = "☺";
  } else if (physical === "F") {
    const of = face(okey);
    classes.push(of ? `c-${of.colour}` : "c-K");
    label = "✦";
  } else {
    classes.push(`c-${shown.colour}`);
    label = String(shown.number);
  }
  const standsIn = wild && !!represented && represented !== physical;
  const title = faceDown ? _("face-down tile")
    : physical === "F" ? fmt(_("false joker (plays as %(tile)s)"), { tile: okey || "?" })
    : physical === "J" ? (represented ? fmt(_("joker as %(tile)s"), { tile: represented }) : _("joker"))
    : standsIn ? fmt(_("okey as %(tile)s"), { tile: represented })
    // a bare okey shows its own face, so its name says that face too (a name must hold
    // what a sighted player reads on a button)
    : wild ? `${_("okey (wild)")} · ${colourName(shown.colour)} ${shown.number}`
    : `${colourName(shown.colour)} ${shown.number}`;
  // an image named by its label (a rack tile becomes a button, views/rack.js)
  return h("div", { class: classes.join(" "), dataset: { tile: text }, title, role: "img", "aria-label": title },
    // a joker's symbol is no word and a wild standing in for another tile shows a number it
    // does not play as: such a tile is named by its label alone
    h("span", { class: "num", "aria-hidden": physical === "F" || physical === "J" || standsIn ? "true" : null }, label),
    wild && !faceDown ? h("span", { class: "wild-mark", "aria-hidden": "true" }, "★") : null);
}
