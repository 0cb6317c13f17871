// Everything the table layout promises (issue #16), measured in the page: returns the
// broken promises. Used by tests/web/test_layout.py as page.evaluate(script, where).
(where) => {
  const problems = [];
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const say = (text) => problems.push(`${where}: ${text}`);
  const box = (r) => `[${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}]`;
  const inView = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const what = (el) => el ? `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}` : "nothing";
  const root = document.querySelector("#screen-table .table-root");
  if (document.documentElement.scrollWidth > vw) say(`the page is wider than the window (${document.documentElement.scrollWidth} > ${vw})`);
  if (vw > 900 && document.documentElement.scrollHeight > vh) {
    const parts = [".top", ".table-tools", ".table-bar", ".felt", ".side", ".hand-area", ".me-line", ".hand", ".hand-hint"]
      .map((q) => `${q} ${box(document.querySelector(q).getBoundingClientRect())}`).join(" ");
    say(`the page needs scrolling (${document.documentElement.scrollHeight} > ${vh}): ${parts}`);
  }
  // Your hand: every card in the window, its visible part its own.
  const cards = [...root.querySelectorAll(".hand .card")];
  cards.forEach((card, i) => {
    const r = card.getBoundingClientRect();
    if (!inView(r)) say(`${card.dataset.card} is outside the window ${box(r)}`);
    const next = cards[i + 1]?.getBoundingClientRect();
    const right = next ? Math.min(r.right, next.left) : r.right;
    const x = (r.left + right) / 2;
    const y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    if (top?.closest(".card") !== card) say(`${card.dataset.card} is covered at (${Math.round(x)},${Math.round(y)}) by ${what(top)}`);
  });
  // The hint under the hand: in the window, under no card.
  const hint = root.querySelector(".hand-hint");
  if (hint.textContent.trim()) {
    const range = document.createRange();
    range.selectNodeContents(hint);
    const r = range.getBoundingClientRect();
    if (!inView(r)) say(`the hint is outside the window ${box(r)}`);
    for (const card of cards) {
      const c = card.getBoundingClientRect();
      if (meet(r, c)) say(`the hint ${box(r)} is under ${card.dataset.card} ${box(c)}`);
    }
  }
  // The decision box: whole, in the window.
  const decision = root.querySelector(".decision:not([hidden]) .decision-card");
  if (decision && !inView(decision.getBoundingClientRect())) say(`the decision box is outside the window ${box(decision.getBoundingClientRect())}`);
  // Seats: inside the felt, names distinct and shown whole.
  const felt = root.querySelector(".felt").getBoundingClientRect();
  const seats = [...root.querySelectorAll(".seats .seat")];
  for (const seat of seats) {
    const r = seat.getBoundingClientRect();
    if (r.left < felt.left - 0.5 || r.right > felt.right + 0.5 || r.top < felt.top - 0.5 || r.bottom > felt.bottom + 0.5) {
      say(`seat ${seat.dataset.seat} sticks out of the felt ${box(r)} ${box(felt)}`);
    }
  }
  for (const el of root.querySelectorAll(".deck-corner .mini")) {
    const r = el.getBoundingClientRect();
    for (const seat of seats) {
      if (meet(r, seat.getBoundingClientRect())) say(`the turned-up card covers seat ${seat.dataset.seat}`);
    }
  }
  const names = [...root.querySelectorAll(".seat-name")];
  const shown = names.map((el) => el.textContent.replace(/ \((You|Вы)\)$/, ""));
  if (new Set(shown).size !== shown.length) say(`seat names not distinct: ${shown.join(" | ")}`);
  for (const el of names) {
    if (el.scrollWidth > el.clientWidth + 1) say(`the name ${el.textContent} is cut`);
    if (!el.title) say(`the name ${el.textContent} has no full name on hover`);
  }
  // The trick: clear of every seat (cards still flying in or out are not measured).
  for (const card of root.querySelectorAll(".trick-area:not(.gather) .trick-card")) {
    if (card.getAnimations().length) continue;
    const r = card.getBoundingClientRect();
    for (const seat of seats) {
      if (meet(r, seat.getBoundingClientRect())) say(`the trick's ${card.dataset.card} covers seat ${seat.dataset.seat}`);
    }
  }
  // Scores: nothing clipped.
  for (const el of root.querySelectorAll(".score-body, table.scores th, table.scores td")) {
    if (el.scrollWidth > el.clientWidth + 1) say(`score cell cut: ${el.textContent.trim()} (${el.scrollWidth} > ${el.clientWidth})`);
  }
  return problems;
}
