// What every screen of the page uses: looking elements up, errors in words, the toast,
// switching screens, seats' and games' names.

import { hasMessage, lang, t } from "./i18n.js";
import { ApiError } from "./net.js";
import { stakeTooHighText } from "./stakes.js";
import { gameTitle } from "./games/index.js";
import { store, update } from "./store.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** The server's own words for an error (HTTP body or WebSocket frame), in the page's language. */
export function serverMessage(body) {
  if (!body) return "";
  if (body.code === "stake_too_high" && stakeTooHighText(body)) return stakeTooHighText(body);
  if (lang() === "ru" && body.message_ru) return body.message_ru;
  return body.message || "";
}

/** Our words for an error the server did not explain (an old server, a proxy). */
export function codeText(code, status) {
  if (code && hasMessage(`err_${code}`)) return t(`err_${code}`);
  if (hasMessage(`err_http_${status}`)) return t(`err_http_${status}`);
  return t("error", { message: `HTTP ${status}` });
}

/** When one may try again, from Retry-After (seconds). */
function retryText(seconds) {
  if (seconds <= 90) return t("retry_in_s", { n: Math.max(1, seconds) });
  return t("retry_in_min", { n: Math.ceil(seconds / 60) });
}

export function errorText(e) {
  if (e instanceof ApiError) {
    if (e.code === "network") return t("err_network");
    let text = serverMessage(e.body) || codeText(e.code, e.status);
    if (e.retryAfter != null) text += ` ${retryText(e.retryAfter)}`;
    else if (e.status === 429) text += ` ${t("retry_later")}`;
    return text;
  }
  return t("error", { message: e?.message || String(e) });
}

/** Keeps buttons disabled while the server asks us to wait (429 with Retry-After). */
export function holdButtons(buttons, e) {
  if (!(e instanceof ApiError) || e.status !== 429) return;
  const seconds = e.retryAfter ?? 10;
  for (const b of buttons) b.disabled = true;
  setTimeout(() => {
    for (const b of buttons) b.disabled = false;
  }, seconds * 1000);
}

// The notice on screen (or on its way to its screen): {el, screen, handle}.
let notice = null;
const NOTICE_MS = 4000;

/** A notice for the player, which belongs to a screen: the one on screen now, or the one
 * the caller is sending him to (a table that is gone sends him to the lobby, where its
 * notice is then shown). It goes after 4 s, at a tap, or as soon as he goes to another
 * screen: it never follows him onto a page it says nothing about. A screen with a place
 * for notices in its own flow (the wallet's, .screen-notice) shows it there, where it
 * covers none of the screen's content; elsewhere it floats at the bottom of the window. */
export function toast(text, screen = store.screen) {
  hideToast();
  const slot = $(`#screen-${screen} .screen-notice`);
  notice = { el: slot || $(".toast"), screen, text, handle: null };
  if (screen === store.screen) showNotice();
  else notice.handle = setTimeout(hideToast, NOTICE_MS); // not shown if he never gets there
}

function showNotice() {
  const n = notice;
  clearTimeout(n.handle);
  n.el.textContent = n.text;
  n.el.hidden = false;
  if (n.el.classList.contains("screen-notice")) n.el.scrollIntoView({ block: "nearest" });
  n.handle = setTimeout(hideToast, NOTICE_MS);
}

export function hideToast() {
  if (!notice) return;
  clearTimeout(notice.handle);
  notice.el.hidden = true;
  notice.el.textContent = "";
  notice = null;
}

export function setupToasts() {
  for (const el of $$(".toast, .screen-notice")) el.addEventListener("click", hideToast);
}

export function show(name) {
  // A notice belongs to its screen: going elsewhere takes it away; one sent ahead to this
  // screen shows now.
  if (notice && notice.screen !== name) hideToast();
  for (const s of $$(".screen")) s.hidden = s.id !== `screen-${name}`;
  // Another screen starts at its top: the lobby's scroll (a phone scrolls down to the
  // create form) would otherwise land the player mid-way down the table's page.
  if (store.screen !== name) window.scrollTo(0, 0);
  update({ screen: name });
  if (notice && notice.el.hidden) showNotice();
  $(".nav-lobby").hidden = !store.user || name === "lobby";
}

export function seatName(info, s) {
  const seat = info?.seats?.[s];
  if (!seat) return t("seat_n", { n: s + 1 });
  if (seat.kind === "bot" || seat.level) return t("bot_name", { n: s + 1 });
  return seat.name || t("seat_n", { n: s + 1 });
}

export function gameName(game) {
  return gameTitle(game, lang());
}

export function newId() {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}
