// rami table arrangement for one turn (RULES.md §5): the player splits, joins and
// rearranges melds locally, sees which are invalid, can undo to the start of the
// turn, and submits the whole table as one `play` action.
import { analyse, bare } from "./melds.js";

/**
 * Working copy of the table. Each meld: {tiles: [{t, fromRack}], orig: string[]|null}.
 * `orig` is the meld as the server wrote it, kept while the meld is untouched so it
 * is sent back verbatim (RULES.md §7: melds are compared as tile multisets).
 */
export class RamiTable {
  /** @param {string[][]} table the view's table (list of melds, "J=K7" written) */
  constructor(table = []) {
    this.melds = table.map((m) => ({ tiles: bare(m).map((t) => ({ t, fromRack: false })), orig: [...m] }));
  }

  /**
   * Restore a working table saved with `toJSON` (a page reload mid-turn keeps it).
   * @param {{melds: {tiles: {t: string, fromRack: boolean}[], orig: string[]|null}[]}} data
   * @returns {RamiTable|null} null when the data is not a saved table
   */
  static fromJSON(data) {
    if (!data || !Array.isArray(data.melds)) return null;
    const r = new RamiTable([]);
    r.melds = data.melds.filter((m) => m && Array.isArray(m.tiles)).map((m) => ({
      tiles: m.tiles.filter((x) => x && typeof x.t === "string").map((x) => ({ t: x.t, fromRack: !!x.fromRack })),
      orig: Array.isArray(m.orig) ? [...m.orig] : null,
    }));
    return r;
  }

  /** The working table as plain data for localStorage. */
  toJSON() { return { melds: this.melds.map((m) => ({ tiles: m.tiles.map((x) => ({ ...x })), orig: m.orig })) }; }

  /** An independent copy (the reducer changes copies, never the table it was given). */
  clone() { return RamiTable.fromJSON(this.toJSON()); }

  /** Tiles this turn brought from the rack (a list, duplicates kept). */
  fromRack() {
    return this.melds.flatMap((m) => m.tiles.filter((x) => x.fromRack).map((x) => x.t));
  }

  get dirty() { return this.melds.some((m) => m.orig === null); }

  /** Insert a tile into meld `m` at `index` (a new meld when m === this.melds.length). */
  insert(m, index, item) {
    if (m >= this.melds.length) { this.melds.push({ tiles: [], orig: null }); m = this.melds.length - 1; }
    const meld = this.melds[m];
    meld.tiles.splice(Math.max(0, Math.min(index, meld.tiles.length)), 0, item);
    meld.orig = null;
  }

  /** Remove and return the item at meld `m`, position `k`. */
  take(m, k) {
    const meld = this.melds[m];
    const [item] = meld.tiles.splice(k, 1);
    meld.orig = null;
    return item;
  }

  /** Drop melds left empty by moves. */
  prune() { this.melds = this.melds.filter((m) => m.tiles.length); }

  /**
   * Client reading of meld `m` (RULES.md §2).
   * @param {object} rules table_config.rules
   * @param {number} m the meld's index
   */
  info(rules, m) { return analyse(rules, this.melds[m].tiles.map((x) => x.t), null); }

  /**
   * Points of the new melds made only of rack tiles (the initial meld, RULES.md §5).
   * @param {object} rules table_config.rules
   */
  initialPoints(rules) {
    let sum = 0;
    this.melds.forEach((meld, i) => {
      if (meld.tiles.length && meld.tiles.every((x) => x.fromRack)) {
        const r = this.info(rules, i);
        if (r.valid) sum += r.points;
      }
    });
    return sum;
  }

  /**
   * The `play` action's table: untouched melds verbatim, the others with jokers
   * written J=X from their position (invalid melds are sent as they are: the
   * server refuses them with its own reason).
   * @param {object} rules table_config.rules
   * @returns {string[][]}
   */
  toTable(rules) {
    return this.melds.filter((m) => m.tiles.length).map((m) => {
      if (m.orig) return [...m.orig];
      const tiles = m.tiles.map((x) => x.t);
      const r = analyse(rules, tiles, null);
      return r.valid ? r.written : tiles;
    });
  }
}
