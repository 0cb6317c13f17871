// The table of either game, drawn from one observation (`obs.to_json()` of the engines)
// plus the seats' names and connection states. Used for playing, watching and replays.
//
// The view never decides a rule: legal cards and choices come from the observation.
// Animations are CSS only and never block input: the new state is interactive at once.

import { backSvg, cardLabel, cardSvg, cardWords, miniSvg, readTyped, sortHand, suitIcon } from "./cards.js";
import { lang, t } from "./i18n.js";
import { narrateAll, titleWord, trumpWords } from "./narrate.js";
import { stakePillHtml } from "./stakes.js";
import { TableExtras } from "./table_extras.js";
import { HintControl } from "./hints.js";
import { gameOf, gameTitle } from "./games/index.js";

// The felt's strip kept under the trick for the note "X takes the trick": the note's
// offset from the felt's bottom and its height (.felt-note in the CSS) and a gap of 4 px.
const NOTE_ROOM = 8 + 20 + 4;
// The least room between the turned-up card and a seat's box (fitTable).
const DECK_GAP = 4;
// The narrowest trick card a replay grows its felt for rather than draw smaller (placeTrick).
const TRICK_READABLE = 40;

const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colours the red suit symbols of a text (already escaped). */
export function suitColour(html) {
  return html.replace(/[♥♦]/g, (s) => `<span class="red">${s}</span>`);
}

/** Keeps a container's children in step with a keyed list; new children get `isNew`. */
function reconcile(container, items, key, create, update) {
  const existing = new Map();
  for (const el of [...container.children]) existing.set(el.dataset.key, el);
  let prev = null;
  for (const [i, item] of items.entries()) {
    const k = key(item);
    let el = existing.get(k);
    const isNew = !el;
    if (isNew) {
      el = create(item, i);
      el.dataset.key = k;
    } else existing.delete(k);
    update(el, item, i, isNew);
    const want = prev ? prev.nextSibling : container.firstChild;
    if (want !== el) container.insertBefore(el, want);
    prev = el;
  }
  for (const el of existing.values()) el.remove();
}

/** What the view draws: both games' observations share their names (docs/engine-api.md);
 * only the game's own extras are picked here. */
export function tableModel(game, obs) {
  const n = obs.hand_sizes.length;
  const { phase, shown, header, trumpCard } = gameOf(game).modelExtras(obs, n);
  return {
    game,
    n,
    seat: obs.seat,
    toAct: obs.to_act,
    over: obs.over,
    hand: obs.hand || [],
    handSizes: obs.hand_sizes,
    events: obs.events || [],
    trump: obs.trump,
    trumpKnown: obs.trump != null,
    legal: new Set(phase === "play" ? obs.legal_actions : []),
    choices: phase === "play" ? [] : obs.legal_actions,
    trick: obs.trick.map(([s, c]) => ({ seat: s, card: c })),
    tricks: obs.tricks,
    phase,
    shown,
    header,
    dealer: obs.dealer,
    turnup: obs.turnup,
    trumpCard,
    totals: obs.totals,
    titles: obs.titles,
  };
}

export class TableView {
  /**
   * root: the element to draw into. onAction(text): sends an action ("QS", "swap 2", ...).
   */
  constructor(root, { onAction = () => {}, replay = false, errorText } = {}) {
    this.root = root;
    this.onAction = onAction;
    this.replay = replay;
    this.frame = null;
    this.model = null;
    this.lastDealKey = null;
    this.lingering = null; // the trick just completed, shown while it is gathered
    this.seenTrickEvents = -1;
    this.typed = "";
    this.typedAt = 0;
    this.pending = null; // the action sent and not yet answered by a new frame
    this.timerHandle = null;
    this.fairOpen = false; // the seed's fingerprint explained in full
    this.raised = null; // the card a first tap raised (touch screens)
    this.pointer = null; // the kind of the last pointer on the hand: mouse, touch or pen
    this.handInView = false; // the page scrolled the first hand into view (keepHandInView)
    this.build();
    this.extras = new TableExtras(this); // #16B: deal summaries, score sheet, last trick
    this.hints = new HintControl(this, { errorText }); // #15: at tables that allow hints
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.resizeHandler = () => this.fit();
    window.addEventListener("resize", this.resizeHandler);
    // The felt takes what the bars and the hand leave: whenever one of them changes
    // height (a badge wraps, a timer shows, the header gets an item), it is sized again.
    this.sizer = new ResizeObserver(() => this.fit());
    for (const el of [document.querySelector("body > header"), this.el(".table-bar"), this.el(".hand-area")]) {
      if (el) this.sizer.observe(el);
    }
  }

  destroy() {
    document.removeEventListener("keydown", this.keyHandler);
    window.removeEventListener("resize", this.resizeHandler);
    this.sizer.disconnect();
    clearInterval(this.timerHandle);
    clearTimeout(this.lingerHandle);
    this.extras.destroy();
    this.root.innerHTML = "";
  }

  build() {
    this.root.innerHTML = `
      <div class="table-bar">
        <div class="bar-game"></div>
        <div class="bar-trump" aria-live="polite"></div>
        <div class="bar-status" role="status" aria-live="polite"></div>
        <div class="bar-extra"></div>
      </div>
      <div class="table-main">
        <div class="felt" role="region">
          <div class="seats"></div>
          <div class="deck-corner"></div>
          <div class="trick-area" role="list"></div>
          <div class="felt-note"></div>
          <div class="decision" hidden></div>
        </div>
        <aside class="side">
          <section class="panel score-panel" aria-labelledby="score-head">
            <h2 id="score-head"></h2>
            <div class="score-body"></div>
          </section>
          <section class="panel feed-panel" aria-labelledby="feed-head">
            <h2 id="feed-head"></h2>
            <ol class="feed" role="log" aria-live="polite" aria-relevant="additions"></ol>
          </section>
        </aside>
      </div>
      <div class="hand-area">
        <div class="me-line"></div>
        <div class="hand" role="listbox" aria-orientation="horizontal"></div>
        <div class="hand-hint"></div>
      </div>`;
    this.el = (sel) => this.root.querySelector(sel);
    const hand = this.el(".hand");
    // A finger cannot hover: on a touch screen the first tap raises a card and only a
    // second tap on the raised card plays it, so a slip onto a neighbour costs nothing.
    hand.addEventListener("pointerdown", (e) => {
      this.pointer = e.pointerType;
    });
    hand.addEventListener("click", (e) => {
      const btn = e.target.closest(".card");
      if (!btn || btn.classList.contains("back")) return;
      const kind = e.pointerType || this.pointer;
      if ((kind === "touch" || kind === "pen") && this.raised !== btn.dataset.key) {
        this.raise(btn.dataset.key);
        return;
      }
      this.raise(null);
      this.tryPlay(btn.dataset.key);
    });
    this.el(".decision").addEventListener("click", (e) => {
      const btn = e.target.closest("button[data-action]");
      if (btn) this.send(btn.dataset.action);
    });
    // The seed's fingerprint: a tap or click shows the explanation and the whole hash
    // (a title alone never shows on a phone).
    this.el(".table-bar").addEventListener("click", (e) => {
      if (!e.target.closest(".fair")) return;
      this.fairOpen = !this.fairOpen;
      this.renderBar();
    });
  }

  /**
   * frame: {game, obs, mySeat, names, seats: [{name, bot, connected}], deadline,
   *         spectators, hands (replay: every seat's hand), hints and tableId (a table
   *         that allows hints: the hint button on your turn)}
   */
  update(frame) {
    const prev = this.model;
    // The same view drawn again (a seat's connection changed, say) keeps the intent in
    // flight: clicking again must not send a second one.
    const sameView = frame.seq != null && this.frame?.seq === frame.seq;
    this.frame = frame;
    this.model = tableModel(frame.game, frame.obs);
    if (!sameView) this.pending = null;
    this.noteTrick(prev);
    this.render(prev);
    this.extras.update(prev);
  }

  /** Re-draws in the current language. */
  relabel() {
    if (this.frame) {
      this.model = tableModel(this.frame.game, this.frame.obs);
      this.render(this.model);
      this.extras.relabel();
    }
  }

  names() {
    const f = this.frame;
    return [...Array(this.model.n)].map((_, s) => {
      const name = f.seats?.[s]?.name || t("seat_n", { n: s + 1 });
      return s === f.mySeat ? `${name} (${t("you").toLowerCase()})` : name;
    });
  }

  plainName(s) {
    return this.frame.seats?.[s]?.name || t("seat_n", { n: s + 1 });
  }

  /** Every seat's name as narrow places show it: computers by number ("Comp 3"), people
   * with long names by initials and seat number; never two the same. */
  shortNames() {
    const short = [...Array(this.model.n)].map((_, s) => {
      if (this.frame.seats?.[s]?.bot) return t("bot_short", { n: s + 1 });
      const name = this.plainName(s).trim();
      if ([...name].length <= 8) return name;
      // "Computer 2", "Seat 3" (a replay's names): the word cut short, the number kept
      const numbered = name.match(/^(\S+)\s+(\d+)$/);
      if (numbered) return `${[...numbered[1]].slice(0, 4).join("")}. ${numbered[2]}`;
      const words = name.split(/\s+/);
      if (words.length > 1) return `${words.slice(0, 2).map((w) => [...w][0].toUpperCase()).join("")} ${s + 1}`;
      return `${[...name].slice(0, 7).join("")}…`; // told apart by seat below if need be
    });
    return short.map((name, s) =>
      short.indexOf(name) !== short.lastIndexOf(name) ? `${name} ${s + 1}` : name,
    );
  }

  /** The full name where it fits, else the short one; the full name always on hover. */
  fitName(el, full, short) {
    el.title = full;
    el.dataset.short = short;
    el.textContent = full;
    if (el.scrollWidth > el.clientWidth + 1) el.textContent = short;
  }

  /** The seats' names fitted again (the window changed). */
  fitNames() {
    for (const el of this.root.querySelectorAll(".seat-name[data-short]")) {
      this.fitName(el, el.title, el.dataset.short);
    }
  }

  position(seat) {
    const m = this.model;
    const bottom = this.frame.mySeat ?? this.frame.bottomSeat ?? 0;
    return POSITIONS[m.n][(seat - bottom + m.n) % m.n];
  }

  // A completed trick stays in the middle a moment and is then gathered to its winner.
  noteTrick(prev) {
    const events = this.model.events;
    let idx = -1;
    for (let i = events.length - 1; i >= 0; i--) {
      if (events[i].type === "trick") {
        idx = i;
        break;
      }
    }
    const firstFrame = prev == null;
    // The last trick of a deal is not left over the next deal: the summary takes its place.
    const dealOver = idx >= 0 && events.slice(idx).some((e) => e.type === "deal_end");
    if (idx > this.seenTrickEvents && !firstFrame && this.model.trick.length === 0 && !dealOver) {
      const ev = events[idx];
      const cards = ev.cards.map(([s, c]) => ({ seat: s, card: c }));
      this.lingering = { cards, winner: ev.winner, number: ev.number };
      clearTimeout(this.lingerHandle);
      this.lingerHandle = setTimeout(() => {
        this.lingering = null;
        this.renderTrick();
      }, 1600);
    } else if (this.model.trick.length > 0 || dealOver) {
      this.lingering = null;
    }
    this.seenTrickEvents = idx;
  }

  render(prev) {
    const m = this.model;
    const f = this.frame;
    this.root.dataset.game = m.game;
    this.root.dataset.players = String(m.n);
    this.root.classList.toggle("spectator", f.mySeat == null && !this.replay);
    this.root.classList.toggle("my-turn", this.isMyTurn());
    this.el(".felt").setAttribute("aria-label", t("table"));
    this.el("#score-head").textContent = t("scores");
    this.el("#feed-head").textContent = t("events");
    this.renderBar();
    this.renderSeats();
    this.renderDeck();
    this.renderTrick();
    this.renderScores();
    this.renderFeed();
    this.renderHand(prev);
    this.renderDecision();
    this.hints.update();
    this.startTimer();
    this.fitTable();
    this.placeTrick();
    this.keepHandInView();
  }

  /** A window too short for the felt's least height and the hand together (1024x600 at
   * four seats) scrolls down once, when the hand is first dealt, just far enough that the
   * hand is whole: the site's header goes up out of view (scrolling back shows it). The
   * cards are measured where they come to rest, after the deal's animation. */
  keepHandInView() {
    if (this.replay || this.handInView) return;
    if (window.matchMedia("(max-width: 900px)").matches) return; // phones have their layout
    const cards = [...this.root.querySelectorAll(".hand .card")];
    if (!cards.length) return;
    this.handInView = true;
    const measure = () => {
      const shown = [...this.root.querySelectorAll(".hand .card")]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width)
        .map((r) => r.bottom);
      const over = Math.ceil(Math.max(...shown) + 4 - window.innerHeight);
      if (shown.length && over > 0 && window.scrollY === 0) window.scrollBy({ top: over });
    };
    const settled = cards.flatMap((el) => el.getAnimations().map((a) => a.finished));
    // after the frame that lays the felt out; a cancelled animation settles it too
    Promise.allSettled(settled).then(() => requestAnimationFrame(measure));
  }

  isMyTurn() {
    const f = this.frame;
    return !this.replay && f.mySeat != null && this.model.toAct === f.mySeat && !this.model.over;
  }

  renderBar() {
    const m = this.model;
    const f = this.frame;
    const gameName = gameTitle(m.game, lang());
    let head = `<strong>${esc(gameName)}</strong> <span class="muted">${esc(m.header)}</span>`;
    if (gameOf(m.game).panels.includes("target")) {
      head += ` <span class="muted">· ${esc(t("target_n", { n: f.obs.options.target }))}</span>`;
    }
    this.el(".bar-game").innerHTML = head;
    let trump;
    if (m.trump === "NT") trump = `<span class="trump-badge nt">${esc(t("no_trumps"))}</span>`;
    else if (m.trump) {
      trump =
        `<span class="trump-badge" data-suit="${m.trump}">${suitIcon(m.trump, 20)}` +
        `<span>${esc(trumpWords(m.trump))}</span></span>`;
    } else trump = `<span class="trump-badge none">${esc(t("trump_unnamed"))}</span>`;
    this.el(".bar-trump").innerHTML = `<span class="label">${esc(t("trump"))}:</span> ${trump}`;
    this.el(".bar-status").innerHTML = this.statusHtml();
    const extra = [];
    if (f.mySeat == null && !this.replay) {
      extra.push(`<span class="pill watch">${esc(t("watching"))}</span>`);
    }
    if (f.stake) extra.push(stakePillHtml(f.stake, f.stakeHold));
    if (f.spectators) extra.push(`<span class="pill">${esc(t("spectators_n", { n: f.spectators }))}</span>`);
    const commitment = f.fair?.commitment;
    if (commitment && /^[0-9a-f]{64}$/i.test(commitment)) {
      const short = `sha256 ${commitment.slice(0, 4)}…${commitment.slice(-4)}`;
      extra.push(
        `<button type="button" class="pill fair" title="${esc(t("fair_about"))}" aria-label="${esc(t("fair_label"))}: ${esc(short)}"` +
          ` aria-expanded="${this.fairOpen ? "true" : "false"}">${esc(short)}</button>`,
      );
      if (this.fairOpen) {
        extra.push(
          `<span class="fair-note">${esc(t("fair_about"))} <code>${esc(commitment)}</code></span>`,
        );
      }
    }
    this.el(".bar-extra").innerHTML = extra.join(" ");
  }

  statusHtml() {
    const m = this.model;
    const f = this.frame;
    if (m.over) return `<span class="status over">${esc(t("game_over"))}</span>`;
    if (m.toAct == null) return `<span class="status">${esc(t("waiting_start"))}</span>`;
    if (this.isMyTurn()) return `<span class="status mine">${esc(t("your_turn"))}</span>`;
    const name = this.plainName(m.toAct);
    const key = m.phase === "play" ? "waiting_for" : "waiting_decision";
    const who = f.mySeat == null || m.toAct !== f.mySeat ? name : t("you");
    return `<span class="status">${esc(t(key, { name: who }))}</span>`;
  }

  renderSeats() {
    const m = this.model;
    const f = this.frame;
    const seats = [...Array(m.n).keys()].filter((s) => this.position(s) !== "bottom");
    const box = this.el(".seats");
    reconcile(
      box,
      seats,
      (s) => String(s),
      () => {
        const el = document.createElement("div");
        el.className = "seat";
        el.innerHTML =
          `<div class="seat-head"><span class="avatar" aria-hidden="true"></span>` +
          `<span class="seat-name"></span><span class="seat-badges"></span></div>` +
          `<div class="seat-meta"></div><div class="seat-cards" aria-hidden="true"></div>` +
          `<div class="seat-shown"></div><div class="timer" hidden><div class="timer-bar"></div>` +
          `<span class="timer-text"></span></div>`;
        return el;
      },
      (el, s) => this.fillSeat(el, s),
    );
    // The bottom seat's line (you, or the seat at the bottom when watching).
    const bottom = [...Array(m.n).keys()].find((s) => this.position(s) === "bottom");
    const me = this.el(".me-line");
    me.innerHTML =
      `<div class="seat me"><div class="seat-head"><span class="avatar" aria-hidden="true"></span>` +
      `<span class="seat-name"></span><span class="seat-badges"></span></div>` +
      `<div class="seat-meta"></div><div class="seat-shown"></div>` +
      `<div class="timer" hidden><div class="timer-bar"></div><span class="timer-text"></span></div></div>`;
    this.fillSeat(me.firstChild, bottom, true);
    if (f.mySeat == null) me.firstChild.classList.add("watched");
  }

  fillSeat(el, s, isBottom = false) {
    const m = this.model;
    const f = this.frame;
    const info = f.seats?.[s] || {};
    const pos = this.position(s);
    el.className = `seat pos-${pos}${isBottom ? " me" : ""}`;
    el.dataset.seat = String(s);
    el.classList.toggle("turn", m.toAct === s && !m.over);
    el.classList.toggle("offline", (info.connected === false || info.away) && !info.bot);
    const name = this.plainName(s);
    el.querySelector(".avatar").textContent = (name.trim()[0] || "?").toUpperCase();
    const you = isBottom && f.mySeat === s ? ` (${t("you")})` : "";
    this.fitName(el.querySelector(".seat-name"), name + you, this.shortNames()[s] + you);
    const badges = [];
    if (info.bot) badges.push(`<span class="pill bot">${esc(info.level ? t("level_n", { n: info.level }) : t("computer"))}</span>`);
    else if (info.away) badges.push(`<span class="pill off">${esc(t("away"))}</span>`);
    else if (info.connected === false) badges.push(`<span class="pill off">${esc(t("offline"))}</span>`);
    const g = gameOf(m.game);
    if (g.panels.includes("titles") && m.titles?.[s]) {
      badges.push(`<span class="pill title t-${m.titles[s]}">${esc(titleWord(m.titles[s]))}</span>`);
    }
    if (g.panels.includes("dealer") && m.dealer === s) badges.push(`<span class="pill dealer">${esc(t("dealer"))}</span>`);
    el.querySelector(".seat-badges").innerHTML = badges.join("");
    const count = m.handSizes?.[s] ?? 0;
    const meta = [`<span>${esc(t("cards_n", { n: count }))}</span>`];
    meta.push(`<span>${esc(t("tricks"))}: <b>${m.tricks?.[s] ?? 0}</b></span>`);
    meta.push(g.seatMeta(f.obs, m, s));
    el.querySelector(".seat-meta").innerHTML = meta.join("");
    let label = `${name}: ${t("cards_n", { n: count })}`;
    if (m.toAct === s && !m.over) label += `, ${t("waiting_for", { name })}`;
    el.setAttribute("aria-label", label);
    // The seat's hand as a strip: cards everyone (or you) may see face up, the rest backs.
    const open = f.hands?.[s];
    const known = isBottom && f.mySeat === s ? [] : open || m.shown?.[s] || [];
    const faces = sortHand(known, m.trump, g.rank_order);
    const cardsBox = el.querySelector(".seat-cards");
    if (cardsBox) {
      cardsBox.classList.toggle("open", Boolean(open));
      const key = `${faces.join(",")}|${Math.max(0, count - faces.length)}|${lang()}`;
      if (cardsBox.dataset.key !== key) {
        cardsBox.dataset.key = key;
        cardsBox.innerHTML =
          faces.map((c) => `<span class="mini face-up">${miniSvg(c, lang())}</span>`).join("") +
          `<span class="mini back">${backSvg()}</span>`.repeat(Math.max(0, Math.min(13, count) - faces.length));
      }
    }
    // The same cards in words (screen readers, and narrow screens where the strip is hidden).
    const shownBox = el.querySelector(".seat-shown");
    if (faces.length && !open) {
      const label = g.shownLabel();
      shownBox.innerHTML =
        `<span class="shown-label">${esc(label)}:</span> ` +
        faces.map((c) => `<span class="chip">${suitColour(esc(cardLabel(c, lang())))}</span>`).join(" ");
    } else shownBox.innerHTML = "";
  }

  renderDeck() {
    const m = this.model;
    const box = this.el(".deck-corner");
    const parts = [];
    if (gameOf(m.game).panels.includes("turnup") && m.turnup) {
      parts.push(
        `<div class="stock" aria-hidden="true"><span class="mini back">${backSvg()}</span></div>` +
          `<figure class="turnup"><span class="mini" role="img" aria-label="${esc(cardWords(m.turnup, lang()))}">` +
          `${cardSvg(m.turnup, lang())}</span><figcaption>${esc(t("turnup"))}</figcaption></figure>`,
      );
    } else if (m.trumpCard) {
      parts.push(
        `<figure class="turnup"><span class="mini" role="img" aria-label="${esc(cardWords(m.trumpCard, lang()))}">` +
          `${cardSvg(m.trumpCard, lang())}</span><figcaption>${esc(t("trump_card"))}</figcaption></figure>`,
      );
    }
    const html = parts.join("");
    if (box.dataset.html !== html) {
      box.innerHTML = html;
      box.dataset.html = html;
    }
  }

  renderTrick() {
    if (!this.model) return;
    const m = this.model;
    const area = this.el(".trick-area");
    const gathering = m.trick.length === 0 && this.lingering;
    const cards = gathering ? this.lingering.cards : m.trick;
    area.className = "trick-area";
    if (gathering) area.classList.add("gather", `to-${this.position(this.lingering.winner)}`);
    area.setAttribute("aria-label", gathering ? t("last_trick") : t("trick"));
    reconcile(
      area,
      cards,
      (c) => `${c.card}`,
      () => {
        const el = document.createElement("div");
        el.setAttribute("role", "listitem");
        return el;
      },
      (el, c, i, isNew) => {
        const pos = this.position(c.seat);
        el.className = `trick-card at-${pos}${isNew && !gathering ? ` play-in from-${pos}` : ""}`;
        el.style.zIndex = String(i + 1);
        const label = t("played_by", { name: this.plainName(c.seat), card: cardLabel(c.card, lang()) });
        el.setAttribute("aria-label", label);
        el.dataset.card = c.card;
        el.dataset.seat = String(c.seat);
        const k = `${c.card}:${lang()}`;
        if (el.dataset.face !== k) {
          el.innerHTML = cardSvg(c.card, lang());
          el.dataset.face = k;
        }
      },
    );
    const note = this.el(".felt-note");
    note.textContent = gathering
      ? t("takes_trick", { name: this.plainName(this.lingering.winner) })
      : "";
    note.title = note.textContent; // the whole name where a long one is cut short
  }

  renderScores() {
    const m = this.model;
    const g = gameOf(m.game);
    // The columns from the game's facts (message keys), the rows from its module.
    const rows = [
      `<table class="scores"><thead><tr><th scope="col">${esc(t("player"))}</th>` +
        g.score_columns.map((key) => `<th scope="col">${esc(t(key))}</th>`).join("") +
        `</tr></thead><tbody>`,
      ...g.scoreRows(this),
      "</tbody></table>",
    ];
    this.el(".score-body").innerHTML = rows.join("");
    this.fitScoreNames();
    // Widths from script, not style="" in the markup: the page's CSP refuses those.
    for (const bar of this.root.querySelectorAll(".pts-bar[data-pct]")) {
      bar.style.width = `${bar.dataset.pct}%`;
    }
  }

  /** A score row's name: the full one, made short by fitScoreNames where it does not fit;
   * the full one on hover. */
  scoreName(s) {
    const full = this.plainName(s);
    if (s === this.frame.mySeat) return `<span class="score-name" title="${esc(full)}">${esc(t("you"))}</span>`;
    return `<span class="score-name" title="${esc(full)}" data-short="${esc(this.shortNames()[s])}">${esc(full)}</span>`;
  }

  /** The score table's names whole where the table fits its panel with them (a laptop's
   * panel holds names of 16 letters), else every name short: measured, since the width a
   * name needs depends on its letters, the language of the other columns and the titles. */
  fitScoreNames() {
    const body = this.el(".score-body");
    const names = [...body.querySelectorAll(".score-name[data-short]")];
    for (const el of names) el.textContent = el.title;
    if (!body.clientWidth) return; // not shown: fitted again when it is (fit)
    if (body.scrollWidth > body.clientWidth + 1) {
      for (const el of names) el.textContent = el.dataset.short;
    }
  }

  renderFeed() {
    const m = this.model;
    // The log is drawn from the events (data), never kept as text: a line whose words
    // changed (another language, a seat's name) is written again, the rest stay as they are.
    const lines = narrateAll(m.game, m.events.slice(0, this.extras.feedLimit(m.events)), this.names());
    const feed = this.el(".feed");
    // a reader at the log's end stays there (Russian lines can be longer than English)
    const atEnd = feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 4;
    while (feed.childElementCount > lines.length) feed.lastElementChild.remove();
    const items = feed.children;
    let added = false;
    for (let i = 0; i < lines.length; i++) {
      const { kind, text } = lines[i];
      let li = items[i];
      if (!li) {
        li = document.createElement("li");
        feed.appendChild(li);
        added = true;
      } else if (li.dataset.text === text && li.dataset.kind === kind) continue;
      li.className = `ev ev-${kind}`;
      li.dataset.kind = kind;
      li.dataset.text = text;
      li.innerHTML = suitColour(esc(text)).replace(/\n/g, "<br>");
    }
    if (added || atEnd) feed.scrollTop = feed.scrollHeight;
  }

  renderHand(prev) {
    const m = this.model;
    const f = this.frame;
    const box = this.el(".hand");
    const seat = f.mySeat ?? (f.hands ? (f.bottomSeat ?? 0) : null);
    const cards = seat == null ? [] : f.mySeat != null ? m.hand : f.hands?.[seat] || [];
    const sorted = sortHand(cards, m.trump, gameOf(m.game).rank_order);
    const myTurn = this.isMyTurn() && m.phase === "play";
    const round = f.obs.deal ?? f.obs.round;
    const newDeal = !prev || round !== this.lastDealKey;
    this.lastDealKey = round;
    if (seat == null) {
      // Watching: the bottom seat's cards face down (a spectator never sees a hand).
      const bottom = [...Array(m.n).keys()].find((s) => this.position(s) === "bottom");
      const count = m.handSizes?.[bottom] ?? 0;
      if (box.dataset.backs !== String(count)) {
        box.dataset.backs = String(count);
        box.innerHTML = `<span class="card back" aria-hidden="true">${backSvg()}</span>`.repeat(count);
        [...box.children].forEach((c, i) => c.style.setProperty("--i", String(i)));
      }
      box.setAttribute("aria-label", t("hand_of", { name: this.plainName(bottom) }));
      this.layoutHand();
      return;
    }
    delete box.dataset.backs;
    for (const el of box.querySelectorAll(".card.back")) el.remove();
    box.setAttribute("aria-label", seat === f.mySeat ? t("your_hand") : t("hand_of", { name: this.plainName(seat) }));
    const shownMine = new Set(f.mySeat != null ? m.shown?.[f.mySeat] || [] : []);
    const focused = document.activeElement?.closest?.(".hand .card")?.dataset.key;
    if (this.raised && !sorted.includes(this.raised)) this.raised = null;
    reconcile(
      box,
      sorted,
      (c) => c,
      (c) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "card";
        b.setAttribute("role", "option");
        b.dataset.card = c;
        return b;
      },
      (b, c, i, isNew) => {
        const legal = myTurn && m.legal.has(c);
        b.classList.toggle("legal", legal);
        b.classList.toggle("dim", myTurn && !legal);
        b.classList.toggle("shown", shownMine.has(c));
        b.title = shownMine.has(c) ? t("shown_to_all") : "";
        b.classList.toggle("deal-in", isNew && newDeal);
        b.classList.toggle("sending", this.pending === c);
        b.style.setProperty("--i", String(i));
        b.setAttribute("aria-disabled", legal ? "false" : "true");
        b.classList.toggle("raised", this.raised === c);
        b.setAttribute("aria-selected", this.raised === c ? "true" : "false");
        const words = cardWords(c, lang());
        b.setAttribute("aria-label", myTurn ? `${words}, ${t(legal ? "legal_card" : "not_legal_card")}` : words);
        const k = `${c}:${lang()}`;
        if (b.dataset.face !== k) {
          b.innerHTML = cardSvg(c, lang());
          b.dataset.face = k;
        }
      },
    );
    // Roving tab stop: one card in the tab order; arrows move among the cards.
    const buttons = [...box.querySelectorAll(".card")];
    const stop = buttons.find((b) => b.dataset.key === focused) || buttons.find((b) => b.classList.contains("legal")) || buttons[0];
    for (const b of buttons) b.tabIndex = b === stop ? 0 : -1;
    this.layoutHand();
    // a note still showing is kept (in the current language), else the help
    this.el(".hand-hint").textContent = this.flashWords ? this.flashWords() : myTurn ? this.hint() : "";
  }

  /** The help under your hand: taps on a touch screen, keys elsewhere. */
  hint() {
    const touch = this.pointer === "touch" || this.pointer === "pen";
    const coarse = this.pointer == null && window.matchMedia?.("(pointer: coarse)").matches;
    return t(touch || coarse ? "touch_hint" : "keyboard_hint");
  }

  /** Raises one card of the hand (a first tap), or none. */
  raise(key) {
    this.raised = key;
    for (const b of this.root.querySelectorAll(".hand .card")) {
      const on = key != null && b.dataset.key === key;
      b.classList.toggle("raised", on);
      b.setAttribute("aria-selected", on ? "true" : "false");
    }
  }

  /** Sizes the table to the window: the felt takes the height the bar and your hand
   * leave, so that the whole table, your hand and its hint show without scrolling. */
  fit() {
    this.fitNames();
    this.fitScoreNames();
    this.fitTable();
    this.layoutHand();
    this.placeTrick();
  }

  fitTable() {
    const felt = this.el(".felt");
    if (!felt || !felt.getClientRects().length) return; // not shown (another screen)
    const narrow = window.matchMedia("(max-width: 900px)").matches;
    const top = felt.getBoundingClientRect().top + window.scrollY;
    const below = this.el(".hand-area").getBoundingClientRect().height + (narrow ? 6 : 16);
    const room = Math.floor(window.innerHeight - top - below);
    // A short laptop window (1280x600) keeps the whole hand in view with a 240 px felt at
    // two or three seats; four seats need 300 px for the side seats beside the trick.
    const [low, high] = narrow ? [210, 440] : [(this.model?.n ?? 4) <= 3 ? 240 : 300, 620];
    const height = Math.max(low, Math.min(high, room));
    this.root.style.setProperty("--felt-h", `${height}px`);
    this.clearDeck(height);
  }

  /** A replay's felt at least as tall as keeps the turned-up card in its corner 4 px clear
   * of every seat: on a phone the open hands make the side seats tall enough to reach down
   * to the card (it lay on the left player's hand). A seat at mid height moves down half as
   * far as the felt grows, hence twice the overlap; a few rounds settle it. (At a table in
   * play the felt keeps to the screen, the hand in view: its seats' hands are closed.) */
  clearDeck(height) {
    if (!this.replay) return;
    const corner = this.el(".deck-corner");
    let h = height;
    for (let round = 0; round < 4; round++) {
      // the corner's boxes and its cards, turned a little (a turned card's box is larger)
      const deck = [...corner.children, ...corner.querySelectorAll(".mini")]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width);
      if (!deck.length) return;
      const top = Math.min(...deck.map((r) => r.top));
      const left = Math.min(...deck.map((r) => r.left));
      const right = Math.max(...deck.map((r) => r.right));
      let over = 0;
      for (const seat of this.root.querySelectorAll(".seats .seat")) {
        const r = seat.getBoundingClientRect();
        if (!r.width || r.right + DECK_GAP <= left || r.left - DECK_GAP >= right) continue;
        over = Math.max(over, r.bottom + DECK_GAP - top);
      }
      if (over <= 0) return;
      h += Math.ceil(over * 2);
      this.root.style.setProperty("--felt-h", `${h}px`);
    }
  }

  /** Puts the trick in the largest free middle of the felt: the cards as large as they
   * can be without covering a seat's box or the turned-up card. A replay's open hands can
   * fill a phone's felt (the trick lay on the top player's hand): there the felt grows, the
   * page scrolling, until the trick fits under them at a readable size. */
  placeTrick() {
    for (let round = 0; this.replay && round < 10; round++) {
      const felt = this.el(".felt");
      if (!felt.getBoundingClientRect().height || this.putTrick(TRICK_READABLE)) return;
      this.root.style.setProperty("--felt-h", `${Math.ceil(felt.getBoundingClientRect().height) + 24}px`);
    }
    this.putTrick(28);
  }

  /** The trick placed with cards at least `least` px wide; false (the trick left in the
   * felt's middle at that size) where there is no room for them. */
  putTrick(least) {
    const felt = this.el(".felt");
    const area = this.el(".trick-area");
    const box = felt.getBoundingClientRect();
    if (!box.height || !this.model) return true;
    const n = this.model.n;
    // The trick's extent around its centre in card widths (the cards are 1.4 wide tall,
    // set off towards their players and turned a little: see .trick-card in the CSS).
    const half = n === 2 ? 0.6 : n === 3 ? 1.2 : 1.3;
    const up = n === 3 ? 1.1 : 1.25;
    const down = 1.25;
    const rel = (el) => {
      const r = el.getBoundingClientRect();
      return { l: r.left - box.left, r: r.right - box.left, t: r.top - box.top, b: r.bottom - box.top, w: r.width };
    };
    // Seats above or below the trick push it down or up; with four players the seats at
    // the sides sit at mid height, and only smaller cards get past them.
    const blocks = [];
    const sides = [];
    for (const el of this.root.querySelectorAll(".seats .seat, .deck-corner > *")) {
      const r = rel(el);
      if (!r.w) continue;
      const side = n === 4 && (el.classList.contains("pos-left") || el.classList.contains("pos-right"));
      (side ? sides : blocks).push(r);
    }
    const cx = box.width / 2;
    const phone = window.matchMedia("(max-width: 600px)").matches;
    const base = phone ? 56 : Math.min(92, Math.max(52, window.innerWidth * 0.064));
    let tw = least;
    let cy = box.height / 2;
    let placed = false;
    for (let w = Math.round(base); w >= least; w -= 2) {
      const l = cx - half * w - 4;
      const r = cx + half * w + 4;
      let top = 4;
      let bottom = box.height - NOTE_ROOM; // the note "X takes the trick" goes there
      for (const b of blocks) {
        if (b.r <= l || b.l >= r) continue;
        if ((b.t + b.b) / 2 < box.height / 2) top = Math.max(top, b.b + 4);
        else bottom = Math.min(bottom, b.t - 4);
      }
      if (bottom - top < (up + down) * w) continue;
      const y = top + up * w + (bottom - top - (up + down) * w) / 2;
      if (sides.some((b) => b.r > l && b.l < r && b.b > y - up * w && b.t < y + down * w)) continue;
      tw = w;
      cy = y;
      placed = true;
      break;
    }
    felt.style.setProperty("--tw", `${tw}px`);
    area.style.top = `${Math.round(cy)}px`;
    // The note under the trick starts right of the turned-up card in the corner, which
    // reaches as low as the note: a long name would otherwise run over the card.
    const corner = [...this.el(".deck-corner").querySelectorAll(".mini")].map(rel).filter((r) => r.w);
    const noteLeft = corner.length ? Math.max(8, ...corner.map((r) => r.r + 4)) : 8;
    felt.style.setProperty("--note-left", `${Math.ceil(noteLeft)}px`);
    return placed;
  }

  layoutHand() {
    const box = this.el(".hand");
    const cards = box.children.length;
    if (!cards) return;
    const width = box.clientWidth || this.root.clientWidth || 360;
    const cardW = box.firstElementChild.getBoundingClientRect().width || 80;
    const natural = cardW * 0.62;
    const step = cards > 1 ? Math.min(natural, (width - cardW - 8) / (cards - 1)) : 0;
    box.style.setProperty("--step", `${Math.max(step, 12)}px`);
    box.style.setProperty("--count", String(cards));
  }

  renderDecision() {
    const m = this.model;
    const f = this.frame;
    const box = this.el(".decision");
    const mine = this.isMyTurn() && gameOf(m.game).decision_kinds.length > 0 && m.phase !== "play" && m.choices.length > 0;
    if (!mine) {
      box.hidden = true;
      box.innerHTML = "";
      box.dataset.key = "";
      return;
    }
    const key = `${f.obs.round}:${m.phase}:${m.choices.join(",")}:${lang()}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const { title, text, buttons } = gameOf(m.game).decision(this);
    box.innerHTML =
      `<div class="decision-card" role="dialog" aria-modal="false" aria-labelledby="decision-title" aria-describedby="decision-text">` +
      `<h2 id="decision-title">${esc(title)}</h2><p id="decision-text">${esc(text)}</p>` +
      `<div class="decision-buttons">` +
      buttons
        .map(([a, label, cls, icon]) => `<button type="button" class="btn ${cls}" data-action="${esc(a)}">${icon || ""}<span>${esc(label)}</span></button>`)
        .join("") +
      `</div></div>`;
    box.hidden = false;
    box.querySelector("button")?.focus({ preventScroll: true });
  }

  startTimer() {
    clearInterval(this.timerHandle);
    const tick = () => this.tickTimer();
    tick();
    if (this.frame.deadline) this.timerHandle = setInterval(tick, 250);
  }

  tickTimer() {
    const f = this.frame;
    const m = this.model;
    for (const el of this.root.querySelectorAll(".seat .timer")) {
      const seat = Number(el.closest(".seat").dataset.seat);
      const active = f.deadline && m.toAct === seat && !m.over;
      // A person's seat on the felt keeps its timer's room, so that the box does not
      // grow under the trick when his turn comes.
      const keep = Boolean(f.turnSeconds) && !f.seats?.[seat]?.bot && !el.closest(".me-line");
      el.hidden = !active && !keep;
      el.classList.toggle("idle", !active);
      if (!active) continue;
      const left = Math.max(0, (f.deadline - Date.now()) / 1000);
      const total = f.turnSeconds || 60;
      el.querySelector(".timer-bar").style.width = `${Math.min(100, (left / total) * 100)}%`;
      el.querySelector(".timer-text").textContent = t("seconds_left", { n: Math.ceil(left) });
      el.classList.toggle("low", left < 10);
    }
  }

  // ------------------------------------------------------------------ input

  tryPlay(card) {
    const m = this.model;
    if (!this.isMyTurn() || m.phase !== "play") return;
    if (!m.hand.includes(card)) {
      this.flash(() => t("card_not_in_hand", { card: cardLabel(card, lang()) }));
      return;
    }
    if (!m.legal.has(card)) {
      this.flash(() => t("card_not_legal", { card: cardLabel(card, lang()) }));
      return;
    }
    this.send(card);
  }

  send(action) {
    if (this.pending) return;
    this.pending = action;
    const btn = this.root.querySelector(`.hand .card[data-key="${CSS.escape(action)}"]`);
    if (btn) btn.classList.add("sending");
    if (this.onAction(action) === false) {
      this.settle();
      this.flash(() => t("not_connected"));
    }
  }

  /** Nothing is in flight any more (refused as stale, or the connection came back). */
  settle() {
    this.pending = null;
    for (const b of this.root.querySelectorAll(".sending")) b.classList.remove("sending");
  }

  /** The server refused the last action: allow another try. `message`: the refusal in
   * the page's language, a function so that the note follows a language switch. */
  rejected(message) {
    this.settle();
    const words = typeof message === "function" ? message : () => message;
    this.flash(() => t("rejected", { message: words() }));
  }

  /** A short note under the hand; `words` gives it in the current language (relabel()
   * writes it again if the language changes while it shows). */
  flash(words) {
    const hint = this.el(".hand-hint");
    this.flashWords = words;
    hint.textContent = words();
    hint.classList.add("flash");
    clearTimeout(this.flashHandle);
    this.flashHandle = setTimeout(() => {
      this.flashWords = null;
      hint.classList.remove("flash");
      hint.textContent = this.isMyTurn() && this.model.phase === "play" ? this.hint() : "";
    }, 2500);
  }

  onKey(e) {
    if (!this.root.isConnected || this.root.closest("[hidden]")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (document.querySelector("dialog[open]")) return;
    const cards = [...this.root.querySelectorAll(".hand .card")];
    const current = document.activeElement?.closest?.(".hand .card");
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!cards.length || this.replay) return;
      e.preventDefault();
      let i = current ? cards.indexOf(current) : -1;
      i = e.key === "ArrowRight" ? Math.min(cards.length - 1, i + 1) : Math.max(0, i < 0 ? cards.length - 1 : i - 1);
      for (const b of cards) b.tabIndex = -1;
      cards[i].tabIndex = 0;
      cards[i].focus();
      return;
    }
    if ((e.key === "Enter" || e.key === " ") && current) {
      e.preventDefault();
      this.tryPlay(current.dataset.key);
      return;
    }
    if (e.key.length === 1 && /[0-9a-zа-яё♠♥♦♣]/i.test(e.key) && !this.replay) {
      const now = Date.now();
      if (now - this.typedAt > 1500) this.typed = "";
      this.typedAt = now;
      this.typed = (this.typed + e.key).slice(-3);
      for (const len of [3, 2]) {
        if (this.typed.length < len) continue;
        const card = readTyped(this.typed.slice(-len));
        if (card) {
          this.typed = "";
          this.tryPlay(card);
          return;
        }
      }
      const typed = this.typed.toUpperCase();
      this.flash(() => t("typed", { text: typed }));
    }
  }
}
