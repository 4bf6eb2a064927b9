// Comforts of the table: sounds and keyboard play.
// Sounds (Web Audio, generated, no sound files): a tile drawn or taken, a discard, a meld
// laid or added to, the player's turn, each of the last 5 seconds of their move clock, and
// the round's end. Off until the player turns them on in the sound sheet (a browser plays
// sound only after a tap); the choice and the volume are kept in localStorage
// (`okeysite:sound`, `okeysite:volume`). The controls stand in the sound sheet
// (views/sheets.js), one tap from the top bar.
// Keyboard play on a desktop: the arrows move between rack tiles (Enter or Space
// selects), Escape clears the selection, and a letter presses a turn button
// (aria-keyshortcuts on each; the "?" sheet lists them).
import { _ } from "../i18n.js";
import { myTurn, roundOver } from "../selectors.js";
import { onAutoplay } from "../state-away.js";
import { h } from "./dom.js";

export const SOUND_KEY = "okeysite:sound";
export const VOLUME_KEY = "okeysite:volume";

// key -> the control it presses (the first one shown and enabled)
const KEYS = {
  p: ["#pile", "#draw-btn"], t: ["#take-discard"], o: ["#open-btn"], a: ["#pairs-btn"],
  l: ["#lay-btn"], d: ["#discard-btn"], s: ["#submit-play"], u: ["#undo-turn"],
};

// each sound: [frequency Hz, seconds, wave] notes played one after the other
const SOUNDS = {
  draw: [[520, 0.05, "triangle"]],
  discard: [[300, 0.07, "square"]],
  meld: [[523, 0.08, "sine"], [659, 0.08, "sine"], [784, 0.12, "sine"]],
  turn: [[660, 0.15, "sine"]],
  tick: [[880, 0.06, "sine"]],
  roundEnd: [[784, 0.12, "sine"], [659, 0.12, "sine"], [523, 0.25, "sine"]],
};
const MOVE_SOUNDS = { draw: "draw", take_discard: "draw", discard: "discard", open: "meld", meld: "meld", lay: "meld",
  add: "meld", swap: "meld", pairs: "meld", play: "meld" };

export class Comforts {
  /** @param {object} ctx {storage (localStorage or null), dispatch(event)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.on = readSound(ctx.storage);
    this.volume = readVolume(ctx.storage);
    this.audio = null;
    this.wasMyTurn = false;
    this.wasOver = null;
    this.lastMove = null;
    this.lastBeep = null;
    this.toggle = h("button", { type: "button", class: "btn", id: "sound-toggle", onclick: () => this.flip() });
    this.slider = h("input", { type: "range", id: "sound-volume", min: "0", max: "100", step: "5", value: String(Math.round(this.volume * 100)),
      "aria-label": _("Volume"), oninput: () => this.setVolume(Number(this.slider.value) / 100) });
    this.sheet = "sound";
    this.el = h("div", { class: "table-prefs", id: "table-prefs" }, this.toggle,
      h("label", { class: "volume", for: "sound-volume" }, _("Volume")), this.slider);
    this.paint();
    document.addEventListener("keydown", (ev) => this.key(ev));
  }

  flip() {
    this.on = !this.on;
    try { if (this.ctx.storage) this.ctx.storage.setItem(SOUND_KEY, this.on ? "on" : "off"); } catch (_e) { /* full or disabled */ }
    if (this.on) this.play("turn");      // the tap is the gesture a browser needs to allow sound
    this.paint();
  }

  setVolume(v) {
    this.volume = Math.max(0, Math.min(1, v));
    try { if (this.ctx.storage) this.ctx.storage.setItem(VOLUME_KEY, String(this.volume)); } catch (_e) { /* full or disabled */ }
    this.play("tick");
  }

  /**
   * The state in the sheet's switch and on the top bar's sound button (struck through
   * and named "Sound: off" while off), so the player sees it without opening the sheet.
   * The button is drawn by the top bar, which may join the page after this view: every
   * render paints it again.
   */
  paint() {
    const label = this.on ? _("Sound: on") : _("Sound: off");
    this.toggle.textContent = label;
    this.toggle.setAttribute("aria-pressed", this.on ? "true" : "false");
    const root = this.el.closest ? this.el.closest(".tbl") : null;
    const bar = (root && root.querySelector("#sound-btn"))
      || (typeof document !== "undefined" && document.getElementById("sound-btn"));
    if (!bar) return;
    bar.classList.toggle("muted", !this.on);
    bar.setAttribute("aria-label", label);
    bar.setAttribute("title", label);
  }

  /** Play one of SOUNDS at the player's volume (nothing when off or without Web Audio). */
  play(name) {
    if (!this.on || !this.volume) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      let at = this.audio.currentTime;
      for (const [freq, seconds, wave] of SOUNDS[name]) {
        const osc = this.audio.createOscillator();
        const gain = this.audio.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.12 * this.volume, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
        osc.connect(gain).connect(this.audio.destination);
        osc.start(at);
        osc.stop(at + seconds);
        at += seconds * 0.8;
      }
    } catch (_e) { /* no audio here: the table plays on silently */ }
  }

  render(state) {
    this.paint();
    const root = this.el.closest ? this.el.closest(".tbl") : null;
    const scope = root || (typeof document !== "undefined" ? document : null);
    for (const [key, sels] of Object.entries(KEYS)) {
      for (const sel of sels) {
        const el = scope && scope.querySelector(sel);
        if (el && !el.hasAttribute("aria-keyshortcuts")) el.setAttribute("aria-keyshortcuts", key.toUpperCase());
      }
    }
    const v = state.view;
    if (!v) return;
    const moves = v.moves || [];
    const last = moves[moves.length - 1];
    const key = last ? `${v.round_index}:${last.number}` : null;
    // the first snapshot shows the table as it is: no sound for moves made before
    if (this.lastMove !== null && key && key !== this.lastMove && MOVE_SOUNDS[last.type] && (last.result || "ok") === "ok") {
      this.play(MOVE_SOUNDS[last.type]);
    }
    this.lastMove = key || this.lastMove || "";
    const over = roundOver(state);
    if (this.wasOver === false && over) this.play("roundEnd");
    this.wasOver = over;
    const mine = myTurn(state) && !onAutoplay(v);
    if (mine && !this.wasMyTurn) this.play("turn");
    this.wasMyTurn = mine;
  }

  /** The last 5 seconds of the player's own move clock tick once a second. */
  tick(state) {
    const v = state.view;
    if (!v || !myTurn(state) || !v.deadline || (v.deadline_kind && v.deadline_kind !== "move")) return;
    const left = Math.ceil((v.deadline - Date.now()) / 1000);
    if (left >= 1 && left <= 5 && left !== this.lastBeep) { this.lastBeep = left; this.play("tick"); }
  }

  key(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const root = this.el.closest ? this.el.closest(".tbl") : null;   // this table (a page that dropped it has detached it)
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

/** The player's volume, 0..1 (0.6 until they set one). */
export function readVolume(storage) {
  try {
    const v = storage ? storage.getItem(VOLUME_KEY) : null;
    return v === null || v === undefined || Number.isNaN(Number(v)) ? 0.6 : Math.max(0, Math.min(1, Number(v)));
  } catch (_e) { return 0.6; }
}

/** Sound is off unless the player turned it on (storage may be missing or refuse). */
export function readSound(storage) {
  try { return !!storage && storage.getItem(SOUND_KEY) === "on"; } catch (_e) { return false; }
}
