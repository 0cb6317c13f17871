// The games' facts as the page uses them (games/index.js), sorting a hand by a game's rank
// order (cards.js) and the stakes' words and holds (stakes.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { FACTS, inLanguage, page } from "./setup.mjs";

const { allGames, gameOf, gameTitle, playerChoices } = await page("games/index.js");
const { sortHand } = await page("cards.js");
const { holdFor, stakeLine } = await page("stakes.js");

test("every game the server names has a module with the same functions", () => {
  assert.deepEqual(allGames().map((g) => g.name), FACTS.map((f) => f.name));
  const shape = (g) => Object.keys(g).filter((k) => typeof g[k] === "function").sort();
  const [first, ...others] = allGames();
  for (const g of others) assert.deepEqual(shape(g), shape(first));
  assert.ok(shape(first).includes("sheetCell") && shape(first).includes("summary"));
  assert.throws(() => gameOf("durak"), /unknown game/);
});

test("the forms offer each game's default player count first", () => {
  assert.deepEqual(playerChoices("imperial"), [2, 3]);
  assert.deepEqual(playerChoices("emperor"), [4, 3]);
});

test("a game's name comes in the page's language", async () => {
  assert.equal(gameTitle("imperial", "en"), "Imperial");
  assert.equal(gameTitle("emperor", "ru"), "Император");
  assert.equal(gameTitle("emperor", "de"), "Emperor");
});

test("a hand sorts trumps first, colours alternating, by the game's rank order", () => {
  const hand = ["AS", "10S", "KS", "QH", "7D", "JS", "AH"];
  // Imperial (I2): K Q J A 10 within a suit; hearts are trumps and come first.
  assert.deepEqual(sortHand(hand, "H", gameOf("imperial").rank_order), ["QH", "AH", "KS", "JS", "AS", "10S", "7D"]);
  // Emperor: ace high.
  assert.deepEqual(sortHand(hand, "H", gameOf("emperor").rank_order), ["AH", "QH", "AS", "KS", "JS", "10S", "7D"]);
  // No trumps named: black and red alternate, black first when they are as many.
  assert.deepEqual(sortHand(["2C", "AD", "KH", "3S"], null, gameOf("emperor").rank_order), ["3S", "KH", "2C", "AD"]);
});

test("the facts' rank order sorts every suit as the page's own order did", () => {
  // The keys the page sorted by before the order came from the server.
  const before = {
    imperial: (r) => ({ 13: 0, 12: 1, 11: 2, 14: 3 })[r] ?? 18 - r,
    emperor: (r) => 20 - r,
  };
  const ranks = { imperial: ["6", "7", "8", "9", "10", "J", "Q", "K", "A"], emperor: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] };
  const value = { J: 11, Q: 12, K: 13, A: 14 };
  for (const [game, key] of Object.entries(before)) {
    const cards = ranks[game].map((r) => `${r}S`);
    const expected = [...cards].sort((a, b) => key(value[a.slice(0, -1)] ?? Number(a.slice(0, -1))) - key(value[b.slice(0, -1)] ?? Number(b.slice(0, -1))));
    assert.deepEqual(sortHand(cards, "S", gameOf(game).rank_order), expected, game);
  }
});

test("stakes: the most a seat can lose, and the terms in words", async () => {
  assert.equal(holdFor("per_game", 10, 2, 5), 10);
  assert.equal(holdFor("per_imperial", 10, 3, 5), 50);
  assert.equal(holdFor("per_place", 5, 4, null), 15);
  assert.equal(holdFor("per_place", 5, 3, null), 10);
  assert.equal(holdFor("per_trick", 2, 4, null), 60);
  assert.equal(holdFor("per_game", 0, 2, 5), null);
  // Every game's kinds are worded; a kind no game has falls back to the plain line.
  for (const g of allGames()) {
    for (const kind of g.stake_kinds) assert.notEqual(stakeLine({ kind, chips: 10 }), stakeLine({ kind: "per_dragon", chips: 10 }));
  }
  await inLanguage("ru", () => assert.match(stakeLine({ kind: "per_game", chips: 1000 }), /1\s000/));
});

test("the rated variants are each game's player counts, as the server rates them", async () => {
  const { variants } = await page("ratings_common.js");
  assert.deepEqual(variants(), ["imperial-2p", "imperial-3p", "emperor-3p", "emperor-4p"]);
});

test("a computer level shows its rating where the server has one for that player count", async () => {
  const { levelLabel, levelRating, setGames } = await page("games/index.js");
  const rated = FACTS.map((f) => (f.name === "imperial" ? { ...f, level_ratings: { 2: { 3: { rating: 1650, provisional: false }, 4: { rating: 1702, provisional: true } } } } : f));
  setGames(rated);
  try {
    assert.equal(levelRating("imperial", 2, 3), "1650");
    assert.equal(levelRating("imperial", 2, 4), "1702?"); // too few games to settle it
    assert.equal(levelRating("imperial", 3, 3), null); // no arena games at three players
    assert.equal(levelRating("emperor", 4, 3), null); // no ratings for that game at all
    assert.equal(levelLabel("imperial", 2, 3), "3: club player ≈ 1650");
    assert.equal(levelLabel("imperial", 3, 3), "3: club player");
    assert.equal(levelLabel("imperial", 2, 4), "4: expert ≈ 1702?");
    await inLanguage("ru", () => assert.equal(levelLabel("imperial", 2, 3), "3: клубный игрок ≈ 1650"));
  } finally {
    setGames(FACTS);
  }
});
