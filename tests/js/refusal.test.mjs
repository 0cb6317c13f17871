// A refused card's reason inside the page's sentence (refusal.js), in both languages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { page } from "./setup.mjs";

const { refusalText } = await page("refusal.js");
const { t, setLang } = await page("i18n.js");

const mustFollow = {
  code: "must_follow",
  message: "You hold spades, the suit led, so you must follow suit",
  message_ru: "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть",
};

test("the engine's reason, its first word in lower case, in the page's language", () => {
  assert.equal(refusalText(mustFollow, "en"), "you hold spades, the suit led, so you must follow suit");
  assert.equal(refusalText(mustFollow, "ru"), "масть хода — пики, и она у вас есть, значит, нужно ходить в масть");
});

test("a reason that starts with a card or a name keeps its capital", () => {
  assert.equal(refusalText({ message: "Q♠ is not in the deck" }, "en"), "Q♠ is not in the deck");
  assert.equal(refusalText({ message: "Ann 2 must lead" }, "en"), "Ann 2 must lead");
});

test("the whole note a player reads after tapping a card he may not play", () => {
  const note = (language) =>
    t("card_refused", { card: "Д♥", reason: refusalText(mustFollow, language) });
  try {
    setLang("ru");
    assert.equal(note("ru"), "Д♥ нельзя: масть хода — пики, и она у вас есть, значит, нужно ходить в масть");
    setLang("en");
    assert.equal(note("en"), "Not Д♥: you hold spades, the suit led, so you must follow suit");
  } finally {
    setLang("en");
  }
});
