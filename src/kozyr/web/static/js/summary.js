// The summary shown when an Imperial deal or an Emperor round ends: tricks, points by
// reason, marks and wipes (Imperial); tricks, bargains, totals and title changes (Emperor).

import { t } from "./i18n.js";
import { dealRecords } from "./scoresheet.js";
import { esc, nameHtml } from "./html.js";
import { gameOf } from "./games/index.js";

/** The record of deal `number` (the last one ended when null). */
export function endedDeal(game, events, n, number = null) {
  const rows = dealRecords(game, events, n);
  if (number == null) return [...rows].reverse().find((r) => r.complete) || null;
  return rows.find((r) => r.number === number) || null;
}

export function summaryHtml(game, record, names) {
  const head =
    `<tr><th scope="col"></th>` + names.map((name) => `<th scope="col">${nameHtml(name)}</th>`).join("") + `</tr>`;
  const { title, rows, extra } = gameOf(game).summary(record, names);
  return (
    `<h2 class="summary-title">${esc(title)}</h2>` +
    `<div class="sheet-wrap"><table class="summary-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>` +
    (extra.length ? `<ul class="summary-notes">${extra.map((x) => `<li>${x}</li>`).join("")}</ul>` : "") +
    `<button type="button" class="btn primary summary-close">${esc(t("summary_continue"))}</button>`
  );
}
