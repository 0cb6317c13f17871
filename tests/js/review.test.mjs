// The review's progress line (issue 43, item 6): a review waiting in the server's queue
// shows its place there, in both languages; one whose place is unknown, or that runs,
// says what it did before.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

const { progressText } = await page("review.js");

test("a waiting review shows its place in the queue", async () => {
  const waiting = { status: "queued", place: 3, done: 0, total: 0 };
  assert.equal(progressText(waiting, 0, 0), "Waiting for a free reviewer: number 3 in line…");
  await inLanguage("ru", () => {
    assert.equal(progressText(waiting, 0, 0), "Ждём очереди на разбор: вы 3-й в очереди…");
  });
});

test("no place, or a running review, reads as before", () => {
  assert.equal(progressText({ status: "queued", place: null }, 0, 0), "Waiting for a free reviewer…");
  assert.equal(progressText({ status: "running", place: null }, 4, 10), "Reviewing: move 4 of 10");
});
