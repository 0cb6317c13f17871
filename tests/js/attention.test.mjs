// Never miss your turn (#44 item 5, attention.js): the tab's title for each kind in both
// languages, the notifications' switch, and the tab marked and restored with a stand-in
// for the browser's document and Notification.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inLanguage, page } from "./setup.mjs";

// A document with a title, an icon link and visibility; storage; notifications.
const listeners = [];
const icon = {
  href: "favicon.svg",
  getAttribute: () => icon.href,
  setAttribute: (_name, value) => (icon.href = value),
};
Object.assign(globalThis.document, {
  title: "kozyr — Imperial · Emperor",
  hidden: false,
  querySelector: (sel) => (sel === 'link[rel="icon"]' ? icon : null),
  addEventListener: (type, fn) => type === "visibilitychange" && listeners.push(fn),
});
const saved = new Map();
globalThis.localStorage = {
  getItem: (k) => saved.get(k) ?? null,
  setItem: (k, v) => saved.set(k, String(v)),
};
const shown = [];
class FakeNotification {
  static permission = "default";
  static asked = 0;
  static answer = "granted";
  static async requestPermission() {
    FakeNotification.asked += 1;
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.answer;
  }
  constructor(title, how) {
    this.title = title;
    this.how = how;
    this.closed = false;
    shown.push(this);
  }
  close() {
    this.closed = true;
  }
}
globalThis.Notification = FakeNotification;
globalThis.window ??= {};

const { attentionTitle, callAttention, clearAttention, DOT_ICON, KINDS, notifyShown, notifyState, setNotify } =
  await page("attention.js");

function visible(yes) {
  document.hidden = !yes;
  for (const fn of listeners) fn();
}

test("the tab's title names what waits, before the page's own title, in both languages", async () => {
  assert.deepEqual(KINDS, ["turn", "challenge", "rematch"]);
  assert.equal(attentionTitle("turn", "kozyr"), "● Your turn — kozyr");
  assert.equal(attentionTitle("challenge", "kozyr"), "● You are challenged — kozyr");
  assert.equal(attentionTitle("rematch", "kozyr"), "● Play again? — kozyr");
  await inLanguage("ru", () => {
    assert.equal(attentionTitle("turn", "kozyr"), "● Ваш ход — kozyr");
    assert.equal(attentionTitle("challenge", "kozyr"), "● Вас вызывают на игру — kozyr");
    assert.equal(attentionTitle("rematch", "kozyr"), "● Сыграть ещё? — kozyr");
  });
  assert.throws(() => attentionTitle("lunch", "kozyr"), /no attention of kind lunch/);
  assert.throws(() => callAttention("lunch"), /no attention of kind lunch/);
});

test("the switch is on only when asked for and allowed; blocked whatever was asked", () => {
  assert.equal(notifyShown(true, "granted"), "on");
  assert.equal(notifyShown(false, "granted"), "off");
  assert.equal(notifyShown(true, "default"), "off");
  assert.equal(notifyShown(false, "default"), "off");
  assert.equal(notifyShown(true, "denied"), "blocked");
  assert.equal(notifyShown(false, "denied"), "blocked");
  assert.equal(notifyShown(true, undefined), "unsupported");
});

test("the dotted icon is an SVG picture in a data: URL, which the page's policy allows", () => {
  assert.ok(DOT_ICON.startsWith("data:image/svg+xml,"));
  const svg = decodeURIComponent(DOT_ICON.slice("data:image/svg+xml,".length));
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg".*<circle [^>]*\/><\/svg>$/);
});

test("in view nothing changes; in the background the tab is marked and notifies once allowed", async () => {
  // Nobody has asked: no question to the browser until the switch is pressed.
  assert.equal(notifyState(), "off");
  assert.equal(FakeNotification.asked, 0);

  visible(true);
  assert.equal(callAttention("turn", "Your move at the Imperial table."), false);
  assert.equal(document.title, "kozyr — Imperial · Emperor");
  assert.equal(icon.href, "favicon.svg");

  visible(false);
  assert.equal(callAttention("turn", "Your move at the Imperial table."), true);
  assert.equal(document.title, "● Your turn — kozyr — Imperial · Emperor");
  assert.equal(icon.href, DOT_ICON);
  assert.equal(shown.length, 0); // notifications not asked for
  visible(true);
  assert.equal(document.title, "kozyr — Imperial · Emperor");
  assert.equal(icon.href, "favicon.svg");

  // The switch: the browser asked once, then notifications shown in the background only.
  assert.equal(await setNotify(true), "on");
  assert.equal(FakeNotification.asked, 1);
  assert.equal(saved.get("kozyr.notify"), "on");
  assert.equal(callAttention("turn", "Your move at the Imperial table."), false);
  assert.equal(shown.length, 0);
  visible(false);
  callAttention("turn", "Your move at the Imperial table.");
  assert.equal(shown.length, 1);
  assert.equal(shown[0].title, "Your turn");
  assert.equal(shown[0].how.body, "Your move at the Imperial table.");
  assert.equal(shown[0].how.tag, "kozyr-turn");
  // A challenge arriving meanwhile takes the title; the turn passing does not undo it.
  callAttention("challenge", "");
  assert.equal(document.title, "● You are challenged — kozyr — Imperial · Emperor");
  assert.equal(shown[1].how.body, "You are challenged"); // its own words without a text
  clearAttention("turn");
  assert.equal(document.title, "● You are challenged — kozyr — Imperial · Emperor");
  clearAttention("challenge");
  assert.equal(document.title, "kozyr — Imperial · Emperor");
  assert.equal(icon.href, "favicon.svg");
  assert.ok(shown.every((n) => n.closed));

  // Switched off: no more notifications; asked again later: no second question.
  assert.equal(await setNotify(false), "off");
  callAttention("turn", "x");
  assert.equal(shown.length, 2);
  assert.equal(await setNotify(true), "on");
  assert.equal(FakeNotification.asked, 1);
  visible(true);
  assert.equal(document.title, "kozyr — Imperial · Emperor");
});

test("a browser that refuses leaves the switch blocked and off", async () => {
  FakeNotification.permission = "default";
  FakeNotification.answer = "denied";
  assert.equal(await setNotify(true), "blocked");
  assert.equal(saved.get("kozyr.notify"), "off");
  const before = shown.length;
  visible(false);
  callAttention("turn", "x");
  assert.equal(shown.length, before);
  assert.equal(document.title, "● Your turn — kozyr — Imperial · Emperor"); // the tab still says so
  visible(true);
});
