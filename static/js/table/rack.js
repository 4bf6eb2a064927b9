// The player's rack: rows of slots holding tiles with gaps (RULES.md §6).
// The arrangement is the player's: it is kept per table, round and seat (storage.js),
// and reconciled with the server's rack on every snapshot (new tiles go to the first
// free slot apart from the gap groups, tiles gone are removed). Nothing else moves tiles.

export const PER_ROW = 13;

/**
 * Slots per rack row for a screen `width` (CSS px): 13 where 13 tiles of at least 40 px
 * fit, fewer on a phone so that a tile stays legible and a tap target (>= 44 px at 390 px).
 * @param {number} width the viewport's width in CSS px
 * @returns {number} 8, 10 or 13
 */
export function perRowFor(width) {
  if (!(width > 0) || width >= 580) return PER_ROW;
  return width < 440 ? 8 : 10;
}

/** Minimum rows of a rack of `perRow` slots: room for a 22-tile okey51 deal with gaps. */
export function minRowsFor(perRow) {
  return perRow >= PER_ROW ? 2 : 3;
}

export class Rack {
  /**
   * @param {object} opts
   * @param {number} [opts.perRow] slots per row (13)
   * @param {number} [opts.rows] minimum rows (2)
   */
  constructor({ perRow = PER_ROW, rows = 2 } = {}) {
    this.perRow = perRow;
    this.minRows = rows;
    this.slots = new Array(perRow * rows).fill(null);
    this.faceDown = new Set();   // slot indexes of face-down tiles (okey17)
    this.taken = null;           // slot index of a taken discard not yet placed on the table
    this.fresh = [];
  }

  /**
   * A rack from a saved arrangement (`toJSON`), or null when `data` is not one.
   * @param {{slots: (string|null)[], faceDown?: number[]}|null} data
   * @param {object} [opts] as for the constructor
   * @returns {Rack|null}
   */
  static fromJSON(data, opts = {}) {
    if (!data || !Array.isArray(data.slots)) return null;
    const rack = new Rack(opts);
    const slots = data.slots.map((t) => (typeof t === "string" ? t : null));
    const savedPerRow = Number.isInteger(data.perRow) && data.perRow > 0 ? data.perRow : PER_ROW;
    if (savedPerRow !== rack.perRow) {
      // saved on a screen of another width
      const saved = new Rack({ perRow: savedPerRow, rows: 1 });
      saved.slots = slots;
      saved.faceDown = new Set(Array.isArray(data.faceDown) ? data.faceDown : []);
      return saved.reshaped(opts);
    }
    rack.slots = slots;
    rack.faceDown = new Set(Array.isArray(data.faceDown) ? data.faceDown : []);
    rack.#fitRows();
    return rack;
  }

  /**
   * This arrangement on rows of another width (a phone turned, a window resized): each of
   * the player's groups stays whole on one row, melds first; a face-down tile stays face
   * down and a taken discard stays taken (found again by its face: copies look alike).
   * @param {{perRow?: number, rows?: number}} shape as for the constructor
   * @returns {Rack} a new rack
   */
  reshaped(shape) {
    const rack = new Rack(shape);
    const groups = this.groups().map((g) => g.tiles);
    rack.layout({ melds: groups.filter((g) => g.length > 1), rest: groups.filter((g) => g.length === 1).flat() });
    const used = new Set();
    const find = (tile) => {
      const i = rack.slots.findIndex((t, at) => t === tile && !used.has(at));
      if (i >= 0) used.add(i);
      return i;
    };
    if (this.taken !== null && this.slots[this.taken] !== null) {
      const at = find(this.slots[this.taken]);
      rack.taken = at >= 0 ? at : null;
    }
    for (const i of this.faceDown) {
      const at = this.slots[i] !== null ? find(this.slots[i]) : -1;
      if (at >= 0) rack.faceDown.add(at);
    }
    return rack;
  }

  /** The arrangement to save (the taken discard is left out: it is not in the rack yet). */
  toJSON() {
    return { slots: this.slots.map((t, i) => (i === this.taken ? null : t)), faceDown: [...this.faceDown], perRow: this.perRow };
  }

  /** An independent copy (the reducer changes copies, never the rack it was given). */
  clone() {
    const rack = new Rack({ perRow: this.perRow, rows: this.minRows });
    rack.slots = [...this.slots];
    rack.faceDown = new Set(this.faceDown);
    rack.taken = this.taken;
    rack.fresh = [...this.fresh];
    return rack;
  }

  /** The tiles in slot order (no gaps). */
  tiles() { return this.slots.filter((t) => t !== null); }

  /**
   * Make the rack hold exactly `server` (a list of tiles, duplicates allowed) plus
   * the taken discard `taken` when given. Tiles already placed stay where they are.
   * @param {string[]} server the view's rack
   * @param {string|null} taken the previous seat's discard being placed, or null
   */
  reconcile(server, taken = null) {
    const want = new Map();
    for (const t of server) want.set(t, (want.get(t) || 0) + 1);
    if (taken && this.taken !== null && this.slots[this.taken] === taken) {
      // keep the taken tile in its slot
    } else {
      this.taken = null;
    }
    this.slots = this.slots.map((t, i) => {
      if (t === null || i === this.taken) return t;
      const n = want.get(t) || 0;
      if (n > 0) { want.set(t, n - 1); return t; }
      this.faceDown.delete(i);
      return null;
    });
    this.fresh = [];             // slots of tiles that arrived with this snapshot
    for (const [t, n] of want) for (let k = 0; k < n; k++) this.fresh.push(this.#placeApart(t, false));
    if (taken && this.taken === null) this.taken = this.#placeApart(taken);
    for (const i of [...this.faceDown]) if (this.slots[i] === null) this.faceDown.delete(i);
    this.#fitRows();
  }

  /**
   * Put the rack back as it was (rami `#undo-turn`: the arrangement at the start of
   * the turn, PLAYERS.md: the player's arrangement is never reset behind their back),
   * then reconcile with the server's rack so a tile missing from `slots` still shows.
   * @param {(string|null)[]} slots a saved arrangement (tiles and gaps, by slot)
   * @param {string[]} server the view's rack
   */
  restore(slots, server) {
    this.slots = slots.map((t) => (typeof t === "string" ? t : null));
    this.faceDown.clear();
    this.taken = null;
    this.reconcile([...server]);
  }

  #place(tile) {
    let i = this.slots.indexOf(null);
    if (i < 0) { this.#addRow(); i = this.slots.indexOf(null); }
    this.slots[i] = tile;
    return i;
  }

  // A new tile goes to the first free slot that does not touch a gap group (both
  // neighbours free or a row end), so the player's proposed melds stay as they are.
  // Without such a slot: the first free slot, or (newRow, the taken discard) a new row.
  #placeApart(tile, newRow = true) {
    const free = (i) => i >= 0 && i < this.slots.length && this.slots[i] === null;
    for (let i = 0; i < this.slots.length; i++) {
      const col = i % this.perRow;
      if (free(i) && (col === 0 || free(i - 1)) && (col === this.perRow - 1 || free(i + 1))) {
        this.slots[i] = tile;
        return i;
      }
    }
    if (!newRow && this.slots.includes(null)) return this.#place(tile);
    const start = this.slots.length;
    this.#addRow();
    this.slots[start] = tile;
    return start;
  }

  #addRow() { this.slots.push(...new Array(this.perRow).fill(null)); }

  /** Keep whole rows, at least minRows, and one spare slot when possible. */
  #fitRows() {
    while (this.slots.length % this.perRow) this.slots.push(null);
    while (this.slots.length < this.perRow * this.minRows) this.#addRow();
    // drop empty trailing rows beyond the minimum
    while (this.slots.length > this.perRow * this.minRows &&
           this.slots.slice(-this.perRow).every((t) => t === null)) {
      this.slots.length -= this.perRow;
    }
  }

  /** Swap the contents of two slots (a tile onto a gap moves it there). */
  move(from, to) {
    if (from === to) return;
    [this.slots[from], this.slots[to]] = [this.slots[to], this.slots[from]];
    const df = this.faceDown.has(from), dt = this.faceDown.has(to);
    this.faceDown.delete(from); this.faceDown.delete(to);
    if (df) this.faceDown.add(to);
    if (dt) this.faceDown.add(from);
    if (this.taken === from) this.taken = to;
    else if (this.taken === to) this.taken = from;
  }

  /**
   * Drop the tile of slot `from` on slot `to` (a drag): onto a gap it moves there; onto
   * a tile it is inserted and the tiles of that row shift towards the nearest gap (towards
   * `from` when it is in the same row), so the player's groups keep their order. A full
   * row with no gap swaps the two tiles.
   * @param {number} from a slot holding a tile
   * @param {number} to any slot
   */
  shift(from, to) {
    if (from === to || this.slots[from] === null) return;
    if (this.slots[to] === null) { this.move(from, to); return; }
    const cells = this.slots.map((t, i) => (t === null ? null : { t, down: this.faceDown.has(i), taken: this.taken === i }));
    const item = cells[from];
    cells[from] = null;
    const start = to - (to % this.perRow), end = start + this.perRow;
    let gap = -1;
    if (from >= start && from < end) gap = from;
    else {
      for (let d = 1; d < this.perRow && gap < 0; d++) {
        if (to + d < end && cells[to + d] === null) gap = to + d;
        else if (to - d >= start && cells[to - d] === null) gap = to - d;
      }
    }
    if (gap < 0) { this.move(from, to); return; }
    if (gap > to) for (let i = gap; i > to; i--) cells[i] = cells[i - 1];
    else for (let i = gap; i < to; i++) cells[i] = cells[i + 1];
    cells[to] = item;
    this.slots = cells.map((c) => (c ? c.t : null));
    this.faceDown = new Set(cells.flatMap((c, i) => (c && c.down ? [i] : [])));
    const taken = cells.findIndex((c) => c && c.taken);
    this.taken = taken >= 0 ? taken : null;
  }

  /** Turn the tile in `slot` face down or up (okey17 jokers). */
  toggleFaceDown(slot) {
    if (this.slots[slot] === null) return;
    if (this.faceDown.has(slot)) this.faceDown.delete(slot); else this.faceDown.add(slot);
  }

  /**
   * The gap-separated groups: runs of adjacent occupied slots within one row.
   * @returns {{slots: number[], tiles: string[]}[]} left to right, top row first
   */
  groups() {
    const out = [];
    let cur = null;
    this.slots.forEach((t, i) => {
      if (i % this.perRow === 0) cur = null;
      if (t === null) { cur = null; return; }
      if (!cur) { cur = { slots: [], tiles: [] }; out.push(cur); }
      cur.slots.push(i);
      cur.tiles.push(t);
    });
    return out;
  }

  /** The group holding `slot`, or null. */
  groupOf(slot) { return this.groups().find((g) => g.slots.includes(slot)) || null; }

  /**
   * Lay the rack out from a sort: each meld on its own with a gap after it, never
   * across a row end, then the rest packed. Face-down marks are cleared.
   * @param {{melds: string[][], rest: string[]}} sorted from sortRack()
   */
  layout({ melds, rest }) {
    const takenTile = this.taken !== null ? this.slots[this.taken] : null;
    let slots = new Array(this.perRow * this.minRows).fill(null);
    let pos = 0;
    const put = (tiles) => {
      if (!tiles.length) return;
      const col = pos % this.perRow;
      if (col + tiles.length > this.perRow && col !== 0) pos += this.perRow - col;
      for (const t of tiles) {
        while (pos >= slots.length) slots.push(...new Array(this.perRow).fill(null));
        slots[pos++] = t;
      }
      if (pos % this.perRow !== 0) pos++;   // the gap (a row end is a gap already)
    };
    melds.forEach(put);
    // the rest, split where a row ends
    let chunk = [];
    for (const t of rest) {
      chunk.push(t);
      if ((pos % this.perRow) + chunk.length >= this.perRow) { put(chunk); chunk = []; }
    }
    put(chunk);
    this.slots = slots;
    this.faceDown.clear();
    this.taken = null;
    if (takenTile) {
      const i = this.slots.lastIndexOf(takenTile);
      this.taken = i >= 0 ? i : null;
    }
    this.#fitRows();
  }
}
