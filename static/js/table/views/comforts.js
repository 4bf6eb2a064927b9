// Comforts of the table: an optional sound when the player's turn starts and for the
// last 5 seconds of their move clock (Web Audio, no sound files; off by default, the
// choice remembered in localStorage `okeysite:sound`), and keyboard play on a desktop:
// the arrows move between rack tiles (Enter or Space selects), Escape clears the
// selection, and a letter presses a turn button (aria-keyshortcuts on each). On a phone
// the page scrolls to the table once it is dealt.
import { _ } from "../i18n.js";
import { myTurn, seated, started } from "../selectors.js";
import { onAutoplay } from "../state-away.js";
import { h } from "./dom.js";

export const SOUND_KEY = "okeysite:sound";

// key -> the control it presses (the first one shown and enabled)
const KEYS = {
  p: ["#pile", "#draw-btn"], t: ["#take-discard"], o: ["#open-btn"], a: ["#pairs-btn"],
  l: ["#lay-btn"], d: ["#discard-btn"], s: ["#submit-play"], u: ["#undo-turn"],
};

export class Comforts {
  /** @param {object} ctx {storage (localStorage or null), dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.on = readSound(ctx.storage);
    this.audio = null;
    this.wasMyTurn = false;
    this.lastBeep = null;
    this.scrolled = false;
    this.toggle = h("button", { type: "button", class: "btn small", id: "sound-toggle", onclick: () => this.flip() });
    this.el = h("div", { class: "table-prefs", id: "table-prefs" }, this.toggle);
    this.paint();
    document.addEventListener("keydown", (ev) => this.key(ev));
  }

  flip() {
    this.on = !this.on;
    try { if (this.ctx.storage) this.ctx.storage.setItem(SOUND_KEY, this.on ? "on" : "off"); } catch (_e) { /* full or disabled */ }
    if (this.on) this.beep(660, 0.12);      // the click is the gesture a browser needs to allow sound
    this.paint();
  }

  paint() {
    this.toggle.textContent = this.on ? _("Sound: on") : _("Sound: off");
    this.toggle.setAttribute("aria-pressed", this.on ? "true" : "false");
  }

  beep(freq, seconds) {
    if (!this.on) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, this.audio.currentTime + seconds);
      osc.connect(gain).connect(this.audio.destination);
      osc.start();
      osc.stop(this.audio.currentTime + seconds);
    } catch (_e) { /* no audio here: the table plays on silently */ }
  }

  render(state) {
    for (const [key, sels] of Object.entries(KEYS)) {
      for (const sel of sels) {
        const el = this.el.parentElement && this.el.parentElement.querySelector(sel);
        if (el && !el.hasAttribute("aria-keyshortcuts")) el.setAttribute("aria-keyshortcuts", key.toUpperCase());
      }
    }
    // a phone shows the table from its top once the match is dealt: the site's header
    // would otherwise push the rack below the fold
    if (!this.scrolled && seated(state) && started(state) && this.el.parentElement && window.innerWidth < 600) {
      this.scrolled = true;
      if (this.el.parentElement.scrollIntoView) this.el.parentElement.scrollIntoView({ block: "start" });
    }
    const mine = myTurn(state) && !onAutoplay(state.view);
    if (mine && !this.wasMyTurn) this.beep(660, 0.15);
    this.wasMyTurn = mine;
  }

  /** The last 5 seconds of the player's own move clock tick once a second. */
  tick(state) {
    const v = state.view;
    if (!v || !myTurn(state) || !v.deadline || (v.deadline_kind && v.deadline_kind !== "move")) return;
    const left = Math.ceil((v.deadline - Date.now()) / 1000);
    if (left >= 1 && left <= 5 && left !== this.lastBeep) { this.lastBeep = left; this.beep(880, 0.06); }
  }

  key(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const root = this.el.parentElement;      // this table (a page that dropped it has detached it)
    if (!root || !root.parentElement) return;
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      const tiles = [...root.querySelectorAll("#rack .tile")];
      if (!tiles.length) return;
      const at = tiles.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (ev.key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length;
      tiles[next].focus();
      ev.preventDefault();
      return;
    }
    if (ev.key === "Escape") { this.ctx.dispatch({ type: "clear_selection" }); return; }
    for (const sel of KEYS[ev.key.toLowerCase()] || []) {
      const el = root.querySelector(sel);
      if (el && !el.disabled && !el.closest("[hidden]") && el.offsetParent !== null) { el.click(); ev.preventDefault(); return; }
    }
  }
}

/** Sound is off unless the player turned it on (storage may be missing or refuse). */
export function readSound(storage) {
  try { return !!storage && storage.getItem(SOUND_KEY) === "on"; } catch (_e) { return false; }
}
