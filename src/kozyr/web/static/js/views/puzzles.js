// Puzzles from real deals (#29): #/puzzles (the daily puzzle, then the next one near the
// person's puzzle rating), #/puzzles/<id> (one puzzle), #/puzzles/history (his attempts).
// A puzzle is the solver seat's own view of a position from a finished game; he taps the
// card he thinks best and the server judges it by the review's values (docs/puzzles.md).

import { api } from "../net.js";
import { cardLabel, cardSvg, cardWords, sortHand } from "../cards.js";
import { formatDate, lang, onLangChange, t } from "../i18n.js";
import { gameOf } from "../games/index.js";
import { esc, suitColour } from "../html.js";
import { errorText, gameName } from "../ui.js";

let root = null;
let current = null; // {kind: "daily"|"one"|"history", puzzle, answer, error, me, history}
let seq = 0;

function screenRoot() {
  return document.getElementById("screen-puzzles");
}

/** Shows the puzzles page for `hash` (#/puzzles, #/puzzles/<id>, #/puzzles/history). */
export async function openPuzzles(hash) {
  root = screenRoot();
  const mine = ++seq;
  const m = hash.match(/^#\/puzzles(?:\/([\w-]+))?\/?$/);
  const part = m ? m[1] : undefined;
  current = { kind: "loading" };
  render();
  try {
    let next;
    if (part === "history") {
      next = { kind: "history", history: await api("GET", "/api/puzzles/history?limit=50") };
    } else if (part === undefined) {
      const daily = await api("GET", "/api/puzzles/daily");
      // today's already tried: straight on to the next one near his rating
      if (daily.puzzle && daily.puzzle.tried) {
        const nxt = await api("GET", "/api/puzzles/next");
        next = { kind: "daily", puzzle: nxt.puzzle, dailyDone: daily.puzzle, answer: null };
      } else next = { kind: "daily", puzzle: daily.puzzle, answer: null };
    } else if (/^\d{1,10}$/.test(part)) {
      const one = await api("GET", `/api/puzzles/${part}`);
      next = { kind: "one", puzzle: one.puzzle, answer: null };
    } else {
      next = { kind: "error", error: t("puzzles_no_such") };
    }
    next.me = await myRating();
    if (mine !== seq) return;
    current = next;
  } catch (e) {
    if (mine !== seq) return;
    current = { kind: "error", error: e.status === 404 ? t("puzzles_no_such") : errorText(e) };
  }
  render();
}

async function myRating() {
  try {
    const h = await api("GET", "/api/puzzles/history?limit=1");
    return h.me;
  } catch {
    return null;
  }
}

onLangChange(() => {
  if (root && current && !root.hidden) render();
});

function nav() {
  const me = current?.me;
  const rating = me ? `<span class="puzzle-me">${esc(t("puzzles_my_rating", { n: me.rating }))}</span>` : "";
  return (
    `<div class="puzzle-nav"><h2>${esc(t("puzzles_title"))}</h2>${rating}<div class="puzzle-links">` +
    `<a class="btn small" href="#/puzzles">${esc(t("puzzles_daily"))}</a>` +
    `<button type="button" class="btn small puzzle-next">${esc(t("puzzles_next"))}</button>` +
    `<a class="btn small" href="#/puzzles/history">${esc(t("puzzles_history"))}</a>` +
    `</div></div>`
  );
}

function render() {
  if (!root) return;
  const c = current || { kind: "loading" };
  let body = "";
  if (c.kind === "loading") body = `<p class="muted">${esc(t("loading"))}</p>`;
  else if (c.kind === "error") body = `<p class="puzzle-error" role="alert">${esc(c.error)}</p>`;
  else if (c.kind === "history") body = historyHtml(c.history);
  else if (!c.puzzle) body = `<p class="puzzle-empty">${esc(t(c.dailyDone ? "puzzles_all_done" : "puzzles_none"))}</p>`;
  else body = (c.dailyDone ? dailyDoneHtml(c.dailyDone) : "") + boardHtml(c.puzzle, c.answer, c.kind === "daily" && !c.dailyDone);
  root.innerHTML = `<div class="puzzles">${nav()}${body}</div>`;
  root.querySelector(".puzzle-next")?.addEventListener("click", goNext);
  for (const b of root.querySelectorAll(".puzzle-hand .card.legal")) {
    b.addEventListener("click", () => answer(b.dataset.card));
  }
  root.querySelector(".puzzle-again")?.addEventListener("click", goNext);
}

async function goNext() {
  try {
    const got = await api("GET", "/api/puzzles/next");
    if (got.puzzle) {
      const hash = `#/puzzles/${got.puzzle.id}`;
      if (location.hash === hash) openPuzzles(hash);
      else location.hash = hash;
    } else {
      current = { ...current, kind: "one", puzzle: null, answer: null, dailyDone: true };
      render();
    }
  } catch (e) {
    current = { ...current, kind: "error", error: errorText(e) };
    render();
  }
}

async function answer(card) {
  const c = current;
  if (!c?.puzzle || c.answer || c.sending) return;
  c.sending = card;
  try {
    c.answer = await api("POST", `/api/puzzles/${c.puzzle.id}/answer`, { card });
    if (c.answer.rating && c.me) c.me = { ...c.me, rating: c.answer.rating.after };
    else if (c.answer.rating) c.me = { rating: c.answer.rating.after };
  } catch (e) {
    c.error = errorText(e);
  }
  c.sending = null;
  if (current === c) render();
}

// The other players by where they sit from the solver, as the table draws them (the next
// seat on the left): never by a number.
const AROUND = {
  2: [null, "puzzles_seat_opponent"],
  3: [null, "puzzles_seat_left", "puzzles_seat_right"],
  4: [null, "puzzles_seat_left", "puzzles_seat_across", "puzzles_seat_right"],
};

function seatLabel(p, seat) {
  if (seat === p.seat) return t("you");
  const key = AROUND[p.players]?.[(seat - p.seat + p.players) % p.players];
  return key ? t(key) : t("puzzles_player", { n: seat + 1 });
}

function dailyDoneHtml(daily) {
  const key = daily.tried.solved ? "puzzles_daily_solved" : "puzzles_daily_missed";
  return `<p class="puzzle-daily-done">${esc(t(key))}</p>`;
}

function boardHtml(p, ans, daily) {
  const pos = p.position;
  const head =
    `<div class="puzzle-head"><span class="puzzle-game">${esc(gameName(p.game))}, ` +
    `${esc(t("puzzles_players", { n: p.players }))}</span>` +
    (daily ? ` <span class="pill">${esc(t("puzzles_daily"))}</span>` : "") +
    ` <span class="muted">${esc(t("puzzles_rating", { n: p.rating }))}</span></div>`;
  const task = `<p class="puzzle-task"><strong>${esc(t("puzzles_find"))}</strong></p>`;
  // what lies on the table: the trump (turn-up or trump card), the trick so far
  const shown = [];
  if (pos.turnup) shown.push(figure(pos.turnup, t("turnup")));
  else if (pos.trump_card) shown.push(figure(pos.trump_card, t("trump_card")));
  else if (pos.trump) shown.push(`<figure class="puzzle-fig"><span class="puzzle-trump">${suitColour(esc(suitOnly(pos.trump)))}</span><figcaption>${esc(t("trump"))}</figcaption></figure>`);
  const trick = (pos.trick || []).map(([seat, card]) => figure(card, seatLabel(p, seat)));
  const table =
    `<div class="puzzle-table"><div class="puzzle-deck">${shown.join("")}</div>` +
    `<div class="puzzle-trick" aria-label="${esc(t("trick"))}">` +
    (trick.length ? trick.join("") : `<p class="muted puzzle-lead">${esc(t("puzzles_you_lead"))}</p>`) +
    `</div></div>`;
  const tricks = (pos.tricks || [])
    .map((n, s) => `<li${s === p.seat ? ' class="me"' : ""}>${esc(seatLabel(p, s))}: ${esc(String(n))}</li>`)
    .join("");
  const taken = tricks ? `<div class="puzzle-tricks"><span class="muted">${esc(t("puzzles_tricks_taken"))}</span><ul>${tricks}</ul></div>` : "";
  const score = scoreHtml(p, pos);
  const legal = new Set(p.legal);
  const cards = sortHand(pos.hand || [], pos.trump, gameOf(p.game)?.rank_order);
  const values = new Map((ans?.values || []).map((v) => [v.card, v.value]));
  const hand = cards
    .map((c) => {
      const ok = legal.has(c) && !ans;
      const cls = ["card", ok ? "legal" : legal.has(c) ? "" : "dim"];
      if (ans && c === ans.best) cls.push("best");
      if (ans && c === ans.card && !ans.correct) cls.push("chosen");
      const words = cardWords(c, lang());
      const value = values.has(c) ? `<span class="puzzle-value">${esc(fmt(values.get(c)))}</span>` : "";
      return (
        `<button type="button" class="${cls.filter(Boolean).join(" ")}" data-card="${esc(c)}" ` +
        `aria-label="${esc(words)}"${ok ? "" : ' aria-disabled="true"'}>${cardSvg(c, lang())}${value}</button>`
      );
    })
    .join("");
  const handBox = `<div class="puzzle-hand" role="group" aria-label="${esc(t("puzzles_your_hand"))}">${hand}</div>`;
  return `<section class="panel puzzle-board" data-puzzle="${p.id}">${head}${ans ? "" : task}${table}${taken}${score}${handBox}${ans ? answerHtml(p, ans) : ""}${current?.error ? `<p class="puzzle-error" role="alert">${esc(current.error)}</p>` : ""}</section>`;
}

/** The score so far, as the position gives it: each seat's points and imperials, or its
 * running total; nothing when it has neither. */
function scoreHtml(p, pos) {
  const line = (key, items) =>
    `<div class="puzzle-tricks"><span class="muted">${esc(t(key))}:</span><ul>${items}</ul></div>`;
  const item = (s, text) => `<li${s === p.seat ? ' class="me"' : ""}>${esc(seatLabel(p, s))}: ${esc(text)}</li>`;
  if (Array.isArray(pos.scores) && pos.scores.every((x) => x && typeof x.points === "number")) {
    const points = pos.scores.map((x, s) => item(s, String(x.points))).join("");
    const marks = pos.scores.map((x, s) => item(s, String(x.imperials ?? 0))).join("");
    return line("points", points) + line("imperials", marks);
  }
  if (Array.isArray(pos.totals)) return line("total", pos.totals.map((n, s) => item(s, String(n))).join(""));
  return "";
}

function suitOnly(suit) {
  return { S: "♠", H: "♥", D: "♦", C: "♣" }[suit] ?? suit;
}

function figure(card, caption) {
  return (
    `<figure class="puzzle-fig"><span class="mini" role="img" aria-label="${esc(cardWords(card, lang()))}">` +
    `${cardSvg(card, lang())}</span><figcaption>${esc(caption)}</figcaption></figure>`
  );
}

function fmt(v) {
  const s = (Math.round(v * 10) / 10).toFixed(1);
  return lang() === "ru" ? s.replace(".", ",") : s;
}

function answerHtml(p, ans) {
  const l = lang();
  const unit = ans.unit?.[l] ?? "";
  const verdict = ans.correct ? t("puzzles_right") : t("puzzles_wrong");
  const rows = ans.values
    .map((v) => {
      const marks = [];
      if (v.card === ans.best) marks.push(t("puzzles_best"));
      if (v.card === ans.card) marks.push(t("puzzles_your_card"));
      return (
        `<li class="${v.card === ans.best ? "best" : ""}${v.card === ans.card ? " chosen" : ""}">` +
        `<span class="puzzle-card-name">${suitColour(esc(cardLabel(v.card, l)))}</span>` +
        `<span class="puzzle-card-value">${esc(fmt(v.value))} ${esc(unit)}</span>` +
        (marks.length ? `<span class="puzzle-mark">${esc(marks.join(", "))}</span>` : "") +
        `</li>`
      );
    })
    .join("");
  let rating = "";
  if (ans.rating) {
    const d = ans.rating.change;
    rating = `<p class="puzzle-rating-change ${d >= 0 ? "up" : "down"}">${esc(t("puzzles_rating_change", { before: ans.rating.before, after: ans.rating.after, d: d >= 0 ? `+${d}` : `${d}` }))}</p>`;
  } else rating = `<p class="muted">${esc(t("puzzles_not_rated"))}</p>`;
  return (
    `<div class="puzzle-answer ${ans.correct ? "right" : "wrong"}" role="status">` +
    `<h3>${esc(verdict)}</h3><p>${suitColour(esc(ans.verdict[l]))}</p>` +
    `<h4>${esc(t("puzzles_values"))}</h4><ol class="puzzle-values">${rows}</ol>` +
    `<h4>${esc(t("puzzles_why"))}</h4><p>${suitColour(esc(ans.why[l]))}</p>` +
    `<p class="muted">${suitColour(esc(ans.line[l]))}</p>${rating}` +
    `<p><button type="button" class="btn primary puzzle-again">${esc(t("puzzles_next"))}</button></p></div>`
  );
}

function historyHtml(h) {
  const rows = (h.attempts || [])
    .map((a) => {
      const l = lang();
      const d = a.first && a.rating_after != null ? a.rating_after - a.rating_before : null;
      const change = d == null ? "—" : d >= 0 ? `+${d}` : `−${-d}`;
      return (
        `<tr><td><a href="#/puzzles/${a.puzzle}">#${a.puzzle}</a></td><td>${esc(gameName(a.game))}</td>` +
        `<td>${suitColour(esc(cardLabel(a.card, l)))}</td>` +
        `<td class="${a.solved ? "ok" : "bad"}">${esc(t(a.solved ? "puzzles_solved" : "puzzles_missed"))}</td>` +
        `<td>${esc(change)}</td><td class="muted">${esc(formatDate(a.at_ms, { short: true }))}</td></tr>`
      );
    })
    .join("");
  if (!rows) return `<p class="puzzle-empty">${esc(t("puzzles_history_empty"))}</p>`;
  return (
    `<div class="puzzle-history-wrap"><table class="puzzle-history"><thead><tr>` +
    `<th>${esc(t("puzzles_col_puzzle"))}</th><th>${esc(t("puzzles_col_game"))}</th>` +
    `<th>${esc(t("puzzles_col_card"))}</th><th>${esc(t("puzzles_col_result"))}</th>` +
    `<th>${esc(t("puzzles_col_rating"))}</th><th>${esc(t("puzzles_col_when"))}</th>` +
    `</tr></thead><tbody>${rows}</tbody></table></div>`
  );
}
