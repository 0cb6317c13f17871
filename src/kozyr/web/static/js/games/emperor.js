// What the page draws of Emperor alone (rulings E1-E12): the table's extras, the score
// panel, the decisions of the exchange, bargain and trumps, the game-over standing, the
// score sheet's cells, the end-of-round summary and the narration. games/imperial.js
// exports the same functions; games/index.js picks one.

import { suitIcon, suitWord } from "../cards.js";
import { lang, t } from "../i18n.js";
import { esc, nameHtml, suitColour, wholeName } from "../html.js";
import { cardsText, nameOf, titleWord, trumpWords } from "../narrate.js";
import { termHtml } from "../glossary.js";
import { cell, signed } from "./common.js";

/** The observation's game-specific parts, as the table view's model names them. */
export function modelExtras(obs, n) {
  return {
    phase: obs.phase,
    shown: [...Array(n)].map((_, s) => obs.known?.[String(s)] || []),
    header: t("round_n", { n: obs.round, of: obs.options.rounds }),
    // E5: the card shown for trumps belongs to round 1 only.
    trumpCard: obs.round === 1 ? obs.trump_card : null,
  };
}

/** The lobby's line of a table's options. */
export function optionsLine(o) {
  return t("rounds_n", { n: o.rounds });
}

/** A seat's standing under its name on the felt. */
export function seatMeta(obs, m, s) {
  return `<span>${esc(t("total"))}: <b>${m.totals[s]}</b></span>`;
}

/** What the cards others may see in a seat's hand are called. */
export function shownLabel() {
  return t("known_cards");
}

/** The score panel's rows, in title order. */
export function scoreRows(view) {
  const m = view.model;
  const f = view.frame;
  const rows = [];
  const order = f.obs.title_order || [...Array(m.n).keys()];
  for (const s of order) {
    const title = m.titles[s];
    rows.push(
      `<tr class="${s === m.toAct ? "turn" : ""}">` +
        `<th scope="row">${view.scoreName(s)}</th>` +
        `<td>${title ? `<span class="pill title t-${title}">${esc(titleWord(title))}</span>` : "—"}</td>` +
        `<td>${m.tricks[s]}</td><td><b>${m.totals[s]}</b></td></tr>`,
    );
  }
  return rows;
}

/** The game-over dialog's result: {title, body}. */
export function overResult({ obs, events, names, you }) {
  const end = [...events].reverse().find((e) => e.type === "game_over") || {};
  const standing = end.places || end.standing || obs.standing || [];
  const title = standing[0] === you ? t("you_win") : t("winner_is", { name: wholeName(names[standing[0]]) });
  const rows = standing
    .map(
      (s, i) =>
        `<tr class="${i === 0 ? "first" : ""}"><td>${i + 1}</td><td>${nameHtml(names[s])}</td><td>${esc(titleWord(end.ranks?.[s]))}</td><td>${end.totals?.[s] ?? obs.totals[s]}</td></tr>`,
    )
    .join("");
  const body = `<h3>${esc(t("standing"))}</h3><table><thead><tr><th>${esc(t("place"))}</th><th>${esc(t("player"))}</th><th>${esc(t("title"))}</th><th>${esc(t("total"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  return { title, body };
}

/** The decision panel when the player must choose something other than a card:
 * {title, text, buttons: [[action, label, class, icon?, words?]]}; `words` says the whole
 * choice where the button's label is short (it must fit a phone's felt with the others). */
export function decision(view) {
  const m = view.model;
  const obs = view.frame.obs;
  let title;
  let text;
  const buttons = [];
  const has = (a) => m.choices.includes(a);
  if (m.phase === "exchange") {
    // on a phone the players by their short names, three buttons to a row
    const short = view.extras.narrowNames();
    title = t("exchange_title");
    text = t("exchange_prompt");
    if (obs.round >= obs.options.bargain_from) text += ` ${t("exchange_bargain_note")}`;
    for (const a of m.choices) {
      if (a.startsWith("swap ")) {
        const target = Number(a.slice(5));
        const tt = m.titles[target];
        const title = tt ? ` (${titleWord(tt)})` : "";
        const words = t("take_hand_of", { name: view.plainName(target) }) + title;
        buttons.push([a, (short?.[target] ?? view.plainName(target)) + title, "primary", "", words]);
      }
    }
    if (has("pass")) buttons.push(["pass", t("pass"), ""]);
  } else if (m.phase === "bargain" && has("accept")) {
    const offer = obs.offers[obs.offers.length - 1] || { target: 0, tricks: 0 };
    title = t("answer_title");
    text = t("answer_prompt", { name: view.plainName(offer.target), k: offer.tricks });
    buttons.push(["accept", t("accept"), "primary"], ["refuse", t("refuse"), ""]);
  } else if (m.phase === "bargain") {
    const swap = [...obs.swaps].reverse().find((s) => s.result === "pending") || obs.swaps[obs.swaps.length - 1];
    title = t("bargain_title");
    text = t("bargain_prompt", { name: swap ? view.plainName(swap.taker) : "?" });
    for (const a of m.choices) {
      if (a.startsWith("offer ")) {
        const k = a.slice(6);
        buttons.push([a, t("offer_short", { k }), "primary", "", t("offer_k", { k })]);
      }
    }
    if (has("yield")) buttons.push(["yield", t("give_in"), ""]);
  } else if (m.phase === "trump") {
    title = t("trump_title");
    text = t("trump_prompt");
    for (const a of m.choices) {
      const s = a.slice(6);
      if (s === "NT") buttons.push([a, t("no_trumps"), "nt"]);
      else buttons.push([a, trumpWords(s), `suit suit-${s}`, suitIcon(s, 22)]);
    }
  } else {
    title = t("your_choice");
    text = "";
    for (const a of m.choices) buttons.push([a, a, ""]);
  }
  return { title, text, buttons };
}

// ------------------------------------------------------------------ score sheet

/** The titles a deal event carries (from round 2; round 1 has none). */
export function dealTitles(ev) {
  return ev.titles || null;
}

/** A score event into the sheet's row: the seat's total now. */
export function scoreEvent(row, ev, loose, totals) {
  totals[ev.seat] = ev.total;
}

/** A seat's cell in the score sheet's row of a round. */
export function sheetCell(r, s) {
  const move = r.transfers[s] ? ` <span class="gain">${esc(t("sheet_bargain", { n: signed(r.transfers[s]) }))}</span>` : "";
  const title = r.titlesAfter?.[s] ? ` <span class="muted">${esc(titleWord(r.titlesAfter[s]))}</span>` : "";
  return (
    `<td data-seat="${s}" data-tricks="${r.tricks[s]}" data-transfer="${r.transfers[s]}" data-total="${r.totals[s]}">` +
    `${r.tricks[s]}${move} = <b>${r.totals[s]}</b>${title}</td>`
  );
}

/** The end-of-round summary: {title, rows, extra} (rows of the table, notes under it). */
export function summary(record, names) {
  const seats = [...names.keys()];
  const rows = [];
  const extra = [];
  const title = t("summary_round", { n: record.number });
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
  return { title, rows, extra };
}

/** The button that shows a round's summary again once it made way for your turn. */
export function summaryButton(n) {
  return t("summary_round_again", { n });
}

// ------------------------------------------------------------------ narration

function whyText(why, names) {
  const group = (why.seats || []).map((s) => nameOf(names, s)).join(", ");
  const key = { first_trick: "why_first_trick", previous_order: "why_previous_order", last_titles: "why_last_titles" }[why.by];
  return key ? t(key, { names: group }) : String(why.text || "");
}

/** One Emperor event. */
function narrateEmperor(ev, names) {
  const who = nameOf(names, ev.seat);
  switch (ev.type) {
    case "deal": {
      if (ev.number === 1) {
        return {
          text: t("ev_round1", {
            trump: trumpWords(ev.trump),
            card: cardsText([ev.trump_card]),
            leader: nameOf(names, ev.leader),
          }),
          kind: "head",
        };
      }
      const titles = ev.order.map((s) => `${titleWord(ev.titles[s])} ${nameOf(names, s)}`).join(", ");
      let text = t("ev_round", { n: ev.number, titles });
      if (ev.bargaining) text += t("ev_bargaining_on");
      return { text, kind: "head" };
    }
    case "pass":
      return { text: t("ev_pass", { name: who }), kind: "declare" };
    case "swap":
      return {
        text: t(ev.happened ? "ev_swap" : "ev_swap_named", {
          taker: nameOf(names, ev.taker),
          target: nameOf(names, ev.target),
        }),
        kind: ev.happened ? "mark" : "declare",
      };
    case "offer":
      return { text: t("ev_offer", { name: who, n: ev.tricks }), kind: "declare" };
    case "accept":
      return {
        text: t("ev_accept", { name: who, target: nameOf(names, ev.target), n: ev.tricks }),
        kind: "mark",
      };
    case "refuse":
      return { text: t("ev_refuse", { name: who }), kind: "declare" };
    case "yield":
      return { text: t("ev_yield", { name: who, taker: nameOf(names, ev.taker) }), kind: "mark" };
    case "trump":
      if (ev.trump === "NT") return { text: t("ev_trump_nt", { name: who }), kind: "declare" };
      return { text: t("ev_trump", { name: who, trump: trumpWords(ev.trump) }), kind: "declare" };
    case "trick": {
      const cards = ev.cards.map(([s, c]) => `${nameOf(names, s)} ${cardsText([c])}`).join(", ");
      return {
        text: t("ev_trick", { n: ev.number, cards, winner: nameOf(names, ev.winner) }),
        kind: "trick",
      };
    }
    case "deal_end": {
      const tricks = ev.tricks.map((n, s) => `${nameOf(names, s)} ${n}`).join(", ");
      const titles = ev.order.map((s) => `${titleWord(ev.titles[s])} ${nameOf(names, s)}`).join(", ");
      const lines = [t("ev_round_end", { tricks, titles })];
      for (const why of ev.why || []) lines.push(whyText(why, names));
      return { text: lines.join("\n"), kind: "head" };
    }
    case "game_over": {
      const list = ev.places
        .map((s) => `${titleWord(ev.ranks[s])} ${nameOf(names, s)} (${ev.totals[s]})`)
        .join(", ");
      const lines = [t("ev_standing", { list })];
      for (const why of ev.why || []) lines.push(whyText(why, names));
      return { text: lines.join("\n"), kind: "over" };
    }
    default:
      return null;
  }
}

/** One event in words (Emperor's narration needs no neighbours). */
export function narrate(ev, names) {
  return narrateEmperor(ev, names);
}

// ------------------------------------------------------------------ how to play (#29)

// The sections of the how-to-play page (kozyr/games/emperor/guide) that the table's Rules
// link opens, by the phase of the round (E5-E10).
export const GUIDE = {
  deal: "dealing",
  exchange: "swaps",
  bargain: "bargaining",
  trump: "king",
  play: "play",
  over: "scoring",
};

/** The how-to-play section that matters now, by the phase of the round. */
export function guideSection(model) {
  return GUIDE[model.phase] || GUIDE.play;
}
