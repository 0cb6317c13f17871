// Counted nouns and declined names (plural.js), and messages with counts (i18n.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

const { countOf, declineName, hasNoun, nounFor } = await page("plural.js");
const { formatNumber, t, tn } = await page("i18n.js");

test("Russian counts take one, few and many forms", () => {
  assert.equal(countOf(1, "card", "ru"), "1 карта");
  assert.equal(countOf(2, "card", "ru"), "2 карты");
  assert.equal(countOf(5, "card", "ru"), "5 карт");
  assert.equal(countOf(11, "card", "ru"), "11 карт");
  assert.equal(countOf(21, "card", "ru"), "21 карта");
  assert.equal(countOf(22, "trick_acc", "ru"), "22 взятки");
  assert.equal(nounFor("imperial_gen", 1, "ru"), "империала");
  assert.equal(nounFor("imperial_gen", 2, "ru"), "империалов");
});

test("English counts are one or many", () => {
  assert.equal(countOf(1, "card", "en"), "1 card");
  assert.equal(countOf(0, "card", "en"), "0 cards");
  assert.equal(countOf(2, "deal", "en"), "2 deals");
  assert.equal(hasNoun("card"), true);
  assert.equal(hasNoun("dragon"), false);
  assert.equal(nounFor("dragon", 2, "en"), "dragon");
});

test("only the page's own names are declined, and only in Russian", () => {
  assert.equal(declineName("Компьютер 2", "gen", "ru"), "Компьютера 2");
  assert.equal(declineName("Место 3", "ins", "ru"), "Местом 3");
  assert.equal(declineName("Компьютер 2", "gen", "en"), "Компьютер 2");
  assert.equal(declineName("Маша", "gen", "ru"), "Маша");
  assert.equal(declineName("Компьютер 2", "nom", "ru"), "Компьютер 2");
});

test("a lesson's name carries its own cases, used in Russian only", () => {
  const boris = new String("Борис");
  boris.cases = { gen: "Бориса", dat: "Борису", ins: "Борисом" };
  assert.equal(declineName(boris, "gen", "ru"), "Бориса");
  assert.equal(declineName(boris, "ins", "ru"), "Борисом");
  assert.equal(String(declineName(boris, "gen", "en")), "Борис");
  assert.equal(String(declineName(boris, "acc", "ru")), "Борис"); // a case it lacks: as written
});

test("messages fill their counts and names in either language", async () => {
  assert.equal(t("target_n", { n: 1 }), "Play to 1 imperial");
  assert.equal(t("players_n", { n: 3 }), "3 players");
  assert.equal(tn("chips", 1), "1 chip");
  assert.equal(formatNumber(1000), "1,000");
  await inLanguage("ru", () => {
    assert.equal(t("target_n", { n: 1 }), "Игра до 1 империала");
    assert.equal(t("target_n", { n: 5 }), "Игра до 5 империалов");
    assert.equal(t("round_n", { n: 2, of: 10 }), "Тур 2 из 10");
    assert.equal(tn("chips", 21), "21 фишка");
    assert.equal(tn("chips", 3), "3 фишки");
    assert.equal(tn("chips", 5), "5 фишек");
    assert.equal(formatNumber(1000).replace(/\s/g, " "), "1 000");
  });
});
