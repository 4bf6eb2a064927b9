// The table page's controls around the live table (templates/games/table.html): the
// private table's "Copy the link" button and the quick-match wait's countdown.

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

if (typeof document !== "undefined") {
  copyInvite(document);
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
