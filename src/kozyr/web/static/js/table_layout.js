// The table view's layout: the felt sized to what the bars and the hand leave, the
// turned-up card and the trick placed clear of the seats, names fitted to their boxes,
// the hand kept in view. TableDrawing (table_draw.js) and TableView (table.js) build on it.

import { t } from "./i18n.js";

// The felt's strip kept under the trick for the note "X takes the trick": the note's
// offset from the felt's bottom and its height (.felt-note in the CSS) and a gap of 4 px.
const NOTE_ROOM = 8 + 20 + 4;
// The least room between the turned-up card and a seat's box (fitTable).
const DECK_GAP = 4;
// The narrowest trick card a replay grows its felt for rather than draw smaller (placeTrick).
const TRICK_READABLE = 40;
// A finger's width: the strip of a raised card (layoutHand), as every control's (WCAG 2.5.5).
const FINGER = 44;

const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

export class TableLayout {
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

  /** Sizes the table to the window: the felt takes the height the bar and your hand
   * leave, so that the whole table, your hand and its hint show without scrolling. */
  fit() {
    this.fitNames();
    this.fitScoreNames();
    this.fitTable();
    this.layoutHand();
    this.placeTrick();
    this.extras?.fitSummary(); // over the felt, wherever the felt went
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
    const phone = window.matchMedia("(max-width: 600px)").matches;
    const base = phone ? 56 : Math.min(92, Math.max(52, window.innerWidth * 0.064));
    // The trick's place: the felt's middle column; at a table in play where the middle has
    // no room (a phone's short felt under a top seat that shows its declared cards), the
    // free column beside that seat rather than over it. (A replay grows its felt instead.)
    const columns = [box.width / 2];
    if (!this.replay) columns.push(box.width * 0.78, box.width * 0.22);
    let tw = least;
    let cx = box.width / 2;
    let cy = box.height / 2;
    let placed = false;
    for (const x of columns) {
      for (let w = Math.round(base); w >= least && !placed; w -= 2) {
        const l = x - half * w - 4;
        const r = x + half * w + 4;
        if (l < 0 || r > box.width) continue;
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
        cx = x;
        cy = y;
        placed = true;
      }
      if (placed) break;
    }
    felt.style.setProperty("--tw", `${tw}px`);
    area.style.top = `${Math.round(cy)}px`;
    area.style.left = `${Math.round(cx)}px`;
    // The note under the trick starts right of the turned-up card in the corner, which
    // reaches as low as the note: a long name would otherwise run over the card.
    const corner = [...this.el(".deck-corner").querySelectorAll(".mini")].map(rel).filter((r) => r.w);
    const noteLeft = corner.length ? Math.max(8, ...corner.map((r) => r.r + 4)) : 8;
    felt.style.setProperty("--note-left", `${Math.ceil(noteLeft)}px`);
    return placed;
  }

  /** The hand spread over its width. The card a first tap raised (a touch screen: the
   * second tap plays it) lies whole over its neighbours, a target a finger takes whole
   * (at least FINGER px wide); the next card starts at its right edge and the others
   * close up to make room: a slip onto a narrower neighbour only raises that one. */
  layoutHand() {
    const box = this.el(".hand");
    const cards = box.children.length;
    if (!cards) return;
    const width = box.clientWidth || this.root.clientWidth || 360;
    const cardW = box.firstElementChild.getBoundingClientRect().width || 80;
    const natural = cardW * 0.62;
    const room = width - cardW - 8;
    let step = cards > 1 ? Math.min(natural, room / (cards - 1)) : 0;
    let wide = step;
    const raised = box.querySelector(".card.raised");
    if (raised?.nextElementSibling) {
      wide = Math.max(FINGER, cardW);
      if (cards > 2) step = Math.min(natural, (room - wide) / (cards - 2));
    }
    box.style.setProperty("--step", `${Math.max(step, 12)}px`);
    box.style.setProperty("--wide-step", `${Math.max(wide, 12)}px`);
    box.style.setProperty("--count", String(cards));
  }
}
