// The table's views, in page order: the one place that says what the table is made
// of. Each view is a small class: `constructor(ctx)` builds its element (`el`, or null
// for one that lives outside the table), `render(state)` redraws it from the state
// (state.js), and an optional `tick(state)` runs four times a second (clocks). The
// family's controller names which centre and which table view it has.
//   ctx: {controller, config, lobbyUrl, dnd (views/dnd.js), gesture(g) (controllers/common.js),
//         dispatch(event) (local UI events, state.js), sendFrame(frame) -> boolean,
//         storage (localStorage or null)}
import { ChatPanel } from "./chat.js";
import { DiscardsCentre, PileCentre } from "./centre.js";
import { ErrorBox, OpeningInfo } from "./notices.js";
import { FairDealPanel } from "./fairdeal.js";
import { FirstGameHint } from "./first-hint.js";
import { Actions } from "./actions.js";
import { AwayBanner } from "./away.js";
import { HistoryPanel } from "./history.js";
import { Comforts } from "./comforts.js";
import { OwnerMelds } from "./owner-melds.js";
import { Prestart } from "./prestart.js";
import { RackView } from "./rack.js";
import { ScoreOverlay } from "./scores.js";
import { Seats } from "./seats.js";
import { StatusBar } from "./status.js";
import { TopBar } from "./sheets.js";
import { h } from "./dom.js";
import { Watching } from "./watching.js";
import { WorkingTable } from "./working-table.js";

const CENTRES = { discards: DiscardsCentre, pile: PileCentre };
const TABLES = { "by-owner": OwnerMelds, working: WorkingTable };

/**
 * The views of a table, in the order they render and stand on the page (the seat list
 * above the table first: the seat cards read whether it is shown; the fair-deal panel
 * after the score overlay, which it joins while that is shown).
 * @param {object} ctx see above
 * @returns {object[]} view instances
 */
export function tableLayout(ctx) {
  const { centre, table } = ctx.controller.views;
  return [Prestart, StatusBar, TopBar, FirstGameHint, AwayBanner, Seats, CENTRES[centre], TABLES[table], ErrorBox, OpeningInfo, Actions, RackView,
    HistoryPanel, ScoreOverlay, FairDealPanel, ChatPanel, Comforts, Watching].map((View) => new View(ctx));
}

// the notes that come and go (the first-game hint, the autoplay banner, the error line,
// the opening totals) stand over the table's melds instead of pushing the rack down
const NOTES = [FirstGameHint, AwayBanner, ErrorBox, OpeningInfo];

/**
 * Put the views' elements in `root`: the turn banner and the top bar's tools in one row
 * (`.tbl-top`), the notes in one box (`.tbl-notes`), a view that names a sheet
 * (`view.sheet`: "menu", "chat", "sound"; views/sheets.js) in that sheet, the rest in
 * page order.
 * @param {HTMLElement} root the table element
 * @param {object[]} views tableLayout's instances
 */
export function placeViews(root, views) {
  const bar = views.find((v) => v instanceof TopBar);
  const top = h("div", { class: "tbl-top" });
  const notes = h("div", { class: "tbl-notes" });
  const out = [];
  for (const v of views) {
    if (!v.el) continue;
    const sheet = v.sheet && bar.sheetFor(v.sheet);
    if (v === bar) notes.append(bar.badges);       // first in the notes: the bar comes before them
    if (sheet) sheet.append(v.el);
    else if (v instanceof StatusBar || v === bar) { top.append(v.el); if (!out.includes(top)) out.push(top); }
    else if (NOTES.some((N) => v instanceof N)) { notes.append(v.el); if (!out.includes(notes)) out.push(notes); }
    else out.push(v.el);
  }
  root.append(...out);
}
