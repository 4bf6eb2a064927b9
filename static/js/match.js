// The match page's Verify buttons: each finished round is dealt again in this browser from
// its revealed server seed and client seeds (fairdeal.js, Web Crypto), checked against the
// commitment published before the deal, and compared with the round's initial position.
// Nothing is asked of the server: the data is the page's #deal-data (templates/games/match.html).
import { verifyRound } from "./fairdeal.js";
import { differenceText, verifiedText } from "./fairdeal-text.js";
import { _ } from "./table/i18n.js";

const data = JSON.parse(document.getElementById("deal-data").textContent);
const rounds = new Map(data.rounds.map((round) => [round.number, round]));

/**
 * What this browser kept when it sent its client seed for round `number` (the seeding
 * window stores {seat, commitment, client_seed} under this key), or null: with it the
 * check also proves the commitment is the one shown before the deal and the seed the one sent.
 */
function seenFor(tableId, number, storage = globalThis.localStorage) {
  try {
    const raw = storage && storage.getItem(`okeysite:fairdeal:${tableId}:${number}`);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function show(out, differences) {
  out.replaceChildren();
  if (!differences.length) {
    out.className = "verify-result ok";
    out.textContent = `✔ ${verifiedText()}`;
    return;
  }
  out.className = "verify-result bad";
  const head = document.createElement("strong");
  head.textContent = `✘ ${_("This deal does not verify:")}`;
  const list = document.createElement("ul");
  for (const d of differences) {
    const item = document.createElement("li");
    item.textContent = differenceText(d);
    item.dataset.code = d.code;
    list.append(item);
  }
  out.append(head, list);
}

async function verify(button) {
  const number = Number(button.dataset.round);
  const out = document.querySelector(`.verify-result[data-round="${number}"]`);
  button.disabled = true;
  out.className = "verify-result busy";
  out.textContent = _("Checking…");
  try {
    show(out, await verifyRound(rounds.get(number), data.header, seenFor(data.table_id, number)));
  } catch (err) {
    out.className = "verify-result bad";
    out.textContent = _("This browser cannot check the deal here: it needs Web Crypto, which browsers offer on https pages (and on localhost).");
  } finally {
    button.disabled = false;
  }
}

const secure = Boolean(globalThis.crypto && globalThis.crypto.subtle);
for (const button of document.querySelectorAll(".verify-btn")) {
  if (!rounds.has(Number(button.dataset.round))) continue;
  if (!secure) {
    const out = document.querySelector(`.verify-result[data-round="${button.dataset.round}"]`);
    out.className = "verify-result bad";
    out.textContent = _("This browser cannot check the deal here: it needs Web Crypto, which browsers offer on https pages (and on localhost).");
    continue;
  }
  button.disabled = false;
  button.addEventListener("click", () => verify(button));
}
