// Handing a table's invite link on: the phone's share sheet (Web Share API) where the
// browser has one, the clipboard elsewhere. A desktop browser may have navigator.share
// too, but there the link is wanted in the clipboard (to paste into a chat window), so
// the share sheet is used only on a touch screen.

/** True when `nav` (navigator) can share `data` and `win` (window) has a touch screen. */
export function canShare(nav, win, data) {
  if (!nav || typeof nav.share !== "function") return false;
  if (typeof nav.canShare === "function" && !nav.canShare(data)) return false;
  return Boolean(win && win.matchMedia && win.matchMedia("(pointer: coarse)").matches);
}

/**
 * Share or copy `data` ({url, title, text}): the share sheet when `canShare`, else the
 * clipboard (`nav.clipboard.writeText`, else `fallbackCopy()`, e.g. execCommand("copy")
 * on a selected field). A share the player cancels (AbortError) is left at that; a share
 * that fails otherwise copies instead.
 * Returns a Promise of "shared" | "cancelled" | "copied".
 */
export async function shareOrCopy(nav, win, data, fallbackCopy) {
  if (canShare(nav, win, data)) {
    try {
      await nav.share(data);
      return "shared";
    } catch (err) {
      if (err && err.name === "AbortError") return "cancelled";
    }
  }
  try {
    await nav.clipboard.writeText(data.url);
  } catch {
    fallbackCopy();   // older browsers, or a page without clipboard permission
  }
  return "copied";
}
