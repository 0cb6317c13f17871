// The chip wallet (issue #11): the balance in the header, and the wallet page (#/wallet)
// with the balance, the chips held at tables, the ledger newest first a page at a time,
// and the daily top-up. Play chips only: the server keeps the ledger, the page shows it.

import { api, ApiError } from "./net.js";
import { lang, t } from "./i18n.js";
import { chips, signedChips } from "./stakes.js";

const PAGE = 50;

const wallet = {
  balance: null, // null: not known (signed out, or a server without wallets)
  tx: 0, // the ledger transaction the shown balance follows, when the server said it
  page: null, // the wallet page's state while it is open
  topUpKey: null, // the idempotency key of the top-up not yet known to have succeeded
  errorText: (e) => String(e?.message || e),
  listeners: new Set(),
};

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** errorText: the app's words for an ApiError. */
export function initWallet({ errorText }) {
  wallet.errorText = errorText;
  const root = document.querySelector(".wallet-root");
  root.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-wallet]");
    if (!btn || !wallet.page) return;
    if (btn.dataset.wallet === "more") loadPage(wallet.page.next);
    else if (btn.dataset.wallet === "top-up") topUp();
  });
}

export function balance() {
  return wallet.balance;
}

/** fn(balance) after every change of the known balance. */
export function onBalance(fn) {
  wallet.listeners.add(fn);
}

/**
 * A balance from the server. ``tx``: the ledger transaction it follows (a bet's answer,
 * a settlement's frame); a balance after an older transaction than the one shown came
 * late (a frame overtaken by an answer) and is dropped. Without ``tx`` it is read now.
 */
export function setBalance(value, tx = null) {
  if (typeof tx === "number") {
    if (tx < wallet.tx) return;
    wallet.tx = tx;
  }
  wallet.balance = typeof value === "number" && Number.isFinite(value) ? value : null;
  if (wallet.balance == null) wallet.tx = 0; // signed out: the next person starts afresh
  renderBalance();
  for (const fn of wallet.listeners) fn(wallet.balance);
}

/** Asks the server for the balance (GET /api/me); a failure keeps what is shown. */
export async function refreshBalance() {
  try {
    const me = await api("GET", "/api/me");
    setBalance(me?.balance ?? me?.user?.balance ?? null);
  } catch {
    /* the next refresh tries again */
  }
}

/** The header's link to the wallet, showing the balance. */
export function renderBalance() {
  const link = document.querySelector(".top .balance");
  if (!link) return;
  if (wallet.balance == null) {
    link.hidden = true;
    link.textContent = "";
    return;
  }
  link.hidden = false;
  link.textContent = chips(wallet.balance);
  link.setAttribute("aria-label", t("balance_label", { chips: chips(wallet.balance) }));
  link.title = t("wallet_open");
}

// ------------------------------------------------------------------ the wallet page

export function openWallet() {
  wallet.page = { data: null, entries: [], next: null, loading: false, error: null, notice: null };
  renderWallet();
  return loadPage(null);
}

export function closeWallet() {
  wallet.page = null;
}

async function loadPage(before) {
  const p = wallet.page;
  if (!p) return;
  if (p.loading) {
    // A first page asked for while a read is under way (a top-up's answer while the read
    // after a lost one is still out): that read may predate the change, so read again
    // once it is in, or its old balance would stay on the page.
    if (before == null) p.readAgain = true;
    return;
  }
  p.loading = true;
  p.error = null;
  renderWallet();
  try {
    const query = before != null ? `?limit=${PAGE}&before=${encodeURIComponent(before)}` : `?limit=${PAGE}`;
    const r = await api("GET", `/api/wallet${query}`);
    if (wallet.page !== p) return;
    const entries = Array.isArray(r?.entries) ? r.entries : [];
    p.data = r;
    p.entries = before != null ? [...p.entries, ...entries] : entries;
    p.next = r?.next ?? null;
    setBalance(r?.balance);
  } catch (e) {
    if (wallet.page !== p) return;
    p.error = e;
  } finally {
    p.loading = false;
  }
  if (p.readAgain && wallet.page === p) {
    p.readAgain = false;
    p.entries = [];
    p.next = null;
    await loadPage(null);
    return;
  }
  renderWallet();
}

/**
 * POST /api/wallet/top-up with an idempotency key. The key is kept until the server
 * answers: a click after a lost answer (no connection, a 5xx, a 429) sends the same key,
 * so the top-up happens at most once. A refusal (top_up_not_due) is an answer: the next
 * click is a new request with a new key.
 */
async function topUp() {
  const p = wallet.page;
  const btn = document.querySelector(".wallet-root button[data-wallet=top-up]");
  if (btn) btn.disabled = true;
  wallet.topUpKey ??= newKey();
  try {
    await api("POST", "/api/wallet/top-up", { key: wallet.topUpKey });
    wallet.topUpKey = null;
    p.notice = { ok: true };
  } catch (e) {
    const answered = e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 408;
    if (answered) wallet.topUpKey = null;
    p.notice = { error: e };
  }
  if (wallet.page !== p) return;
  await reloadFirstPage(p);
}

async function reloadFirstPage(p) {
  p.entries = [];
  p.next = null;
  await loadPage(null);
  if (wallet.page === p) renderWallet();
}

/** The entry in words, from the server (both languages), and a link to its table: the
 * replay once its game is over, else the table itself. */
function entryWords(e) {
  const said = (lang() === "ru" ? e.text_ru : e.text) || t("ledger_other");
  const id = e.table_id;
  if (!id) return esc(said);
  const href = e.finished ? `#/replay/${encodeURIComponent(id)}` : `#/table/${encodeURIComponent(id)}`;
  const label = t(e.finished ? "ledger_replay" : "ledger_table");
  return `${esc(said)} <a class="ledger-link" href="${href}">${esc(label)}</a>`;
}

function when(ms) {
  if (typeof ms !== "number") return "";
  return new Date(ms).toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

export function renderWallet() {
  const root = document.querySelector(".wallet-root");
  const p = wallet.page;
  if (!root || !p) return;
  const d = p.data;
  let html = `<section class="panel wallet"><h2>${esc(t("wallet_title"))}</h2><p class="muted">${esc(t("wallet_note"))}</p>`;
  if (d) {
    html +=
      `<dl class="wallet-sums"><div><dt>${esc(t("wallet_balance"))}</dt><dd class="wallet-balance">${esc(chips(d.balance))}</dd></div>` +
      `<div><dt>${esc(t("wallet_held"))}</dt><dd class="wallet-held">${esc(chips(d.held ?? 0))}</dd></div></dl>`;
    if (d.can_top_up) {
      html += `<p><button type="button" class="btn primary" data-wallet="top-up">${esc(t("top_up"))}</button> <span class="muted">${esc(t("top_up_about"))}</span></p>`;
    }
  }
  if (p.notice?.ok) html += `<p class="wallet-notice good" role="status">${esc(t("top_up_done"))}</p>`;
  else if (p.notice?.error) html += `<p class="wallet-notice form-error" role="alert">${esc(wallet.errorText(p.notice.error))}</p>`;
  if (p.error) html += `<p class="form-error" role="alert">${esc(wallet.errorText(p.error))}</p>`;
  html += `<h3>${esc(t("wallet_history"))}</h3>`;
  if (p.entries.length) {
    html += `<ol class="ledger">${p.entries
      .map((e) => {
        const amount = Number(e.amount) || 0;
        const cls = amount > 0 ? "plus" : amount < 0 ? "minus" : "";
        return (
          `<li data-entry="${esc(e.id)}" data-kind="${esc(e.kind)}"><span class="when">${esc(when(e.at_ms))}</span>` +
          `<span class="what">${entryWords(e)}</span><span class="amount ${cls}">${esc(signedChips(amount))}</span></li>`
        );
      })
      .join("")}</ol>`;
  } else if (!p.loading && d) html += `<p class="muted">${esc(t("wallet_empty"))}</p>`;
  if (p.loading) html += `<p class="loading">${esc(t("loading"))}</p>`;
  else if (p.next != null) html += `<button type="button" class="btn small" data-wallet="more">${esc(t("wallet_more"))}</button>`;
  html += `</section>`;
  root.innerHTML = html;
}
