// Account settings (#/account): rename, change the password, delete the account, and
// for a guest, turn the guest account into a real one that keeps its games.

import { applyStatic, t } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./table.js";

// Each form's last outcome as a function of the language, so a switch re-words it.
const outcomes = new Map();

function field(name, key, attrs) {
  return `<label><span data-i18n="${key}"></span><input name="${name}" ${attrs}></label>`;
}

function form(kind, titleKey, body, buttonKey, { danger = false, aboutKey = null } = {}) {
  return (
    `<section class="panel account-part" data-part="${kind}"><h2 data-i18n="${titleKey}"></h2>` +
    (aboutKey ? `<p class="muted" data-i18n="${aboutKey}"></p>` : "") +
    `<form class="account-form" data-form="${kind}" novalidate>${body}` +
    `<button class="btn${danger ? " danger" : " primary"}" type="submit" data-i18n="${buttonKey}"></button>` +
    `<p class="form-msg" role="status" aria-live="polite"></p></form></section>`
  );
}

const NAME = 'autocomplete="username" required minlength="2" maxlength="30"';
const NEW_PASSWORD = 'type="password" autocomplete="new-password" required minlength="8"';
const PASSWORD = 'type="password" autocomplete="current-password" required';

/** What each form sends, where, and what it says when it worked. */
const ACTIONS = {
  rename: { path: "/api/me/name", body: (d) => ({ name: d.name.trim() }), done: (u) => () => t("renamed", { name: u.name }) },
  password: { path: "/api/me/password", body: (d) => ({ old: d.old, new: d.new }), done: () => () => t("password_changed") },
  delete: { path: "/api/me/delete", body: (d) => ({ password: d.password }), done: () => () => t("deleted_done") },
  upgrade: {
    path: "/api/me/upgrade",
    body: (d) => ({ name: d.name.trim(), password: d.password }),
    done: (u) => () => t("upgraded", { name: u.name }),
  },
};

export function renderAccount(root, user, ctx) {
  outcomes.clear();
  const parts = user.guest
    ? form(
        "upgrade",
        "upgrade_title",
        field("name", "user_name", NAME) + field("password", "password_rule", NEW_PASSWORD),
        "upgrade_go",
        { aboutKey: "upgrade_about" },
      )
    : form("rename", "rename_title", field("name", "new_name", NAME), "rename_go") +
      form(
        "password",
        "password_title",
        field("old", "old_password", PASSWORD) + field("new", "new_password", NEW_PASSWORD),
        "password_go",
      ) +
      form("delete", "delete_title", field("password", "delete_confirm", PASSWORD), "delete_go", {
        danger: true,
        aboutKey: "delete_about",
      });
  root.innerHTML =
    `<div class="account"><h1><span data-i18n="account_title"></span> · ${esc(user.name)}</h1>${parts}</div>`;
  applyStatic(root);
  for (const f of root.querySelectorAll("form.account-form")) {
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      submit(f, ctx);
    });
  }
}

function say(f, kind, words) {
  outcomes.set(f.dataset.form, { kind, words });
  showOutcome(f);
}

function showOutcome(f) {
  const o = outcomes.get(f.dataset.form);
  const el = f.querySelector(".form-msg");
  el.className = `form-msg${o ? ` ${o.kind}` : ""}`;
  el.textContent = o ? o.words() : "";
}

/** Re-words the outcomes shown (the language changed). */
export function relabelAccount(root) {
  for (const f of root.querySelectorAll("form.account-form")) showOutcome(f);
}

async function submit(f, ctx) {
  // The browser's own checks (lengths, required) speak the browser's language, which may
  // not be the page's, so they are shown as a field's message only and nothing is sent.
  if (!f.checkValidity()) {
    f.reportValidity();
    return;
  }
  const kind = f.dataset.form;
  const action = ACTIONS[kind];
  const data = Object.fromEntries(new FormData(f));
  const button = f.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const r = await api("POST", action.path, action.body(data));
    if (kind === "delete") {
      ctx.signedOut(t("deleted_done"));
      return;
    }
    let user = r?.user;
    if (!user) user = (await api("GET", "/api/me")).user;
    for (const input of f.querySelectorAll("input[type=password]")) input.value = "";
    if (kind === "rename" || kind === "upgrade") {
      f.reset();
      ctx.setUser(user);
      if (kind === "upgrade") {
        // A guest no more: the page now offers what an account has, and says what happened.
        renderAccount(f.closest(".screen"), user, ctx);
        const again = document.querySelector('#screen-account form[data-form="rename"]');
        if (again) say(again, "ok", action.done(user));
        return;
      }
    }
    say(f, "ok", action.done(user));
  } catch (e) {
    say(f, "bad", () => ctx.errorText(e));
  } finally {
    button.disabled = false;
  }
}
