// The table's words (issue 30, parts 3, 4 and 9): your own column is "You", counts agree
// with their nouns in both languages, the chips' stake and the game's own value are named
// apart, names are kept whole, and leaving says what becomes of the seat and the stake.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

const { sheetHtml } = await page("scoresheet.js");
const { endedDeal, summaryHtml } = await page("summary.js");
const { stakeLine } = await page("stakes.js");
const { leaveWords } = await page("leaving.js");
const { gameOf } = await page("games/index.js");
const { MESSAGES, t } = await page("i18n.js");

const IMPERIAL = [
  { type: "deal", number: 1, dealer: 1, trump: "H" },
  { type: "mark", seat: 0, imperials: 1, reason: "imperials", total: 1, loose: 0 },
  { type: "mark", seat: 1, imperials: 2, reason: "imperial tombé", total: 2, loose: 0 },
  { type: "deal_end", tricks: [7, 5] },
  { type: "deal", number: 2, dealer: 0, trump: "S" },
  { type: "mark", seat: 1, imperials: 5, reason: "imperials", total: 7, loose: 0 },
  { type: "deal_end", tricks: [6, 6] },
];

const marked = (html) =>
  Object.fromEntries(
    [...html.matchAll(/data-seat="(\d)" data-field="marked" data-value="\d+">([^<]*)/g)].map((m) => [m[1], m[2].trim()]),
  );

test("your own column of the score sheet is You / Вы, your name in its title", async () => {
  const names = ["Anna Petrova", "Computer 2"];
  // Even on a phone, where the others' columns get short names ("AP 1" was yours).
  const html = sheetHtml("imperial", IMPERIAL, names, ["AP 1", "Comp 2"], 0);
  assert.match(html, /<th scope="col" class="you" title="Anna Petrova">You<\/th>/);
  assert.doesNotMatch(html, />AP 1</);
  assert.match(html, /<th scope="col" title="Computer 2">Comp 2<\/th>/);
  await inLanguage("ru", () => {
    const ru = sheetHtml("imperial", IMPERIAL, ["Анна Петрова", "Компьютер 2"], ["АП 1", "Комп. 2"], 0);
    assert.match(ru, /<th scope="col" class="you" title="Анна Петрова">Вы<\/th>/);
    assert.doesNotMatch(ru, />АП 1</);
  });
  // A spectator (no seat) sees every name.
  assert.match(sheetHtml("imperial", IMPERIAL, names), /<th scope="col">Anna Petrova<\/th>/);
});

test("the summary's marked imperials agree with their count, in English too", async () => {
  const first = summaryHtml("imperial", endedDeal("imperial", IMPERIAL, 2, 1), ["Ann", "Bob"]);
  const second = summaryHtml("imperial", endedDeal("imperial", IMPERIAL, 2, 2), ["Ann", "Bob"]);
  assert.deepEqual(marked(first), { 0: "+1 imperial", 1: "+2 imperials" });
  assert.equal(marked(second)[1], "+5 imperials");
  assert.doesNotMatch(first, /\+1 imperials/);
  assert.match(first, /Imperials marked/);
  await inLanguage("ru", () => {
    const ru1 = summaryHtml("imperial", endedDeal("imperial", IMPERIAL, 2, 1), ["Аня", "Боря"]);
    const ru2 = summaryHtml("imperial", endedDeal("imperial", IMPERIAL, 2, 2), ["Аня", "Боря"]);
    assert.deepEqual(marked(ru1), { 0: "+1 империал", 1: "+2 империала" });
    assert.equal(marked(ru2)[1], "+5 империалов");
    assert.match(ru1, /Записано империалов/);
    assert.match(ru1, /хвалёж империалами/);
  });
});

test("imperials are written down (записаны), points burn (сгорают): no «маркир-»", async () => {
  const ru = Object.values(MESSAGES).map(([, r]) => r);
  assert.deepEqual(ru.filter((r) => /маркир/i.test(r)), []);
  await inLanguage("ru", () => {
    assert.equal(t("ev_mark", { name: "Анна", n: 2, reason: "хвалёж империалами", total: 3 }), "Анна записывает 2 империала (хвалёж империалами); всего 3");
    assert.equal(t("ev_wipe", { name: "Анна", n: 21, by: "Компьютер 2" }), "Анна: сгорело 21 очко (империал записал Компьютер 2)");
  });
  assert.equal(t("ev_mark", { name: "Ann", n: 1, reason: t("reason_imperials"), total: 1 }), "Ann marks 1 imperial (declared); 1 in all");
});

test("the fair-dealing check speaks of a key and its fingerprint, not a seed", async () => {
  for (const key of ["fair_about", "fair_label", "verify_about", "verify_fair", "verify_fair_one", "verify_unfair", "verify_commitment_bad"]) {
    const [en, ru] = MESSAGES[key];
    assert.doesNotMatch(ru, /зерн/, key);
    assert.doesNotMatch(en, /\bseed\b|commitment/, key);
  }
  await inLanguage("ru", () => {
    assert.equal(t("verify_fair", { n: 7 }), "Сдачи честные: ключ совпадает с отпечатком, показанным до игры, и все сдачи (7) получаются из него.");
  });
});

test("the chips' stake and the game's own value have different names", async () => {
  assert.equal(stakeLine({ kind: "per_game", chips: 10 }), "stake 10 chips per game");
  assert.equal(stakeLine({ kind: "per_imperial", chips: 1 }), "stake 1 chip per missing imperial");
  assert.equal(t("opt_stake"), "Game value (no chips)");
  assert.equal(t("stakes"), "Game value");
  await inLanguage("ru", () => {
    assert.equal(stakeLine({ kind: "per_game", chips: 10 }), "ставка 10 фишек за партию");
    assert.equal(stakeLine({ kind: "per_game", chips: 21 }), "ставка 21 фишка за партию");
    assert.equal(t("opt_stake"), "Цена партии (без фишек)");
    assert.equal(t("stakes"), "Цена партии");
    assert.equal(t("stake_chips"), "Ставка в фишках");
  });
  // Game over: the game's own column is the game value, signed with a real minus.
  const obs = { scores: [{ imperials: 5, points: 3 }, { imperials: 2, points: 10 }, { imperials: 0, points: 0 }] };
  const events = [{ type: "game_over", winner: 0, stakes: [2, -1, -1] }];
  const { body } = gameOf("imperial").overResult({ obs, events, names: ["Ann", "Computer 2", "Computer 3"], you: 1 });
  assert.match(body, /<th title="[^"]+">Game value<\/th>/);
  assert.doesNotMatch(body, />Stakes</);
  assert.match(body, /data-field="game-value">\+2</);
  assert.match(body, /data-field="game-value">−1</);
});

test("a name is never broken across lines at game over", async () => {
  await inLanguage("ru", () => {
    const obs = { scores: [{ imperials: 1, points: 0 }, { imperials: 5, points: 0 }] };
    const events = [{ type: "game_over", winner: 1, stakes: [-1, 1] }];
    const { title, body } = gameOf("imperial").overResult({ obs, events, names: ["Аня", "Компьютер 2"], you: 0 });
    assert.equal(title, "Победитель: Компьютер\u00a02");
    assert.match(body, /<span class="name-whole">Компьютер 2<\/span>/);
  });
});

test("leaving a game in progress says what becomes of the seat, the stake and the rating", async () => {
  const plain = leaveWords({ status: "playing", rated: false }, 0);
  assert.equal(plain.length, 1);
  assert.match(plain[0], /the computer plays your seat until you come back/);
  const staked = leaveWords({ status: "playing", rated: true, stake: { kind: "per_game", chips: 10 }, stake_hold: 10 }, 0);
  assert.equal(staked.length, 3);
  assert.match(staked[1], /The most you can lose: 10 chips\./);
  assert.match(staked[2], /rating/);
  await inLanguage("ru", () => {
    const ru = leaveWords({ status: "playing", stake: { kind: "per_imperial", chips: 1 }, stake_hold: 5 }, 0);
    assert.match(ru[0], /Место остаётся за вами/);
    assert.match(ru[1], /Наибольший возможный проигрыш: 5 фишек\./);
  });
});
