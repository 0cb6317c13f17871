// Learn to play (#29): the hub (#/learn) and a lesson (#/learn/<game>/<lesson-id>).
// Open to everyone, signed in or not. The hub shows per game the way to the how-to-play
// page, the lessons with the ones finished, puzzles, and a first game against a gentle
// bot with hints on. A lesson is played on the server's real engine, stateless: every
// step sends the moves accepted so far (POST /api/lessons/<game>/<id>/play). A wrong tap
// is explained and not played. A registered account's finished lessons are kept by the
// server; anyone else's in this browser (localStorage).

import { lang, onLangChange, t } from "../i18n.js";
import { api } from "../net.js";
import { addScreen, esc, suitColour } from "../html.js";
import { cardLabel } from "../cards.js";
import { allGames, gameOf, gameTitle } from "../games/index.js";
import { boardView, drawBoard, lessonSeatName, storyLines } from "../learn_board.js";

const KEY = "kozyr.lessons.done";
const FIRST_GAME_LEVEL = 1; // the gentlest bot ("beginner")

let ctx = null;
// What is on screen, drawn again from data already fetched when the language changes.
let current = null;
let seq = 0;

/** ctx: {show(name), leave(), user(), ensureUser() -> user (a guest if nobody), errorText(e)}. */
export function setupLearn(context) {
  ctx = context;
  addScreen("learn");
  renderEntryRules();
  onLangChange(() => {
    renderEntryRules();
    if (current && !root().hidden) current.render();
  });
}

/** The first screen's way to each game's rules in plain words, from the games the server has. */
function renderEntryRules() {
  const el = document.querySelector(".learn-entry-rules");
  if (!el) return;
  const links = allGames().map((g) => `<a href="#/howto/${esc(g.name)}">${esc(gameTitle(g.name, lang()))}</a>`);
  el.innerHTML = `<span>${esc(t("learn_entry_rules"))}</span>${links.join("")}`;
}

function root() {
  return document.getElementById("screen-learn");
}

/** Shows the page for `hash` if it is ours (#/learn...); false leaves it to app.js. */
export function routeLearn(hash) {
  if (hash === "#/learn" || hash === "#/learn/") {
    open(() => hub());
    return true;
  }
  const m = hash.match(/^#\/learn\/(\w+)\/([\w-]+)$/);
  if (m) {
    open(() => lesson(m[1], m[2]));
    return true;
  }
  return false;
}

function open(load) {
  ctx.leave();
  ctx.show("learn");
  current = null;
  const mine = ++seq;
  root().innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  load(mine).catch((e) => {
    if (mine !== seq) return;
    current = { render: () => (root().innerHTML = `<p class="panel form-error">${esc(ctx.errorText(e))}</p>`) };
    current.render();
  });
}

// ------------------------------------------------------------------ progress

function localDone() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function markLocal(game, id) {
  const data = localDone();
  const list = Array.isArray(data[game]) ? data[game] : [];
  if (!list.includes(id)) list.push(id);
  data[game] = list.slice(-64);
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    /* a full or refused storage: the lesson was still passed */
  }
}

/** The finished lessons: the server's for an account, else this browser's. */
function doneOf(game, listed) {
  if (Array.isArray(listed.done)) return new Set(listed.done);
  const local = localDone()[game];
  return new Set(Array.isArray(local) ? local : []);
}

// ------------------------------------------------------------------ the hub

async function hub() {
  const mine = seq;
  const games = allGames();
  const lists = await Promise.all(games.map((g) => api("GET", `/api/lessons/${g.name}`)));
  if (mine !== seq) return;
  const data = games.map((g, i) => ({ game: g.name, list: lists[i] }));
  current = { render: () => renderHub(data) };
  current.render();
}

function renderHub(data) {
  const words = (pair) => pair[lang()] || pair.en;
  const sections = data.map(({ game, list }) => {
    const done = doneOf(game, list);
    const items = list.lessons
      .map((l) => {
        const ok = done.has(l.id);
        return (
          `<li class="learn-item${ok ? " done" : ""}"><a href="#/learn/${esc(game)}/${esc(l.id)}">` +
          `<span class="learn-mark" aria-hidden="true">${ok ? "✓" : l.order}</span>` +
          `<span class="learn-item-title">${esc(words(l.title))}</span>` +
          (ok ? `<span class="learn-sr">${esc(t("learn_done_mark"))}</span>` : "") +
          `</a></li>`
        );
      })
      .join("");
    const count = list.lessons.filter((l) => done.has(l.id)).length;
    return (
      `<section class="panel learn-game" data-game="${esc(game)}">` +
      `<h2>${esc(gameTitle(game, lang()))}</h2>` +
      `<p class="muted">${esc(t(`game_${game}_about`))}</p>` +
      `<a class="btn learn-howto" href="#/howto/${esc(game)}">${esc(t("learn_howto"))}</a>` +
      `<h3>${esc(t("learn_lessons"))} <span class="muted learn-count">${esc(t("learn_count", { n: count, of: list.lessons.length }))}</span></h3>` +
      `<ol class="learn-list">${items}</ol>` +
      `<div class="learn-after">` +
      `<button type="button" class="btn primary learn-first-game" data-game="${esc(game)}">${esc(t("learn_first_game"))}</button>` +
      `<a class="btn learn-puzzles" href="#/puzzles">${esc(t("learn_puzzles"))}</a></div>` +
      `<p class="muted learn-first-about">${esc(t("learn_first_game_about"))}</p>` +
      `<p class="form-error learn-error" role="alert"></p>` +
      `</section>`
    );
  });
  const user = ctx.user();
  const keep = !user || user.guest ? t("learn_kept_here") : t("learn_kept_account");
  root().innerHTML =
    `<div class="learn-hub"><h1>${esc(t("learn_title"))}</h1><p class="learn-lead">${esc(t("learn_lead"))}</p>` +
    `<p class="muted">${esc(keep)}</p><div class="learn-games">${sections.join("")}</div></div>`;
  for (const b of root().querySelectorAll(".learn-first-game")) {
    b.addEventListener("click", () => firstGame(b.dataset.game, b));
  }
}

/** A casual table against the gentlest bots, hints allowed, no clock: the first game. */
async function firstGame(game, button) {
  const error = button.closest(".learn-game").querySelector(".learn-error");
  error.textContent = "";
  button.disabled = true;
  try {
    await ctx.ensureUser();
    const g = gameOf(game);
    const players = g.default_players;
    const r = await api("POST", "/api/tables", {
      game,
      players,
      options: { ...(g.first_game || {}) }, // the game's own rules, a shorter game (the spec's)
      bots: Array(players - 1).fill(FIRST_GAME_LEVEL),
      hints: true,
      turn_timeout: null,
      rated: false,
    });
    location.hash = `#/table/${r.table.id}`;
  } catch (e) {
    error.textContent = ctx.errorText(e);
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ a lesson

async function lesson(game, id) {
  const mine = seq;
  gameOf(game); // an unknown game: the error shows
  const [list, first] = await Promise.all([
    api("GET", `/api/lessons/${game}`),
    api("POST", `/api/lessons/${game}/${id}/play`, { moves: [] }),
  ]);
  if (mine !== seq) return;
  const index = list.lessons.findIndex((l) => l.id === id);
  const run = {
    game,
    id,
    info: list.lessons[index],
    next: list.lessons[index + 1] || null,
    total: list.lessons.length,
    order: index + 1,
    state: first,
    // the words on screen now: [{kind: "say"|"wrong"|"move"|"passed", text: {en, ru} | fn}]
    words: introWords(first),
    busy: false,
    missed: 0,
  };
  current = { render: () => renderLesson(run) };
  current.render();
}

/** The scripted moves before the learner's first turn, with their words. */
function introWords(state) {
  return state.played.map((p) => ({ kind: "move", seat: p.seat, move: p.move, say: p.say }));
}

function pick(pair) {
  return pair ? pair[lang()] || pair.en : "";
}

function moveLine(run, w) {
  const name = lessonSeatName(w.seat, run.state.learner, run.state.names);
  const isCard = /^(10|[2-9JQKA])[SHDC]$/.test(w.move);
  // the lesson's words tell the move where it has them; else the move itself
  if (w.say) return pick(w.say);
  return isCard ? t("played_by", { name, card: cardLabel(w.move, lang()) }) : "";
}

function wordsHtml(run) {
  return run.words
    .map((w) => {
      let text;
      if (w.kind === "move") text = moveLine(run, w);
      else text = pick(w.say);
      if (!text) return "";
      return `<li class="learn-say ${w.kind}">${suitColour(esc(text))}</li>`;
    })
    .join("");
}

function askHtml(run) {
  const p = run.state.prompt;
  if (p.kind === "done") {
    const next = run.next
      ? `<a class="btn primary learn-next" href="#/learn/${esc(run.game)}/${esc(run.next.id)}">${esc(t("learn_next"))}</a>`
      : `<button type="button" class="btn primary learn-first-game" data-game="${esc(run.game)}">${esc(t("learn_first_game"))}</button>`;
    return (
      `<div class="learn-ask passed"><p class="learn-passed">${esc(t("learn_passed"))}</p>` +
      `<div class="learn-after">${next}<a class="btn" href="#/learn">${esc(t("learn_back"))}</a></div>` +
      `<p class="form-error learn-error" role="alert"></p></div>`
    );
  }
  if (p.kind === "question") {
    const choices = p.choices
      .map((c, i) => `<button type="button" class="btn learn-choice" data-answer="${i}">${suitColour(esc(pick(c)))}</button>`)
      .join("");
    return `<div class="learn-ask question"><p class="learn-q"><span class="learn-check">${esc(t("learn_check"))}</span> ${suitColour(esc(pick(p.question)))}</p><div class="learn-choices">${choices}</div></div>`;
  }
  const view = boardView(run.game, run.state.view, run.state.learner, false, run.state.names);
  const key = view.model.phase === "play" ? "learn_your_card" : "learn_your_decision";
  const q = p.check ? `<span class="learn-check">${esc(t("learn_check"))}</span> ${suitColour(esc(pick(p.question)))}` : esc(t(key));
  return `<div class="learn-ask move"><p class="learn-q">${q}</p></div>`;
}

function renderLesson(run) {
  const narrow = window.matchMedia("(max-width: 600px)").matches;
  const view = boardView(run.game, run.state.view, run.state.learner, narrow, run.state.names);
  const asked = run.state.prompt.kind === "move" && !run.busy;
  const story = storyLines(view)
    .map(({ kind, text }) => `<li class="ev ev-${kind}">${suitColour(esc(text)).replace(/\n/g, "<br>")}</li>`)
    .join("");
  const el = root();
  const keepStory = el.querySelector(".learn-story")?.open;
  el.innerHTML =
    `<div class="learn-lesson" data-game="${esc(run.game)}" data-lesson="${esc(run.id)}"` +
    ` data-moves="${run.state.moves.length}${run.state.done ? "-done" : ""}">` +
    `<nav class="learn-crumbs"><a href="#/learn">${esc(t("learn_title"))}</a> › ${esc(gameTitle(run.game, lang()))} · ` +
    `${esc(t("learn_lesson_n", { n: run.order, of: run.total }))}</nav>` +
    `<h1>${esc(pick(run.info?.title))}</h1>` +
    `<details class="learn-intro"${run.state.moves.length ? "" : " open"}><summary>${esc(t("learn_intro"))}</summary><p>${suitColour(esc(pick(run.info?.intro)))}</p></details>` +
    `<ol class="learn-words" aria-live="polite">${wordsHtml(run)}</ol>` +
    askHtml(run) +
    `<div class="learn-board"></div>` +
    `<details class="learn-story"${keepStory ? " open" : ""}><summary>${esc(t("learn_story"))}</summary><ol class="feed">${story}</ol></details>` +
    `</div>`;
  drawBoard(el.querySelector(".learn-board"), view, { asked, onAction: (move) => step(run, { move }) });
  for (const b of el.querySelectorAll(".learn-choice")) {
    b.addEventListener("click", () => step(run, { answer: Number(b.dataset.answer) }));
  }
  for (const b of el.querySelectorAll(".learn-first-game")) {
    b.addEventListener("click", () => firstGame(b.dataset.game, b));
  }
}

/** One try: a move or an answer, sent with the moves accepted so far. */
async function step(run, tried) {
  if (run.busy) return;
  run.busy = true;
  const mine = seq;
  try {
    const r = await api("POST", `/api/lessons/${run.game}/${run.id}/play`, { moves: run.state.moves, ...tried });
    if (mine !== seq) return;
    if (!r.accepted) {
      // what happened stays; the reason for the refusal comes last, in place of an older one
      run.words = [...run.words.filter((w) => w.kind !== "wrong"), { kind: "wrong", say: r.say }];
    } else {
      run.state = r;
      const then = r.then.map((p) => ({ kind: "move", seat: p.seat, move: p.move, say: p.say }));
      run.words = [{ kind: r.done ? "passed" : "say", say: r.say }, ...then];
      if (r.done) markLocal(run.game, run.id);
    }
  } catch (e) {
    if (mine !== seq) return;
    run.words = [{ kind: "wrong", say: { en: ctx.errorText(e), ru: ctx.errorText(e) } }];
  } finally {
    run.busy = false;
  }
  renderLesson(run);
  root().querySelector(".learn-words")?.scrollIntoView({ block: "nearest" });
}
