// Every visible piece of text on the screen shown, with its colour, the colour behind it
// and their contrast ratio (WCAG 2: (L1 + 0.05) / (L2 + 0.05)), the worst first
// (tests/web/test_dark_mode.py). The colour behind is the element's and its ancestors'
// backgrounds laid one over the other up to the first opaque one, the page's paper under
// all; a gradient counts as each of its colours, and the worst of them is kept.
() => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const lum = (c) => {
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // the backgrounds behind el, each a list of possible colours (a gradient has several)
  const layers = (el) => {
    const found = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const style = getComputedStyle(e);
      const image = style.backgroundImage;
      if (image && image !== "none" && image.includes("gradient")) {
        const stops = (image.match(/rgba?\([^)]+\)/g) || []).map(parse);
        if (stops.length) {
          found.push(stops);
          if (stops.every((s) => s.a === 1)) return found;
        }
      }
      const colour = parse(style.backgroundColor);
      if (colour && colour.a > 0) {
        found.push([colour]);
        if (colour.a === 1) return found;
      }
    }
    found.push([{ r: 255, g: 255, b: 255, a: 1 }]); // the browser's canvas
    return found;
  };
  const behind = (el) => {
    // every combination would be many; each layer's colours over the layer below's first
    let results = [null];
    for (const layer of layers(el).reverse()) {
      const next = [];
      for (const under of results) for (const c of layer) next.push(under ? over(c, under) : { ...c, a: 1 });
      results = next.slice(0, 8);
    }
    return results;
  };
  const visible = (el) => {
    // a suit sign is hidden from screen readers (its words say it), not from the eye
    const from = el.matches("svg.suit-icon") ? el.parentElement : el;
    if (from.closest("[hidden], [inert], [aria-hidden='true'], .skip, dialog:not([open])")) return false;
    // WCAG asks nothing of a control that is off
    if (el.matches(":disabled") || el.closest("button:disabled, option")) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.right < 0) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) === 0) return false;
    }
    return true;
  };
  const texts = []; // [element, its colour, its words]
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE"].includes(el.tagName) || (el.closest("svg") && !el.matches("svg.suit-icon"))) continue;
    // a suit sign beside words (a trump badge) is read as one: its colour counts as text
    const sign = el.matches("svg.suit-icon");
    if (sign && visible(el)) {
      const fill = parse(getComputedStyle(el.querySelector("path")).fill);
      if (fill) texts.push([el, fill, el.parentElement.textContent]);
      continue;
    }
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = el.matches("input:not([type=radio]):not([type=checkbox]):not([type=range]), textarea") && el.value;
    const chosen = el.matches("select") && el.selectedOptions[0]?.textContent;
    if (!(own || field || chosen) || !visible(el)) continue;
    texts.push([el, parse(getComputedStyle(el).color), field ? el.value : chosen || el.textContent]);
  }
  const out = [];
  for (const [el, ink, words] of texts) {
    let worst = Infinity;
    let against = null;
    for (const bg of behind(el)) {
      const r = ratio(over(ink, bg), bg);
      if (r < worst) [worst, against] = [r, bg];
    }
    const rgb = (c) => `rgb(${Math.round(c.r)} ${Math.round(c.g)} ${Math.round(c.b)})`;
    const text = String(words).trim().slice(0, 40);
    const classes = (el.getAttribute("class") || "").trim().split(/\s+/).filter(Boolean);
    const where = [el.tagName.toLowerCase(), ...classes].join(".");
    out.push({ where, text, ink: rgb(ink), paper: rgb(against), ratio: Math.round(worst * 100) / 100 });
  }
  return out.sort((a, b) => a.ratio - b.ratio);
}
