// The one Verify of the site's pages (the match page's buttons, the table's fair-deal
// panel): a finished round is dealt again in this browser (fairdeal.js, Web Crypto) and
// the answer is written into an element as ✔ or the list of differences. It also keeps
// what the player's browser saw before each deal, under okeysite:fairdeal:<table>:<round>:
// {seat, commitment (the one shown in the seeding window), client_seed (the one sent)}.
import { verifyRound } from "./fairdeal.js";
import { differenceText, verifiedText } from "./fairdeal-text.js";
import { _ } from "./table/i18n.js";
import { keptMatchSeed } from "./table/storage.js";

const storageOf = (storage) => {
  if (storage !== undefined) return storage;
  try { return globalThis.localStorage || null; } catch { return null; }
};

/** The localStorage key of what this browser saw before round `number` (from 1) of `tableId`. */
export function seenKey(tableId, number) {
  return `okeysite:fairdeal:${tableId}:${number}`;
}

/**
 * What this browser kept for round `number`, or null (nothing kept, or storage refused): the
 * round's own entry (okeysite-shuffle-1), else the seed given for the whole match
 * (okeysite-shuffle-2), as {seat, chain_tip, client_seed}: the seed the server answered
 * `seeded`, or the one sent when no answer came. Verify then fails "your seed was not used"
 * when the record holds any other value for the seat, the empty seed included.
 * @returns {{seat: number, commitment?: string, chain_tip?: string, client_seed: string}|null}
 */
export function seenFor(tableId, number, storage) {
  try {
    const store = storageOf(storage);
    const raw = store && store.getItem(seenKey(tableId, number));
    if (raw) return JSON.parse(raw);
    const match = store && keptMatchSeed(store, tableId);
    if (!match) return null;
    return { seat: match.seat, chain_tip: match.chain_tip, client_seed: match.seeded ?? match.client_seed };
  } catch {
    return null;
  }
}

/** Keep `seen` ({seat, commitment, client_seed}) for round `number`; storage may refuse (then nothing is kept). */
export function rememberSeen(tableId, number, seen, storage) {
  try {
    const store = storageOf(storage);
    if (store) store.setItem(seenKey(tableId, number), JSON.stringify(seen));
  } catch { /* storage full or disabled: Verify then checks the record alone */ }
}

/** Can this page verify (Web Crypto exists only in a secure context: https, or localhost)? */
export function canVerify() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

const NO_CRYPTO = () => _("This browser cannot check the deal here: it needs Web Crypto, which browsers offer on https pages (and on localhost).");

/** Write `differences` (verifyRound's list) into `out`: ✔ and a sentence, or ✘ and one line per difference. */
export function showVerification(out, differences) {
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

/** Say in `out` that this browser cannot verify here (no Web Crypto). */
export function showNoCrypto(out) {
  out.className = "verify-result bad";
  out.textContent = NO_CRYPTO();
}

/**
 * Verify `round` (a game record's round entry) of the record `header` into `out`, with
 * what this browser saw before its deal (`seen`, or null).
 * @returns {Promise<object[]|null>} the differences, or null when the check could not run
 */
export async function verifyInto(out, round, header, seen) {
  if (!canVerify()) { showNoCrypto(out); return null; }
  out.className = "verify-result busy";
  out.textContent = _("Checking…");
  try {
    const differences = await verifyRound(round, header, seen);
    showVerification(out, differences);
    return differences;
  } catch {
    showNoCrypto(out);
    return null;
  }
}
