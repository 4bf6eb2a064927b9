// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { endReasonText, penaltyText, playerName, lastActionText } from "../../static/js/table/text.js";
import { moveLine, playedForMe, summary, tileName } from "../../static/js/table/moves.js";

const view = { seat: 0, players: [{ name: "ayse" }, { name: null, computer: "easy" }, { name: "mehmet" }, { name: null, computer: "strong" }] };

test("in-round penalties read as lines for the score table", () => {
  assert.equal(penaltyText(view, { seat: 1, amount: 100, reason: "penalty_tile", tile: "K11", by: null }), "Penalty tile black 11 · 100");
  assert.equal(penaltyText(view, { seat: 1, amount: 120, reason: "discard_taken", tile: "B6", by: 3 }),
    `Discard taken by ${playerName(view, 3)} · 120`);
  // add, swap and pair_in_area charge the meld's owner: "your" only in the owner's view
  assert.equal(penaltyText(view, { seat: 2, amount: 70, reason: "add", tile: "Y7", by: 0 }), "ayse added yellow 7 to mehmet's meld · 70");
  assert.equal(penaltyText(view, { seat: 0, amount: 70, reason: "add", tile: "Y7", by: 2 }), "mehmet added yellow 7 to your meld · 70");
  assert.equal(penaltyText(view, { seat: 2, amount: 180, reason: "swap", tile: "B8", by: 0 }), "ayse swapped mehmet's okey out · 180");
  assert.equal(penaltyText(view, { seat: 0, amount: 180, reason: "swap", tile: "B8", by: 2 }), "mehmet swapped your okey out · 180");
  assert.equal(penaltyText(view, { seat: 2, amount: 40, reason: "pair_in_area", tile: null, by: 0 }), "ayse laid a pair in mehmet's area · 40");
  assert.equal(penaltyText({ ...view, seat: null }, { seat: 0, amount: 40, reason: "pair_in_area", tile: null, by: 2 }),
    "mehmet laid a pair in ayse's area · 40");
  assert.equal(penaltyText(view, { seat: 2, amount: 30, reason: "playable_discard", tile: "R3", by: null }), "Playable discard red 3 · 30");
  assert.equal(penaltyText(view, { seat: 2, amount: 5, reason: "something_new", tile: null, by: null }), "Penalty · 5");
});

test("the viewer's own moves read in the second person, the others' in the third", () => {
  const v = (a) => ({ ...view, last_action: a });
  assert.equal(lastActionText(v({ seat: 0, type: "discard", tile: "R5" })), "You discarded red 5");
  assert.equal(lastActionText(v({ seat: 0, type: "draw" })), "You drew a tile");
  assert.equal(lastActionText(v({ seat: 0, type: "take_discard" })), "You took the discard");
  assert.equal(lastActionText(v({ seat: 2, type: "discard", tile: "R5" })), "mehmet discarded");
  assert.equal(lastActionText(v({ seat: 2, type: "open" })), "mehmet opened");
  assert.equal(lastActionText(v({ seat: 0, type: "mystery" })), "");
  assert.equal(lastActionText(v(null)), "");
});

test("tiles are named in words, never as codes", () => {
  assert.equal(tileName("Y11"), "yellow 11");
  assert.equal(tileName("J"), "joker");
  assert.equal(tileName("F"), "false joker");
  assert.equal(tileName("R6=B5"), "okey as blue 5");
  assert.equal(tileName("J=K7"), "joker as black 7");
});

test("the last-action line says the computer played when it did, and names the discarded tile", () => {
  const moves = [
    { number: 7, seat: 2, actor: "human", type: "discard", result: "ok", tile: "B4", penalties: [] },
    { number: 8, seat: 0, actor: "timeout", type: "draw", result: "ok", tile: "K3", penalties: [] },
    { number: 9, seat: 0, actor: "timeout", type: "discard", result: "ok", tile: "Y12", penalties: [] },
  ];
  assert.equal(lastActionText({ ...view, moves }), "The computer discarded for you: yellow 12");
  assert.equal(lastActionText({ ...view, moves: moves.slice(0, 1) }), "mehmet discarded: blue 4");
  assert.equal(lastActionText({ ...view, moves: [{ ...moves[2], actor: "human" }] }), "You discarded: yellow 12");
  assert.deepEqual(playedForMe({ ...view, moves }).map((m) => m.number), [8, 9]);
  assert.deepEqual(playedForMe({ ...view, moves: [...moves, { number: 10, seat: 0, actor: "human", type: "draw", result: "ok", penalties: [] }] }), []);
  assert.equal(summary({ ...view, moves }, playedForMe({ ...view, moves }), playerName),
    "The computer drew a tile for you: black 3 · The computer discarded for you: yellow 12");
});

test("the last-action line tells another seat's whole turn, not only its discard", () => {
  const moves = [
    { number: 20, seat: 0, actor: "human", type: "discard", result: "ok", tile: "R11", penalties: [] },
    { number: 21, seat: 1, actor: "computer", type: "take_discard", result: "ok", tile: "R11",
      then: { type: "open", melds: [["R9", "R10", "R11"]] }, penalties: [] },
    { number: 22, seat: 1, actor: "computer", type: "discard", result: "ok", tile: "B13", penalties: [] },
  ];
  const text = lastActionText({ ...view, moves });
  assert.equal(text, `${playerName(view, 1)} took the discard: red 11, red 9, red 10, red 11 · ${playerName(view, 1)} discarded: blue 13`);
  assert.equal(lastActionText({ ...view, moves: moves.slice(0, 1) }), "You discarded: red 11");
});

test("a move line carries its public tiles: a take with the melds it placed, a rami play its laid tiles", () => {
  const take = { number: 3, seat: 1, actor: "computer", type: "take_discard", result: "ok", tile: "R5",
    then: { type: "open", melds: [["R3", "R4", "R5"]] }, penalties: [] };
  const line = moveLine(view, take, playerName);
  assert.equal(line.text, `${playerName(view, 1)} took the discard`);
  assert.deepEqual(line.tiles, [["R5"], ["R3", "R4", "R5"]]);
  assert.deepEqual(moveLine(view, { seat: 3, actor: "computer", type: "play", result: "ok", laid: ["J", "K9"], penalties: [] }, playerName).tiles, [["J", "K9"]]);
  assert.equal(moveLine(view, { seat: 2, actor: "human", type: "draw", pass: true, result: "ok", penalties: [] }, playerName).text,
    "mehmet passed: the pile is empty");
  assert.equal(moveLine(view, { seat: 2, type: "mystery" }, playerName), null);
});

test("the score table says how the round ended", () => {
  assert.equal(endReasonText(view, { finisher: 2, end: "okey" }), "mehmet finished by discarding the okey.");
  assert.equal(endReasonText(view, { finisher: 0, end: "pairs" }), "ayse finished with pairs.");
  assert.equal(endReasonText(view, { finisher: null, end: "draw" }), "The pile ran out: nobody finished.");
  assert.equal(endReasonText(view, { finisher: null, end: "blocked", winner: 2 }),
    "Blocked: the pile is empty and nobody could play. mehmet holds the lowest rack.");
  assert.equal(endReasonText(view, null), "");
});

test("the others read that the computer played a seat's turn for its player, never as the player's own move", () => {
  const moves = [
    { number: 30, seat: 0, actor: "human", type: "discard", result: "ok", tile: "B2", penalties: [] },
    { number: 31, seat: 2, actor: "timeout", type: "draw", result: "ok", penalties: [] },
    { number: 32, seat: 2, actor: "timeout", type: "discard", result: "ok", tile: "R11", penalties: [] },
  ];
  assert.equal(lastActionText({ ...view, moves }),
    "The computer drew a tile for mehmet · The computer discarded for mehmet: red 11");
  // a spectator reads the same
  assert.equal(lastActionText({ ...view, seat: null, moves }),
    "The computer drew a tile for mehmet · The computer discarded for mehmet: red 11");
  const line = moveLine(view, moves[2], playerName);
  assert.equal(line.subject, "for");
  assert.equal(line.text, "The computer discarded for mehmet");
  for (const [move, text] of [
    [{ type: "draw", pass: true }, "The computer passed for mehmet: the pile is empty"],
    [{ type: "take_discard", tile: "R5" }, "The computer took the discard for mehmet"],
    [{ type: "discard", result: "playable_discard" }, "The computer's discard for mehmet was refused"],
    [{ type: "open", melds: [] }, "The computer opened for mehmet"],
    [{ type: "meld", tiles: [] }, "The computer laid a meld for mehmet"],
    [{ type: "add", tile: "R5" }, "The computer added a tile for mehmet"],
    [{ type: "swap", tile: "R5" }, "The computer swapped a wild for mehmet"],
    [{ type: "play", laid: [] }, "The computer played on the table for mehmet"],
  ]) {
    assert.equal(moveLine(view, { seat: 2, actor: "timeout", result: "ok", penalties: [], ...move }, playerName).text, text);
  }
  // a computer's own seat still reads as that seat's move
  assert.equal(moveLine(view, { ...moves[2], seat: 1, actor: "computer" }, playerName).text, `${playerName(view, 1)} discarded`);
});
