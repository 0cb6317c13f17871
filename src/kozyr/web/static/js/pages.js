// The rating pages' part of the page: their screens, their addresses (#/user/NAME,
// #/user/NAME/games, #/leaderboard, #/account), the header links, and the "rated" switch
// of the lobby's forms. app.js calls setupPages once, routePage from its route(), and
// userChanged whenever the signed-in user changes.

import { relabelAccount, renderAccount } from "./account.js";
import { onLangChange, t } from "./i18n.js";
import { loadLeaderboard, pickVariant, renderLeaderboard } from "./leaderboard.js";
import { drawCharts, loadHistory, loadProfile, renderHistory, renderProfile } from "./profile.js";
import { profileHref } from "./ratings_common.js";
import { esc } from "./table.js";

export { nameLink, ratedPill } from "./ratings_common.js";

const SCREENS = ["profile", "history", "leaderboard", "account"];

let ctx = null;
// What is on screen: {screen, render(root)} re-drawn from data already fetched when the
// language changes; `seq` drops answers to requests the player has since moved away from.
let current = null;
let seq = 0;

/**
 * ctx: {show(name), leave(), user(), setUser(user), signedOut(message), errorText(e)}.
 */
export function setupPages(context) {
  ctx = context;
  const main = document.querySelector("main");
  for (const name of SCREENS) {
    const s = document.createElement("section");
    s.className = "screen";
    s.id = `screen-${name}`;
    s.hidden = true;
    main.appendChild(s);
  }
  onLangChange(() => {
    syncRatedSwitches();
    if (!current || ctx.user() == null || document.getElementById(`screen-${current.screen}`).hidden) return;
    if (current.screen === "account") relabelAccount(screen("account"));
    else current.render(screen(current.screen));
  });
  // Table and replay addresses never reach routePage: the marks are cleared here too.
  window.addEventListener("hashchange", () => markNav(location.hash));
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (current?.screen === "profile" && !screen("profile").hidden) drawCharts(screen("profile"), current.user);
    }, 150);
  });
}

function screen(name) {
  return document.getElementById(`screen-${name}`);
}

/** Shows the page for `hash` if it is one of ours; false leaves it to app.js. */
export function routePage(hash) {
  markNav(hash);
  let m = hash.match(/^#\/user\/([^/?]+)(\/games)?(?:\?(.*))?$/);
  if (m) {
    let name;
    try {
      name = decodeURIComponent(m[1]);
    } catch {
      return false;
    }
    if (m[2]) {
      const page = Math.max(1, Math.floor(Number(new URLSearchParams(m[3] || "").get("page")) || 1));
      open("history", () => loadHistory(name, page), (root, data) => renderHistory(root, data));
    } else {
      open("profile", () => loadProfile(name), (root, data) => renderProfile(root, data, ctx.user()));
    }
    return true;
  }
  m = hash.match(/^#\/leaderboard(?:\?(.*))?$/);
  if (m) {
    const variant = pickVariant(new URLSearchParams(m[1] || "").get("variant"));
    open("leaderboard", () => loadLeaderboard(variant), (root, data) => renderLeaderboard(root, data, ctx.user()));
    return true;
  }
  if (hash === "#/account") {
    ctx.leave();
    ctx.show("account");
    current = { screen: "account" };
    seq++;
    renderAccount(screen("account"), ctx.user(), ctx);
    return true;
  }
  return false;
}

async function open(name, load, render) {
  ctx.leave();
  ctx.show(name);
  const root = screen(name);
  const mine = ++seq;
  current = null;
  root.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  try {
    const data = await load();
    if (mine !== seq) return;
    current = { screen: name, user: data.user, render: (r) => render(r, data) };
    render(root, data);
  } catch (e) {
    if (mine !== seq) return;
    current = { screen: name, render: (r) => (r.innerHTML = `<p class="panel form-error">${esc(ctx.errorText(e))}</p>`) };
    current.render(root);
  }
}

/** The header link to the page on screen says so (aria-current), for eyes and readers. */
function markNav(hash) {
  const user = ctx.user();
  const mine = user ? profileHref(user.name) : null;
  const marks = [
    [".nav-board", hash.startsWith("#/leaderboard")],
    [".nav-me", mine != null && (hash === mine || hash.startsWith(`${mine}/`))],
  ];
  for (const [selector, on] of marks) {
    const el = document.querySelector(selector);
    if (el && on) el.setAttribute("aria-current", "page");
    else if (el) el.removeAttribute("aria-current");
  }
}

/** The header's links and the lobby's "rated" switches follow who is signed in. */
export function userChanged(user) {
  const me = document.querySelector(".nav-me");
  if (me) {
    me.hidden = !user;
    if (user) {
      me.href = profileHref(user.name);
      me.textContent = user.name;
      me.title = t("nav_my_profile");
    }
  }
  const board = document.querySelector(".nav-board");
  if (board) board.hidden = !user;
  syncRatedSwitches();
}

/** Guests are not rated: their switches are off and say why. */
function syncRatedSwitches() {
  const user = ctx?.user();
  const guest = !user || user.guest;
  for (const box of document.querySelectorAll(".rated-switch")) {
    const input = box.querySelector("input[name=rated]");
    input.disabled = guest;
    if (guest) input.checked = false;
    const hint = box.parentElement.querySelector(".rated-hint");
    if (hint) {
      const key = guest ? "rated_guest_hint" : hint.dataset.hint;
      // A signed-in guest is one step from being rated: the way there, beside the reason.
      const upgrade = guest && user ? ` <a href="#/account">${esc(t("upgrade_title"))}</a>` : "";
      hint.innerHTML = esc(t(key)) + upgrade;
      hint.classList.toggle("guest", guest);
    }
  }
}
