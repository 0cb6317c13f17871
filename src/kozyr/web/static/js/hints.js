// The hint button at casual tables that allow hints (issue #15): on your turn it asks the
// server for the best move (searched from what your seat sees), names it with its value
// and lights it up in your hand (or among the decision's buttons). A hint answers one
// moment of the game only: the next move clears it.

import { api } from "./net.js";
import { esc, suitColour } from "./html.js";
import { lang, t } from "./i18n.js";
import { actionWords } from "./narrate.js";

/** A value as the page writes it, with at most one decimal: a true minus sign, and no
 * "−0" for a small negative value rounded to nothing. */
function num(value) {
  const n = Number(value) || 0;
  const format = new Intl.NumberFormat(lang() === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 1, signDisplay: "negative" });
  return format.format(n).replace("-", "\u2212");
}

export class HintControl {
  /** view: the TableView; errorText(e): an error in the page's language. */
  constructor(view, { errorText = (e) => String(e?.message || e) } = {}) {
    this.view = view;
    this.errorText = errorText;
    this.answer = null; // {seq, action, value, unit}
    this.error = null; // {seq, cause}
    this.asking = null; // the seq a request is out for
    this.row = document.createElement("div");
    this.row.className = "hint-row";
    this.row.hidden = true;
    this.row.setAttribute("aria-live", "polite");
    view.el(".hand-area").appendChild(this.row);
    this.row.addEventListener("click", (e) => {
      if (e.target.closest(".hint-btn")) this.ask();
    });
  }

  /** Hints at this table, for a seated player (never in a replay or to a spectator). */
  get enabled() {
    const f = this.view.frame;
    return Boolean(f?.hints && !this.view.replay && f.mySeat != null && f.tableId);
  }

  async ask() {
    const f = this.view.frame;
    if (!this.enabled || !this.view.isMyTurn() || this.asking != null) return;
    const seq = f.seq;
    this.asking = seq;
    this.error = null;
    this.update();
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(f.tableId)}/hint`);
      const best = Array.isArray(r?.moves) ? r.moves[0] : null;
      // The unit as the server words it; its Russian form reads as a label ("очков: 12,5").
      if (best) this.answer = { seq: r.seq ?? seq, action: String(best.action), value: best.value, unit: r.unit, unitRu: r.unit_ru };
    } catch (e) {
      this.error = { seq, cause: e }; // worded when drawn: the language may change
    } finally {
      this.asking = null;
    }
    this.update();
  }

  /** The answer, if it is still about the view on screen. */
  current() {
    const seq = this.view.frame?.seq;
    return this.answer && this.answer.seq === seq ? this.answer : null;
  }

  /** Draws the row and lights the hinted move; called after every frame the view draws. */
  update() {
    if (!this.enabled) {
      this.row.hidden = true;
      this.row.innerHTML = "";
      this.light(null);
      return;
    }
    const seq = this.view.frame.seq;
    if (this.answer && this.answer.seq !== seq) this.answer = null;
    if (this.error && this.error.seq !== seq) this.error = null;
    const mine = this.view.isMyTurn();
    const answer = this.current();
    let text = "";
    let cls = "hint-text";
    if (this.asking != null) text = esc(t("hint_thinking"));
    else if (this.error) {
      text = esc(this.errorText(this.error.cause));
      cls += " hint-error";
    } else if (answer) {
      const unit = lang() === "ru" ? answer.unitRu || answer.unit : answer.unit;
      const move = suitColour(esc(actionWords(answer.action, this.view.names())));
      text = t("hint_answer", { move: "\u0000", value: num(answer.value), unit: unit || "" });
      text = esc(text).replace("\u0000", `<b class="hint-move" data-action="${esc(answer.action)}">${move}</b>`);
    }
    const disabled = !mine || this.asking != null || Boolean(answer);
    // The row stays the same height whether or not it is your turn: the table does not jump.
    const html =
      `<button type="button" class="btn small hint-btn"${disabled ? " disabled" : ""}` +
      ` title="${esc(t("hint_about"))}">${esc(t("hint"))}</button>` +
      `<span class="${cls}"${this.error ? ' role="alert"' : ""}>${text}</span>`;
    if (this.row.dataset.html !== html) {
      this.row.innerHTML = html;
      this.row.dataset.html = html;
    }
    this.row.hidden = false;
    this.light(mine && answer ? answer.action : null);
  }

  /** The hinted card of your hand (or the decision's button) lit up; null: none. */
  light(action) {
    const root = this.view.root;
    for (const el of root.querySelectorAll(".hinted")) {
      if (el.dataset.card !== action && el.dataset.action !== action) el.classList.remove("hinted");
    }
    if (action == null) return;
    const sel = `.hand .card[data-card="${CSS.escape(action)}"], .decision button[data-action="${CSS.escape(action)}"]`;
    for (const el of root.querySelectorAll(sel)) el.classList.add("hinted");
  }
}
