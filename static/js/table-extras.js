// The table page's controls around the live table (templates/games/table.html): the
// private table's "Copy the link" button and the dismissible first-game hint (a
// dismissal is remembered in localStorage so it never comes back).

function copyInvite(doc) {
  const button = doc.getElementById("invite-copy");
  const input = doc.getElementById("invite-url");
  if (!button || !input) return;
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      doc.execCommand("copy");   // older browsers, or a page without clipboard permission
    }
    button.textContent = button.dataset.done || button.textContent;
  });
}

function firstGameHint(doc, storage) {
  const hint = doc.getElementById("first-game-hint");
  if (!hint) return;
  const key = hint.dataset.key;
  let dismissed = false;
  try { dismissed = storage.getItem(key) === "1"; } catch { /* private mode: show it */ }
  hint.hidden = dismissed;
  const close = doc.getElementById("first-game-hint-close");
  if (close) close.addEventListener("click", () => {
    hint.hidden = true;
    try { storage.setItem(key, "1"); } catch { /* nothing to remember it in */ }
  });
}

if (typeof document !== "undefined") {
  copyInvite(document);
  firstGameHint(document, window.localStorage);
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
