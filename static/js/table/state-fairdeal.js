// The reducer's fair-deal part (docs/fair-deals.md §1): the seeding window of the next
// deal (its commitment, shown before the deal), the answer to this browser's seed.
// The panel that shows them and sends the seed is views/fairdeal.js.

/** The id of the `seed` frame for round `number`: its `seeded` or `error` answer names it. */
export function seedFrameId(number) {
  return `seed-${number}`;
}

/** The round a `seed` frame id names, or null for any other id. */
export function seedRound(id) {
  const m = /^seed-(\d+)$/.exec(typeof id === "string" ? id : "");
  return m ? Number(m[1]) : null;
}

/** The seeding window a snapshot's view carries (null: none open, the round is dealt). */
export function seedingOf(view) {
  return (view && view.seeding) || null;
}

/** An `error` answering this browser's `seed` frame: the state keeps it for the panel, or null for other errors. */
export function seedError(state, f) {
  const round = seedRound(f.id);
  if (round === null) return null;
  return { ...state, seedAnswer: { round, ok: false, code: f.code, message: f.message || f.code } };
}

export const fairdealEvents = {
  /** the `seeding` frame {round, commitment, deadline, sent}: a window opened before the deal */
  seeding: (s, f) => ({ ...s, seeding: { round: f.round, commitment: f.commitment, deadline: f.deadline, sent: f.sent || [],
    chain_tip: f.chain_tip || null } }),
  /** the `seeded` frame {round, seed}: the server keeps this seed (canonical form) for the round */
  seeded: (s, f) => ({ ...s, seedAnswer: { round: f.round, ok: true, seed: f.seed } }),
};
