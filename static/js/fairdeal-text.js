// The differences of fairdeal.js's verifyRound() in the player's language (one sentence
// per difference code, docs/fair-deals.md §6). Seats are numbered from 1, as on every page.
import { _, fmt } from "./table/i18n.js";

const show = (value) => {
  if (value === null || value === undefined) return _("nothing");
  if (Array.isArray(value)) return value.length ? value.join(" ") : _("nothing");
  return String(value);
};
const seedText = (value) => (value === "" ? _("an empty seed") : show(value));
const seat = (n) => (Number.isInteger(n) ? n + 1 : show(n));

const SENTENCES = {
  bad_record: (d) => fmt(_("The round's data is malformed: %(detail)s"), { detail: show(d.detail) }),
  unknown_shuffle: (d) => fmt(_("Unknown deal algorithm %(name)s: this page cannot check it."), { name: show(d.recorded) }),
  legacy: () => _("Dealt before verifiable deals: this round has no seeds to check its deal against."),
  not_revealed: () => _("Not revealed yet: the server seed is shown once the round is over."),
  bad_server_seed: (d) => fmt(_("The server seed is malformed (%(detail)s)."), { detail: show(d.detail) }),
  commitment: (d) => fmt(_("The server seed does not match the commitment published before the deal: its sha256 is %(expected)s, the commitment was %(recorded)s."),
    { expected: show(d.expected), recorded: show(d.recorded) }),
  client_seed_count: (d) => fmt(_("Expected %(expected)s client seeds (one per seat), found %(recorded)s."),
    { expected: show(d.expected), recorded: show(d.recorded) }),
  bad_client_seed: (d) => fmt(_("The client seed of seat %(seat)s is refused (%(detail)s)."), { seat: seat(d.seat), detail: show(d.detail) }),
  computer_seed: (d) => fmt(_("Seat %(seat)s is a computer but has a client seed (%(seed)s)."), { seat: seat(d.seat), seed: show(d.recorded) }),
  shown_commitment: () => _("The commitment differs from the one your browser was shown before the deal."),
  own_client_seed: (d) => fmt(_("Your client seed differs from the one your browser sent: sent %(sent)s, recorded %(recorded)s."),
    { sent: show(d.expected), recorded: show(d.recorded) }),
  seed_not_used: (d) => fmt(_("Your seed was not used: your browser sent %(sent)s, the record holds %(recorded)s."),
    { sent: seedText(d.expected), recorded: seedText(d.recorded) }),
  chain: (d) => fmt(_("The server seed of round %(n)s does not lead to the chain tip published before the match (%(tip)s)."),
    { n: show(d.number), tip: show(d.recorded) }),
  ruleset: (d) => fmt(_("The game differs: expected %(expected)s, recorded %(recorded)s."), { expected: show(d.expected), recorded: show(d.recorded) }),
  seats: (d) => fmt(_("The number of seats differs: expected %(expected)s, recorded %(recorded)s."),
    { expected: show(d.expected), recorded: show(d.recorded) }),
  first: (d) => fmt(_("The first player differs: expected seat %(expected)s, recorded seat %(recorded)s."),
    { expected: seat(d.expected), recorded: seat(d.recorded) }),
  rack: (d) => fmt(_("The rack of seat %(seat)s differs: dealt %(missing)s but not recorded; recorded %(extra)s but not dealt."),
    { seat: seat(d.seat), missing: show(d.missing), extra: show(d.extra) }),
  pile: (d) => fmt(_("The pile differs from tile %(index)s on: expected %(expected)s, recorded %(recorded)s (%(expected_count)s tiles expected, %(recorded_count)s recorded)."),
    { index: d.index + 1, expected: show(d.expected), recorded: show(d.recorded), expected_count: show(d.expected_count), recorded_count: show(d.recorded_count) }),
  indicator: (d) => fmt(_("The indicator differs: expected %(expected)s, recorded %(recorded)s."), { expected: show(d.expected), recorded: show(d.recorded) }),
};

/** One difference ({code, ...}) as a translated sentence; an unknown code is named as it is. */
export function differenceText(d) {
  const sentence = SENTENCES[d && d.code];
  return sentence ? sentence(d) : fmt(_("Unexpected difference %(code)s."), { code: show(d && d.code) });
}

/** The sentence for a verified round. */
export function verifiedText() {
  return _("Verified: the server seed matches the commitment published before the deal, and with the players' seeds it deals exactly this round.");
}
