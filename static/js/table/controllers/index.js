// One controller per ruleset family: the only place the client picks behaviour by
// ruleset id. Rule facts (meld rules, thresholds, pair and wild rules) are not picked
// here but read from state.rules, which the server sends from the ruleset object. A controller is a plain object:
//   family         "okey" | "rami"
//   editsTable     the player rearranges a working table in their turn (state-rami.js)
//   views          {centre: "discards"|"pile", table: "by-owner"|"working"}: which view
//                  modules show the centre and the table (views/layout.js)
//   seatDiscards   seat cards show each seat's discard pile
//   highestWins    the match standings put the highest total first
//   controls()     the action bar: [{id, label, title, gesture, cls?, turn?} | {spacer}],
//                  `turn` buttons are disabled out of turn
//   canDraw(state) the pile can be tapped now
//   turnText(state)     the banner in the player's turn
//   firstHint(state)    the first-game hint's words for the seat's phase
//   openingLine(state)  [{cls, text}]: the running opening totals, [] once opened
//   fits(state)    Map meld id -> "add"|"swap" for the selected tile (lighting)
//   gesture(state, g)   {events, send}: see controllers/common.js
import { okeyController } from "./okey.js";
import { ramiController } from "./rami.js";

/**
 * The controller for a ruleset id (an unknown one plays as okey51, like the server's default).
 * @param {string} ruleset "okey51" | "okey17" | "rami"
 * @returns {object}
 */
export function controllerFor(ruleset) {
  if (ruleset === "rami") return ramiController;
  return okeyController();
}
