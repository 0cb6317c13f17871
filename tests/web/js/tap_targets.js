// Every control a finger can tap on the screen shown, measured where a finger would
// land (tests/web/test_tap_targets.py): returns the broken promises.
//
// A control's hit box is its own box, or more where a transparent ::after reaches out
// around it: so it is not read from the box but probed. The least box a finger needs,
// 44×44 px (the control's own box where it is larger), is laid around the control's
// middle and the page is asked (document.elementFromPoint) what a finger gets at the
// middles of its edges and at its centre: each must be the control. That finds
// a control too small, one whose reach meets another's, and one covered by something.
//
// A checkbox or a radio button is tapped through its label (the label is its box). The
// cards of a hand overlap by design: they are measured by test_tap_targets.py's own rule.
(where) => {
  const MIN = 44;
  const problems = [];
  const say = (text) => problems.push(`${where}: ${text}`);
  const what = (el) => {
    if (!el) return "nothing";
    const name = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim().replace(/\s+/g, " ");
    return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${name.slice(0, 24)}"`;
  };
  const shown = (el) => {
    if (el.closest("[hidden], dialog:not([open]), .skip")) return false;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const controls = new Set();
  const query = "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]";
  for (const el of document.querySelectorAll(query)) {
    if (el.closest(".hand")) continue; // the hand's own rule
    let target = el;
    if (el.matches("input[type=checkbox], input[type=radio]")) target = el.closest("label") || el;
    if (shown(target)) controls.add(target);
  }
  const results = [];
  for (const el of controls) {
    // in the middle of the window, where nothing fixed or sticky lies over it
    el.scrollIntoView({ block: "center", inline: "nearest" });
    const r = el.getBoundingClientRect();
    const w = Math.max(r.width, MIN);
    const h = Math.max(r.height, MIN);
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const left = cx - w / 2 + 1;
    const right = cx + w / 2 - 1;
    const top = cy - h / 2 + 1;
    const bottom = cy + h / 2 - 1;
    const misses = [];
    // (not the corners: a rounded button is rightly missed there)
    for (const [x, y] of [[cx, top], [left, cy], [cx, cy], [right, cy], [cx, bottom]]) {
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) {
        misses.push(`(${Math.round(x)},${Math.round(y)}) off the screen`);
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(el === hit || el.contains(hit) || (el.control && el.control === hit))) {
        misses.push(`(${Math.round(x - r.left)},${Math.round(y - r.top)}) ${what(hit)}`);
      }
    }
    results.push({ el: what(el), w: Math.round(r.width), h: Math.round(r.height) });
    if (misses.length) say(`${what(el)} ${Math.round(r.width)}x${Math.round(r.height)}: a finger gets ${misses.join(", ")}`);
  }
  window.scrollTo(0, 0);
  return { problems, count: results.length };
}
