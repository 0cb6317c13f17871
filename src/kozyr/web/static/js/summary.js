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

/** Whether the deal that ended at `events[end]` was watched, `seen` being how many events
 * the page already had when it first drew the table (a spectator's arrival, a reload):
 * from its start, or for at least one whole trick (the first trick seen may have been half
 * played already). A deal one only saw the end of gets no summary over the live table. */
export function watchedDeal(events, end, seen) {
  let start = -1;
  for (let i = end - 1; i >= 0; i--) {
    if (events[i].type === "deal") {
      start = i;
      break;
    }
  }
  if (start >= seen) return true;
  let tricks = 0;
  for (let i = Math.max(start, seen); i < end; i++) if (events[i].type === "trick") tricks++;
  return tricks >= 2;
}

/** The summary's title, table, notes and button. `heads`: the columns' names (short ones
 * on a phone, "You" for the reader's own seat); `names` name the players in the notes. */
export function summaryHtml(game, record, names, heads = names) {
  const head =
    `<tr><th scope="col"></th>` + heads.map((name) => `<th scope="col">${nameHtml(name)}</th>`).join("") + `</tr>`;
  const { title, rows, extra } = gameOf(game).summary(record, names);
  return (
    `<h2 class="summary-title">${esc(title)}</h2>` +
    `<div class="summary-body"><div class="sheet-wrap"><table class="summary-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>` +
    (extra.length ? `<ul class="summary-notes">${extra.map((x) => `<li>${x}</li>`).join("")}</ul>` : "") +
    `</div><button type="button" class="btn primary summary-close">${esc(t("summary_continue"))}</button>`
  );
}
