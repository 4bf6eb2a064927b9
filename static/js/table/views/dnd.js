// Drag and drop with SortableJS (static/vendor/sortablejs, no hand-written pointer code):
// every drop target of the table is a Sortable list of the one group "tiles". When a
// drag ends, `onEnd(src, target, index)` gets the tile's data-src, the target's
// data-drop (null when it ended nowhere) and its place in the target. The views make
// their targets afresh on each render, after `clear()`; none while the table is blocked.

// a render while a drag is under way would destroy the dragged tile's list: the app
// waits, but not for a drag that never ended (a lost pointer)
const DRAG_GIVE_UP_MS = 10000;

/** The drop target under the pointer or finger where a drag ended (touch has no `drop`). */
function dropUnder(ev) {
  if (!ev) return null;
  const p = ev.changedTouches && ev.changedTouches.length ? ev.changedTouches[0] : ev;
  if (typeof p.clientX !== "number") return null;
  const el = document.elementFromPoint(p.clientX, p.clientY);
  return el && el.closest ? el.closest("[data-drop]") : null;
}

export class DropTargets {
  /**
   * @param {object} opts
   * @param {Element} opts.root the table: drops outside it are ignored
   * @param {(src: string|undefined, target: string|null, index: number) => void} opts.onEnd
   */
  constructor({ root, onEnd }) {
    this.root = root;
    this.onEnd = onEnd;
    this.sortables = [];
    this.enabled = true;
    this.startedAt = 0;
    this.lastDrop = null;
    document.addEventListener("drop", (ev) => {
      this.lastDrop = ev.target && ev.target.closest ? ev.target.closest("[data-drop]") : null;
    }, true);
  }

  /** Is a drag under way? */
  get busy() { return !!this.startedAt && Date.now() - this.startedAt < DRAG_GIVE_UP_MS; }

  /** Remove every target (before a render rebuilds them). */
  clear() {
    for (const s of this.sortables) s.destroy();
    this.sortables = [];
  }

  /**
   * Make `el` a drop target (and its tiles draggable).
   * @param {Element} el an element with data-drop
   * @param {object} opts
   * @param {(item: Element) => boolean} opts.put may the dragged tile `item` land here?
   * @param {boolean} [opts.sort] tiles can be reordered inside `el` (rami melds)
   */
  target(el, { put, sort = false }) {
    const S = window.Sortable;
    if (!S || !this.enabled) return;
    const dnd = this;
    this.sortables.push(S.create(el, {
      group: { name: "tiles", pull: true, put: (to, from, item) => put(item) },
      sort,
      draggable: ".tile",
      filter: ".face-down.outside, .swap-btn, .group-points",
      preventOnFilter: false,
      animation: 120,
      delayOnTouchOnly: true,
      delay: 60,
      fallbackTolerance: 4,
      ghostClass: "ghost",
      chosenClass: "chosen",
      onStart() { dnd.startedAt = Date.now(); },
      onMove(evt) {
        // a face-down tile moves only within the rack (RULES.md §6)
        if (evt.dragged.classList.contains("face-down") && !(evt.to.dataset.drop || "").startsWith("slot:")) return false;
        return true;
      },
      onEnd(evt) {
        const src = evt.item.dataset.src;
        let drop = evt.to.dataset.drop;
        let index = evt.newDraggableIndex ?? evt.newIndex;
        if (evt.to === evt.from && !sort) {
          // a quick drag can end on a target before Sortable moved the tile there:
          // fall back to the element the native drop landed on
          const t = dnd.lastDrop || dropUnder(evt.originalEvent);
          if (t && t !== evt.from && dnd.root.contains(t)) { drop = t.dataset.drop; index = 99; }
          else drop = null;
        }
        dnd.lastDrop = null;
        setTimeout(() => {
          dnd.startedAt = 0;
          dnd.onEnd(src, drop || null, index);
        }, 0);
      },
    }));
  }
}
