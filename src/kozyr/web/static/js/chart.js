// A rating chart drawn as inline SVG: a point per game, ratings up the left, dates along
// the bottom. Games are spaced evenly rather than by time: a evening of ten games would
// otherwise be one blot beside a month of single games.

import { esc } from "./table.js";

const HEIGHT = 190;
const PAD = { left: 46, right: 14, top: 12, bottom: 30 };

/** A round step (1, 2, 2.5, 5 times a power of ten) giving about `ticks` intervals. */
export function niceStep(span, ticks = 4) {
  const raw = Math.max(span, 1) / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/**
 * The chart's SVG text. points: [{at_ms, rating}] oldest first; width: pixels the chart
 * may take (the SVG's units are pixels, so its text stays 11 px at any width);
 * words: {title, dateShort(ms), pointTitle(point)}; id: unique per page.
 */
export function ratingChart(points, width, words, id) {
  const w = Math.max(240, Math.round(width));
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  // At least 40 points of scale: one game, or a flat run, still gets distinct round labels.
  const step = niceStep(Math.max(hi - lo, 40));
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) {
    lo -= step;
    hi += step;
  }
  const n = points.length;
  const x = (i) => PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (r) => PAD.top + plotH - ((r - lo) / (hi - lo)) * plotH;
  const parts = [];
  for (let v = lo; v <= hi + step / 2; v += step) {
    const yy = y(v).toFixed(1);
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${w - PAD.right}" y1="${yy}" y2="${yy}"/>` +
        `<text class="y-label" x="${PAD.left - 6}" y="${yy}" dy="0.35em" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  // Date labels: the first and last game and evenly between, as many as fit (about one
  // per 90 px), a date that repeats its neighbour's left out.
  const fit = Math.max(2, Math.min(n, Math.floor(plotW / 90)));
  const picks = n === 1 ? [0] : [...new Set([...Array(fit)].map((_, k) => Math.round((k * (n - 1)) / (fit - 1))))];
  let lastText = null;
  for (const i of picks) {
    const text = words.dateShort(points[i].at_ms);
    if (text === lastText) continue;
    lastText = text;
    const anchor = n === 1 ? "middle" : i === 0 ? "start" : i === n - 1 ? "end" : "middle";
    const xx = x(i).toFixed(1);
    parts.push(
      `<line class="tick" x1="${xx}" x2="${xx}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH + 4}"/>` +
        `<text class="x-label" x="${xx}" y="${HEIGHT - 10}" text-anchor="${anchor}">${esc(text)}</text>`,
    );
  }
  parts.push(
    `<line class="axis" x1="${PAD.left}" x2="${w - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}"/>` +
      `<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${PAD.top + plotH}"/>`,
  );
  if (n > 1) {
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
    parts.push(`<polyline class="line" points="${line}"/>`);
  }
  const r = n > 80 ? 2 : 3.5;
  for (const [i, p] of points.entries()) {
    parts.push(
      `<circle class="pt" cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="${r}">` +
        `<title>${esc(words.pointTitle(p))}</title></circle>`,
    );
  }
  return (
    `<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${HEIGHT}" ` +
    `width="${w}" height="${HEIGHT}" role="img" aria-labelledby="${esc(id)}">` +
    `<title id="${esc(id)}">${esc(words.title)}</title>${parts.join("")}</svg>`
  );
}
