// What the table adds around play (#16B): the summary when a deal or round ends, the
// score sheet, the last trick, the rules link, the glossary, the sounds and the background
// tab's call when your turn comes (attention.js). TableView calls
// update/relabel/fitSummary/destroy; everything here reads the public events only.
//
// The summary is not modal: the table plays on under it, and the turn clock (the server's,
// one for the whole table) keeps running. So it never stands over your turn: when your
// turn comes (or has come already when the deal ends) it steps off the table and waits as
// a button by your name, which shows it again when you want it.

import { cardLabel, cardSvg } from "./cards.js";
import { lang, t } from "./i18n.js";
import { esc } from "./html.js";
import { sheetHtml } from "./scoresheet.js";
import { endedDeal, summaryHtml, watchedDeal } from "./summary.js";
import { gameOf, gameTitle } from "./games/index.js";
import { wireTerms } from "./glossary.js";
import { play, setSound, soundOn } from "./sound.js";
import { callAttention, clearAttention } from "./attention.js";

// Long enough to read a deal's figures; a click or a tap closes it sooner. (Counted only
// while it is on the table: put aside for your turn, it waits for you.)
export const SUMMARY_MS = 9000;
// The summary's least margin to the window's edges.
const EDGE = 8;

// The sound button's picture: on a phone it stands alone (its words are its aria-label),
// so that the tools' row fits the narrowest screen in both languages.
const SPEAKER = '<path d="M3 7h3l4-4v14l-4-4H3z" fill="currentColor"/>';
const SPEAKER_ON =
  `<svg class="tool-icon" width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">${SPEAKER}` +
  '<path d="M13 6.5a5 5 0 0 1 0 7M15.5 4a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';
const SPEAKER_OFF =
  `<svg class="tool-icon" width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">${SPEAKER}` +
  '<path d="M13 7.5l5 5M18 7.5l-5 5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';

function lastIndex(events, type) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === type) return i;
  return -1;
}

export class TableExtras {
  constructor(view) {
    this.view = view;
    // {number, upTo, shown, byHand}: the deal summed up and the events it covers; whether
    // it is on the table (else it waits by your name), and whether you asked for it
    this.summary = null;
    this.seenDealEnd = null;
    this.seen = null; // events the page had when it first drew the table (watchedDeal)
    this.turnSeq = undefined; // the view in which your turn last began
    this.scrollHandler = () => this.placeSummary();
    this.seenMarks = null;
    this.wasMyTurn = false;
    this.lastOpen = false;
    const root = view.root;
    this.tools = document.createElement("div");
    this.tools.className = "table-tools";
    view.el(".table-bar").appendChild(this.tools);
    this.summaryBox = document.createElement("div");
    this.summaryBox.className = "deal-summary";
    this.summaryBox.hidden = true;
    this.summaryBox.setAttribute("role", "dialog");
    this.summaryBox.setAttribute("aria-modal", "false");
    this.waiting = document.createElement("button"); // the summary put aside: shows it again
    this.waiting.type = "button";
    this.waiting.className = "pill summary-waiting";
    this.waiting.addEventListener("click", () => this.showSummary(true));
    this.lastBox = document.createElement("div");
    this.lastBox.className = "last-trick-box";
    this.lastBox.hidden = true;
    view.el(".felt").append(this.lastBox);
    // Over the table, placed by placeSummary: the felt alone is too short for a deal's
    // figures on a phone or a laptop (and it is never your turn while it shows).
    root.appendChild(this.summaryBox);
    // placed again whenever its size changes (drawn, relabelled, a word explained)
    this.summarySizer = new ResizeObserver(() => this.placeSummary());
    this.summarySizer.observe(this.summaryBox);
    this.sheet = document.createElement("dialog");
    this.sheet.className = "sheet-dialog";
    root.appendChild(this.sheet);
    // a tip links to its term in the game's how-to-play glossary (#29)
    wireTerms(this.summaryBox, () => this.view.model.game);
    wireTerms(this.tools, () => this.view.model.game);
    this.tools.addEventListener("click", (e) => {
      const btn = e.target.closest("button[data-tool]");
      if (!btn) return;
      if (btn.dataset.tool === "last") {
        if (this.summary?.shown) this.foldSummary(); // what you asked for comes first
        this.toggleLast();
      } else if (btn.dataset.tool === "sheet") this.openSheet();
      else if (btn.dataset.tool === "sound") {
        setSound(!soundOn());
        this.renderTools();
      }
    });
    this.summaryBox.addEventListener("click", (e) => {
      if (e.target.closest(".term")) return; // a tap on a word explains it
      this.closeSummary();
    });
    this.lastBox.addEventListener("click", () => this.toggleLast(false));
    this.sheet.addEventListener("click", (e) => {
      // the close button, or a click on the backdrop (outside the dialog's box)
      if (e.target.closest(".sheet-close") || e.target === this.sheet) this.sheet.close();
    });
  }

  destroy() {
    clearAttention("turn");
    clearTimeout(this.summaryHandle);
    window.removeEventListener("scroll", this.scrollHandler);
    this.summarySizer.disconnect();
    if (this.sheet.open) this.sheet.close();
  }

  /** Called after every frame the view draws; `prev` is the model before it. */
  update(prev) {
    const events = this.view.model.events;
    const end = lastIndex(events, "deal_end");
    const over = lastIndex(events, "game_over") >= 0;
    const first = prev == null || this.seenDealEnd == null;
    if (first) this.seen = events.length;
    const mine = this.view.isMyTurn();
    // Your turn begins: a view that asks you (a card or a decision) and was not on screen
    // before (the same view drawn again, a seat's connection changed, is not a new turn).
    const seq = this.view.frame.seq;
    const turnBegins = mine && (!this.wasMyTurn || seq !== this.turnSeq);
    if (mine) this.turnSeq = seq;
    if (!first && end > this.seenDealEnd && !over && watchedDeal(events, end, this.seen)) {
      this.openSummary(events[end].number, end + 1, mine);
    } else if (turnBegins && this.summary?.shown) this.foldSummary();
    if (this.summary && (over || events.length < this.summary.upTo)) this.closeSummary();
    this.seenDealEnd = end;
    this.renderWaiting();
    // Sounds: your turn coming round, and any new mark (never on the first frame).
    const marks = events.filter((e) => e.type === "mark").length;
    if (!first && !this.view.replay) {
      if (marks > this.seenMarks) play("mark");
      else if (mine && !this.wasMyTurn) play("turn");
    }
    // The tab's title and icon (and a notification) while the page is in the background:
    // on each new view that asks you (your card and the computer's may come back as one
    // view that is yours again), the first frame too (a game that began while you were
    // in another tab).
    if (!this.view.replay) {
      if (turnBegins) callAttention("turn", t("attention_turn_text", { game: gameTitle(this.view.model.game, lang()) }));
      else if (!mine && this.wasMyTurn) clearAttention("turn");
    }
    this.seenMarks = marks;
    this.wasMyTurn = mine;
    this.renderTools();
    if (this.lastOpen) this.renderLast();
    if (this.sheet.open) this.renderSheet();
  }

  relabel() {
    this.renderTools();
    if (this.summary?.shown) this.renderSummary();
    this.renderWaiting();
    if (this.lastOpen) this.renderLast();
    if (this.sheet.open) this.renderSheet();
  }

  /** While a summary is up the log stops at the end of its deal: the new deal's
   * declarations and wipes come after it, as at a real table. */
  feedLimit(events) {
    return this.summary?.shown ? Math.min(this.summary.upTo, events.length) : events.length;
  }

  names() {
    const v = this.view;
    return [...Array(v.model.n)].map((_, s) => v.plainName(s));
  }

  renderTools() {
    const m = this.view.model;
    const hasTrick = lastIndex(m.events, "trick") >= 0;
    // how to play (#29): the game's page for players, at the part that matters now
    const rules = `#/howto/${encodeURIComponent(m.game)}/${gameOf(m.game).guideSection(m)}`;
    const sound = soundOn();
    const html =
      `<button type="button" class="pill tool" data-tool="last" aria-expanded="${this.lastOpen}"${hasTrick ? "" : " disabled"}>` +
      `${esc(t("last_trick"))}</button>` +
      `<button type="button" class="pill tool" data-tool="sheet">${esc(t("score_sheet"))}</button>` +
      `<a class="pill tool" data-tool="rules" href="${rules}" target="_blank" rel="noopener">${esc(t("rules"))}</a>` +
      (this.view.replay
        ? "" // a replay makes no sounds
        : `<button type="button" class="pill tool" data-tool="sound" aria-pressed="${sound}"` +
          ` aria-label="${esc(t(sound ? "sound_on" : "sound_off"))}" title="${esc(t(sound ? "sound_on" : "sound_off"))}">` +
          `${sound ? SPEAKER_ON : SPEAKER_OFF}<span class="tool-label">${esc(t(sound ? "sound_on" : "sound_off"))}</span></button>`);
    if (this.tools.dataset.html !== html) {
      this.tools.innerHTML = html;
      this.tools.dataset.html = html;
    }
  }

  /** A deal ended: its summary over the table, or put aside at once if it is your turn. */
  openSummary(number, upTo, mine) {
    this.summary = { number, upTo, shown: false, byHand: false };
    if (mine) this.foldSummary();
    else this.showSummary(false);
  }

  /** The summary on the table: for its reading time, or (`byHand`, asked for by its
   * button) until it is closed or your next turn begins. */
  showSummary(byHand) {
    if (!this.summary) return;
    Object.assign(this.summary, { shown: true, byHand });
    this.toggleLast(false);
    this.summaryBox.hidden = false;
    this.renderSummary();
    this.placeSummary();
    this.renderWaiting();
    this.view.renderFeed();
    clearTimeout(this.summaryHandle);
    if (!byHand) this.summaryHandle = setTimeout(() => this.closeSummary(), SUMMARY_MS);
    window.addEventListener("scroll", this.scrollHandler, { passive: true });
  }

  /** Your turn: the summary leaves the table and waits by your name. */
  foldSummary() {
    clearTimeout(this.summaryHandle);
    window.removeEventListener("scroll", this.scrollHandler);
    this.summary.shown = false;
    this.summaryBox.hidden = true;
    this.summaryBox.innerHTML = "";
    this.renderWaiting();
    this.view.renderFeed();
  }

  renderSummary() {
    const v = this.view;
    const record = endedDeal(v.model.game, v.model.events.slice(0, this.summary.upTo), v.model.n, this.summary.number);
    if (!record) return;
    // The columns: your own is "You"; on a phone every other one by its short name.
    const narrow = this.narrowNames();
    this.summaryNarrow = Boolean(narrow);
    const heads = this.names().map((name, s) => (s === v.frame.mySeat ? t("you") : narrow ? narrow[s] : name));
    this.summaryBox.dataset.number = String(this.summary.number);
    this.summaryBox.innerHTML = `<div class="summary-card">${summaryHtml(v.model.game, record, this.names(), heads)}</div>`;
    this.summaryBox.setAttribute("aria-label", this.summaryBox.querySelector(".summary-title").textContent);
  }

  /** The window changed: the summary drawn again where its columns' names change with it
   * (short on a phone), and placed again. */
  fitSummary() {
    if (!this.summary?.shown) return;
    if (Boolean(this.narrowNames()) !== this.summaryNarrow) this.renderSummary();
    this.placeSummary();
  }

  /** The summary over the felt's middle, moved as little as keeps it whole in the window;
   * as tall as the window allows (its figures scroll inside it only where even that is too
   * short), its button always in view. */
  placeSummary() {
    const box = this.summaryBox;
    if (box.hidden || !this.summary?.shown) return;
    const felt = this.view.el(".felt").getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    // offsetWidth and offsetHeight: the size without the opening animation's scaling
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    const clamp = (x, low, high) => Math.max(low, Math.min(high, x));
    // In a replay the controls stick to the top of the screen: the summary stays under them.
    let top = EDGE;
    const screen = box.closest(".screen");
    for (const el of screen ? screen.querySelectorAll(".replay-head, .replay-controls") : []) {
      const r = el.getBoundingClientRect();
      if (r.height && getComputedStyle(el).position === "sticky") top = Math.max(top, r.bottom + EDGE);
    }
    box.style.maxHeight = top > EDGE ? `${Math.max(120, vh - top - EDGE)}px` : "";
    box.style.left = `${Math.round(clamp(felt.left + (felt.width - w) / 2, EDGE, vw - EDGE - w))}px`;
    box.style.top = `${Math.round(clamp(felt.top + (felt.height - h) / 2, top, vh - EDGE - h))}px`;
  }

  closeSummary() {
    clearTimeout(this.summaryHandle);
    window.removeEventListener("scroll", this.scrollHandler);
    if (!this.summary) return;
    this.summary = null;
    this.summaryBox.hidden = true;
    this.summaryBox.innerHTML = "";
    this.renderWaiting();
    this.view.renderFeed();
  }

  /** The button by your name while the summary waits, and none otherwise. */
  renderWaiting() {
    const s = this.summary;
    const line = this.view.el(".me-line .seat");
    if (!s || s.shown || !line) {
      this.waiting.remove();
      return;
    }
    const label = gameOf(this.view.model.game).summaryButton(s.number);
    if (this.waiting.textContent !== label) this.waiting.textContent = label;
    if (this.waiting.parentNode !== line) line.appendChild(this.waiting);
  }

  toggleLast(open = !this.lastOpen) {
    this.lastOpen = open;
    this.lastBox.hidden = !open;
    if (open) this.renderLast();
    else this.lastBox.innerHTML = "";
    this.tools.querySelector('[data-tool="last"]')?.setAttribute("aria-expanded", String(open));
  }

  renderLast() {
    const events = this.view.model.events;
    const i = lastIndex(events, "trick");
    if (i < 0) return this.toggleLast(false);
    const ev = events[i];
    const names = this.names();
    const cards = ev.cards
      .map(
        ([s, c]) =>
          `<figure class="last-card${s === ev.winner ? " won" : ""}" data-seat="${s}" data-card="${esc(c)}">` +
          `<span class="mini" role="img" aria-label="${esc(cardLabel(c, lang()))}">${cardSvg(c, lang())}</span>` +
          `<figcaption>${esc(names[s])}</figcaption></figure>`,
      )
      .join("");
    this.lastBox.innerHTML =
      `<div class="last-card-box" role="dialog" aria-label="${esc(t("last_trick"))}">` +
      `<h2>${esc(t("last_trick_n", { n: ev.number }))}</h2><div class="last-cards">${cards}</div>` +
      `<p class="last-winner" data-winner="${ev.winner}">${esc(t("takes_trick", { name: names[ev.winner] }))}</p></div>`;
  }

  /** The seats' short names on a phone, where four full names do not fit across. */
  narrowNames() {
    return window.matchMedia("(max-width: 600px)").matches ? this.view.shortNames() : null;
  }

  openSheet() {
    this.renderSheet();
    if (!this.sheet.open) this.sheet.showModal();
  }

  renderSheet() {
    const m = this.view.model;
    this.sheet.innerHTML =
      `<div class="sheet-box"><h2>${esc(t("score_sheet"))}</h2>${sheetHtml(m.game, m.events, this.names(), this.narrowNames(), this.view.frame.mySeat)}` +
      `<button type="button" class="btn primary sheet-close">${esc(t("close"))}</button></div>`;
  }
}
