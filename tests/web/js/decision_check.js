// A decision box of yours, measured in the page (tests/web/test_summary_and_panels.py): returns
// the broken promises. Whole in the window, every button in it, in view and on top, and its
// words not cut.
(where) => {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const say = (text) => problems.push(`${where}: ${text}`);
  const box = (r) => `[${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}]`;
  const inView = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const what = (el) => el ? `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}` : "nothing";
  const card = document.querySelector(".decision:not([hidden]) .decision-card");
  if (!card) return [`${where}: no decision box`];
  const c = card.getBoundingClientRect();
  if (!inView(c)) say(`the box is outside the window ${box(c)}`);
  if (card.scrollHeight > card.clientHeight + 1) say(`the box scrolls (${card.scrollHeight} > ${card.clientHeight})`);
  const words = card.querySelector("p");
  if (words && words.scrollHeight > words.clientHeight + 1) say(`its words are cut (${words.scrollHeight} > ${words.clientHeight})`);
  const buttons = [...card.querySelectorAll("button[data-action]")];
  if (!buttons.length) say("no buttons");
  for (const button of buttons) {
    const r = button.getBoundingClientRect();
    const name = `"${button.textContent.trim()}"`;
    if (!inView(r)) say(`${name} is outside the window ${box(r)}`);
    if (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5 || r.left < c.left - 0.5 || r.right > c.right + 0.5) {
      say(`${name} is cut off by the box ${box(r)} ${box(c)}`);
    }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!button.contains(top)) say(`${name} is covered by ${what(top)}`);
    if (button.scrollWidth > button.clientWidth + 1) say(`${name} is wider than its button`);
  }
  return problems;
}
