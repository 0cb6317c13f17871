// Public events in words (narrate.js and each game's narrate in games/), in both languages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

const { actionWords, narrateAll } = await page("narrate.js");
const { gameOf } = await page("games/index.js");

test("Imperial: a deal, a capture that makes the tombé, the mark that follows", () => {
  const events = [
    { type: "deal", number: 1, dealer: 1, trump: "H", turnup: "7H" },
    { type: "capture", seat: 0, card: "JH", by: "KH" },
    { type: "mark", seat: 0, imperials: 2, reason: "imperial tombé", total: 2 },
  ];
  const lines = narrateAll(gameOf("imperial").narrate, events, ["Ann", "Bob"]);
  assert.equal(lines[0].kind, "head");
  assert.match(lines[0].text, /^Deal 1: Bob deals; trump hearts \(turn-up 7♥\)$/);
  assert.deepEqual(lines[1], { text: "Ann captures J♥ with K♥: tombé!", kind: "mark" });
  assert.equal(lines[2].kind, "mark");
});

test("Emperor: naming trumps, in English and in Russian", async () => {
  const events = [{ type: "trump", seat: 2, trump: "NT" }];
  const names = ["Ann", "Bob", "Cy"];
  assert.deepEqual(narrateAll(gameOf("emperor").narrate, events, names), [
    { text: "Cy names no trumps", kind: "declare" },
  ]);
  await inLanguage("ru", () => {
    const [line] = narrateAll(gameOf("emperor").narrate, events, names);
    assert.equal(line.text, "Cy объявляет бескозырку");
  });
});

test("actions in words", () => {
  assert.equal(actionWords("QS", ["Ann", "Bob"]), "Q♠");
  assert.equal(actionWords("swap 1", ["Ann", "Bob"]), "Take the hand of Bob");
  assert.equal(actionWords("trump NT", []), "Trump: no trumps");
});
