// The table's fair-deal panel (docs/fair-deals.md §1, `#fair-deal`). Before a deal it shows
// the round's commitment from the seeding window and this browser's fresh client seed
// (crypto.getRandomValues), which the player may edit; the seed goes out by itself shortly
// (or, once the player edits it, with Send, at the latest just before the window ends).
// It keeps the commitment shown and the seed sent under okeysite:fairdeal:<table>:<round>
// (fairdeal-verify.js) so that Verify, here or on the match page, also proves the
// commitment was the one shown before the deal. During the round it shows the commitment
// and the seed sent; after it the revealed server seed and Verify.
//
// Tables with a hash chain (okeysite-shuffle-2, docs/fair-deals.md §10): the view carries
// the chain's tip from the table's creation. As soon as this browser holds a seat and has
// seen the tip, it sends a fresh seed for the whole match (no wait: a solo table's deal
// waits for it), and keeps the seed it sent and the server's `seeded` answer
// (storage.js keepMatchSeed). Until the match starts the player may type a seed of their
// own and Send it: it replaces the kept one. Nothing the server says later rewrites them: a
// seed the record does not hold makes Verify fail "your seed was not used".
import { clientSeed, normaliseClientSeed, parseRecordText, RecordError } from "../../fairdeal.js";
import { canVerify, rememberSeen, seenFor, verifyInto } from "../../fairdeal-verify.js";
import { _, fmt } from "../i18n.js";
import { seated } from "../selectors.js";
import { seedFrameId } from "../state-fairdeal.js";
import { keepMatchSeed, keptMatchSeed } from "../storage.js";
import { h } from "./dom.js";

const AUTO_SEND_MS = 1500;       // an untouched proposal goes out this long after the commitment arrived
const LAST_CALL_MS = 700;        // an edited seed goes out at the latest this long before the window ends
const FALLBACK_WINDOW_MS = 3000; // when the window's deadline cannot be read against this clock

export class FairDealPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.round = null;       // the round of the current proposal
    this.sent = null;        // the round this browser sent a seed for
    this.editing = false;
    this.autoAt = 0;
    this.lastCallAt = 0;
    this.endsAt = 0;
    this.answer = null;      // the last seedAnswer handled
    this.refused = null;     // the round whose seed the server refused
    this.verified = null;    // the round the Verify result belongs to
    this.intro = h("p", { class: "fd-intro small" });
    this.commitment = h("code", { id: "fd-commitment", class: "commitment" });
    this.seedInput = h("input", {
      id: "fd-seed", type: "text", maxlength: "128", spellcheck: "false", autocomplete: "off",
      "aria-label": _("Your seed for this deal"),
      oninput: () => { this.editing = true; }, onfocus: () => { this.editing = true; },
    });
    this.sendBtn = h("button", { type: "button", id: "fd-send", onclick: () => this.send(this.lastState) }, _("Send"));
    this.seedState = h("span", { id: "fd-seed-state", class: "small", "aria-live": "polite" });
    this.seedRow = h("p", { class: "fd-seed" }, h("label", { for: "fd-seed" }, _("Your seed:")), " ", this.seedInput, " ",
      this.sendBtn, " ", this.seedState);
    this.serverSeed = h("code", { id: "fd-server-seed", class: "server-seed" });
    this.serverRow = h("p", { class: "fd-server small wrap" }, _("Server seed (revealed after the round):"), " ", this.serverSeed);
    this.verifyBtn = h("button", { type: "button", id: "fd-verify", class: "primary", onclick: () => this.verify(this.lastState) },
      _("Verify"));
    this.result = h("span", { id: "fd-result", class: "verify-result", role: "status", "aria-live": "polite" });
    this.verifyRow = h("p", { class: "fd-verify" }, this.verifyBtn, " ", this.result);
    this.panel = h("section", { id: "fair-deal", class: "fair-deal", "aria-label": _("Fair deal") },
      h("h3", {}, _("Fair deal")), this.intro,
      h("p", { class: "fd-commitment small wrap" }, _("Commitment (sha256 of the server seed, published before the deal):"), " ",
        this.commitment),
      this.seedRow, this.serverRow, this.verifyRow);
    this.panel.hidden = true;
    // the panel's place on the page; while the score table is up (between rounds, and the
    // next round's seeding window) the panel moves into its overlay, next to the scores
    this.el = h("div", { class: "fair-deal-home" }, this.panel);
    this.sheet = "menu";      // its home is in the menu sheet (views/sheets.js)
  }

  render(state) {
    this.lastState = state;
    const v = state.view;
    if (!v) return;
    this.handleAnswer(state);
    this.giveMatchSeed(state);
    const open = state.seeding;
    if (open && open.chain_tip) this.renderMatchSeed(state, open);
    else if (v.chain_tip && v.status === "open") this.renderMatchSeed(state, null);
    else if (open) this.renderWindow(state, open);
    else this.renderRound(state, v);
    this.place();
  }

  /** In the score overlay while it is shown (the ScoreOverlay view renders before this one), else at home. */
  place() {
    // its home may be in the menu sheet, outside the table: the overlay is the table's
    const root = (this.el.closest && this.el.closest(".tbl"))
      || (typeof document !== "undefined" && document.querySelector && document.querySelector(".tbl")) || this.el.parentElement;
    const overlay = root && [...root.children].find((child) => child.classList.contains("overlay"));
    const host = overlay && !overlay.hidden ? overlay : this.el;
    this.panel.classList.toggle("overlay-card", host !== this.el);
    if (this.panel.parentElement !== host) host.append(this.panel);
  }

  /**
   * Send this seat's seed for the match once it has seen the chain tip: while the table is
   * open, or in the start's window. Once sent (and kept) for this tip and seat, only a
   * missing `seeded` answer makes it go again, the same seed.
   */
  giveMatchSeed(state) {
    const v = state.view;
    const tip = v && v.chain_tip;
    const open = state.seeding;
    if (!tip || !seated(state)) return;
    if (!(v.status === "open" || (open && open.chain_tip === tip && open.round === 1))) return;
    const store = this.ctx.storage;
    let kept = keptMatchSeed(store, state.tableId);
    if (kept && (kept.chain_tip !== tip || kept.seat !== v.seat)) kept = null;
    if (kept && kept.seeded !== null && kept.seeded !== undefined) return;
    if (kept && this.matchSentAt && Date.now() - this.matchSentAt < 2000) return;  // its answer is on the way
    const seed = kept ? kept.client_seed : clientSeed();
    if (!this.ctx.sendFrame({ type: "seed", id: seedFrameId(1), round: 1, seed })) return;  // again once connected
    this.matchSentAt = Date.now();
    if (!kept) keepMatchSeed(store, state.tableId, { seat: v.seat, chain_tip: tip, client_seed: seed, seeded: null });
  }

  /** Before the first deal of a chained match: the tip and this seat's seed for the match. */
  renderMatchSeed(state, open) {
    const v = state.view;
    this.panel.hidden = false;
    this.panel.dataset.phase = "seeding";
    this.intro.textContent = _("The server has committed to the secret seeds of every round of this match (the chain tip below); your browser adds its own seed, once, for the whole match.");
    this.commitment.textContent = v.chain_tip;
    const mine = seated(state);
    this.seedRow.hidden = !mine;
    const kept = mine ? keptMatchSeed(this.ctx.storage, state.tableId) : null;
    // until the match starts the player may put a seed of their own in place of the one sent
    const editable = mine && !open && v.status === "open";
    if (!editable) this.editing = false;
    if (kept && kept.chain_tip === v.chain_tip && !this.editing) this.seedInput.value = kept.client_seed;
    this.seedInput.disabled = !editable;
    this.sendBtn.hidden = !editable;
    if (open) this.sent = open.round;  // the per-round window's sending stays off
    if (!this.editing || !editable) {
      this.seedState.textContent = kept && kept.seeded
        ? (editable ? _("Sent: the server keeps this seed for every round of the match. You may send one of your own instead until the match starts.")
          : _("Sent: the server keeps this seed for every round of the match."))
        : "";
    }
    this.serverRow.hidden = true;
    this.verifyRow.hidden = true;
  }

  /** The seeding window: the commitment, the proposal (editable until sent). */
  renderWindow(state, open) {
    if (open.round !== this.round) this.propose(state, open);
    this.panel.hidden = false;
    this.panel.dataset.phase = "seeding";
    this.intro.textContent = fmt(_("Round %(n)s is about to be dealt. The server has committed to its secret seed; your browser adds its own seed to the deal."),
      { n: open.round });
    this.commitment.textContent = open.commitment;
    const mine = seated(state);
    this.seedRow.hidden = !mine;
    const sent = this.sent === open.round;
    this.seedInput.disabled = sent;
    this.sendBtn.hidden = sent;
    if (sent && this.refused !== open.round) this.seedState.textContent = _("Sent. The deal comes when every player has sent theirs.");
    this.serverRow.hidden = true;
    this.verifyRow.hidden = true;
  }

  /** A dealt round: its commitment and the seed sent; once over, the server seed and Verify. */
  renderRound(state, v) {
    const number = Number.isInteger(v.round_index) ? v.round_index + 1 : null;
    if (this.round !== null && this.round === number && this.sent !== number && seated(state)) {
      // the window closed before this browser sent anything: the record must hold "" for this seat
      rememberSeen(state.tableId, number, { seat: v.seat, commitment: this.shown, client_seed: "" }, this.ctx.storage);
      this.sent = number;
    }
    if (number === null || !v.commitment) { this.panel.hidden = true; return; }
    this.panel.hidden = false;
    const end = v.round_end && v.round_end.round_index === v.round_index ? v.round_end : null;
    const revealed = end ? end.server_seed : v.seed;
    this.panel.dataset.phase = revealed ? "revealed" : "dealt";
    this.intro.textContent = revealed
      ? fmt(_("Round %(n)s is over: its server seed is revealed. The Verify button deals it again in your browser."), { n: number })
      : fmt(_("Round %(n)s was dealt from this commitment; the server seed is revealed when the round is over."), { n: number });
    this.commitment.textContent = v.commitment;
    const seen = seenFor(state.tableId, number, this.ctx.storage);
    this.seedRow.hidden = !seen;
    if (seen) {
      this.seedInput.value = seen.client_seed;
      this.seedInput.disabled = true;
      this.sendBtn.hidden = true;
      this.seedState.textContent = seen.client_seed ? "" : _("Your browser sent no seed in time: this seat's seed is empty.");
    }
    this.serverRow.hidden = !revealed;
    this.serverSeed.textContent = revealed || "";
    this.verifyRow.hidden = !revealed || !(this.ctx.config.urls && this.ctx.config.urls.record);
    if (this.verified !== null && this.verified !== number) {
      this.result.replaceChildren();
      this.result.className = "verify-result";
      this.verified = null;
    }
  }

  propose(state, open) {
    this.round = open.round;
    this.shown = open.commitment;
    this.editing = false;
    const now = Date.now();
    let left = typeof open.deadline === "number" ? open.deadline - now : FALLBACK_WINDOW_MS;
    if (!(left > 0 && left < 60_000)) left = FALLBACK_WINDOW_MS;
    this.endsAt = now + left;
    this.autoAt = now + Math.min(AUTO_SEND_MS, left / 2);
    this.lastCallAt = this.endsAt - LAST_CALL_MS;
    const seen = seenFor(state.tableId, open.round, this.ctx.storage);
    if (seen && seen.commitment === open.commitment && seen.client_seed) {
      // a reload inside the window: the seed this browser sent stays its seed for the round
      this.seedInput.value = seen.client_seed;
      this.sent = open.round;
    } else {
      this.seedInput.value = clientSeed();
      this.seedState.textContent = _("Your browser made this seed for this deal; you may change it.");
    }
  }

  tick(state) {
    if (state.view) this.giveMatchSeed(state);
    const open = state.seeding;
    if (!open || open.round !== this.round || this.sent === open.round || !seated(state)) return;
    const now = Date.now();
    if (!this.editing) {
      if (now >= this.autoAt) this.send(state);
      return;
    }
    const left = Math.max(0, Math.ceil((this.endsAt - now) / 1000));
    this.seedState.textContent = fmt(_("Press Send: the deal comes in %(n)s s at the latest."), { n: left });
    if (now >= this.lastCallAt) this.send(state);
  }

  /**
   * The player's own seed for a chained match, typed in the box while the table is open
   * (docs/fair-deals.md §10.2): normalised, sent, and kept in place of the one sent before,
   * its answer still to come.
   */
  sendMatchSeed(state) {
    const v = state.view;
    let seed;
    try {
      seed = normaliseClientSeed(this.seedInput.value);
      if (!seed) throw new RangeError("a client seed holds 1 character at least");
    } catch {
      this.seedState.textContent = _("That seed cannot be used: 1 to 128 characters from the keyboard's Latin letters A-Z and a-z, digits 0-9, spaces and ASCII punctuation.");
      return;
    }
    if (!this.ctx.sendFrame({ type: "seed", id: seedFrameId(1), round: 1, seed })) {
      this.seedState.textContent = _("Not connected. Reconnecting…");
      return;
    }
    this.matchSentAt = Date.now();
    this.editing = false;
    this.seedInput.value = seed;
    keepMatchSeed(this.ctx.storage, state.tableId, { seat: v.seat, chain_tip: v.chain_tip, client_seed: seed, seeded: null });
    this.render(state);
  }

  /** Send the seed in the box for the open window (normalised first, docs/fair-deals.md §2). */
  send(state) {
    const v = state && state.view;
    if (v && v.chain_tip && v.status === "open" && !state.seeding) {
      if (seated(state)) this.sendMatchSeed(state);
      return;
    }
    const open = state && state.seeding;
    if (!open || this.sent === open.round || !seated(state)) return;
    let seed;
    try {
      seed = normaliseClientSeed(this.seedInput.value);
      if (!seed) throw new RangeError("a client seed holds 1 character at least");
    } catch {
      this.seedState.textContent = _("That seed cannot be used: 1 to 128 characters from the keyboard's Latin letters A-Z and a-z, digits 0-9, spaces and ASCII punctuation.");
      this.editing = true;
      if (Date.now() >= this.lastCallAt) this.sent = open.round;  // too late to fix it: the seat's seed stays empty
      return;
    }
    if (!this.ctx.sendFrame({ type: "seed", id: seedFrameId(open.round), round: open.round, seed })) {
      this.seedState.textContent = _("Not connected. Reconnecting…");
      return;
    }
    this.sent = open.round;
    this.seedInput.value = seed;
    rememberSeen(state.tableId, open.round, { seat: state.view.seat, commitment: open.commitment, client_seed: seed },
      this.ctx.storage);
    this.render(state);
  }

  /**
   * The server's answer to this browser's seed. `seeded` for a chained match is kept next to
   * the seed sent. A refusal never rewrites what was sent: if the server says the window
   * closed, the record must still hold the seed this browser sent, or Verify says so.
   */
  handleAnswer(state) {
    const answer = state.seedAnswer;
    if (!answer || answer === this.answer) return;
    this.answer = answer;
    const kept = keptMatchSeed(this.ctx.storage, state.tableId);
    if (answer.ok) {
      // only the answer to the seed kept counts: an answer to one it replaced may come later
      if (kept && answer.round === 1 && state.view && kept.chain_tip === state.view.chain_tip
          && answer.seed === kept.client_seed) {
        keepMatchSeed(this.ctx.storage, state.tableId, { ...kept, seeded: answer.seed });
      }
      return;
    }
    this.refused = answer.round;
    this.seedState.textContent = answer.message;
    if (answer.code === "bad_seed" && state.seeding && state.seeding.round === answer.round) {
      this.sent = null;   // the player may correct it while the window is open
      this.refused = null;
      this.editing = true;
    }
  }

  /** Verify the round over in the view: its record entry from the server, checked here. */
  async verify(state) {
    const v = state && state.view;
    if (!v || !Number.isInteger(v.round_index)) return;
    const number = v.round_index + 1;
    this.verified = number;
    this.verifyBtn.disabled = true;
    try {
      if (!canVerify()) { await verifyInto(this.result, null, null, null); return; }
      const response = await fetch(this.ctx.config.urls.record, { credentials: "same-origin" });
      // read with the record grammar, not JSON.parse: 1.0 for 1, or a key given twice, is refused
      const record = response.ok ? parseRecordText(await response.text()) : null;
      const round = record && Array.isArray(record.rounds) ? record.rounds.find((r) => r && r.number === number) : null;
      if (!round) {
        this.result.className = "verify-result bad";
        this.result.textContent = _("The record of this round could not be loaded.");
        return;
      }
      await verifyInto(this.result, round, record, seenFor(state.tableId, number, this.ctx.storage));
    } catch (err) {
      this.result.className = "verify-result bad";
      this.result.textContent = err instanceof RecordError
        ? fmt(_("✘ The game record is malformed (%(reason)s): this deal cannot be checked."), { reason: err.reason })
        : _("The record of this round could not be loaded.");
    } finally {
      this.verifyBtn.disabled = false;
    }
  }
}
