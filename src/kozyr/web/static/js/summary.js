// The summary shown when an Imperial deal or an Emperor round ends: tricks, points by
// reason, marks and wipes (Imperial); tricks, bargains, totals and title changes (Emperor).

import { cardLabel, suitWord } from "./cards.js";
import { lang, t } from "./i18n.js";
import { reasonWords, titleWord } from "./narrate.js";
import { dealRecords } from "./scoresheet.js";
import { termHtml } from "./glossary.js";
import { esc, suitColour } from "./html.js";

// Imperial reasons in the order they happen in a deal (I6, I8, I9, I10).
const REASON_ORDER = [
  "turnup",
  "imperials",
  "point",
  "honours",
  "honour led",
  "honour heads the trick",
  "tricks",
  "capot",
];

function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

function cell(s, field, value, text = value) {
  return `<td data-seat="${s}" data-field="${field}" data-value="${value}">${text}</td>`;
}

/** The record of deal `number` (the last one ended when null). */
export function endedDeal(game, events, n, number = null) {
  const rows = dealRecords(game, events, n);
  if (number == null) return [...rows].reverse().find((r) => r.complete) || null;
  return rows.find((r) => r.number === number) || null;
}

export function summaryHtml(game, record, names) {
  const n = names.length;
  const seats = [...Array(n).keys()];
  const head =
    `<tr><th scope="col"></th>` + names.map((name) => `<th scope="col">${esc(name)}</th>`).join("") + `</tr>`;
  const rows = [];
  const extra = [];
  let title;
  if (game === "imperial") {
    title = t("summary_deal", { n: record.number });
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
  } else {
    title = t("summary_round", { n: record.number });
    const trump = record.trump === "NT" ? t("no_trumps") : record.trump ? suitWord(record.trump, lang()) : t("trump_unnamed");
    extra.push(`<span data-trump="${esc(record.trump ?? "")}">${suitColour(esc(`${t("trump")}: ${trump}`))}</span>`);
    rows.push(`<tr><th scope="row">${esc(t("tricks"))}</th>${seats.map((s) => cell(s, "tricks", record.tricks[s])).join("")}</tr>`);
    if (seats.some((s) => record.transfers[s])) {
      const cells = seats.map((s) => cell(s, "transfer", record.transfers[s], record.transfers[s] ? signed(record.transfers[s]) : "—"));
      rows.push(`<tr class="reason"><th scope="row">${termHtml("bargain", t("summary_bargains"))}</th>${cells.join("")}</tr>`);
    }
    rows.push(`<tr class="now"><th scope="row">${esc(t("total"))}</th>${seats.map((s) => cell(s, "total", record.totals[s], `<b>${record.totals[s]}</b>`)).join("")}</tr>`);
    if (record.titlesAfter) {
      const cells = seats.map((s) => {
        const before = record.titlesBefore[s];
        const after = record.titlesAfter[s];
        const text = before && before !== after ? `${esc(titleWord(before))} → <b>${esc(titleWord(after))}</b>` : esc(titleWord(after));
        return cell(s, "title", after, text);
      });
      rows.push(`<tr class="titles"><th scope="row">${esc(t("title"))}</th>${cells.join("")}</tr>`);
    }
    for (const sw of record.swaps) {
      const what = esc(t("summary_swap", { taker: names[sw.taker], target: names[sw.target] }));
      extra.push(`${termHtml("swap", t("exchange_title"))}: ${what}`);
    }
    for (const b of record.bargains) {
      extra.push(esc(t("summary_bargain", { taker: names[b.taker], target: names[b.target], n: b.tricks })));
    }
  }
  return (
    `<h2 class="summary-title">${esc(title)}</h2>` +
    `<div class="sheet-wrap"><table class="summary-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>` +
    (extra.length ? `<ul class="summary-notes">${extra.map((x) => `<li>${x}</li>`).join("")}</ul>` : "") +
    `<button type="button" class="btn primary summary-close">${esc(t("summary_continue"))}</button>`
  );
}
