// How to play (#29): a game's rules for players, #/howto/<game> and
// #/howto/<game>/<section-or-term> (scrolled to that part). The text is the server's
// (GET /api/guide/<game>?lang=), rendered sections whose card pictures are placeholders
// (<div class="guide-cards" data-cards="KH QH | 7H">) drawn here with the page's own card
// faces. Open before signing in; the language switch draws the page again in the other
// language at the same section.

import { cardSvg, cardWords } from "../cards.js";
import { lang, onLangChange, t } from "../i18n.js";
import { addScreen, esc } from "../html.js";
import { allGames, gameTitle } from "../games/index.js";

const ROUTE = /^#\/howto\/([a-z]+)(?:\/([a-z][a-z0-9-]*))?\/?$/;

let ctx = null;
// What is on screen: {game, lang, data}; `seq` drops answers the reader has moved away from.
let shown = null;
let seq = 0;
const cache = new Map();

/** ctx: {show(name), leave(), api(method, path), errorText(e)}. */
export function setupHowto(context) {
  ctx = context;
  const s = addScreen("howto", "screen howto-screen");
  // A link to the part the address already names changes no address: scroll all the same.
  s.addEventListener("click", (e) => {
    const a = e.target.closest?.("a[href^='#/howto/']");
    if (!a || a.getAttribute("href") !== location.hash) return;
    const m = location.hash.match(ROUTE);
    if (m) scrollTo(m[2]);
  });
  onLangChange(() => {
    if (!shown || screen().hidden) return;
    // the same page in the other language, at the part its address names (as a reload
    // would: the switch is at the top of the page, so what was in view is gone by then)
    const m = location.hash.match(ROUTE);
    open(shown.game, m && m[1] === shown.game ? m[2] : undefined);
  });
}

function screen() {
  return document.getElementById("screen-howto");
}

/** Shows the how-to-play page for `hash` if it is one; false leaves it to the caller. */
export function routeHowto(hash) {
  const m = (hash || "").match(ROUTE);
  if (!m || !ctx) return false;
  open(m[1], m[2]);
  return true;
}

async function load(game, language) {
  const key = `${game}:${language}`;
  if (!cache.has(key)) {
    const request = ctx.api("GET", `/api/guide/${encodeURIComponent(game)}?lang=${language}`);
    cache.set(key, request);
    request.catch(() => cache.delete(key));
  }
  return cache.get(key);
}

async function open(game, target) {
  const language = lang();
  const root = screen();
  if (shown && shown.game === game && shown.lang === language && !root.hidden) {
    scrollTo(target);
    return;
  }
  ctx.leave();
  ctx.show("howto");
  const mine = ++seq;
  root.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  try {
    const data = await load(game, language);
    if (mine !== seq) return;
    shown = { game, lang: language, data };
    render(root, data);
    scrollTo(target);
  } catch (e) {
    if (mine !== seq) return;
    shown = null;
    root.innerHTML =
      `<div class="panel howto-error"><p class="form-error">${esc(ctx.errorText(e))}</p>` +
      `<p>${otherGames(null)}</p></div>`;
  }
}

function otherGames(game) {
  return allGames()
    .filter((g) => g.name !== game)
    .map((g) => `<a href="#/howto/${esc(g.name)}">${esc(t("howto_game", { game: gameTitle(g.name, lang()) }))}</a>`)
    .join(" · ");
}

function render(root, data) {
  const base = `#/howto/${esc(data.game)}`;
  const toc = data.sections
    .map((s) => `<li><a href="${base}/${esc(s.id)}">${esc(s.title)}</a></li>`)
    .join("");
  const sections = data.sections
    .map(
      (s) =>
        `<section class="howto-section" data-section="${esc(s.id)}" aria-labelledby="howto-h-${esc(s.id)}">` +
        `<h2 id="howto-h-${esc(s.id)}" tabindex="-1"><a class="howto-anchor" href="${base}/${esc(s.id)}">${esc(s.title)}</a></h2>` +
        `${s.html}<p class="howto-up"><a href="${base}/contents">${esc(t("howto_to_contents"))}</a></p></section>`,
    )
    .join("");
  root.innerHTML =
    `<article class="howto" lang="${esc(data.lang)}" data-game="${esc(data.game)}">` +
    `<p class="howto-links"><a href="#/learn">${esc(t("howto_lessons"))}</a> · ${otherGames(data.game)}</p>` +
    `<h1>${esc(data.title)}</h1>` +
    `<nav class="howto-toc panel" data-section="contents" aria-labelledby="howto-toc-head">` +
    `<h2 id="howto-toc-head" tabindex="-1">${esc(t("howto_contents"))}</h2><ol>${toc}</ol></nav>` +
    sections +
    `</article>`;
  drawPictures(root);
  // Terms are explained in the glossary: its headings are targets of the table's tips.
  for (const h of root.querySelectorAll("[data-anchor]")) h.tabIndex = -1;
}

/** Fills each picture's placeholder with card faces, a group at a time. */
function drawPictures(root) {
  const language = lang();
  for (const box of root.querySelectorAll(".guide-cards")) {
    const groups = (box.dataset.cards || "").split("|").map((g) => g.trim().split(/\s+/).filter(Boolean));
    const words = groups.map((g) => g.map((c) => cardWords(c, language)).join(", ")).join("; ");
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", words);
    box.innerHTML = groups
      .map(
        (g) =>
          `<span class="guide-group">${g.map((c) => `<span class="guide-card" data-card="${esc(c)}">${cardSvg(c, language)}</span>`).join("")}</span>`,
      )
      .join("");
  }
}

/** Scrolls to a section or a glossary term (the top of the page when there is none). */
function scrollTo(target) {
  const root = screen();
  for (const el of root.querySelectorAll(".howto-target")) el.classList.remove("howto-target");
  const el = target
    ? root.querySelector(`[data-section="${CSS.escape(target)}"]`) || root.querySelector(`[data-anchor="${CSS.escape(target)}"]`)
    : null;
  if (!el) {
    window.scrollTo(0, 0);
    return;
  }
  el.classList.add("howto-target");
  el.scrollIntoView({ block: "start" });
  const focus = el.matches("[data-anchor]") ? el : el.querySelector("h2");
  focus?.focus?.({ preventScroll: true });
}
