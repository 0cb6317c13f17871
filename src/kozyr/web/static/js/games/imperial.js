// What the page draws of Imperial alone (rulings I1-I13): the table's extras, the score
// panel, the game-over result, the score sheet's cells, the end-of-deal summary and the
// narration. games/emperor.js exports the same functions; games/index.js picks one.

import { cardLabel, suitWord } from "../cards.js";
import { lang, t } from "../i18n.js";
import { esc, nameHtml, suitColour, wholeName } from "../html.js";
import { cardsText, nameOf, newDealStory, reasonWords } from "../narrate.js";
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
  const title = winner === you ? t("you_win") : t("winner_is", { name: wholeName(names[winner]) });
  // The last column is the game's own result in game values (the option `stake`, I12),
  // never chips: those are the settlement's, under the table.
  const rows = obs.scores
    .map((sc, s) => {
      const value = end.stakes ? signed(end.stakes[s]) : "";
      return `<tr class="${s === winner ? "first" : ""}"><td>${nameHtml(names[s])}</td><td>${sc.imperials}</td><td>${sc.points}</td><td data-field="game-value">${value}</td></tr>`;
    })
    .join("");
  const body =
    `<table><thead><tr><th>${esc(t("player"))}</th><th>${esc(t("imperials"))}</th><th>${esc(t("points"))}</th>` +
    `<th title="${esc(t("stakes_about"))}">${esc(t("stakes"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
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
    // "+1 imperial", "+2 imperials" (the count agrees with its noun), then why, muted.
    const count = esc(t("summary_marked_n", { n: v }));
    return cell(s, "marked", v, v ? `${count} <span class="muted">(${why})</span>` : "—");
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

/** What a capture (I9) means at the moment it is made, from public events only:
 * "tombe" when it completes the imperial tombé (the mark follows it), "dead" when the other
 * card can no longer be captured by this player (already played, or shown in his own hand),
 * else "toward": one of the two cards. `deal` is the public story of the deal so far. */
function captureMeaning(ev, next, deal) {
  if (next && next.type === "mark" && next.seat === ev.seat && next.reason === "imperial tombé") {
    return { kind: "tombe" };
  }
  const suit = ev.card.slice(-1);
  const other = ev.card.startsWith("J") ? `A${suit}` : `J${suit}`;
  // Played already, and neither captured by him nor in this very trick (which he wins with
  // his K or Q, so it is his as well: three players may drop both J and A in one trick).
  const his = deal.capturedBy.get(other) === ev.seat || deal.lastTrick.has(other);
  if (deal.played.has(other) && !his) return { kind: "dead", other, why: "played" };
  if (deal.shownBy.get(other) === ev.seat) return { kind: "dead", other, why: "own" };
  return { kind: "toward", other };
}

function captureLine(ev, names, next, story) {
  const meaning = captureMeaning(ev, next, story || newDealStory());
  const params = {
    name: nameOf(names, ev.seat),
    card: cardsText([ev.card]),
    by: cardsText([ev.by]),
    other: meaning.other ? cardsText([meaning.other]) : "",
  };
  if (meaning.kind === "tombe") return { text: t("ev_capture_tombe", params), kind: "mark" };
  if (meaning.kind === "dead") {
    const key = meaning.why === "own" ? "ev_capture_own" : "ev_capture_played";
    return { text: t(key, params), kind: "trick" };
  }
  return { text: t("ev_capture_toward", params), kind: "declare" };
}

/** One Imperial event; `previous` is the event before it (an honour scored in play),
 * `next` the one after it and `story` the deal's public story (captures, I9). */
function narrateImperial(ev, names, previous, next = null, story = null) {
  const who = nameOf(names, ev.seat);
  switch (ev.type) {
    case "deal": {
      let text = t("ev_deal", {
        n: ev.number,
        dealer: nameOf(names, ev.dealer),
        trump: suitWord(ev.trump, lang()),
      });
      if (ev.turnup) text += ` (${t("ev_deal_turnup", { card: cardsText([ev.turnup]) })})`;
      if (ev.trump_card) {
        text += ` (${t("ev_deal_trump_card", { card: cardsText([ev.trump_card]) })})`;
      }
      return { text, kind: "head" };
    }
    case "white_imperial":
      return { text: t("ev_white", { name: who, cards: cardsText(ev.cards) }), kind: "mark" };
    case "declare": {
      if (ev.kind === "turnup") {
        return { text: t("ev_turnup", { name: who, cards: cardsText(ev.cards) }), kind: "declare" };
      }
      if (ev.kind === "imperials") {
        if (!ev.marked) {
          return { text: t("ev_imperials_unmarked", { name: who, n: ev.count }), kind: "declare" };
        }
        const list = (ev.imperials || [])
          .map((imp) =>
            t("ev_imperial_item", {
              kind: t(`kind_${imp.kind}`),
              turned: imp.turned ? t("ev_turned") : "",
              n: imp.count,
              cards: cardsText(imp.cards),
            }),
          )
          .join("; ");
        return { text: t("ev_imperials", { name: who, list }), kind: "declare" };
      }
      if (ev.kind === "point") {
        return {
          text: t("ev_point", {
            name: who,
            suit: suitWord(ev.suit, lang()),
            length: ev.length,
            value: ev.value,
          }),
          kind: "declare",
        };
      }
      if (ev.kind === "honours") {
        return { text: t("ev_honours", { name: who, cards: cardsText(ev.cards) }), kind: "declare" };
      }
      return { text: `${who}: ${ev.kind}`, kind: "declare" };
    }
    case "score": {
      let why = reasonWords(ev.reason);
      if (previous && previous.type === "play" && ev.rule === "I8") {
        why += ` ${cardsText([previous.card])}`;
      }
      return { text: t("ev_score", { name: who, n: ev.points, reason: why }), kind: "score" };
    }
    case "mark":
      return {
        text: t("ev_mark", { name: who, n: ev.imperials, reason: reasonWords(ev.reason), total: ev.total }),
        kind: "mark",
      };
    case "wipe":
      return {
        text: t("ev_wipe", { name: who, n: ev.points, by: nameOf(names, ev.by) }),
        kind: "wipe",
      };
    case "trick": {
      const cards = ev.cards.map(([s, c]) => `${nameOf(names, s)} ${cardsText([c])}`).join(", ");
      return {
        text: t("ev_trick", { n: ev.number, cards, winner: nameOf(names, ev.winner) }),
        kind: "trick",
      };
    }
    case "capture":
      return captureLine(ev, names, next, story);
    case "deal_end": {
      if (ev.tricks == null) return { text: t("ev_deal_end_white"), kind: "head" };
      const list = ev.tricks.map((n, s) => `${nameOf(names, s)} ${n}`).join(", ");
      return { text: t("ev_deal_end", { list }), kind: "head" };
    }
    case "game_over":
      return { text: t("ev_game_over", { name: nameOf(names, ev.winner) }), kind: "over" };
    default:
      return null;
  }
}

/** One event in words; `previous` and `next` are its neighbours, `story` the deal's so far. */
export function narrate(ev, names, previous, next, story) {
  return narrateImperial(ev, names, previous, next, story);
}

/** The button that shows a deal's summary again once it made way for your turn. */
export function summaryButton(n) {
  return t("summary_deal_again", { n });
}

/** The decision panel (a choice other than a card): Imperial has none. */
export function decision() {
  return null;
}

// ------------------------------------------------------------------ how to play (#29)

// The sections of the how-to-play page (kozyr/games/imperial/guide) that the table's Rules
// link opens, by what is happening at the table.
export const GUIDE = { declarations: "declarations", play: "play", over: "scoring" };

/** The how-to-play section that matters now: the declarations while a deal's are on the
 * table and no card of it is played yet (I6), the play after that, scoring once over. */
export function guideSection(model) {
  if (model.phase === "over") return GUIDE.over;
  const events = model.events || [];
  let i = events.length - 1;
  while (i >= 0 && events[i].type !== "deal" && events[i].type !== "play") i--;
  return i >= 0 && events[i].type === "deal" ? GUIDE.declarations : GUIDE.play;
}
