// What the page draws of Imperial alone (rulings I1-I13): the table's extras, the score
// panel, the game-over result, the score sheet's cells, the end-of-deal summary and the
// narration. games/emperor.js exports the same functions; games/index.js picks one.

import { cardLabel } from "../cards.js";
import { lang, t } from "../i18n.js";
import { esc, suitColour } from "../html.js";
import { narrateImperial, reasonWords } from "../narrate.js";
import { termHtml } from "../glossary.js";
import { cell, signed } from "./common.js";

// Reasons in the order they happen in a deal (I6, I8, I9, I10).
const REASON_ORDER = ["turnup", "imperials", "point", "honours", "honour led", "honour heads the trick", "tricks", "capot"];
// I12: 24 loose points make an imperial.
const POINTS_PER_IMPERIAL = 24;

/** The observation's game-specific parts, as the table view's model names them. */
export function modelExtras(obs) {
  return {
    phase: obs.over ? "over" : "play",
    shown: obs.shown,
    header: obs.deal ? t("deal_n", { n: obs.deal }) : "",
    trumpCard: obs.trump_card,
  };
}

/** The lobby's line of a table's options. */
export function optionsLine(o) {
  return t("target_n", { n: o.target });
}

/** A seat's standing under its name on the felt. */
export function seatMeta(obs, m, s) {
  const sc = obs.scores[s];
  return `<span class="imp-mini" title="${esc(t("imperials"))}">♛ <b>${sc.imperials}</b> · ${sc.points}</span>`;
}

/** What the cards others may see in a seat's hand are called. */
export function shownLabel() {
  return t("shown_cards");
}

/** The score panel's rows, one per seat. */
export function scoreRows(view) {
  const m = view.model;
  const f = view.frame;
  const target = f.obs.options.target;
  const rows = [];
  for (let s = 0; s < m.n; s++) {
    const sc = f.obs.scores[s];
    const marks = [...Array(Math.max(target, sc.imperials))]
      .map((_, i) => `<span class="imp${i < sc.imperials ? " on" : ""}"></span>`)
      .join("");
    const pct = Math.min(100, Math.round((sc.points / POINTS_PER_IMPERIAL) * 100));
    rows.push(
      `<tr class="${s === m.toAct ? "turn" : ""}${f.obs.winner === s ? " winner" : ""}">` +
        `<th scope="row">${view.scoreName(s)}</th>` +
        `<td><span class="imps" aria-label="${sc.imperials} / ${target}">${marks}</span> <b>${sc.imperials}</b></td>` +
        `<td><div class="pts" title="${esc(t("to_next", { n: POINTS_PER_IMPERIAL - sc.points }))}"><div class="pts-bar" data-pct="${pct}"></div>` +
        `<span>${sc.points}/${POINTS_PER_IMPERIAL}</span></div></td>` +
        `<td>${m.tricks[s]}</td></tr>`,
    );
  }
  return rows;
}

/** The game-over dialog's result: {title, body}. */
export function overResult({ obs, events, names, you }) {
  const end = [...events].reverse().find((e) => e.type === "game_over") || {};
  const winner = end.winner ?? obs.winner;
  const title = winner === you ? t("you_win") : t("winner_is", { name: names[winner] });
  const rows = obs.scores
    .map((sc, s) => {
      const stake = end.stakes ? end.stakes[s] : "";
      return `<tr class="${s === winner ? "first" : ""}"><td>${esc(names[s])}</td><td>${sc.imperials}</td><td>${sc.points}</td><td>${stake > 0 ? "+" : ""}${stake}</td></tr>`;
    })
    .join("");
  const body = `<table><thead><tr><th>${esc(t("player"))}</th><th>${esc(t("imperials"))}</th><th>${esc(t("points"))}</th><th>${esc(t("stakes"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  return { title, body };
}

// ------------------------------------------------------------------ score sheet

/** The titles a deal event carries: none in Imperial. */
export function dealTitles() {
  return null;
}

/** A score event into the sheet's row: points by reason, and the loose points now. */
export function scoreEvent(row, ev, loose) {
  row.points[ev.seat][ev.reason] = (row.points[ev.seat][ev.reason] || 0) + ev.points;
  loose[ev.seat] = ev.total;
}

/** A seat's cell in the score sheet's row of a deal. */
export function sheetCell(r, s) {
  const gained = r.marked[s] ? ` <span class="gain">(${signed(r.marked[s])})</span>` : "";
  return (
    `<td data-seat="${s}" data-imperials="${r.imperials[s]}" data-loose="${r.loose[s]}"` +
    ` data-tricks="${r.white ? "" : r.tricks[s]}">` +
    `<span class="sheet-imps">♛ ${r.imperials[s]}</span>${gained}` +
    ` · <span class="sheet-pts">${esc(t("sheet_points", { n: r.loose[s] }))}</span>` +
    (r.white ? "" : ` · <span class="muted">${esc(t("sheet_tricks", { n: r.tricks[s] }))}</span>`) +
    `</td>`
  );
}

/** The end-of-deal summary: {title, rows, extra} (rows of the table, notes under it). */
export function summary(record, names) {
  const seats = [...names.keys()];
  const rows = [];
  const extra = [];
  const title = t("summary_deal", { n: record.number });
  if (record.white) extra.push(termHtml("white", t("summary_white")));
  else rows.push(`<tr><th scope="row">${esc(t("tricks"))}</th>${seats.map((s) => cell(s, "tricks", record.tricks[s])).join("")}</tr>`);
  const reasons = new Set(seats.flatMap((s) => Object.keys(record.points[s])));
  const ordered = [...REASON_ORDER.filter((r) => reasons.has(r)), ...[...reasons].filter((r) => !REASON_ORDER.includes(r))];
  for (const r of ordered) {
    const cells = seats.map((s) => {
      const v = record.points[s][r] || 0;
      return cell(s, `points:${r}`, v, v ? signed(v) : "—");
    });
    rows.push(`<tr class="reason"><th scope="row">${termHtml(r, reasonWords(r))}</th>${cells.join("")}</tr>`);
  }
  const markCells = seats.map((s) => {
    const v = record.marked[s];
    const why = Object.keys(record.markReasons[s]).map((r) => termHtml(r, reasonWords(r))).join(", ");
    return cell(s, "marked", v, v ? `${signed(v)} <span class="muted">${why}</span>` : "—");
  });
  rows.push(`<tr class="marks"><th scope="row">${termHtml("imperial", t("summary_marked"))}</th>${markCells.join("")}</tr>`);
  if (seats.some((s) => record.wiped[s])) {
    const cells = seats.map((s) => cell(s, "wiped", record.wiped[s], record.wiped[s] ? `−${record.wiped[s]}` : "—"));
    rows.push(`<tr class="wipes"><th scope="row">${termHtml("wipe", t("summary_wiped"))}</th>${cells.join("")}</tr>`);
  }
  const now = seats.map((s) =>
    cell(s, "standing", `${record.imperials[s]}/${record.loose[s]}`, `♛ <b>${record.imperials[s]}</b> · ${esc(t("sheet_points", { n: record.loose[s] }))}`),
  );
  rows.push(`<tr class="now"><th scope="row">${esc(t("summary_now"))}</th>${now.join("")}</tr>`);
  for (const c of record.captures) {
    extra.push(suitColour(esc(t("summary_capture", { name: names[c.seat], card: cardLabel(c.card, lang()) }))));
  }
  return { title, rows, extra };
}

// ------------------------------------------------------------------ narration

/** One event in words; `previous` and `next` are its neighbours, `story` the deal's so far. */
export function narrate(ev, names, previous, next, story) {
  return narrateImperial(ev, names, previous, next, story);
}

/** The decision panel (a choice other than a card): Imperial has none. */
export function decision() {
  return null;
}
