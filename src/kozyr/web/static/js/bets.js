// The spectators' betting panel beside the table (docs/betting.md): open markets with live
// pools and what one chip would return now, a bet form, one's bets and their results, and
// a notice when a market settles. Players of the table see the markets read-only once the
// game is over (and not at all while they play it).

import { api } from "./net.js";
import { lang, t } from "./i18n.js";
import { nounFor } from "./plural.js";
import { esc } from "./table.js";
import { refreshBalance, setBalance } from "./wallet.js";

// Intl.PluralRules categories -> message keys (Russian has one/few/many, English one/other).
const CHIP_KEYS = { one: "bets_chips_one", few: "bets_chips_few", many: "bets_chips_many", other: "bets_chips_other" };
const OUTCOME_KEYS = {
  yes: "bets_yes",
  no: "bets_no",
  over: "bets_over",
  under: "bets_under",
  nobody: "bets_nobody",
};
// how a settled market came out for the bettor (the server's result, and refund reason)
const SETTLED_KEYS = { won: "bets_settled_won", lost: "bets_settled_lost", no_winner: "bets_settled_no_winner", void: "bets_settled_void" };

/** "1 chip", "5 chips"; "1 фишка", "3 фишки", "5 фишек". */
export function chipsText(n) {
  const rule = new Intl.PluralRules(lang() === "ru" ? "ru" : "en").select(n);
  return t(CHIP_KEYS[rule] || "bets_chips_other", { n });
}

const STATE_RANK = { open: 0, closed: 1, settled: 2 };

/** Whether copy ``a`` of a market is further along than copy ``b``. */
export function newer(a, b) {
  const ra = STATE_RANK[a.state] ?? 0;
  const rb = STATE_RANK[b.state] ?? 0;
  if (ra !== rb) return ra > rb;
  return (a.pool || 0) > (b.pool || 0);
}

/** What one more chip on ``outcome`` would bring back if the market settled on it now. */
export function returnPerChip(market, outcome) {
  return (market.pool + 1) / ((market.pools[outcome] || 0) + 1);
}

function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "b" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class BetsPanel {
  /**
   * @param {HTMLElement} screen the table screen; the panel goes after its table
   * @param {string} tableId
   * @param {{errorText: Function, toast: Function, seatName: Function}} hooks
   */
  constructor(screen, tableId, hooks) {
    this.tableId = tableId;
    this.hooks = hooks;
    this.info = null;
    this.you = null;
    this.markets = new Map();
    this.notice = null; // () => the last notice in the current language (drawn from data)
    this.keys = new Map(); // market -> the idempotency key of the bet being made there
    this.stale = false;
    this.el = document.createElement("aside");
    this.el.className = "panel bets-panel";
    this.el.setAttribute("aria-labelledby", "bets-head");
    this.el.hidden = true;
    screen.append(this.el);
    this.el.addEventListener("submit", (ev) => this.onSubmit(ev));
    // frames that came while a bet was being typed are drawn once the form is left
    this.el.addEventListener("focusout", () => {
      setTimeout(() => {
        if (this.stale && !this.typing()) this.render();
      });
    });
  }

  typing() {
    const el = document.activeElement;
    return !!el && this.el.contains(el) && (el.tagName === "INPUT" || el.tagName === "SELECT");
  }

  destroy() {
    this.el.remove();
    this.markets.clear();
  }

  get finished() {
    return this.info?.status === "finished";
  }

  /** Spectators bet; players only look, and only once their game is over. */
  get mode() {
    if (this.you == null) return "bet";
    return this.finished ? "read" : "hidden";
  }

  /** The table frame: who we are at it and where its game is. */
  setTable(info, you) {
    const statusChanged = this.info?.status !== info.status;
    this.info = info;
    this.you = you;
    if (statusChanged) this.refresh();
    else this.render();
  }

  async refresh() {
    try {
      const data = await api("GET", `/api/tables/${this.tableId}/markets`);
      // The answer can be older than frames that arrived while it was on its way (the
      // game ends, the refresh goes out, the settlement frame overtakes it): a market
      // only moves forward, so the further copy of each wins.
      const fresh = new Map();
      for (const m of data.markets) {
        const old = this.markets.get(m.id);
        fresh.set(m.id, old && newer(old, m) ? old : m);
      }
      this.markets = fresh;
    } catch (e) {
      this.hooks.toast(this.hooks.errorText(e));
    }
    this.render(true);
  }

  onFrame(f) {
    if (f.table !== this.tableId) return;
    if (f.type === "market") {
      const old = this.markets.get(f.market.id);
      this.markets.set(f.market.id, { ...f.market, my_bets: old?.my_bets || [] });
    } else if (f.type === "bet_settled") {
      const m = this.markets.get(f.market);
      if (m) {
        m.my_bets = f.bets;
        m.state = "settled";
        m.outcome = f.outcome;
        m.refund = f.refund ?? null;
      }
      // the settlement paid him: the header's balance follows at once
      if (typeof f.balance === "number") setBalance(f.balance, f.balance_tx);
      else if (f.payout > 0) refreshBalance();
      this.notice = () => this.settledText(f);
      this.hooks.toast(this.notice());
    }
    this.render();
  }

  /** The market's question, the player it asks about by the name the table shows. */
  title(m) {
    const ru = lang() === "ru";
    const named = ru ? m.title_player_ru : m.title_player;
    const seat = m.params?.seat;
    if (named && Number.isInteger(seat)) return named.replace("{player}", this.hooks.seatName(this.info, seat));
    return (ru ? m.title_ru : m.title) || m.id;
  }

  outcomeLabel(outcome) {
    if (outcome.startsWith("seat:")) return this.hooks.seatName(this.info, Number(outcome.slice(5)));
    if (OUTCOME_KEYS[outcome]) return t(OUTCOME_KEYS[outcome]);
    // a bucket of tricks, "4-6": the noun agrees with its last number
    const last = Number(outcome.split("-").pop());
    return t("bets_tricks", { range: outcome.replace("-", "\u2013"), noun: nounFor("trick", last, lang()) });
  }

  /** The notice of a settlement: won, lost, or returned and why, in words. */
  settledText(f) {
    const m = this.markets.get(f.market);
    const result = f.result || (f.payout > 0 ? "won" : "lost");
    const key = SETTLED_KEYS[result === "refunded" ? f.refund || "no_winner" : result];
    return t(key, {
      market: m ? this.title(m) : f.market,
      outcome: this.outcomeLabel(f.outcome),
      chips: chipsText(result === "lost" ? f.staked ?? 0 : f.payout),
    });
  }

  /** One of one's bets once settled: won (paid), lost, or returned (why). */
  betResult(b, m) {
    if (b.payout == null) return t("bets_pending");
    const result = b.result || (b.payout > 0 ? "won" : "lost");
    if (result === "won") return t("bets_won", { chips: chipsText(b.payout) });
    if (result === "lost") return t("bets_lost");
    return t(m.refund === "void" ? "bets_returned_void" : "bets_returned", { chips: chipsText(b.payout) });
  }

  async onSubmit(ev) {
    const form = ev.target.closest("form.bet-form");
    if (!form) return;
    ev.preventDefault();
    const button = form.querySelector("button");
    const body = {
      market: form.dataset.market,
      outcome: form.outcome.value,
      chips: Number(form.chips.value),
      key: form.dataset.key,
    };
    button.disabled = true;
    try {
      const data = await api("POST", `/api/tables/${this.tableId}/bets`, body);
      this.markets.set(data.market.id, data.market);
      // the chips left the wallet: the header's balance says so at once
      if (typeof data.balance === "number") setBalance(data.balance, data.balance_tx);
      else refreshBalance();
      this.keys.delete(body.market); // the next bet there is a new one
      const bet = data.bet;
      this.notice = () => t("bets_placed", { chips: chipsText(bet.chips), outcome: this.outcomeLabel(bet.outcome) });
    } catch (e) {
      this.notice = () => this.hooks.errorText(e);
      this.hooks.toast(this.notice());
    }
    button.disabled = false;
    this.render(true);
  }

  /** One key per bet being made: a retry after a lost answer is the same bet. */
  keyFor(market) {
    if (!this.keys.has(market)) this.keys.set(market, newKey());
    return this.keys.get(market);
  }

  myBetsHtml(m) {
    if (!m.my_bets?.length) return "";
    const rows = m.my_bets
      .map((b) => {
        const result = this.betResult(b, m);
        return `<li data-bet="${b.id}" data-result="${esc(b.result || "")}">${esc(this.outcomeLabel(b.outcome))}: ${esc(chipsText(b.chips))} · <span class="bets-result">${esc(result)}</span></li>`;
      })
      .join("");
    return `<ul class="bets-mine" aria-label="${esc(t("bets_mine"))}">${rows}</ul>`;
  }

  openHtml(m) {
    const pools = m.outcomes
      .map(
        (o) =>
          `<tr><th scope="row">${esc(this.outcomeLabel(o))}</th><td>${esc(chipsText(m.pools[o] || 0))}</td>` +
          `<td class="bets-return">${esc(t("bets_return", { x: returnPerChip(m, o).toFixed(2) }))}</td></tr>`,
      )
      .join("");
    let form = "";
    if (this.mode === "bet") {
      const options = m.outcomes.map((o) => `<option value="${esc(o)}">${esc(this.outcomeLabel(o))}</option>`).join("");
      form =
        `<form class="bet-form" data-market="${esc(m.id)}" data-key="${this.keyFor(m.id)}">` +
        `<label><span>${esc(t("bets_outcome"))}</span><select name="outcome">${options}</select></label>` +
        `<label><span>${esc(t("bets_chips"))}</span><input name="chips" type="number" min="1" step="1" value="1" required></label>` +
        `<button class="btn small primary" type="submit">${esc(t("bets_place"))}</button></form>`;
    }
    return (
      `<li class="bets-market" data-market="${esc(m.id)}" data-state="open"><div class="bets-title">${esc(this.title(m))}</div>` +
      `<table class="bets-pools"><caption>${esc(t("bets_pool", { chips: chipsText(m.pool) }))}</caption>${pools}</table>` +
      form +
      this.myBetsHtml(m) +
      `</li>`
    );
  }

  doneHtml(m) {
    let state = t("bets_closed");
    if (m.state === "settled" && (m.refund === "void" || m.outcome === "void")) state = t("bets_called_off");
    else if (m.state === "settled" && m.refund === "no_winner") state = t("bets_nobody_backed", { outcome: this.outcomeLabel(m.outcome) });
    else if (m.state === "settled") state = t("bets_outcome_is", { outcome: this.outcomeLabel(m.outcome) });
    return (
      `<li class="bets-market" data-market="${esc(m.id)}" data-state="${esc(m.state)}"><div class="bets-title">${esc(this.title(m))}</div>` +
      `<div class="muted">${esc(state)} · ${esc(t("bets_pool", { chips: chipsText(m.pool) }))}</div>` +
      this.myBetsHtml(m) +
      `</li>`
    );
  }

  render(force = false) {
    const mode = this.mode;
    this.el.hidden = mode === "hidden" || !this.info;
    if (this.el.hidden) return;
    if (!force && this.typing()) {
      this.stale = true; // a frame must not eat a half-typed bet
      return;
    }
    this.stale = false;
    const all = [...this.markets.values()];
    const open = all.filter((m) => m.state === "open");
    // the closed ones worth a line: those with chips on them, and the game's own
    const done = all.filter((m) => m.state !== "open" && (m.pool > 0 || m.scope === 0));
    this.el.innerHTML =
      `<h2 id="bets-head">${esc(t(mode === "bet" ? "bets_head" : "bets_head_read"))}</h2>` +
      `<p class="bets-notice" role="status" aria-live="polite">${esc(this.notice ? this.notice() : "")}</p>` +
      (mode === "bet" ? `<p class="muted bets-about">${esc(t("bets_about"))}</p>` : "") +
      (open.length
        ? `<h3>${esc(t("bets_open"))}</h3><ul class="bets-list bets-open">${open.map((m) => this.openHtml(m)).join("")}</ul>`
        : `<p class="muted">${esc(t("bets_none_open"))}</p>`) +
      (done.length
        ? `<h3>${esc(t("bets_done"))}</h3><ul class="bets-list bets-done">${done.map((m) => this.doneHtml(m)).join("")}</ul>`
        : "");
  }
}
