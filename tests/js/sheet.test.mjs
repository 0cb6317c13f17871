// The score sheet and the end-of-deal summary built from public events (scoresheet.js,
// summary.js and each game's module): the rows' numbers and the HTML's cells.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

const { dealRecords, pointsOf, sheetHtml } = await page("scoresheet.js");
const { endedDeal, summaryHtml, watchedDeal } = await page("summary.js");

// Imperial, two players: deal 1 ends with seat 0 marking an imperial; deal 2 is cut short
// by the game's end.
const IMPERIAL = [
  { type: "deal", number: 1, dealer: 1, trump: "H" },
  { type: "score", seat: 0, reason: "imperials", points: 4, total: 4 },
  { type: "trick", winner: 0 },
  { type: "score", seat: 0, reason: "point", points: 2, total: 6 },
  { type: "trick", winner: 1 },
  { type: "score", seat: 1, reason: "tricks", points: 3, total: 3 },
  { type: "mark", seat: 0, imperials: 1, reason: "imperials", total: 1, loose: 0 },
  { type: "capture", seat: 1, card: "AS" },
  { type: "deal_end", tricks: [7, 5] },
  { type: "deal", number: 2, dealer: 0, trump: "S" },
  { type: "mark", seat: 1, imperials: 2, reason: "imperial tombé", total: 2 },
  { type: "game_over", winner: 1, imperials: [1, 2], stakes: [-1, 1] },
];

// Emperor, three players: round 1 without titles, round 2 with a bargain of 2 tricks.
const EMPEROR = [
  { type: "deal", number: 1, trump: "D" },
  { type: "trick", winner: 2 },
  { type: "score", seat: 2, total: 1 },
  { type: "deal_end", tricks: [3, 4, 5], totals: [3, 4, 5], titles: ["jester", "prince", "king"] },
  { type: "deal", number: 2, titles: ["jester", "prince", "king"] },
  { type: "trump", trump: "NT" },
  { type: "swap", happened: true, taker: 2, target: 0 },
  { type: "accept", seat: 1, target: 0, tricks: 2 },
  { type: "deal_end", tricks: [2, 6, 4], totals: [5, 12, 9], titles: ["jester", "king", "prince"] },
];

test("Imperial rows: points by reason, marks, loose points and imperials after each deal", () => {
  const [first, second] = dealRecords("imperial", IMPERIAL, 2);
  assert.equal(first.complete, true);
  assert.deepEqual(first.points[0], { imperials: 4, point: 2 });
  assert.equal(pointsOf(first, 0), 6);
  assert.deepEqual(first.tricks, [7, 5]);
  assert.deepEqual(first.marked, [1, 0]);
  assert.deepEqual(first.loose, [0, 3]);
  assert.deepEqual(first.imperials, [1, 0]);
  assert.deepEqual(first.captures, [{ seat: 1, card: "AS" }]);
  assert.equal(second.complete, false);
  assert.deepEqual(second.imperials, [1, 2]);
  assert.deepEqual(second.markReasons[1], { "imperial tombé": 2 });
  assert.deepEqual(first.titlesBefore, [null, null]); // Imperial has no titles
});

test("Emperor rows: totals, titles before and after, bargains and exchanges", () => {
  const [first, second] = dealRecords("emperor", EMPEROR, 3);
  assert.deepEqual(first.totals, [3, 4, 5]);
  assert.deepEqual(first.titlesBefore, [null, null, null]);
  assert.deepEqual(second.titlesBefore, ["jester", "prince", "king"]);
  assert.deepEqual(second.titlesAfter, ["jester", "king", "prince"]);
  assert.equal(second.trump, "NT");
  assert.deepEqual(second.transfers, [-2, 2, 0]);
  assert.deepEqual(second.bargains, [{ taker: 1, target: 0, tricks: 2 }]);
  assert.deepEqual(second.swaps, [{ taker: 2, target: 0 }]);
  assert.deepEqual(second.totals, [5, 12, 9]);
});

test("the sheet's HTML: a row per deal or round, a cell per seat", async () => {
  const html = sheetHtml("imperial", IMPERIAL, ["Ann", "Bob"]);
  assert.match(html, /<th scope="col">Deal<\/th><th scope="col">Ann<\/th><th scope="col">Bob<\/th>/);
  assert.match(html, /<td data-seat="0" data-imperials="1" data-loose="0" data-tricks="7">/);
  assert.match(html, /<span class="gain">\(\+1\)<\/span>/);
  assert.match(html, /<tr data-number="2"><th scope="row" title="[^"]+">2…<\/th>/);
  const round = sheetHtml("emperor", EMPEROR, ["Ann", "Bob", "Cy"], ["A", "B", "C"]);
  assert.match(round, /<th scope="col">Round<\/th><th scope="col" title="Ann">A<\/th>/);
  assert.match(round, /<td data-seat="0" data-tricks="2" data-transfer="-2" data-total="5">2 <span class="gain">/);
  assert.match(round, /−2/);
  await inLanguage("ru", () => {
    const ru = sheetHtml("emperor", EMPEROR, ["Аня", "Боря", "Сева"]);
    assert.match(ru, /lang="ru"/);
    assert.match(ru, /<th scope="col">Тур<\/th>/);
    assert.match(ru, /Король/);
  });
  assert.match(sheetHtml("emperor", [], ["Ann", "Bob", "Cy"]), /<p class="muted">/);
});

test("the summary of the deal or round that just ended", () => {
  const deal = endedDeal("imperial", IMPERIAL, 2);
  assert.equal(deal.number, 1);
  const html = summaryHtml("imperial", deal, ["Ann", "Bob"]);
  assert.match(html, /<h2 class="summary-title">Deal 1 is over<\/h2>/);
  assert.match(html, /data-field="points:imperials" data-value="4">\+4</);
  assert.match(html, /data-field="marked" data-value="1">\+1 /);
  assert.match(html, /data-field="standing" data-value="1\/0"/);
  assert.ok(html.indexOf("points:imperials") < html.indexOf("points:point"), "reasons in the order they happen");
  const round = summaryHtml("emperor", endedDeal("emperor", EMPEROR, 3, 2), ["Ann", "Bob", "Cy"]);
  assert.match(round, /Round 2 is over/);
  assert.match(round, /data-field="transfer" data-value="-2">−2</);
  assert.match(round, /data-field="title" data-value="king">Prince → <b>King<\/b>/);
  assert.match(round, /data-trump="NT"/);
  assert.equal(endedDeal("emperor", EMPEROR, 3, 7), null);
  // The columns may be named otherwise than the players in the notes ("You", short names).
  const headed = summaryHtml("emperor", endedDeal("emperor", EMPEROR, 3, 2), ["Ann", "Bob", "Cy"], ["You", "Bob", "Cy"]);
  // each kept whole on one line ("Computer 3" never breaks)
  const whole = (name) => `<th scope="col"><span class="name-whole">${name}</span></th>`;
  assert.ok(headed.includes(whole("You") + whole("Bob")), headed);
  assert.ok(!headed.includes(whole("Ann")), headed);
});

test("a summary sums up only a deal one watched: from its start, or a whole trick of it", () => {
  const trick = (n) => [{ type: "play" }, { type: "play" }, { type: "trick", number: n }];
  const events = [{ type: "deal", number: 1 }, ...trick(1), ...trick(2), ...trick(3), { type: "deal_end", number: 1 }, { type: "deal", number: 2 }];
  const end = events.findIndex((e) => e.type === "deal_end");
  assert.equal(watchedDeal(events, end, 0), true); // from the start of the game
  assert.equal(watchedDeal(events, end, 1), true); // its first trick whole, and two more
  assert.equal(watchedDeal(events, end, 2), true); // the first half seen, then two whole tricks
  assert.equal(watchedDeal(events, end, 5), true); // trick 2 half seen, trick 3 whole
  assert.equal(watchedDeal(events, end, 7), false); // only the end of trick 3: arrived at the end
  assert.equal(watchedDeal(events, end, end), false); // arrived as it ended
  // A deal of no tricks at all (a white imperial) is watched only from its start.
  const white = [{ type: "deal", number: 1 }, { type: "deal_end", number: 1 }];
  assert.equal(watchedDeal(white, 1, 0), true);
  assert.equal(watchedDeal(white, 1, 1), false);
});
