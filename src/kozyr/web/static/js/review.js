// The post-game review beside a stored game's replay (issue #15): asks the server for it,
// shows its progress, then each player's summary and every reviewed decision. A line
// jumps the replay to its move. The server does all the searching; this only draws.

import { api, ApiError } from "./net.js";
import { esc, suitColour } from "./html.js";
import { formatNumber, lang, t } from "./i18n.js";
import { actionWords } from "./narrate.js";
import { gameOf } from "./games/index.js";

export const REVIEW_LEVELS = [1, 2, 3, 4, 5];
export const DEFAULT_LEVEL = 2;
const POLL_MS = 1000;

/** What a review under way says: its place in the queue while it waits (the server says
 * it for a review waiting on the process asked), else its progress. */
export function progressText(s, done, total) {
  const place = Number(s.place) || 0;
  if (s.status === "queued" && place > 0) return t("review_queued_place", { place });
  if (s.status === "queued" || !total) return t("review_queued");
  return t("review_progress", { done, total });
}

/** A value as the page writes it, with at most one decimal: a true minus sign, and no
 * "−0" for a small negative value rounded to nothing. */
function num(value) {
  const n = Number(value) || 0;
  const format = new Intl.NumberFormat(lang() === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 1, signDisplay: "negative" });
  return format.format(n).replace("-", "\u2212");
}

export class ReviewPanel {
  /**
   * box: the panel's element. gameId: the stored game. game: its name (games/index.js).
   * names(): the seats' names as the replay shows them. mySeat: the viewer's seat or null.
   * onJump(index): shows the move at `index` of the record's actions.
   * onResize(): the panel changed height (the table fits itself again).
   * onLevel(level): the review shown (or under way) is at `level`: the depth selector
   * says so, rather than its default beside a review of another depth.
   */
  constructor(box, { gameId, game, names, mySeat, onJump, onResize, onBusy, onLevel, errorText }) {
    this.box = box;
    this.gameId = gameId;
    this.game = game;
    this.names = names;
    this.onJump = onJump;
    this.onResize = onResize || (() => {});
    this.onBusy = onBusy || (() => {});
    this.onLevel = onLevel || (() => {});
    this.shownLevel = null; // the level last given to onLevel
    this.errorText = errorText;
    this.status = null; // the server's status object
    this.error = null; // an ApiError of our own request
    this.seat = mySeat != null && mySeat >= 0 ? String(mySeat) : "all";
    this.onlyMistakes = false;
    this.step = null;
    this.timer = null;
    this.gone = false;
    // The box outlives a replay: the listeners go with the panel (destroy).
    this.onClick = (e) => {
      const line = e.target.closest("[data-index]");
      if (line) {
        this.onJump(Number(line.dataset.index));
        return;
      }
      if (e.target.closest(".review-close")) this.hide();
    };
    this.onChange = (e) => {
      if (e.target.name === "review-seat") this.seat = e.target.value;
      else if (e.target.name === "review-only") this.onlyMistakes = e.target.checked;
      else return;
      this.renderLines();
    };
    box.addEventListener("click", this.onClick);
    box.addEventListener("change", this.onChange);
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
    this.box.removeEventListener("click", this.onClick);
    this.box.removeEventListener("change", this.onChange);
    this.onBusy(false);
    this.box.closest(".replay-body")?.classList.remove("reviewing");
    this.box.hidden = true;
    this.box.innerHTML = "";
  }

  get path() {
    return `/api/games/${encodeURIComponent(this.gameId)}/review`;
  }

  /** On opening the replay: a review already done (by anyone) is shown at once, one
   * under way is followed. A server without reviews (or an error) shows nothing. */
  async load() {
    let status;
    try {
      status = await api("GET", this.path);
    } catch {
      return;
    }
    if (this.gone || !status) return;
    if (status.status === "done" || status.status === "running" || status.status === "queued") {
      this.apply(status);
    }
  }

  /** Asks for a review at `level`, then follows it. */
  async request(level) {
    clearTimeout(this.timer);
    this.error = null;
    this.status = { status: "queued", level, done: 0, total: 0, review: null, error: null };
    this.render();
    try {
      const status = await api("POST", this.path, { level });
      if (!this.gone) this.apply(status);
    } catch (e) {
      if (this.gone) return;
      this.error = e;
      this.status = null;
      this.render();
    }
  }

  apply(status) {
    this.status = status;
    // Told once per level, not at every poll: a depth picked meanwhile for the next
    // request is not taken back.
    const level = Number(status?.review?.level ?? status?.level) || null;
    if (level && level !== this.shownLevel && status.status !== "failed") {
      this.shownLevel = level;
      this.onLevel(level);
    }
    this.render();
    clearTimeout(this.timer);
    if (status.status === "running" || status.status === "queued") {
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  async poll() {
    try {
      const status = await api("GET", this.path);
      if (!this.gone) this.apply(status);
    } catch (e) {
      if (this.gone) return;
      // A lost connection is often back a moment later: keep following the review.
      if (e instanceof ApiError && e.code === "network") {
        this.timer = setTimeout(() => this.poll(), POLL_MS * 3);
        return;
      }
      this.error = e;
      this.status = null; // no longer followed: the review may be asked for again
      this.render();
    }
  }

  hide() {
    clearTimeout(this.timer);
    this.status = null;
    this.error = null;
    this.render();
  }

  get busy() {
    const s = this.status?.status;
    return s === "running" || s === "queued";
  }

  relabel() {
    this.render();
  }

  /** The replay's step changed: the line of the move just shown is marked. */
  setStep(step) {
    this.step = step;
    for (const el of this.box.querySelectorAll("[data-index]")) {
      const on = Number(el.dataset.index) + 1 === step;
      el.classList.toggle("current", on);
      if (on) el.setAttribute("aria-current", "step");
      else el.removeAttribute("aria-current");
    }
  }

  render() {
    const s = this.status;
    this.onBusy(this.busy);
    const show = Boolean(this.error || (s && s.status !== "none"));
    const wasHidden = this.box.hidden;
    this.box.hidden = !show;
    this.box.closest(".replay-body")?.classList.toggle("reviewing", show);
    if (!show) {
      this.box.innerHTML = "";
      if (!wasHidden) this.onResize();
      return;
    }
    const level = s?.review?.level ?? s?.level;
    let html =
      `<div class="review-head"><h2 id="review-head">${esc(t("review_title"))}</h2>` +
      (level ? `<span class="pill">${esc(t("review_level_n", { n: level }))}</span>` : "") +
      `<button type="button" class="btn small review-close" aria-label="${esc(t("review_close"))}" title="${esc(t("review_close"))}">×</button></div>`;
    if (this.error) {
      html += `<p class="form-error review-error" role="alert">${esc(this.errorText(this.error))}</p>`;
    } else if (s.status === "failed") {
      html += `<p class="form-error review-error" role="alert">${esc(this.failedText(s))}</p>`;
    } else if (s.status === "done" && s.review) {
      html += this.summaryHtml(s.review) + this.filterHtml(s.review) + `<ol class="review-lines"></ol>`;
    } else {
      html += this.progressHtml(s);
    }
    this.box.innerHTML = html;
    if (s?.status === "done" && s.review && !this.error) this.renderLines();
    if (wasHidden) this.onResize();
  }

  /** A failed review in the server's words (its code's messages sit beside `error`),
   * else ours with the code. */
  failedText(s) {
    const error = s.error;
    const words = error && typeof error === "object" ? error : s;
    if (words.message || words.message_ru) {
      return lang() === "ru" && words.message_ru ? words.message_ru : words.message || words.message_ru;
    }
    const code = typeof error === "string" ? error : error?.code;
    return t("review_failed", { code: code || "?" });
  }

  progressHtml(s) {
    const total = Number(s.total) || 0;
    const done = Math.min(total, Number(s.done) || 0);
    const text = progressText(s, done, total);
    // <progress> is drawn by the browser: no inline style, which the page's CSP refuses.
    const bar = total
      ? `<progress class="review-bar" max="${total}" value="${done}"></progress>`
      : `<progress class="review-bar"></progress>`;
    return `<div class="review-progress" role="status" aria-live="polite">${bar}<span class="review-count">${esc(text)}</span></div>`;
  }

  unit(review) {
    return lang() === "ru" ? review.unit_ru || review.unit : review.unit;
  }

  summaryHtml(review) {
    const names = this.names();
    const unit = this.unit(review);
    const per = gameOf(this.game).unit; // Emperor plays rounds (туры), Imperial deals
    const stat = (cls, value, label) =>
      `<span class="rs-stat ${cls}"><b>${esc(value)}</b><small>${esc(label)}</small></span>`;
    const rows = (review.summaries || [])
      .map(
        (sm) =>
          `<li class="rs-player" data-seat="${Number(sm.seat)}"><span class="rs-name">${esc(names[sm.seat] ?? t("seat_n", { n: sm.seat + 1 }))}</span>` +
          `<span class="rs-stats">` +
          stat("acc", `${num(sm.accuracy)}%`, t("review_accuracy")) +
          stat("mis", formatNumber(sm.mistakes), t("review_mistakes")) +
          stat("blu", formatNumber(sm.blunders), t("review_blunders")) +
          stat("lpd", num(sm.lost_per_deal), t(`review_lost_per_${per}`, { unit })) +
          `</span></li>`,
      )
      .join("");
    return (
      `<ul class="review-summary">${rows}</ul>` +
      `<p class="muted review-legend">${esc(t("review_legend", { unit }))}</p>`
    );
  }

  filterHtml(review) {
    const names = this.names();
    const seats = [...new Set((review.summaries || []).map((sm) => sm.seat))];
    if (this.seat !== "all" && !seats.includes(Number(this.seat))) this.seat = "all";
    const options =
      `<option value="all"${this.seat === "all" ? " selected" : ""}>${esc(t("review_all_players"))}</option>` +
      seats
        .map((s) => `<option value="${s}"${String(s) === this.seat ? " selected" : ""}>${esc(names[s] ?? t("seat_n", { n: s + 1 }))}</option>`)
        .join("");
    return (
      `<div class="review-filter"><label><span>${esc(t("review_show"))}</span> <select name="review-seat">${options}</select></label>` +
      `<label class="check"><input type="checkbox" name="review-only"${this.onlyMistakes ? " checked" : ""}>` +
      `<span>${esc(t("review_only_mistakes"))}</span></label></div>`
    );
  }

  renderLines() {
    const list = this.box.querySelector(".review-lines");
    const review = this.status?.review;
    if (!list || !review) return;
    const names = this.names();
    const decisions = (review.decisions || []).filter(
      (d) => (this.seat === "all" || String(d.seat) === this.seat) && (!this.onlyMistakes || d.verdict),
    );
    const move = (action) => suitColour(esc(actionWords(String(action), names)));
    const where = (d) => t(`review_${gameOf(this.game).unit}`, { n: d.deal });
    list.innerHTML =
      decisions
        .map((d) => {
          const verdict = d.verdict === "blunder" || d.verdict === "mistake" ? d.verdict : "";
          const who = names[d.seat] ?? t("seat_n", { n: d.seat + 1 });
          const same = d.played === d.best;
          let body =
            `<span class="rl-head"><span class="rl-where">${esc(where(d))} · ${esc(who)}</span>` +
            (verdict ? `<span class="pill rl-verdict">${esc(t(verdict === "blunder" ? "review_blunder" : "review_mistake"))}</span>` : "") +
            `</span><span class="rl-moves">` +
            `<span class="rl-played">${esc(t("review_played"))} <b class="rl-card">${move(d.played)}</b> ${esc(num(d.played_value))}</span>`;
          if (same) body += ` <span class="rl-best muted">${esc(t("review_was_best"))}</span>`;
          else if (num(d.loss) === num(0)) {
            // another move as good as the one played
            body += `\u00a0· <span class="rl-best muted">${esc(t("review_best"))} <b class="rl-card">${move(d.best)}</b> ${esc(num(d.best_value))}</span>`;
          } else {
            body +=
              `\u00a0· <span class="rl-best">${esc(t("review_best"))} <b class="rl-card">${move(d.best)}</b> ${esc(num(d.best_value))}</span>` +
              `\u00a0· <span class="rl-loss">${esc(t("review_loss", { n: num(d.loss) }))}</span>`;
          }
          body += `</span>`;
          if (d.hindsight) {
            body += `<span class="rl-hindsight">${esc(t("review_hindsight"))}: <b class="rl-card">${move(d.hindsight)}</b></span>`;
          }
          return (
            `<li><button type="button" class="review-line${verdict ? ` ${verdict}` : ""}" data-index="${Number(d.index)}"` +
            ` data-seat="${Number(d.seat)}" title="${esc(t("review_jump"))}">${body}</button></li>`
          );
        })
        .join("") || `<li class="muted review-none">${esc(t("review_none"))}</li>`;
    if (this.step != null) this.setStep(this.step);
  }
}
