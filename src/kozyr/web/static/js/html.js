// Escaping for the HTML the modules of #16B build (the same rule as table.js's `esc`).

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colours the red suit symbols of a text (already escaped). */
export function suitColour(html) {
  return html.replace(/[♥♦]/g, (s) => `<span class="red">${s}</span>`);
}
