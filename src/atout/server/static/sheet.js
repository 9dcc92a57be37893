/* Score sheet, round summary, final ranking and the score chart.

   A game's module describes its sheet once (heads, and per round and seat the
   cells, whether the contract was made, and the running total); every view of
   scores is drawn from that, so the chart can never show more rounds than the
   sheet it is drawn from (a replay shows the scores up to its step only).

   @typedef {{cells: string[], ok?: boolean|null, total: number}} SeatLine
   @typedef {{label: string, seats: SeatLine[]}} RoundLine
   @typedef {{heads: string[], rounds: RoundLine[], start?: number[]}} Sheet
*/

import { el, num, svg, t } from "./lib/dom.js";

const COLOURS = ["#2f6fd0", "#d2383f", "#23914a", "#c28a12", "#7b4fb3", "#5b5b5b", "#138f8f", "#a85a2d"];

function mark(ok) {
  if (ok === true) return el("span", { class: "ok", "aria-label": t("made") }, "✓");
  if (ok === false) return el("span", { class: "ko", "aria-label": t("missed") }, "✗");
  return null;
}

/** The whole sheet: a row per round, per seat its cells, ✓/✗ and running total. */
export function sheetTable(sheet, names) {
  if (!sheet || !sheet.rounds.length) return el("p", { class: "empty" }, t("no_round_yet"));
  return el("div", { class: "sheet-wrap" }, el("table", { class: "sheet" },
    el("thead", {},
      el("tr", {}, el("th", { rowspan: 2 }, t("round_short")), names.map((n) => el("th", { colspan: sheet.heads.length + 1, scope: "colgroup" }, n))),
      el("tr", {}, names.map(() => [...sheet.heads.map((h) => el("th", { class: "sub" }, h)), el("th", { class: "sub total" }, t("total"))]))),
    el("tbody", {}, sheet.rounds.map((r) => el("tr", {},
      el("th", { scope: "row" }, r.label),
      r.seats.map((s) => [...s.cells.map((c, i) => el("td", {}, c, i === s.cells.length - 1 ? mark(s.ok) : null)), el("td", { class: "total" }, num(s.total))]))))));
}

/** One round's summary: a line per seat (its cells, ✓/✗, points and total). */
export function roundSummary(sheet, names, index) {
  const r = sheet.rounds[index];
  if (!r) return null;
  return el("table", { class: "summary" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), sheet.heads.map((h) => el("th", {}, h)), el("th", {}, t("total")))),
    el("tbody", {}, r.seats.map((s, seat) => el("tr", { class: s.ok === true ? "made" : s.ok === false ? "missed" : null },
      // On one line, cut with its whole self in a tooltip if it must be ("Bot / 2" wrapped at 8 seats).
      el("th", { scope: "row" }, el("span", { class: "summary-name", title: names[seat] }, names[seat])),
      s.cells.map((c, i) => el("td", {}, c, i === s.cells.length - 1 ? mark(s.ok) : null)),
      el("td", { class: "total" }, num(s.total))))));
}

/** The final ranking: places (ties share one), names, scores; the winners crowned. */
export function ranking(result, names, betterIsHigher = true) {
  const order = names.map((_, s) => s).sort((a, b) => (betterIsHigher ? result.scores[b] - result.scores[a] : result.scores[a] - result.scores[b]));
  let place = 0;
  let prev = null;
  return el("ol", { class: "ranking" }, order.map((s, i) => {
    if (result.scores[s] !== prev) { place = i + 1; prev = result.scores[s]; }
    const won = result.winners.includes(s);
    return el("li", { class: won ? "winner" : null, "data-seat": s },
      el("span", { class: "place" }, won ? el("span", { class: "star", "aria-hidden": "true" }, "★") : null, t(place === 1 ? "place_first" : "place", { n: place })),
      el("span", { class: "name" }, names[s]),
      el("span", { class: "points" }, num(result.scores[s])));
  }));
}

/** Each seat's total over the rounds of `sheet`, as an SVG line chart that fits its box. */
export function chart(sheet, names) {
  if (!sheet || !sheet.rounds.length) return null;
  const start = sheet.start || names.map(() => 0);
  const points = [start, ...sheet.rounds.map((r) => r.seats.map((s) => s.total))];
  const all = points.flat();
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const W = 360, H = 170, P = 22, R = 86;
  const x = (i) => P + (i * (W - P - R)) / Math.max(1, points.length - 1);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("chart") });
  s.append(svg("line", { x1: P, x2: W - R, y1: y(0), y2: y(0), stroke: "#9aa", "stroke-dasharray": "3 3" }));
  const end = points[points.length - 1];
  const labelY = {};
  let previous = -Infinity;
  for (const seat of names.map((_, i) => i).sort((a, b) => y(end[a]) - y(end[b]))) {
    labelY[seat] = Math.max(y(end[seat]) + 3, previous + 12);
    previous = labelY[seat];
  }
  names.forEach((name, seat) => {
    const c = COLOURS[seat % COLOURS.length];
    s.append(svg("polyline", { fill: "none", stroke: c, "stroke-width": 2.2, "stroke-linejoin": "round", points: points.map((line, i) => `${x(i)},${y(line[seat])}`).join(" ") }));
    s.append(svg("text", { x: W - R + 5, y: labelY[seat], "font-size": 11, fill: c }, `${name.slice(0, 12)} ${num(end[seat])}`));
  });
  return s;
}
