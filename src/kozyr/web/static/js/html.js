// Escaping for the HTML the modules of #16B build (the same rule as table.js's `esc`).

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colours the red suit symbols of a text (already escaped). */
export function suitColour(html) {
  return html.replace(/[♥♦]/g, (s) => `<span class="red">${s}</span>`);
}

/** A player's name kept whole on one line ("Компьютер 3" never breaks after its word). */
export function nameHtml(name) {
  return `<span class="name-whole">${esc(name)}</span>`;
}

/** The same for plain text (a title set as text): the name's spaces made unbreakable. */
export function wholeName(name) {
  return String(name).replace(/ /g, "\u00a0");
}

/** A screen of the page's own (hidden until shown), added to <main>: `screen-${name}`. */
export function addScreen(name, className = "screen") {
  const s = document.createElement("section");
  s.className = className;
  s.id = `screen-${name}`;
  s.hidden = true;
  document.querySelector("main").appendChild(s);
  return s;
}
