// The match page's Verify buttons: each finished round is dealt again in this browser from
// its revealed server seed and client seeds (fairdeal-verify.js, the one Verify of the
// site), checked against the commitment published before the deal, and compared with the
// round's initial position. Nothing is asked of the server: the data is the page's
// #deal-data (templates/games/match.html). What this browser saw in the table's seeding
// window (the commitment shown, the seed sent) is checked too when it kept it.
import { canVerify, seenFor, showNoCrypto, verifyInto } from "./fairdeal-verify.js";

const data = JSON.parse(document.getElementById("deal-data").textContent);
const rounds = new Map(data.rounds.map((round) => [round.number, round]));

async function verify(button) {
  const number = Number(button.dataset.round);
  const out = document.querySelector(`.verify-result[data-round="${number}"]`);
  button.disabled = true;
  try {
    await verifyInto(out, rounds.get(number), data.header, seenFor(data.table_id, number));
  } finally {
    button.disabled = false;
  }
}

for (const button of document.querySelectorAll(".verify-btn")) {
  if (!rounds.has(Number(button.dataset.round))) continue;
  if (!canVerify()) {
    showNoCrypto(document.querySelector(`.verify-result[data-round="${button.dataset.round}"]`));
    continue;
  }
  button.disabled = false;
  button.addEventListener("click", () => verify(button));
}
