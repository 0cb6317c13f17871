// Public events in plain words, as the terminal tells them (kozyr/terminal/*_view.py).
// Each function returns {text, kind} or null for events not worth a line.

import { cardLabel, suitWord } from "./cards.js";
import { lang, t } from "./i18n.js";
import { gameOf } from "./games/index.js";

const REASON_KEYS = {
  turnup: "reason_turnup",
  imperials: "reason_imperials",
  point: "reason_point",
  honours: "reason_honours",
  "honour led": "reason_honour_led",
  "honour heads the trick": "reason_honour_heads",
  "imperial tombé": "reason_tombe",
  capot: "reason_capot",
  tricks: "reason_tricks",
  "24 points": "reason_24",
  "white imperial": "reason_white",
};

export function cardsText(list) {
  return (list || []).map((c) => cardLabel(c, lang())).join(" ");
}

function nameOf(names, seat) {
  return Number.isInteger(seat) && seat >= 0 && seat < names.length ? names[seat] : String(seat);
}

export function trumpWords(trump) {
  if (trump === "NT") return t("no_trumps");
  if (trump == null) return t("trump_unnamed");
  return suitWord(trump, lang());
}

export function titleWord(title) {
  return title ? t(`title_${title}`) : t("no_title");
}

function reason(r) {
  return REASON_KEYS[r] ? t(REASON_KEYS[r]) : r;
}

/** A score or mark reason of the engines in words ("imperial tombé" -> "империал томбе"). */
export const reasonWords = reason;

/** What a capture (I9) means at the moment it is made, from public events only:
 * "tombe" when it completes the imperial tombé (the mark follows it), "dead" when the other
 * card can no longer be captured by this player (already played, or shown in his own hand),
 * else "toward": one of the two cards. `deal` is the public story of the deal so far. */
export function captureMeaning(ev, next, deal) {
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

/** The public story of a deal that captures need: cards played, cards shown by whom. */
export function newDealStory() {
  return { played: new Set(), shownBy: new Map(), capturedBy: new Map(), lastTrick: new Set() };
}

export function tellDealStory(story, ev) {
  if (ev.type === "play") story.played.add(ev.card);
  if (ev.type === "trick") story.lastTrick = new Set(ev.cards.map(([, c]) => c));
  if (ev.type === "capture") story.capturedBy.set(ev.card, ev.seat);
  if (ev.type === "declare") {
    const cards = [...(ev.cards || []), ...(ev.imperials || []).flatMap((imp) => imp.cards || [])];
    for (const c of cards) story.shownBy.set(c, ev.seat);
  }
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
export function narrateImperial(ev, names, previous, next = null, story = null) {
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
      let why = reason(ev.reason);
      if (previous && previous.type === "play" && ev.rule === "I8") {
        why += ` ${cardsText([previous.card])}`;
      }
      return { text: t("ev_score", { name: who, n: ev.points, reason: why }), kind: "score" };
    }
    case "mark":
      return {
        text: t("ev_mark", { name: who, n: ev.imperials, reason: reason(ev.reason), total: ev.total }),
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

function whyText(why, names) {
  const group = (why.seats || []).map((s) => nameOf(names, s)).join(", ");
  const key = { first_trick: "why_first_trick", previous_order: "why_previous_order", last_titles: "why_last_titles" }[why.by];
  return key ? t(key, { names: group }) : String(why.text || "");
}

/** One Emperor event. */
export function narrateEmperor(ev, names) {
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

/** Narrates a whole event list of a game into lines, keeping the context each needs. */
export function narrateAll(game, events, names) {
  const g = gameOf(game);
  const out = [];
  let previous = null;
  let story = newDealStory();
  for (const [i, ev] of events.entries()) {
    if (ev.type === "deal") story = newDealStory();
    const line = g.narrate(ev, names, previous, events[i + 1] || null, story);
    tellDealStory(story, ev);
    previous = ev;
    if (line) out.push(line);
  }
  return out;
}

/** An action text ("QS", "swap 2", "offer 1", "trump NT") in words. */
export function actionWords(action, names) {
  if (/^(10|[2-9JQKA])[SHDC]$/.test(action)) return cardsText([action]);
  const [verb, arg] = action.split(" ");
  switch (verb) {
    case "swap":
      return t("take_hand_of", { name: nameOf(names, Number(arg)) });
    case "pass":
      return t("pass");
    case "offer":
      return t("offer_k", { k: arg });
    case "accept":
      return t("accept");
    case "refuse":
      return t("refuse");
    case "yield":
      return t("give_in");
    case "trump":
      return `${t("trump")}: ${trumpWords(arg)}`;
    default:
      return action;
  }
}
