// Stakes "by prior agreement" in the page (issue #11): the terms in the create and quick
// play forms, their words in the lobby and at the table, agreeing to them before taking a
// seat, and the settlement at game over. The server holds and moves the chips; the page
// only shows what it is told (table info: stake, stake_hold, settlement, transfers).

import { t, tn } from "./i18n.js";
import { allGames, gameOf } from "./games/index.js";

export const MAX_CHIPS = 1000000;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "10 chips" / "10 фишек" (1 фишка, 2 фишки, 5 фишек, 21 фишка). */
export function chips(n) {
  return tn("chips", Number(n) || 0);
}

/** A signed amount: "+10 chips", "−10 chips", "0 chips". */
export function signedChips(n) {
  const v = Number(n) || 0;
  return (v > 0 ? "+" : v < 0 ? "−" : "") + tn("chips", Math.abs(v));
}

/** The terms as the lobby shows them: "stake 10 chips per game" / "ставка 10 фишек за
 * партию". Always in chips, so that the stake is never read as the game's own value. */
export function stakeLine(stake) {
  if (!stake || !stake.kind) return "";
  const key = `stake_line_${stake.kind}`;
  // Every game's stake kinds, from the server's Game specs (kozyr.games.stakes.KINDS).
  const known = allGames().some((g) => g.stake_kinds.includes(stake.kind));
  return t(known ? key : "stake_line_other", { chips: chips(stake.chips), kind: stake.kind });
}

/** The most one seat can lose under the terms (kozyr.games.stakes.max_loss): a hint only,
 * the server's stake_hold is what counts. */
export function holdFor(kind, s, players, target) {
  if (!(s > 0)) return null;
  if (kind === "per_game") return s;
  if (kind === "per_imperial") return target > 0 ? s * target : null;
  if (kind === "per_place") return (players === 3 ? 2 : 3) * s;
  if (kind === "per_trick") return (players - 1) * 10 * s;
  return null;
}

// ------------------------------------------------------------------ forms

/** The stake fields of a form: "no stakes" and the chosen game's kinds; chips only with a kind. */
export function fillStakeKinds(form, balance) {
  const sel = form.elements.stake_kind;
  if (!sel) return;
  const game = form.elements.game.value;
  const keep = sel.value;
  const kinds = gameOf(game).stake_kinds;
  sel.innerHTML =
    `<option value="">${esc(t("stake_none"))}</option>` +
    kinds.map((k) => `<option value="${k}">${esc(t(`stake_kind_${k}`))}</option>`).join("");
  if (kinds.includes(keep)) sel.value = keep;
  stakeHint(form, balance);
}

/** Under the fields: what each player puts in escrow, beside the person's balance; and
 * that playing is agreeing to the terms. */
export function stakeHint(form, balance) {
  const f = form.elements;
  const chipsInput = f.stake_chips;
  const hint = form.querySelector(".stake-hint");
  if (!chipsInput || !hint) return;
  const kind = f.stake_kind.value;
  chipsInput.disabled = !kind;
  chipsInput.required = Boolean(kind);
  if (!kind) {
    hint.textContent = "";
    hint.hidden = true;
    return;
  }
  const s = Number(chipsInput.value);
  const target = f.target ? Number(f.target.value) : 5; // quick play: the default target
  const hold = Number.isInteger(s) ? holdFor(kind, s, Number(f.players.value), target) : null;
  const parts = [];
  if (Number.isInteger(s) && s > 0) parts.push(t(`stake_about_${kind}`, { chips: chips(s) }));
  if (hold != null) parts.push(t("stake_hold_each", { chips: chips(hold) }));
  if (balance != null) parts.push(t("stake_your_balance", { chips: chips(balance) }));
  parts.push(t("stake_agree_short"));
  hint.textContent = parts.join(" ");
  hint.hidden = false;
  hint.classList.toggle("warn", hold != null && balance != null && hold > balance);
}

/** The form's terms for the request, or null for a table without stakes. */
export function stakeFromForm(form) {
  const f = form.elements;
  if (!f.stake_kind || !f.stake_kind.value) return null;
  return { kind: f.stake_kind.value, chips: Number(f.stake_chips.value) };
}

// ------------------------------------------------------------------ refusals

/** stake_too_high in words, from the error's params {balance, hold}; "" without them. */
export function stakeTooHighText(body) {
  const p = body?.params;
  if (!p || p.balance == null || p.hold == null) return "";
  return t("stake_too_high", { balance: chips(p.balance), hold: chips(p.hold) });
}

// ------------------------------------------------------------------ agreeing

/** Before taking a seat at a stake table: the terms and the hold, and a choice to agree.
 * Resolves true to sit (a table without stakes needs no question). */
export function agreeToStake(info, balance) {
  if (!info?.stake) return Promise.resolve(true);
  let dlg = document.querySelector(".stake-dialog");
  if (!dlg) {
    dlg = document.createElement("dialog");
    dlg.className = "stake-dialog";
    dlg.setAttribute("aria-labelledby", "stake-dialog-title");
    document.body.appendChild(dlg);
  }
  const hold = info.stake_hold;
  const lines = [`<p class="terms"><b>${esc(stakeLine(info.stake))}</b></p>`];
  lines.push(`<p>${esc(t("stake_agree", { chips: chips(hold ?? info.stake.chips) }))}</p>`);
  if (balance != null) lines.push(`<p class="muted">${esc(t("stake_your_balance", { chips: chips(balance) }))}</p>`);
  const short = balance != null && hold != null && balance < hold;
  if (short) lines.push(`<p class="form-error">${esc(t("stake_too_high", { balance: chips(balance), hold: chips(hold) }))}</p>`);
  dlg.innerHTML =
    `<form method="dialog"><h2 id="stake-dialog-title">${esc(t("stake_agree_title"))}</h2>${lines.join("")}` +
    `<div class="over-buttons"><button class="btn" value="no">${esc(t("cancel"))}</button>` +
    `<button class="btn primary" value="yes"${short ? " disabled" : ""}>${esc(t("stake_sit_agree"))}</button></div></form>`;
  return new Promise((resolve) => {
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "yes"), { once: true });
    dlg.returnValue = "";
    dlg.showModal();
  });
}

// ------------------------------------------------------------------ settlement

/**
 * The settlement in the game-over dialog: who paid whom how many, and each seat's net.
 * names: seat names as the page shows them; you: the viewer's seat or null.
 */
export function settlementHtml(info, names, you) {
  if (!info?.stake) return "";
  const head = `<h3>${esc(t("settlement"))} <span class="muted">· ${esc(stakeLine(info.stake))}</span></h3>`;
  if (!Array.isArray(info.settlement)) {
    return `<section class="settlement">${head}<p class="muted">${esc(t("settle_pending"))}</p></section>`;
  }
  const who = (s) => (s === you ? `${names[s]} (${t("you").toLowerCase()})` : names[s] ?? t("seat_n", { n: s + 1 }));
  const transfers = Array.isArray(info.transfers) ? info.transfers.filter((x) => x.chips > 0) : [];
  const paid = transfers.length
    ? `<ul class="transfers">${transfers
        .map((x) => `<li>${esc(t("settle_pays", { from: who(x.from), to: who(x.to), chips: chips(x.chips) }))}</li>`)
        .join("")}</ul>`
    : `<p class="muted">${esc(t("settle_none"))}</p>`;
  const rows = info.settlement
    .map((r) => {
      const cls = r.net > 0 ? "won" : r.net < 0 ? "lost" : "";
      return `<tr class="${cls}${r.seat === you ? " me" : ""}"><td>${esc(who(r.seat))}</td><td class="net">${esc(signedChips(r.net))}</td></tr>`;
    })
    .join("");
  const mine = info.settlement.find((r) => r.seat === you);
  let yours = "";
  if (mine) {
    const key = mine.net > 0 ? "settle_you_won" : mine.net < 0 ? "settle_you_lost" : "settle_you_even";
    yours = `<p class="your-net ${mine.net > 0 ? "won" : mine.net < 0 ? "lost" : ""}">${esc(t(key, { chips: chips(Math.abs(mine.net)) }))}</p>`;
  }
  return (
    `<section class="settlement">${head}${yours}${paid}` +
    `<table><thead><tr><th>${esc(t("player"))}</th><th>${esc(t("settle_net"))}</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/** The stake as the table's header shows it, with the hold in its title. */
export function stakePillHtml(stake, hold) {
  if (!stake) return "";
  const title = hold != null ? ` title="${esc(t("stake_hold_each", { chips: chips(hold) }))}"` : "";
  return `<span class="pill stake"${title}>${esc(stakeLine(stake))}</span>`;
}
