// The score sheet: one row per Imperial deal or Emperor round, read from the public events
// alone (docs/engine-api.md), so the table, the game-over dialog and the replay agree.

import { lang, t } from "./i18n.js";
import { esc } from "./html.js";
import { gameOf } from "./games/index.js";

/** Per deal (Imperial) or round (Emperor): what each seat took, scored, marked and lost. */
export function dealRecords(game, events, n) {
  const g = gameOf(game);
  const rows = [];
  let row = null;
  const loose = Array(n).fill(0);
  const imps = Array(n).fill(0);
  let totals = Array(n).fill(0);
  let titles = Array(n).fill(null);
  const fresh = (ev) => ({
    number: ev.number,
    complete: false,
    white: false,
    trump: ev.trump ?? null,
    tricks: Array(n).fill(0),
    points: [...Array(n)].map(() => ({})), // reason -> points scored
    marked: Array(n).fill(0),
    markReasons: [...Array(n)].map(() => ({})), // reason -> imperials marked
    wiped: Array(n).fill(0),
    captures: [],
    transfers: Array(n).fill(0), // Emperor: tricks bought off (E8), + to the taker
    bargains: [], // {taker, target, tricks}
    swaps: [], // {taker, target}
    titlesBefore: [...titles],
    titlesAfter: null,
    loose: null,
    imperials: null,
    totals: null,
  });
  for (const ev of events) {
    if (ev.type === "deal") {
      if (row) finish(row);
      const dealt = g.dealTitles(ev);
      if (dealt) titles = [...dealt];
      row = fresh(ev);
      rows.push(row);
      continue;
    }
    if (!row) continue;
    switch (ev.type) {
      case "white_imperial":
        row.white = true;
        break;
      case "trick":
        row.tricks[ev.winner] += 1;
        break;
      case "score":
        g.scoreEvent(row, ev, loose, totals);
        break;
      case "mark":
        row.marked[ev.seat] += ev.imperials;
        row.markReasons[ev.seat][ev.reason] = (row.markReasons[ev.seat][ev.reason] || 0) + ev.imperials;
        imps[ev.seat] = ev.total;
        if (ev.loose != null) loose[ev.seat] = ev.loose;
        break;
      case "wipe":
        row.wiped[ev.seat] += ev.points;
        loose[ev.seat] = 0;
        break;
      case "capture":
        row.captures.push({ seat: ev.seat, card: ev.card });
        break;
      case "trump":
        row.trump = ev.trump; // E9: the King names it after the exchange
        break;
      case "swap":
        if (ev.happened) row.swaps.push({ taker: ev.taker, target: ev.target });
        break;
      case "yield":
        row.swaps.push({ taker: ev.taker, target: ev.seat });
        break;
      case "accept":
        // E8: the target (who offered) pays the taker (who accepts).
        row.bargains.push({ taker: ev.seat, target: ev.target, tricks: ev.tricks });
        row.transfers[ev.seat] += ev.tricks;
        row.transfers[ev.target] -= ev.tricks;
        break;
      case "deal_end":
        row.complete = true;
        if (ev.tricks == null) row.white = true;
        else row.tricks = [...ev.tricks];
        if (ev.totals) totals = [...ev.totals];
        if (ev.titles) {
          row.titlesAfter = [...ev.titles];
          titles = [...ev.titles];
        }
        finish(row);
        break;
      case "game_over":
        if (ev.totals) totals = [...ev.totals];
        if (ev.imperials) ev.imperials.forEach((v, s) => (imps[s] = v));
        finish(row);
        break;
      default:
        break;
    }
  }
  if (row) finish(row);
  return rows;

  function finish(r) {
    r.loose = [...loose];
    r.imperials = [...imps];
    r.totals = [...totals];
  }
}

function sum(obj) {
  return Object.values(obj).reduce((a, b) => a + b, 0);
}

export function pointsOf(row, seat) {
  return sum(row.points[seat]);
}

/** The sheet as an HTML table: a row per deal or round, a column per seat. `short`: the
 * seats' short names for the columns' heads where the screen is narrow (the full name
 * stays in each head's title). `you`: the viewer's seat, whose column is "You", as in
 * the score panel (his name in its title). */
export function sheetHtml(game, events, names, short = null, you = null) {
  const n = names.length;
  const rows = dealRecords(game, events, n);
  const g = gameOf(game);
  const head =
    // sheet_deal or sheet_round
    `<tr><th scope="col">${esc(t(`sheet_${g.unit}`))}</th>` +
    names
      .map((name, s) => {
        if (s === you) return `<th scope="col" class="you" title="${esc(name)}">${esc(t("you"))}</th>`;
        return short?.[s] && short[s] !== name
          ? `<th scope="col" title="${esc(name)}">${esc(short[s])}</th>`
          : `<th scope="col">${esc(name)}</th>`;
      })
      .join("") +
    `</tr>`;
  const body = rows
    .map((r) => {
      const cells = names
        .map((_, s) => g.sheetCell(r, s))
        .join("");
      // A deal the game ended in (a mark reached the target) has no end of its own.
      const open = r.complete ? "" : ` title="${esc(t("sheet_unfinished"))}"`;
      const label = `${r.number}${r.complete ? "" : "…"}`;
      return `<tr data-number="${r.number}"><th scope="row"${open}>${esc(label)}</th>${cells}</tr>`;
    })
    .join("");
  const empty = rows.length ? "" : `<p class="muted">${esc(t("sheet_empty"))}</p>`;
  return `<div class="sheet-wrap" lang="${lang()}"><table class="sheet"><thead>${head}</thead><tbody>${body}</tbody></table>${empty}</div>`;
}
