// The page's one store (store.js): read-only from outside, changed by explicit updates.
import assert from "node:assert/strict";
import { test } from "node:test";
import { page } from "./setup.mjs";

globalThis.window ??= {};
const { change, store, update } = await page("store.js");

test("the state is read through the store and changed only by update()", () => {
  assert.equal(store.user, null);
  assert.equal(store.lobbyWant, 50);
  update({ user: { name: "ann" }, lobbyWant: 100 });
  assert.deepEqual(store.user, { name: "ann" });
  assert.equal(store.lobbyWant, 100);
  assert.throws(() => {
    store.user = null;
  }, /through update\(\)/);
  assert.throws(() => delete store.user, /through update\(\)/);
  assert.throws(() => update({ colour: "red" }), /no such part/);
  update({ user: null, lobbyWant: 50 });
});

test("a record of the state changes through change()", () => {
  update({ table: { id: "t1", seq: 3, events: [] } });
  const table = store.table;
  change(table, { seq: 4, events: [{ type: "deal" }] });
  assert.equal(store.table.seq, 4);
  assert.equal(store.table, table);
  update({ table: null });
});

test("the browser tests and the console see the same state", () => {
  assert.equal(window.kozyr, store);
});
