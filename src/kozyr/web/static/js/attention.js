// Never miss your turn (#44 item 5). While the page is in the background, something that
// waits for the person (his turn; later a challenge or a rematch offer) marks the tab: a
// dot and words before its title, a dot on its icon, and a system notification if he
// asked for them. All of it is undone when the page is in view again.
//
// callAttention(kind, text): kind is "turn", "challenge" or "rematch"; text is the
// notification's body (the kind's own words when empty). Nothing happens while the page
// is in view. It makes no sound: the caller plays sound.js's play(), which is on or off
// by the person's own choice.
// clearAttention(kind): what was waiting is over (the turn passed while away): the tab
// shown as it was. Called with no kind, whatever waits.
//
// The permission for notifications is asked for only by setNotify(true), which must run
// inside a click (browsers refuse it otherwise, and a page that asks on load is rude).

import { onLangChange, t } from "./i18n.js";

const KEY = "kozyr.notify";
const WORDS = { turn: "attention_turn", challenge: "attention_challenge", rematch: "attention_rematch" };
export const KINDS = Object.keys(WORDS);

// favicon.svg with a red dot at its top right (a data: URL: the policy's img-src allows
// data:, and a picture of an SVG may not load another file).
const DOT_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="18" fill="#1f5d3a"/>' +
  '<path transform="translate(14 12) scale(.72)" fill="#fffdf8" d="M50 4 C44 14 8 38 6 60 C4 76 16 84 28 84 C38 84 44 79 47 73 C46 84 41 92 32 97 L68 97 C59 92 54 84 53 73 C56 79 62 84 72 84 C84 84 96 76 94 60 C92 38 56 14 50 4 Z"/>' +
  '<circle cx="78" cy="22" r="20" fill="#e0242b" stroke="#fffdf8" stroke-width="6"/></svg>';
export const DOT_ICON = `data:image/svg+xml,${encodeURIComponent(DOT_SVG)}`;

/** The words for `kind` ("Your turn"); an unknown kind is a programming error. */
export function attentionWords(kind) {
  const key = WORDS[kind];
  if (!key) throw new Error(`kozyr: no attention of kind ${kind}`);
  return t(key);
}

/** The tab's title while `kind` waits: "● Your turn — " before the page's own title. */
export function attentionTitle(kind, base) {
  return `● ${attentionWords(kind)} — ${base}`;
}

/** What the notifications' switch shows: "unsupported" (no Notification API: no switch),
 * "blocked" (the browser refuses this page), "on" (asked for and allowed) or "off". */
export function notifyShown(wanted, permission) {
  if (permission == null) return "unsupported";
  if (permission === "denied") return "blocked";
  return wanted && permission === "granted" ? "on" : "off";
}

function api() {
  return typeof Notification === "function" ? Notification : null;
}

function wanted() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* storage may be blocked: the choice lasts this page only */
  }
}

/** The switch's state now (notifyShown of the saved choice and the browser's permission). */
export function notifyState() {
  return notifyShown(wanted(), api()?.permission);
}

/** The person's click on the switch: off, or on after asking the browser if it has not
 * been asked. Resolves to the new notifyState(). */
export async function setNotify(on) {
  const N = api();
  if (!on || !N) {
    remember(false);
    return notifyState();
  }
  let permission = N.permission;
  if (permission === "default") {
    try {
      permission = await N.requestPermission();
    } catch {
      permission = "default"; // an old browser's callback form: taken as not asked
    }
  }
  remember(permission === "granted");
  return notifyState();
}

// What the tab showed before it was marked, while it is.
let waiting = null; // the kind marked
let base = null;
let baseIcon = null;
let notes = [];
let listening = false;

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) clearAttention();
  });
  onLangChange(() => {
    if (waiting) document.title = attentionTitle(waiting, base);
  });
}

function notify(kind, text) {
  const N = api();
  if (!N || !wanted() || N.permission !== "granted") return false;
  const title = attentionWords(kind);
  const how = { body: text || title, tag: `kozyr-${kind}`, icon: "favicon.svg" };
  try {
    const note = new N(title, how);
    note.onclick = () => {
      window.focus();
      note.close();
    };
    notes.push(note);
  } catch {
    // Android's Chrome allows notifications only from a service worker: its, if the page
    // has one.
    navigator.serviceWorker
      ?.getRegistration?.()
      .then((reg) => reg?.showNotification(title, how))
      .catch(() => {});
  }
  return true;
}

/** Marks the tab (and notifies, if allowed) while the page is in the background. Returns
 * whether it did: false while the page is in view. */
export function callAttention(kind, text = "") {
  attentionWords(kind); // an unknown kind fails here, in view or not
  if (!document.hidden) return false;
  listen();
  if (waiting == null) {
    base = document.title;
    baseIcon = iconLink()?.getAttribute("href") ?? null;
  }
  waiting = kind;
  document.title = attentionTitle(kind, base);
  iconLink()?.setAttribute("href", DOT_ICON);
  notify(kind, text);
  return true;
}

/** The tab shown as before `kind` (any kind, without one) was marked; its notifications
 * closed. */
export function clearAttention(kind) {
  if (waiting == null || (kind != null && kind !== waiting)) return;
  // A title the page set meanwhile is its own: kept.
  if (document.title === attentionTitle(waiting, base)) document.title = base;
  if (baseIcon != null) iconLink()?.setAttribute("href", baseIcon);
  for (const note of notes) note.close();
  notes = [];
  waiting = null;
}
