/* Compiled core of the exact rami solver (games/bots/solver_rami.py, one pass
 * in games/bots/solver_rami_pass.py).
 *
 * A line-by-line port of the pure-Python search: the beam pass, the pass
 * bounded by every remaining rack tile, the per-colour bound
 * (games/bots/solver_rami_bound.py) and the bounded passes of the branch and
 * bound, with the cell options (`_cell_options`) generated here too.  The
 * pure-Python code stays the reference and the fallback; this port keeps its
 * order of states (an insertion-ordered layer, as a Python dict) and of options
 * (stable sorts), so both paths return the same optimum and the same table.
 *
 * Layers are arrays of entries in insertion order with an open-addressing hash
 * index on the packed 64-bit state; each entry keeps the index of the state it
 * came from in the previous layer, so the best ending is rebuilt without a
 * dictionary per step.  Option lists and bound values are cached per call in
 * dense tables indexed by (cell or colour/number, colour state | free jokers
 * << 9), invalidated by a generation counter.
 *
 * Python API: solve(table_counts, rack_counts, total_jokers, table_jokers,
 * w_joker, w_num, unit, slack, beam, direct_gap, prune_from) -> None (no
 * arrangement) or (best_key, plans): 65 plans in step order (per number n: the
 * four cells, then the groups of n); a cell's plan is the 8-tuple (e3, ye, a0,
 * a1, a2, yp, g, r) of solver_rami_melds.build, a group step's plan the jokers
 * added.  VERSION must equal solver_rami._CORE_VERSION (a stale build is not
 * used).  Not re-entrant: the caller holds the GIL throughout.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CORE_VERSION 1
#define NEG (-((int64_t)1 << 60))
#define MISC 9
#define CS_BITS 9
#define NKEY 2560 /* colour state | free jokers << 9, jokers <= 4 */
#define NSTEP 65  /* 52 cells + 13 group closings */
#define HAS_BACK 0x80000000u

typedef struct {
    int64_t v, add;   /* rank (rack weight laid, + bound when ranked); weight added */
    uint32_t plan;    /* e3 | ye << 4 | a0 << 8 | a1 << 12 | a2 << 16 | yp << 20 | g << 24 | r << 28 */
    uint16_t cs2;     /* the colour's open runs after the cell */
    uint8_t r, g, dj, gd; /* rack copies, group copies, jokers, g << 3 | dj */
} Opt;

typedef struct {
    uint64_t key;
    int64_t w;
    int32_t prev;     /* index of the source state in the previous layer */
    uint32_t plan;    /* HAS_BACK | plan when the state was reached by a move */
} Ent;

typedef struct { uint32_t stamp, off, len; } Slot;

static struct {
    int table[52], rack[52], next1[52], next2[52], totals[52], extra[52][4];
    int total, jt, prune_from;
    int64_t w_joker, w_num[14];
    uint32_t gen;
    Opt *opts; size_t nopts, capopts;
    Ent *ents; size_t nents, capents;
    Ent *tmp; size_t captmp;
    int32_t *hidx; size_t hcap, halloc; int hshift;
    size_t step_start[NSTEP + 1], step_len[NSTEP + 1];
    int oom;
} S;

static Slot base_slot[52][NKEY], rank_slot[52][NKEY];
static int64_t bmemo[4][15][NKEY];
static uint32_t bstamp[4][15][NKEY];
static uint16_t misc_next[512 << 5];
static uint8_t gj_mask[16][4][8]; /* bit j: s real tiles (max mg of a colour) form groups with j jokers */
static int flex[512];

/* scratch of the option generator */
static uint32_t ostamp[16384], ogen;
static uint16_t opos[16384];
static Opt otmp[16384];

/* ------------------------------------------------------------ arenas */

/* Grow *buf (of *cap elements of elem bytes) to hold need elements, doubling from init. */
static int grow(void **buf, size_t *cap, size_t need, size_t elem, size_t init) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : init;
    while (c < need) c *= 2;
    void *p = realloc(*buf, c * elem);
    if (!p) { S.oom = 1; return -1; }
    *buf = p; *cap = c;
    return 0;
}

static int opts_reserve(size_t extra) {
    void *b = S.opts;
    int r = grow(&b, &S.capopts, S.nopts + extra, sizeof(Opt), 4096);
    S.opts = b;
    return r;
}

static int ents_reserve(size_t extra) {
    void *b = S.ents;
    int r = grow(&b, &S.capents, S.nents + extra, sizeof(Ent), 4096);
    S.ents = b;
    return r;
}

static int tmp_reserve(size_t n) {
    void *b = S.tmp;
    int r = grow(&b, &S.captmp, n, sizeof(Ent), 1024);
    S.tmp = b;
    return r;
}

/* ------------------------------------------------------------ hash index */

static inline size_t hslot(uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> S.hshift);
}

static int h_reset(size_t expected) {
    size_t cap = 64;
    int bits = 6;
    while (cap < 2 * expected) { cap *= 2; bits++; }
    if (cap > S.halloc) {
        int32_t *p = realloc(S.hidx, cap * sizeof(int32_t));
        if (!p) { S.oom = 1; return -1; }
        S.hidx = p;
        S.halloc = cap;
    }
    S.hcap = cap;
    S.hshift = 64 - bits;
    memset(S.hidx, 0xff, cap * sizeof(int32_t));
    return 0;
}

/* Index (relative to rs) of key in the layer starting at rs, or -1. */
static inline int32_t h_find(size_t rs, uint64_t key) {
    size_t mask = S.hcap - 1, i = hslot(key);
    for (;;) {
        int32_t e = S.hidx[i];
        if (e < 0 || S.ents[rs + e].key == key) return e;
        i = (i + 1) & mask;
    }
}

static inline void h_put(uint64_t key, int32_t idx) {
    size_t mask = S.hcap - 1, i = hslot(key);
    while (S.hidx[i] >= 0) i = (i + 1) & mask;
    S.hidx[i] = idx;
}

static int h_grow(size_t rs) {
    size_t count = S.nents - rs;
    if (h_reset(2 * count)) return -1;
    for (size_t i = 0; i < count; i++) h_put(S.ents[rs + i].key, (int32_t)i);
    return 0;
}

/* Python's `old = get(nk); if old is None or old < nw: nxt[nk] = nw; back[nk] = ...` */
static inline int upsert(size_t rs, uint64_t nk, int64_t nw, int32_t prev, uint32_t plan) {
    int32_t e = h_find(rs, nk);
    if (e >= 0) {
        Ent *x = &S.ents[rs + e];
        if (x->w < nw) { x->w = nw; x->prev = prev; x->plan = plan | HAS_BACK; }
        return 0;
    }
    if (ents_reserve(1)) return -1;
    size_t count = S.nents - rs;
    Ent *x = &S.ents[S.nents++];
    x->key = nk; x->w = nw; x->prev = prev; x->plan = plan | HAS_BACK;
    if (2 * (count + 1) > S.hcap) return h_grow(rs);
    h_put(nk, (int32_t)count);
    return 0;
}

/* ------------------------------------------------------------ cell options */

/* `_options`: a cell's options, most rack copies first (stable), cached per call. */
static Slot *get_base(int cell, int cs, int jl) {
    Slot *sl = &base_slot[cell][cs | jl << 9];
    if (sl->stamp == S.gen) return sl;
    int n = cell / 4 + 1, t = S.table[cell], rmax = S.rack[cell];
    int next1 = S.next1[cell], next2 = S.next2[cell];
    int c1 = cs & 7, c2 = (cs >> 3) & 7, c3 = cs >> 6;
    if (++ogen == 0) { memset(ostamp, 0, sizeof ostamp); ogen = 1; }
    int cnt = 0, forced = c1 + c2;
    for (int e3 = 0; e3 <= c3; e3++) {
        int ext = forced + e3;
        int ye_hi = ext < jl ? ext : jl;
        for (int ye = 0; ye <= ye_hi; ye++) {
            int max_new = t + rmax - (ext - ye);
            if (max_new < 0) continue;
            int left1 = jl - ye;
            int a0_hi = e3 == c3 ? max_new : 0;
            for (int a0 = 0; a0 <= a0_hi; a0++) {
                if (a0 && n > 11) break;
                int a1_cap = n >= 2 ? left1 : 0;
                int a1_hi = max_new - a0 < a1_cap ? max_new - a0 : a1_cap;
                for (int a1 = 0; a1 <= a1_hi; a1++) {
                    if (n == 13 && c1 + a1) break;
                    int left2 = left1 - a1;
                    int a2_cap = n >= 3 ? left2 / 2 : 0;
                    int a2_hi = max_new - a0 - a1 < a2_cap ? max_new - a0 - a1 : a2_cap;
                    for (int a2 = 0; a2 <= a2_hi; a2++) {
                        int yp_lo = 0, yp_hi = 0;
                        if (a2) {
                            yp_lo = 2 * a2;
                            yp_hi = a2 * (n - 1) < left2 ? a2 * (n - 1) : left2;
                        }
                        int x = ext - ye + a0 + a1 + a2;
                        int new2 = c1 + a1, new3 = c2 + e3 + a2;
                        for (int yp = yp_lo; yp <= yp_hi; yp++) {
                            int dj = ye + a1 + yp;
                            int spare = jl - dj;
                            int room = next1 + spare - a0 - new2;
                            if (room < 0 || a0 > next2 + spare) continue;
                            int cs2 = a0 | new2 << 3 | (new3 < room ? new3 : room) << 6;
                            int g_lo = t - x > 0 ? t - x : 0, g_hi = t + rmax - x;
                            for (int g = g_lo; g <= g_hi; g++) {
                                int r = x + g - t;
                                uint32_t plan = (uint32_t)(e3 | ye << 4 | a0 << 8 | a1 << 12 | a2 << 16
                                                           | yp << 20 | g << 24 | r << 28);
                                int k = cs2 << 5 | g << 3 | dj;
                                if (ostamp[k] != ogen) {
                                    ostamp[k] = ogen;
                                    opos[k] = (uint16_t)cnt;
                                    Opt *o = &otmp[cnt++];
                                    o->r = (uint8_t)r; o->cs2 = (uint16_t)cs2; o->g = (uint8_t)g;
                                    o->dj = (uint8_t)dj; o->plan = plan;
                                } else if (otmp[opos[k]].r < r) {
                                    otmp[opos[k]].r = (uint8_t)r;
                                    otmp[opos[k]].plan = plan;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if (opts_reserve((size_t)cnt)) return NULL;
    sl->off = (uint32_t)S.nopts;
    sl->len = (uint32_t)cnt;
    int64_t weight = S.w_num[n];
    for (int rr = 7; rr >= 0; rr--) { /* sorted by rack copies, most first, stable */
        for (int i = 0; i < cnt; i++) {
            Opt *o = &otmp[i];
            if (o->r != rr) continue;
            Opt *d = &S.opts[S.nopts++];
            *d = *o;
            d->v = rr * weight;
            d->add = rr * weight + o->dj * S.w_joker;
            d->gd = (uint8_t)(o->g << 3 | o->dj);
        }
    }
    sl->stamp = S.gen;
    return sl;
}

/* ------------------------------------------------------------ the per-colour bound */

static int64_t bound_get(int c, int m, int cs, int jl);

/* ColourBounds._compute */
static int64_t bound_compute(int c, int m, int cs, int jl) {
    if (m == 14) return (cs & 63) ? NEG : 0;
    int cell = (m - 1) * 4 + c;
    Slot *sl = get_base(cell, cs, jl);
    if (!sl) return NEG;
    uint32_t off = sl->off, len = sl->len;
    int64_t weight = S.w_num[m], best = NEG;
    int room = S.totals[cell] + jl;
    for (uint32_t i = 0; i < len; i++) {
        Opt o = S.opts[off + i]; /* copied: the recursion may move the arena */
        int dj = o.dj;
        if (o.g) {
            if (3 * o.g > room) continue;
            dj += S.extra[cell][o.g];
            if (dj > jl) continue;
        }
        int64_t b = bound_get(c, m + 1, o.cs2, jl - dj);
        int64_t v = o.r * weight + b;
        if (v > best) best = v;
    }
    return best > NEG / 2 ? best : NEG;
}

static int64_t bound_get(int c, int m, int cs, int jl) {
    int k = cs | jl << 9;
    if (bstamp[c][m][k] == S.gen) return bmemo[c][m][k];
    int64_t v = bound_compute(c, m, cs, jl);
    bmemo[c][m][k] = v;
    bstamp[c][m][k] = S.gen;
    return v;
}

/* `_ranked` with bounds: rank = rack weight + the colour's bound after the
 * move, dead ends dropped, best rank first (stable). */
static Slot *get_ranked(int cell, int cs, int jl) {
    Slot *sl = &rank_slot[cell][cs | jl << 9];
    if (sl->stamp == S.gen) return sl;
    Slot *bs = get_base(cell, cs, jl);
    if (!bs) return NULL;
    uint32_t off = bs->off, len = bs->len;
    int c = cell % 4, n = cell / 4 + 1;
    int64_t weight = S.w_num[n];
    static Opt rtmp[16384];
    int cnt = 0;
    for (uint32_t i = 0; i < len; i++) {
        Opt o = S.opts[off + i];
        int64_t b = bound_get(c, n + 1, o.cs2, jl - o.dj);
        if (b > NEG) {
            o.v = o.r * weight + b;
            int j = cnt - 1;
            while (j >= 0 && rtmp[j].v < o.v) { rtmp[j + 1] = rtmp[j]; j--; }
            rtmp[j + 1] = o;
            cnt++;
        }
    }
    if (S.oom || opts_reserve((size_t)cnt)) return NULL;
    sl->off = (uint32_t)S.nopts;
    sl->len = (uint32_t)cnt;
    memcpy(S.opts + S.nopts, rtmp, (size_t)cnt * sizeof(Opt));
    S.nopts += (size_t)cnt;
    sl->stamp = S.gen;
    return sl;
}

/* ------------------------------------------------------------ pruning */

static const int64_t UPGRADES[8][4] = {
    {0}, {64 - 8}, {8 - 1, 64 - 1}, {8 - 1, 64 - 1, 64 - 8},
    {64}, {64, 64 - 8}, {64, 8 - 1, 64 - 1}, {64, 8 - 1, 64 - 1, 64 - 8},
};
static const int NUPGRADES[8] = {0, 1, 2, 3, 1, 2, 3, 4};

/* `_undominated`: keep the states no state of the layer dominates (order kept). */
static void undominated(size_t rs) {
    size_t count = S.nents - rs, kept = 0;
    if (tmp_reserve(count)) return;
    for (size_t i = 0; i < count; i++) {
        Ent *x = &S.ents[rs + i];
        uint64_t key = x->key;
        int dominated = 0;
        for (int c = 0; c < 4 && !dominated; c++) {
            int shift = MISC + c * CS_BITS;
            int cs = (int)((key >> shift) & 511);
            int c1 = cs & 7, c2 = (cs >> 3) & 7;
            int u = (c1 > 0) * 2 + (c2 > 0) + (cs < 448) * 4;
            for (int d = 0; d < NUPGRADES[u]; d++) {
                int32_t e = h_find(rs, key + ((uint64_t)UPGRADES[u][d] << shift));
                if (e >= 0 && S.ents[rs + e].w >= x->w) { dominated = 1; break; }
            }
        }
        if (!dominated) S.tmp[kept++] = *x;
    }
    memcpy(S.ents + rs, S.tmp, kept * sizeof(Ent));
    S.nents = rs + kept;
}

typedef struct { int64_t rank; uint64_t key; size_t idx; } Ranked;

static int cmp_ranked(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? 1 : -1;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return 0;
}

/* `_beam_top`: the `width` best states, best first (heapq.nlargest order). */
static void beam_top(size_t rs, int width) {
    size_t count = S.nents - rs;
    Ranked *rk = malloc(count * sizeof(Ranked));
    if (!rk || tmp_reserve(count)) { free(rk); S.oom = 1; return; }
    for (size_t i = 0; i < count; i++) {
        uint64_t k = S.ents[rs + i].key;
        int64_t used = (int64_t)(k & 7);
        rk[i].rank = ((S.ents[rs + i].w - used * S.w_joker) << 7) - (used << 2)
                     + flex[(k >> 9) & 511] + flex[(k >> 18) & 511] + flex[(k >> 27) & 511] + flex[(k >> 36) & 511];
        rk[i].key = k;
        rk[i].idx = i;
    }
    qsort(rk, count, sizeof(Ranked), cmp_ranked);
    for (int i = 0; i < width; i++) S.tmp[i] = S.ents[rs + rk[i].idx];
    memcpy(S.ents + rs, S.tmp, (size_t)width * sizeof(Ent));
    S.nents = rs + (size_t)width;
    free(rk);
}

/* ------------------------------------------------------------ one pass */

/* `_search`: 1 found (best key, weight, plans filled), 0 none, -1 out of memory. */
/* Copy the previous layer's states (at ps, plen of them) with no bit of mask set into
   the new layer starting at rs, unchanged: they stay as they are. */
static int carry(size_t ps, size_t plen, size_t rs, uint64_t mask) {
    if (ents_reserve(plen)) return -1;
    for (size_t i = 0; i < plen; i++) {
        Ent *x = &S.ents[ps + i];
        if (x->key & mask) continue;
        size_t count = S.nents - rs;
        Ent *y = &S.ents[S.nents++];
        y->key = x->key; y->w = x->w; y->prev = (int32_t)i; y->plan = 0;
        h_put(y->key, (int32_t)count);
    }
    return 0;
}

static int search(int use_bounds, int bounded, int64_t threshold, int beam, const int64_t *rest,
                  uint64_t *best_key, int64_t *best_w, uint32_t *plans) {
    int total = S.total;
    int64_t wj = S.w_joker;
    S.nents = 0;
    if (ents_reserve(1)) return -1;
    S.ents[0].key = 0; S.ents[0].w = 0; S.ents[0].prev = -1; S.ents[0].plan = 0;
    S.nents = 1;
    S.step_start[0] = 0; S.step_len[0] = 1;
    int step = 0;
    for (int n = 1; n <= 13; n++) {
        for (int c = 0; c < 4; c++) {
            int cell = (n - 1) * 4 + c;
            int t = S.table[cell], rmax = S.rack[cell];
            int shift = MISC + c * CS_BITS;
            uint64_t clear = ~(((uint64_t)511 << shift) | 511);
            int od[3], om[3], osh[3], k3 = 0;
            for (int d = 0; d < 4; d++) {
                if (d == c) continue;
                od[k3] = d; om[k3] = d < c ? n + 1 : n; osh[k3] = MISC + d * CS_BITS; k3++;
            }
            size_t ps = S.step_start[step], plen = S.step_len[step];
            size_t rs = S.nents;
            int moving = t || rmax;
            uint64_t mask = (uint64_t)511 << shift;
            if (h_reset(moving ? plen * 2 : plen)) return -1;
            if (!moving) { /* states without open runs of the colour stay as they are */
                if (carry(ps, plen, rs, mask)) return -1;
            }
            for (size_t i = 0; i < plen; i++) {
                uint64_t key = S.ents[ps + i].key;
                int64_t w = S.ents[ps + i].w;
                if (!moving && !(key & mask)) continue;
                int misc = (int)(key & 511);
                int jl = total - (misc & 7);
                int cs = (int)((key >> shift) & 511);
                Slot *sl = use_bounds ? get_ranked(cell, cs, jl) : get_base(cell, cs, jl);
                if (!sl) return -1;
                uint32_t off = sl->off, len = sl->len;
                if (!len) continue;
                int64_t need;
                if (rest) {
                    need = threshold - w - jl * wj - rest[cell + 1];
                    if (S.opts[off].v < need) continue;
                } else if (bounded) {
                    need = threshold - w - jl * wj;
                    for (int q = 0; q < 3; q++)
                        need -= bound_get(od[q], om[q], (int)((key >> osh[q]) & 511), jl);
                    if (S.oom) return -1;
                    if (S.opts[off].v < need) continue;
                } else {
                    need = NEG;
                }
                uint64_t base = key & clear;
                int mb = misc << 5;
                for (uint32_t q = 0; q < len; q++) {
                    const Opt *o = &S.opts[off + q];
                    if (o->v < need) break; /* options come best bound first */
                    uint64_t nk = base | ((uint64_t)o->cs2 << shift) | misc_next[mb | o->gd];
                    if (upsert(rs, nk, w + o->add, (int32_t)i, o->plan)) return -1;
                }
            }
            if (beam) {
                if (c == 3) { /* the groups of number n must close */
                    size_t count = S.nents - rs, kept = 0;
                    for (size_t i = 0; i < count; i++) {
                        uint64_t k = S.ents[rs + i].key;
                        int jl = total - (int)(k & 7);
                        if (gj_mask[(k >> 5) & 15][(k >> 3) & 3][jl]) S.ents[rs + kept++] = S.ents[rs + i];
                    }
                    S.nents = rs + kept;
                }
                if (S.nents - rs > (size_t)beam) beam_top(rs, beam);
            } else if (S.nents - rs > (size_t)S.prune_from) {
                undominated(rs);
            }
            if (S.oom) return -1;
            step++;
            S.step_start[step] = rs;
            S.step_len[step] = S.nents - rs;
            if (S.nents == rs) return 0;
        }
        /* Close the groups of number n; states with no group tile stay as they are. */
        size_t ps = S.step_start[step], plen = S.step_len[step];
        size_t rs = S.nents;
        if (h_reset(plen * 2) || carry(ps, plen, rs, 504)) return -1;
        for (size_t i = 0; i < plen; i++) {
            uint64_t key = S.ents[ps + i].key;
            int64_t w = S.ents[ps + i].w;
            if (!(key & 504)) continue;
            int misc = (int)(key & 511), used = misc & 7;
            int mask = gj_mask[misc >> 5][(misc >> 3) & 3][total - used];
            uint64_t base = key & ~(uint64_t)511;
            for (int j = 0; j <= total - used; j++) {
                if (!(mask >> j & 1)) continue;
                if (upsert(rs, base | (uint64_t)(used + j), w + j * wj, (int32_t)i, (uint32_t)j)) return -1;
            }
        }
        step++;
        S.step_start[step] = rs;
        S.step_len[step] = S.nents - rs;
        if (S.nents == rs) return 0;
    }
    /* Every run must be long enough; every table joker laid. */
    size_t ps = S.step_start[step], plen = S.step_len[step];
    int64_t bw = 0;
    long best = -1;
    for (size_t i = 0; i < plen; i++) {
        Ent *x = &S.ents[ps + i];
        uint64_t runs = x->key >> MISC;
        int short_ = 0;
        for (int c = 0; c < 4; c++) if ((runs >> (c * CS_BITS)) & 63) short_ = 1;
        if (short_ || (int)(x->key & 7) < S.jt) continue;
        if (bounded && x->w < threshold) continue;
        if (best < 0 || x->w > bw) { best = (long)i; bw = x->w; }
    }
    if (best < 0) return 0;
    *best_key = S.ents[ps + best].key;
    *best_w = bw;
    int32_t idx = (int32_t)best;
    for (int s = NSTEP; s >= 1; s--) {
        Ent *x = &S.ents[S.step_start[s] + idx];
        plans[s - 1] = (x->plan & HAS_BACK) ? (x->plan & ~HAS_BACK) : 0;
        idx = x->prev;
    }
    return 1;
}

/* ------------------------------------------------------------ the driver */

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A long-running server keeps the buffers between calls, but not the peak of
 * an unusually large position. */
static void release_large(void) {
    if (S.capents > (1u << 20)) { free(S.ents); S.ents = NULL; S.capents = S.nents = 0; }
    if (S.captmp > (1u << 20)) { free(S.tmp); S.tmp = NULL; S.captmp = 0; }
    if (S.halloc > (1u << 21)) { free(S.hidx); S.hidx = NULL; S.halloc = S.hcap = 0; }
    if (S.capopts > (1u << 20)) { free(S.opts); S.opts = NULL; S.capopts = S.nopts = 0; }
}

static PyObject *core_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *table_o, *rack_o, *wnum_o;
    int total, jt, beam, direct_gap, prune_from;
    long long w_joker, unit, slack;
    if (!PyArg_ParseTuple(args, "OOiiLOLLiii", &table_o, &rack_o, &total, &jt, &w_joker, &wnum_o,
                          &unit, &slack, &beam, &direct_gap, &prune_from))
        return NULL;
    if (read_ints(table_o, S.table, 52, "table_counts") || read_ints(rack_o, S.rack, 52, "rack_counts"))
        return NULL;
    /* the weights may exceed an int: read them as 64-bit */
    PyObject *fast = PySequence_Fast(wnum_o, "w_num");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 14) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "w_num: expected 14 items");
        return NULL;
    }
    for (int i = 0; i < 14; i++) {
        S.w_num[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (S.w_num[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    if (total < 0 || total > 4 || jt < 0 || jt > total || beam < 1) {
        PyErr_SetString(PyExc_ValueError, "jokers out of range (0-4) or bad beam width");
        return NULL;
    }
    for (int i = 0; i < 52; i++) {
        if (S.table[i] < 0 || S.rack[i] < 0 || S.table[i] + S.rack[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "copies of a tile out of range (0-3)");
            return NULL;
        }
    }
    S.total = total; S.jt = jt; S.w_joker = w_joker; S.prune_from = prune_from; S.oom = 0;
    int avail[52];
    for (int i = 0; i < 52; i++) avail[i] = S.table[i] + S.rack[i];
    for (int cell = 0; cell < 52; cell++) {
        int n = cell / 4 + 1, c = cell % 4, row = cell - c;
        S.next1[cell] = n < 13 ? avail[cell + 4] : 0;
        S.next2[cell] = n < 12 ? avail[cell + 8] : 0;
        S.totals[cell] = avail[row] + avail[row + 1] + avail[row + 2] + avail[row + 3];
        for (int g = 0; g < 4; g++) { /* solver_rami_bound.group_jokers */
            int partners = 0;
            for (int d = 0; d < 4; d++) if (d != c) partners += avail[row + d] < g ? avail[row + d] : g;
            S.extra[cell][g] = 2 * g - partners > 0 ? 2 * g - partners : 0;
        }
    }
    if (++S.gen == 0) {
        memset(base_slot, 0, sizeof base_slot);
        memset(rank_slot, 0, sizeof rank_slot);
        memset(bstamp, 0, sizeof bstamp);
        S.gen = 1;
    }
    S.nopts = 0;

    int64_t rest[53];
    rest[52] = 0;
    for (int cell = 51; cell >= 0; cell--) rest[cell] = rest[cell + 1] + S.rack[cell] * S.w_num[cell / 4 + 1];
    int64_t w_max = rest[0] + total * w_joker;

    uint32_t guess_plans[NSTEP], plans[NSTEP];
    uint64_t guess_key = 0, key = 0;
    int64_t floor_w = 0, w = 0;
    int rc = search(0, 0, 0, beam, NULL, &guess_key, &floor_w, guess_plans);
    if (rc < 0) return PyErr_NoMemory();
    int have_guess = rc == 1;
    int found = 0; /* 1: this pass's result, 2: the beam's */
    if (have_guess && floor_w == w_max) found = 2; /* the beam laid everything: optimal */
    if (!found && have_guess && w_max - floor_w <= unit) {
        /* One tile short of everything: a pass bounded by every remaining rack tile. */
        rc = search(0, 1, floor_w + 1, 0, rest, &key, &w, plans);
        if (rc < 0) return PyErr_NoMemory();
        found = rc == 1 ? 1 : 2;
    }
    if (!found) {
        int64_t root = 0;
        for (int c = 0; c < 4; c++) {
            int64_t b = bound_get(c, 1, 0, total);
            if (S.oom) return PyErr_NoMemory();
            if (b <= NEG / 2) { root = NEG; break; }
            root += b;
        }
        if (root == NEG) { release_large(); Py_RETURN_NONE; }
        if (root + total * w_joker < w_max) w_max = root + total * w_joker;
        if (have_guess && floor_w == w_max) found = 2;
    }
    int direct = have_guess && w_max - floor_w >= direct_gap * unit;
    int64_t units = 0;
    while (!found) {
        int64_t budget = units * unit + slack;
        int has_threshold = budget < w_max;
        int64_t threshold = has_threshold ? w_max - budget : 0;
        int last = have_guess && (!has_threshold || threshold <= floor_w + 1 || direct);
        if (last) { threshold = floor_w + 1; has_threshold = 1; }
        rc = search(1, has_threshold, threshold, 0, NULL, &key, &w, plans);
        if (rc < 0) return PyErr_NoMemory();
        if (rc == 1) found = 1;
        if (last && !found) found = 2; /* nothing beats the beam: it is optimal */
        if (found || !has_threshold) break;
        units += units / 2 > 1 ? units / 2 : 1;
    }
    release_large();
    if (!found) Py_RETURN_NONE;
    uint32_t *best_plans = found == 1 ? plans : guess_plans;
    uint64_t best_key = found == 1 ? key : guess_key;
    PyObject *out = PyTuple_New(NSTEP);
    if (!out) return NULL;
    for (int s = 0; s < NSTEP; s++) {
        PyObject *item;
        if (s % 5 == 4) { /* the groups of a number: jokers added */
            item = PyLong_FromUnsignedLong(best_plans[s]);
        } else {
            item = PyTuple_New(8);
            if (item) {
                for (int f = 0; f < 8; f++) {
                    PyObject *v = PyLong_FromLong((long)((best_plans[s] >> (4 * f)) & 15));
                    if (!v) { Py_CLEAR(item); break; }
                    PyTuple_SET_ITEM(item, f, v);
                }
            }
        }
        if (!item) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, s, item);
    }
    return Py_BuildValue("(KN)", (unsigned long long)best_key, out);
}

/* ------------------------------------------------------------ module */

static void init_tables(void) {
    for (int misc = 0; misc < 512; misc++)
        for (int g = 0; g < 4; g++)
            for (int dj = 0; dj < 8; dj++) {
                int s = misc >> 5, mg = (misc >> 3) & 3, u = misc & 7;
                int v = 0;
                if (s + g < 16 && u + dj < 8) v = (s + g) << 5 | (mg > g ? mg : g) << 3 | (u + dj);
                misc_next[misc << 5 | g << 3 | dj] = (uint16_t)v;
            }
    for (int s = 0; s < 16; s++)
        for (int mg = 0; mg < 4; mg++)
            for (int jl = 0; jl < 8; jl++) {
                int mask = 0;
                for (int j = 0; j <= jl; j++) {
                    int lo = (s + j + 3) / 4;
                    if (mg > lo) lo = mg;
                    int hi = (s + j) / 3;
                    if (s < hi) hi = s;
                    if (lo <= hi) mask |= 1 << j;
                }
                gj_mask[s][mg][jl] = (uint8_t)mask;
            }
    for (int cs = 0; cs < 512; cs++) flex[cs] = (cs >> 6) - 2 * (cs & 7) - ((cs >> 3) & 7);
}

static PyMethodDef methods[] = {
    {"solve", core_solve, METH_VARARGS,
     "solve(table_counts, rack_counts, total_jokers, table_jokers, w_joker, w_num, unit, slack, beam, "
     "direct_gap, prune_from) -> None or (best_key, plans): the exact search of solver_rami on counts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rami_core",
    "Compiled core of games.bots.solver_rami (the exact rami search); see the C source.", -1, methods,
};

PyMODINIT_FUNC PyInit__rami_core(void) {
    init_tables();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "VERSION", CORE_VERSION) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
