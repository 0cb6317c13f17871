// The deal's summary over the table, measured in the page (tests/web/test_summary_and_panels.py):
// returns the broken promises. Whole in the window, its button in view and on top, every
// player's column there and named whole, every row shown without scrolling.
(where) => {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const say = (text) => problems.push(`${where}: ${text}`);
  const box = (r) => `[${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}]`;
  const inView = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const what = (el) => el ? `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}` : "nothing";
  const summary = document.querySelector(".deal-summary:not([hidden])");
  if (!summary) return [`${where}: no summary on the screen`];
  const card = summary.querySelector(".summary-card").getBoundingClientRect();
  if (!inView(card)) say(`the summary is outside the window ${box(card)}`);
  const button = summary.querySelector(".summary-close");
  const b = button.getBoundingClientRect();
  if (!inView(b)) say(`its button is outside the window ${box(b)}`);
  const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  if (!button.contains(top)) say(`its button is covered by ${what(top)}`);
  const wrap = summary.querySelector(".sheet-wrap");
  if (wrap.scrollWidth > wrap.clientWidth + 1) say(`its table is wider than it (${wrap.scrollWidth} > ${wrap.clientWidth})`);
  const body = summary.querySelector(".summary-body");
  if (body.scrollHeight > body.clientHeight + 1) say(`rows below its edge (${body.scrollHeight} > ${body.clientHeight})`);
  const heads = [...summary.querySelectorAll("thead th")].slice(1);
  const players = window.kozyr.table.view.hand_sizes.length;
  if (heads.length !== players) say(`${heads.length} columns for ${players} players`);
  for (const th of heads) {
    const r = th.getBoundingClientRect();
    const name = th.textContent.trim();
    if (!name) say("a column without a name");
    if (!inView(r) || r.left < card.left - 0.5 || r.right > card.right + 0.5) say(`the column of ${name} is cut ${box(r)} ${box(card)}`);
    if (th.scrollWidth > th.clientWidth + 1) say(`the name ${name} does not fit its column`);
  }
  for (const td of summary.querySelectorAll("td")) {
    const r = td.getBoundingClientRect();
    if (!inView(r)) say(`a figure (${td.dataset.field} of seat ${td.dataset.seat}) is outside the window ${box(r)}`);
  }
  return problems;
}
