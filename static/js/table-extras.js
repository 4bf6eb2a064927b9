// The table page's controls around the live table (templates/games/table.html): the
// invite link's button (the share sheet on a phone, else "Copy the link":
// share-invite.js) and the quick-match wait's countdown.
import { canShare, shareOrCopy } from "./share-invite.js";

function inviteButton(doc, nav, win) {
  const button = doc.getElementById("invite-copy");
  const input = doc.getElementById("invite-url");
  if (!button || !input) return;
  const data = { url: input.value, title: doc.title, text: button.dataset.shareText || "" };
  if (canShare(nav, win, data)) button.textContent = button.dataset.share || button.textContent;
  button.addEventListener("click", async () => {
    const done = await shareOrCopy(nav, win, data, () => { input.select(); doc.execCommand("copy"); });
    if (done === "copied") button.textContent = button.dataset.done || button.textContent;
    button.dataset.result = done;
  });
}

if (typeof document !== "undefined") {
  inviteButton(document, navigator, window);
}

// A quick-match table's wait (data-starts-at, epoch ms): the seconds left (the table
// client hides the block and shows the match once it starts).
function quickWait(doc) {
  const box = doc.getElementById("quick-wait");
  const out = doc.getElementById("quick-wait-seconds");
  if (!box || !out) return;
  const at = Number(box.dataset.startsAt);
  const tick = () => {
    const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    out.textContent = String(left);
    if (left > 0) setTimeout(tick, 250);
  };
  tick();
}

if (typeof document !== "undefined") quickWait(document);
