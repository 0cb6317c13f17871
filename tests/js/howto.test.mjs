// How to play (#29): the section of the how-to-play page the table's Rules link opens,
// from each game's module (games/imperial.js, games/emperor.js), and a glossary tip's
// address. The ids themselves are checked against the guides by tests/test_guide.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { page } from "./setup.mjs";

const { gameOf } = await page("games/index.js");
const { termHref } = await page("glossary.js");

const deal = { type: "deal", number: 2, dealer: 1, trump: "H", turnup: "9H" };
const declared = { type: "score", seat: 0, points: 4, reason: "point", rule: "I6" };
const played = { type: "play", seat: 0, card: "KH" };
const trick = { type: "trick", deal: 1, number: 12, cards: [], winner: 0 };

test("Imperial: the declarations until a card of the deal is played, then the play", () => {
  const section = (events, phase = "play") => gameOf("imperial").guideSection({ phase, events });
  assert.equal(section([deal, declared]), "declarations");
  assert.equal(section([deal]), "declarations");
  assert.equal(section([deal, declared, played]), "play");
  // a new deal after a played one: its declarations again
  assert.equal(section([deal, played, trick, { type: "deal_end" }, deal, declared]), "declarations");
  assert.equal(section([]), "play");
  assert.equal(section([deal, played], "over"), "scoring");
});

test("Emperor: the section of the round's phase", () => {
  const section = (phase) => gameOf("emperor").guideSection({ phase, events: [] });
  assert.equal(section("exchange"), "swaps");
  assert.equal(section("bargain"), "bargaining");
  assert.equal(section("trump"), "king");
  assert.equal(section("play"), "play");
  assert.equal(section("deal"), "dealing");
  assert.equal(section("over"), "scoring");
  assert.equal(section("something new"), "play");
});

test("a glossary tip links to its term in the game's how-to-play page", () => {
  assert.equal(termHref("imperial", "tombe"), "#/howto/imperial/term-tombe");
  assert.equal(termHref("emperor", "bargain"), "#/howto/emperor/term-bargain");
});
