// Small pieces both games' modules draw with.

/** A signed count: +2, −1, 0 (a real minus sign). */
export function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

/** A summary table's cell, with the seat, field and value for tests and styles. */
export function cell(s, field, value, text = value) {
  return `<td data-seat="${s}" data-field="${field}" data-value="${value}">${text}</td>`;
}
