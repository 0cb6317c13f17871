// The table of either game, drawn from one observation (`obs.to_json()` of the engines)
// plus the seats' names and connection states. Used for playing, watching and replays.
//
// The view never decides a rule: legal cards and choices come from the observation.
// Animations are CSS only and never block input: the new state is interactive at once.
// Here: the model, building the view, updates and input; the drawing is TableDrawing's
// (table_draw.js), the layout TableLayout's (table_layout.js).

import { cardLabel, readTyped } from "./cards.js";
import { refusalText } from "./refusal.js";
import { lang, t } from "./i18n.js";
import { TableExtras } from "./table_extras.js";
import { HintControl } from "./hints.js";
import { gameOf } from "./games/index.js";
import { TableDrawing } from "./table_draw.js";

// The escaping the screens' modules have long taken from here.
export { esc, suitColour } from "./html.js";

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
export class TableView extends TableDrawing {
  /**
   * root: the element to draw into. onAction(text): sends an action ("QS", "swap 2", ...).
   */
  constructor(root, { onAction = () => {}, onBack = () => {}, replay = false, errorText } = {}) {
    super();
    this.root = root;
    this.onAction = onAction;
    this.onBack = onBack; // "I'm back": the computer stops playing your seat
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
    this.resizeHandler = () => {
      if (this.model) this.renderDecision(); // a phone's buttons name the players short
      this.fit();
    };
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
      const back = e.target.closest(".im-back");
      if (back) {
        // Until the server's word that you are back redraws the bar (or, that word
        // lost, a while later: the player may press again).
        back.disabled = true;
        setTimeout(() => (back.disabled = false), 5000);
        this.onBack();
        return;
      }
      if (!e.target.closest(".fair")) return;
      this.fairOpen = !this.fairOpen;
      this.renderBar();
    });
  }

  /**
   * frame: {game, obs, mySeat, names, seats: [{name, bot, connected, away}], deadline,
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

  isMyTurn() {
    const f = this.frame;
    return !this.replay && f.mySeat != null && this.model.toAct === f.mySeat && !this.model.over && !this.isAway();
  }

  /** The computer plays your seat (your turn timed out, or you left the game): your turn
   * is its, until you press "I'm back". */
  isAway() {
    const f = this.frame;
    return !this.replay && f.mySeat != null && Boolean(f.seats?.[f.mySeat]?.away) && !this.model.over;
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
    this.layoutHand(); // the raised card's strip a finger's width
  }

  tryPlay(card) {
    const m = this.model;
    if (!this.isMyTurn() || m.phase !== "play") return;
    if (!m.hand.includes(card)) {
      this.flash(() => t("card_not_in_hand", { card: cardLabel(card, lang()) }));
      return;
    }
    // A card the rules refuse goes to the server all the same: it is not played, and its
    // refusal names the rule in the engine's own words (rejected), which the page does
    // not know by itself.
    this.send(card);
  }

  send(action) {
    if (this.pending) return;
    this.pending = action;
    const btn =
      this.root.querySelector(`.hand .card[data-key="${CSS.escape(action)}"]`) ||
      this.root.querySelector(`.decision button[data-action="${CSS.escape(action)}"]`);
    if (btn) btn.classList.add("sending");
    // A decision answered: its other buttons wait for the server's word too.
    if (btn?.closest(".decision")) this.el(".decision").classList.add("sending");
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
  rejected(message, frame = null) {
    const card = this.pending;
    this.settle();
    const words = typeof message === "function" ? message : () => message;
    if (frame?.reason && card && this.model?.hand.includes(card)) {
      // "Not Q♥: you must follow suit (diamonds)"
      this.flash(() =>
        t("card_refused", { card: cardLabel(card, lang()), reason: refusalText(frame, lang()) }),
      );
      return;
    }
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
    if (e.key === "Escape" && this.extras.summary?.shown) {
      this.extras.closeSummary();
      return;
    }
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
