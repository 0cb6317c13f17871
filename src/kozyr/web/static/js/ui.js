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

let toastHandle = null;
export function toast(text) {
  const el = $(".toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastHandle);
  toastHandle = setTimeout(() => (el.hidden = true), 4000);
}

export function show(name) {
  for (const s of $$(".screen")) s.hidden = s.id !== `screen-${name}`;
  // Another screen starts at its top: the lobby's scroll (a phone scrolls down to the
  // create form) would otherwise land the player mid-way down the table's page.
  if (store.screen !== name) window.scrollTo(0, 0);
  update({ screen: name });
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
