// The table view's drawing: the bar, the seats, the turned-up card, the trick, the
// score panel, the feed, the hand, the decision panel and the turn timers. What differs
// between the games comes from their modules (games/), through gameOf.

import { backSvg, cardLabel, cardSvg, cardWords, miniSvg, sortHand, suitIcon } from "./cards.js";
import { lang, t } from "./i18n.js";
import { narrateAll, titleWord, trumpWords } from "./narrate.js";
import { stakePillHtml } from "./stakes.js";
import { gameOf, gameTitle } from "./games/index.js";
import { esc, suitColour } from "./html.js";
import { TableLayout } from "./table_layout.js";

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

export class TableDrawing extends TableLayout {
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
    // Written only when it changes: a button in it (I'm back) must outlive the frames of
    // the computer's moves, or a click that spans one of them would be lost.
    const status = this.el(".bar-status");
    const html = this.statusHtml();
    if (status.dataset.html !== html) {
      status.innerHTML = html;
      status.dataset.html = html;
    }
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
    if (this.isAway()) {
      return (
        `<span class="status away">${esc(t("away_you"))}</span> ` +
        `<button type="button" class="btn small primary im-back">${esc(t("im_back"))}</button>`
      );
    }
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
    // (built once and filled anew: a button put in the line, the summary waiting by your
    // name, stays put under a click while frames come)
    const me = this.el(".me-line");
    if (!me.firstElementChild) {
      me.innerHTML =
        `<div class="seat me"><div class="seat-head"><span class="avatar" aria-hidden="true"></span>` +
        `<span class="seat-name"></span><span class="seat-badges"></span></div>` +
        `<div class="seat-meta"></div><div class="seat-shown"></div>` +
        `<div class="timer" hidden><div class="timer-bar"></div><span class="timer-text"></span></div></div>`;
    }
    this.fillSeat(me.firstElementChild, bottom, true);
    me.firstElementChild.classList.toggle("watched", f.mySeat == null);
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
    else if (info.away) badges.push(`<span class="pill off">${esc(t(isBottom && f.mySeat === s ? "away_you_short" : "away"))}</span>`);
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

  renderFeed() {
    const m = this.model;
    // The log is drawn from the events (data), never kept as text: a line whose words
    // changed (another language, a seat's name) is written again, the rest stay as they are.
    const lines = narrateAll(gameOf(m.game).narrate, m.events.slice(0, this.extras.feedLimit(m.events)), this.names());
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

  renderDecision() {
    const m = this.model;
    const f = this.frame;
    const box = this.el(".decision");
    const mine = this.isMyTurn() && gameOf(m.game).decision_kinds.length > 0 && m.phase !== "play" && m.choices.length > 0;
    if (!mine) {
      box.hidden = true;
      box.innerHTML = "";
      box.dataset.key = "";
      box.classList.remove("sending");
      return;
    }
    const narrow = Boolean(this.extras.narrowNames());
    const key = `${f.obs.round}:${m.phase}:${m.choices.join(",")}:${lang()}:${narrow}`;
    if (box.dataset.key === key) {
      // The answer sent shows as sent until the server's next frame (no second answer).
      for (const b of box.querySelectorAll("button[data-action]")) b.classList.toggle("sending", this.pending === b.dataset.action);
      box.classList.toggle("sending", this.pending != null);
      return;
    }
    box.classList.remove("sending");
    box.dataset.key = key;
    const { title, text, buttons } = gameOf(m.game).decision(this);
    box.innerHTML =
      `<div class="decision-card" role="dialog" aria-modal="false" aria-labelledby="decision-title" aria-describedby="decision-text">` +
      `<h2 id="decision-title">${esc(title)}</h2><p id="decision-text">${esc(text)}</p>` +
      `<div class="decision-buttons">` +
      buttons
        .map(([a, label, cls, icon, words]) => {
          const said = words ? ` aria-label="${esc(words)}" title="${esc(words)}"` : "";
          return `<button type="button" class="btn ${cls}" data-action="${esc(a)}"${said}>${icon || ""}<span>${esc(label)}</span></button>`;
        })
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
}
