// Friends, blocks and challenges (#44): the lobby's friends panel (who one follows, online
// and where; follow, unfollow, block, unblock by name), the challenge form, and the banner
// of challenges (incoming: Accept / Decline; sent: Cancel) shown over the lobby and the
// table. The server pushes a "challenge" frame to every open page of the person concerned
// (docs/protocol.md); an accepted challenge opens its table on both pages.

import { callAttention, clearAttention } from "./attention.js";
import { applyStatic, t } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./html.js";
import { allGames, playerChoices } from "./games/index.js";
import { fillStakeKinds, stakeFromForm, stakeHint } from "./stakes.js";
import { balance } from "./wallet.js";
import { store } from "./store.js";
import { $, errorText, gameName, toast } from "./ui.js";

const open = new Map(); // challenge id -> challenge (open ones only, in or out)
let timer = null;

function account() {
  return store.user && !store.user.guest;
}

function mine(c) {
  return c.from === store.user?.name;
}

// ------------------------------------------------------------------ the panel

export function setupFriends() {
  const panel = $(".friends-panel");
  const form = $(".friends-form", panel);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const action = e.submitter?.value || "follow";
    const name = form.elements.name.value.trim();
    if (!name) return;
    if (action === "challenge") return openChallenge(name);
    change("POST", action === "block" ? "blocks" : "friends", name, () => form.reset());
  });
  panel.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-act]");
    if (!button) return;
    const name = button.dataset.name;
    const act = button.dataset.act;
    if (act === "challenge") return openChallenge(name);
    if (act === "unfollow") change("DELETE", "friends", name);
    if (act === "block") change("POST", "blocks", name);
    if (act === "unblock") change("DELETE", "blocks", name);
  });
  const dialog = $(".challenge-dialog");
  const cform = $(".challenge-form", dialog);
  cform.addEventListener("change", (e) => {
    if (e.target.name === "game") fillChallengeForm();
    if (e.target.name === "game" || e.target.name === "players") fillBotSeats();
    stakeHint(cform, balance());
  });
  cform.addEventListener("input", () => stakeHint(cform, balance()));
  $(".challenge-close", dialog).addEventListener("click", () => dialog.close());
  cform.addEventListener("submit", sendChallenge);
  $(".challenge-banner").addEventListener("click", answerFromBanner);
}

async function change(method, list, name, done = () => {}) {
  try {
    await api(method, `/api/${list}/${encodeURIComponent(name)}`);
    done();
    refreshFriends();
  } catch (e) {
    toast(errorText(e));
  }
}

/** The panel and the banner again, from the server (the lobby calls it when shown). */
export async function refreshFriends() {
  const panel = $(".friends-panel");
  panel.hidden = !store.user;
  if (!store.user) return;
  $(".friends-guest", panel).hidden = account();
  $(".friends-body", panel).hidden = !account();
  if (!account()) return;
  try {
    const [friends, blocks, challenges] = await Promise.all([
      api("GET", "/api/friends"),
      api("GET", "/api/blocks"),
      api("GET", "/api/challenges"),
    ]);
    renderFriends(friends.friends, blocks.blocks);
    open.clear();
    for (const c of [...challenges.incoming, ...challenges.outgoing]) open.set(c.id, c);
    renderBanner();
  } catch (e) {
    toast(errorText(e));
  }
}

function whereText(f) {
  if (!f.online) return t("friends_offline");
  if (!f.where) return t("friends_online");
  const key = f.where.doing === "watching" ? "friends_watching" : "friends_playing";
  return t(key, { game: gameName(f.where.game) });
}

function renderFriends(friends, blocks) {
  const list = $(".friend-list");
  list.innerHTML = friends.length
    ? friends
        .map((f) => {
          const name = esc(f.name);
          const link = f.where?.table ? ` <a href="#/table/${esc(f.where.table)}">${esc(t("friends_open_table"))}</a>` : "";
          return `<li class="friend" data-name="${name}">
            <span class="friend-name">${name}</span>
            <span class="friend-where ${f.online ? "online" : "muted"}">${esc(whereText(f))}${link}</span>
            <span class="friend-acts">
              <button type="button" class="btn small primary" data-act="challenge" data-name="${name}">${esc(t("friends_challenge"))}</button>
              <button type="button" class="btn small" data-act="unfollow" data-name="${name}">${esc(t("friends_unfollow"))}</button>
              <button type="button" class="btn small" data-act="block" data-name="${name}">${esc(t("friends_block"))}</button>
            </span></li>`;
        })
        .join("")
    : `<li class="muted">${esc(t("friends_none"))}</li>`;
  const blocked = $(".block-list");
  $(".blocks-head").hidden = !blocks.length;
  blocked.innerHTML = blocks
    .map(
      (b) => `<li class="friend" data-name="${esc(b.name)}"><span class="friend-name">${esc(b.name)}</span>
      <button type="button" class="btn small" data-act="unblock" data-name="${esc(b.name)}">${esc(t("friends_unblock"))}</button></li>`,
    )
    .join("");
}

// ------------------------------------------------------------------ the challenge form

function fillChallengeForm() {
  const form = $(".challenge-form");
  const games = form.elements.game;
  if (!games.options.length) {
    games.innerHTML = allGames()
      .map((g) => `<option value="${esc(g.name)}">${esc(gameName(g.name))}</option>`)
      .join("");
  }
  const sel = form.elements.players;
  const keep = sel.value;
  const counts = playerChoices(games.value);
  sel.innerHTML = counts.map((n) => `<option value="${n}">${esc(t("players_n", { n }))}</option>`).join("");
  if (counts.includes(Number(keep))) sel.value = keep;
  fillStakeKinds(form, balance());
}

/** The seats after the two people's: computers of a level, or left open. */
function fillBotSeats() {
  const form = $(".challenge-form");
  const others = Number(form.elements.players.value) - 2;
  $(".challenge-bots-row", form).hidden = others <= 0;
}

function openChallenge(name) {
  const dialog = $(".challenge-dialog");
  const form = $(".challenge-form", dialog);
  form.elements.to.value = name;
  $(".challenge-title", dialog).textContent = t("challenge_head", { name });
  $(".form-error", form).textContent = "";
  applyStatic(dialog);
  fillChallengeForm();
  fillBotSeats();
  dialog.showModal();
}

async function sendChallenge(e) {
  e.preventDefault();
  const form = e.target;
  const f = form.elements;
  const players = Number(f.players.value);
  const level = f.bots.value;
  const body = {
    to: f.to.value,
    game: f.game.value,
    players,
    stake: stakeFromForm(form),
    bots: level && players > 2 ? Array(players - 2).fill(Number(level)) : null,
    private: f.private.checked,
  };
  try {
    const r = await api("POST", "/api/challenges", body);
    $(".challenge-dialog").close();
    open.set(r.challenge.id, r.challenge);
    renderBanner();
    toast(t("challenge_sent", { name: r.challenge.to }));
  } catch (err) {
    $(".form-error", form).textContent = errorText(err);
  }
}

// ------------------------------------------------------------------ the banner

function renderBanner() {
  const banner = $(".challenge-banner");
  const now = Date.now();
  // gone by its time, or of someone who signed out since (another may sign in here)
  const me = store.user?.name;
  for (const [id, c] of open) if (c.expires_ms <= now || (c.from !== me && c.to !== me)) open.delete(id);
  const items = [...open.values()];
  banner.hidden = !items.length;
  banner.innerHTML = items
    .map((c) => {
      const id = esc(c.id);
      if (mine(c)) {
        return `<div class="challenge-item outgoing" data-id="${id}"><span>${esc(t("challenge_outgoing", { name: c.to, game: gameName(c.game) }))}</span>
          <button type="button" class="btn small" data-answer="cancel" data-id="${id}">${esc(t("challenge_cancel"))}</button></div>`;
      }
      return `<div class="challenge-item incoming" data-id="${id}"><span>${esc(t("challenge_incoming", { name: c.from, game: gameName(c.game), n: c.options.players }))}</span>
        <button type="button" class="btn small primary" data-answer="accept" data-id="${id}">${esc(t("challenge_accept"))}</button>
        <button type="button" class="btn small" data-answer="decline" data-id="${id}">${esc(t("challenge_decline"))}</button></div>`;
    })
    .join("");
  clearTimeout(timer);
  if (items.length) {
    const next = Math.min(...items.map((c) => c.expires_ms)) - now;
    timer = setTimeout(renderBanner, Math.max(1000, next));
  }
}

async function answerFromBanner(e) {
  const button = e.target.closest("button[data-answer]");
  if (!button) return;
  const id = button.dataset.id;
  const answer = button.dataset.answer;
  button.disabled = true;
  try {
    const r = await api("POST", `/api/challenges/${encodeURIComponent(id)}/${answer}`);
    open.delete(id);
    renderBanner();
    if (answer === "accept" && r.table) location.hash = `#/table/${r.table}`;
  } catch (err) {
    button.disabled = false;
    open.delete(id); // answered, cancelled or expired meanwhile: it is gone either way
    renderBanner();
    toast(errorText(err));
  }
}

/** A "challenge" frame: a new one to answer, or what became of one. */
export function onChallengeFrame(f) {
  const c = f.challenge;
  if (!c || !store.user) return;
  if (c.state === "open") open.set(c.id, c);
  else open.delete(c.id);
  renderBanner();
  if (!mine(c)) {
    // a challenge to me, while the page is in the background: the tab and a notification
    // say so (#44 item 5); answered or gone, the tab is itself again
    if (c.state === "open") {
      const n = c.options.players;
      callAttention("challenge", t("challenge_incoming", { name: c.from, game: gameName(c.game), n }));
    } else clearAttention("challenge");
    return;
  }
  if (c.state === "accepted" && c.table) location.hash = `#/table/${c.table}`;
  else if (c.state === "declined") toast(t("challenge_declined", { name: c.to }));
}

/** The page's language changed: the banner's words again. */
export function relabelFriends() {
  renderBanner();
  if (store.screen === "lobby" && account()) refreshFriends();
}
