// The arena seated the player at their next table while they stayed on this one: the
// table page offers the link (the `arena_table` frame, docs/protocol.md). The link and its
// translated text are in the page (templates/games/table.html); the frame only fills in
// where it goes and shows it.

/**
 * Show the page's "next arena table" link for `frame` ({arena, table, url}).
 * @param {Document} doc
 * @param {{url: string}} frame
 * @returns {boolean} whether the page had the link to show
 */
export function offerArenaTable(doc, frame) {
  const link = doc.getElementById("arena-next");
  if (!link || typeof frame.url !== "string" || !frame.url.startsWith("/")) return false;
  link.href = frame.url;
  link.hidden = false;
  return true;
}
