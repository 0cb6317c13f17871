// The hand's rule (tests/web/test_tap_targets.py): the cards of a hand overlap by design.
// Each card's uncovered strip (up to the next card's left edge) is at least 44 px tall and
// as wide as the hand's room shared out between the cards (the hand spread over its whole
// width: no strip narrower than it must be), and a finger anywhere down that strip gets
// that card; the card a first tap raised (the one a second tap plays) lies whole over its
// neighbours, at least 44 px wide. Returns the broken promises and the strips.
(where) => {
  const MIN = 44;
  const problems = [];
  const hand = document.querySelector("#screen-table:not([hidden]) .hand, #replay-root .hand");
  const cards = [...hand.querySelectorAll(".card:not(.back)")];
  if (!cards.length) return {problems, strips: []};
  hand.scrollIntoView({block: "center"});
  const width = hand.clientWidth;
  const cardW = cards[0].getBoundingClientRect().width;
  const raised = hand.querySelector(".card.raised");
  const narrow = cards.length < 2 ? cardW
    : raised && raised !== cards.at(-1) ? (width - cardW - 8 - cardW) / (cards.length - 2)
    : (width - cardW - 8) / (cards.length - 1);
  const fair = Math.min(narrow, cardW * 0.62) - 0.5;
  const strips = cards.map((card, i) => {
    const r = card.getBoundingClientRect();
    const next = cards[i + 1]?.getBoundingClientRect();
    const right = next ? Math.min(r.right, next.left) : r.right;
    const strip = {card: card.dataset.card, w: right - r.left, h: r.height,
                   raised: card === raised};
    const need = strip.raised ? MIN : fair;
    const say = (text) => problems.push(`${where}: ${strip.card} ${text}`);
    if (strip.h < MIN) say(`strip ${Math.round(strip.h)} px tall`);
    if (strip.w < need) {
      say(`strip ${strip.w.toFixed(1)} px wide, < ${need.toFixed(1)}`);
    }
    const x = (r.left + right) / 2;
    for (const y of [r.top + 2, r.top + r.height / 2, r.bottom - 2]) {
      const hit = document.elementFromPoint(x, y);
      if (hit?.closest(".card") !== card) {
        const got = hit?.closest(".card")?.dataset.card ?? hit?.tagName;
        say(`at (${Math.round(x)},${Math.round(y)}) is ${got}`);
      }
    }
    return strip;
  });
  return {problems, strips};
}
