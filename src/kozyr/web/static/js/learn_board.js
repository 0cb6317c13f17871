// The position of a lesson (#29), drawn small: the trump, the turned-up card, the other
// seats (cards left, tricks, titles, the game's own standing), the trick on the table (or
// the trick just taken), the scores, a decision's buttons and the learner's hand as cards
// to tap. Drawn from the learner's observation alone, with the table's own pieces: the
// card faces (cards.js), the model of table.js, and each game's module (games/) for what
// differs: seat standings, score rows, decisions and narration.

import { backSvg, cardLabel, cardSvg, cardWords, miniSvg, sortHand, suitIcon } from "./cards.js";
import { lang, t } from "./i18n.js";
import { narrateAll, titleWord, trumpWords } from "./narrate.js";
import { gameOf } from "./games/index.js";
import { esc, suitColour } from "./html.js";
import { tableModel } from "./table.js";

/**
 * A seat's name in a lesson: "You", or the name the lesson's words give it (`names`, the
 * server's: {en, ru, cases}); a Russian name carries its cases for the sentences that
 * decline it ("у Бориса").
 */
export function lessonSeatName(seat, learner, names) {
  if (seat === learner) return t("you");
  const given = names?.[seat];
  if (!given) return t("learn_seat", { n: seat + 1 });
  if (lang() !== "ru") return given.en;
  const name = new String(given.ru); // eslint-disable-line no-new-wrappers
  name.cases = given.cases || {};
  return name;
}

/**
 * What the game modules ask of a table view (model, frame, names), for one observation.
 * `narrow`: a phone's width (short names in decisions).
 */
export function boardView(game, obs, learner, narrow = false, given = null) {
  const model = tableModel(game, obs);
  const names = [...Array(model.n).keys()].map((s) => lessonSeatName(s, learner, given));
  return {
    model,
    frame: { game, obs, mySeat: learner, seats: names.map((name) => ({ name })) },
    names: () => names,
    plainName: (s) => names[s],
    shortNames: () => names,
    scoreName: (s) => `<span class="score-name">${esc(names[s])}</span>`,
    extras: { narrowNames: () => (narrow ? names : null) },
  };
}

/** The trick on the table, or (none on it) the last one taken with who took it. */
function trickHtml(view) {
  const m = view.model;
  let cards = m.trick;
  let note = "";
  if (!cards.length) {
    const last = [...m.events].reverse().find((e) => e.type === "trick" || e.type === "deal");
    if (last?.type === "trick") {
      cards = last.cards.map(([seat, card]) => ({ seat, card }));
      note = last.winner === view.frame.mySeat ? t("learn_you_take") : t("takes_trick", { name: view.plainName(last.winner) });
    }
  }
  if (!cards.length) return `<p class="lb-empty muted">${esc(t("learn_no_trick"))}</p>`;
  const items = cards
    .map(
      ({ seat, card }) =>
        `<li class="lb-trick-card" data-card="${esc(card)}" data-seat="${seat}"` +
        ` aria-label="${esc(t("played_by", { name: view.plainName(seat), card: cardLabel(card, lang()) }))}">` +
        `${cardSvg(card, lang())}<span class="lb-who">${esc(view.plainName(seat))}</span></li>`,
    )
    .join("");
  return `<ol class="lb-trick-cards${note ? " taken" : ""}">${items}</ol>` + (note ? `<p class="lb-note">${esc(note)}</p>` : "");
}

/** Where a seat sits from the learner (the lessons say "the player on your left"). */
function placeHtml(view, s) {
  const n = view.model.n;
  const me = view.frame.mySeat;
  if (me == null) return "";
  const d = (s - me + n) % n;
  const key = n === 2 ? "learn_opponent" : d === 1 ? "learn_left" : d === n - 1 ? "learn_right" : "learn_across";
  return ` <span class="lb-place">${esc(t(key))}</span>`;
}

function seatHtml(view, s) {
  const m = view.model;
  const g = gameOf(m.game);
  const badges = [];
  if (g.panels.includes("titles") && m.titles?.[s]) {
    badges.push(`<span class="pill title t-${m.titles[s]}">${esc(titleWord(m.titles[s]))}</span>`);
  }
  if (g.panels.includes("dealer") && m.dealer === s) badges.push(`<span class="pill dealer">${esc(t("dealer"))}</span>`);
  const count = m.handSizes?.[s] ?? 0;
  const shown = sortHand(m.shown?.[s] || [], m.trump, g.rank_order);
  const shownHtml = shown.length
    ? `<div class="lb-shown"><span class="shown-label">${esc(g.shownLabel())}:</span> ` +
      shown.map((c) => `<span class="chip">${suitColour(esc(cardLabel(c, lang())))}</span>`).join(" ") +
      `</div>`
    : "";
  return (
    `<div class="lb-seat${m.toAct === s && !m.over ? " turn" : ""}" data-seat="${s}">` +
    `<div class="lb-seat-head"><b>${esc(view.plainName(s))}</b>${placeHtml(view, s)}${badges.join("")}</div>` +
    `<div class="lb-seat-meta seat-meta"><span class="lb-backs" aria-hidden="true">${`<span class="mini back">${backSvg()}</span>`.repeat(Math.min(count, 3))}</span>` +
    `<span>${esc(t("cards_n", { n: count }))}</span><span>${esc(t("tricks"))}: <b>${m.tricks?.[s] ?? 0}</b></span>` +
    `${g.seatMeta(view.frame.obs, m, s)}</div>${shownHtml}</div>`
  );
}

function trumpHtml(view) {
  const m = view.model;
  const g = gameOf(m.game);
  let badge;
  if (m.trump === "NT") badge = `<span class="trump-badge nt">${esc(t("no_trumps"))}</span>`;
  else if (m.trump) badge = `<span class="trump-badge" data-suit="${m.trump}">${suitIcon(m.trump, 20)}<span>${esc(trumpWords(m.trump))}</span></span>`;
  else badge = `<span class="trump-badge none">${esc(t("trump_unnamed"))}</span>`;
  let card = "";
  const shown = g.panels.includes("turnup") && m.turnup ? [m.turnup, "turnup"] : m.trumpCard ? [m.trumpCard, "trump_card"] : null;
  if (shown) {
    card =
      `<figure class="lb-turnup"><span class="mini" role="img" aria-label="${esc(cardWords(shown[0], lang()))}">${miniSvg(shown[0], lang())}</span>` +
      `<figcaption>${esc(t(shown[1]))}</figcaption></figure>`;
  }
  return `<div class="lb-trump"><span class="label">${esc(t("trump"))}:</span> ${badge}${m.header ? ` <span class="muted">· ${esc(m.header)}</span>` : ""}</div>${card}`;
}

function scoresHtml(view) {
  const g = gameOf(view.model.game);
  return (
    `<table class="scores lb-scores"><thead><tr><th scope="col">${esc(t("player"))}</th>` +
    g.score_columns.map((key) => `<th scope="col">${esc(t(key))}</th>`).join("") +
    `</tr></thead><tbody>${g.scoreRows(view).join("")}</tbody></table>`
  );
}

/** The decision's buttons (a choice that is not a card), from the game's module. */
function decisionHtml(view, asked) {
  const m = view.model;
  const g = gameOf(m.game);
  if (!asked || m.phase === "play" || !m.choices.length || !g.decision_kinds.length) return "";
  const d = g.decision(view);
  if (!d) return "";
  const buttons = d.buttons
    .map(([a, label, cls, icon, words]) => {
      const said = words ? ` aria-label="${esc(words)}" title="${esc(words)}"` : "";
      return `<button type="button" class="btn ${cls}" data-action="${esc(a)}"${said}>${icon || ""}<span>${esc(label)}</span></button>`;
    })
    .join("");
  return `<div class="lb-decision"><h3>${esc(d.title)}</h3><p>${esc(d.text)}</p><div class="decision-buttons">${buttons}</div></div>`;
}

function handHtml(view, asked) {
  const m = view.model;
  const sorted = sortHand(m.hand, m.trump, gameOf(m.game).rank_order);
  const play = asked && m.phase === "play";
  const cards = sorted
    .map(
      (c) =>
        `<button type="button" class="lb-card${play ? " playable" : ""}" data-card="${esc(c)}" aria-label="${esc(cardWords(c, lang()))}"${play ? "" : " disabled"}>${cardSvg(c, lang())}</button>`,
    )
    .join("");
  return `<h3 class="lb-hand-head">${esc(t("your_hand"))}</h3><div class="lb-hand" role="group" aria-label="${esc(t("your_hand"))}">${cards}</div>`;
}

/** The game so far in words: the game module's narration of the public events. */
export function storyLines(view) {
  const g = gameOf(view.model.game);
  return narrateAll(g.narrate, view.model.events, view.names());
}

/**
 * Draws the position into `root`. `asked`: the learner may act now (a card, or a
 * decision's button). Taps call onAction(move).
 */
export function drawBoard(root, view, { asked, onAction }) {
  const m = view.model;
  // the others in the order of play from the learner's left
  const me = view.frame.mySeat;
  const others = [...Array(m.n).keys()].filter((s) => s !== me).sort((a, b) => ((a - me + m.n) % m.n) - ((b - me + m.n) % m.n));
  root.innerHTML =
    `<div class="lb" data-game="${esc(m.game)}" data-players="${m.n}">` +
    `<div class="lb-bar">${trumpHtml(view)}</div>` +
    `<div class="lb-seats">${others.map((s) => seatHtml(view, s)).join("")}</div>` +
    `<div class="lb-felt"><div class="lb-trick" role="region" aria-label="${esc(t("trick"))}">${trickHtml(view)}</div></div>` +
    decisionHtml(view, asked) +
    `<div class="lb-mine">${handHtml(view, asked)}</div>` +
    `<details class="lb-score-box"><summary>${esc(t("scores"))}</summary>${scoresHtml(view)}</details>` +
    `</div>`;
  for (const bar of root.querySelectorAll(".pts-bar[data-pct]")) bar.style.width = `${bar.dataset.pct}%`;
  root.querySelector(".lb").addEventListener("click", (e) => {
    const btn = e.target.closest("button[data-card], button[data-action]");
    if (!btn || btn.disabled) return;
    onAction(btn.dataset.card || btn.dataset.action);
  });
}
