/* The drawing kit every deck shares: the card box, the type faces, the paper, the corner
   indices, placement helpers and shapes (plain ES module, no build step).

   It imports nothing of the decks or of ../cards.js: cards.js imports the decks, the
   decks import this kit, and no import runs back up (tests/test_architecture.py reads
   the static folder's imports and refuses a cycle). */

import { svg } from "../lib/dom.js";

/** Card box size in viewBox units. */
export const W = 100;
export const H = 140;

/** Type faces installed everywhere (nothing to download): a serif for words and
    court letters, a sans for numbers (Georgia's old-style figures dance up and
    down, which reads badly in an index). */
export const SERIF = "Georgia, 'DejaVu Serif', serif";
export const SANS = "system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

/* ---- primitives -------------------------------------------------------------------- */

let counter = 0;
/** A document-unique id: inline SVGs share one id space, so every gradient gets its own. */
export function uid(name) {
  counter += 1;
  return `atout-${name}-${counter}`;
}

/**
 * A linear gradient, as [its <defs>, its url(...)]: top to bottom by default.
 * @param {Array<[number, string]|[number, string, number]>} stops  [offset 0..1, colour, opacity?]
 */
export function gradient(stops, { x1 = 0, y1 = 0, x2 = 0, y2 = 1 } = {}) {
  const id = uid("g");
  const def = svg("defs", {}, svg("linearGradient", { id, x1, y1, x2, y2 },
    stops.map(([o, c, a]) => svg("stop", { offset: o, "stop-color": c, "stop-opacity": a ?? null }))));
  return [def, `url(#${id})`];
}

/**
 * The card itself: rounded rectangle of paper (a faint top-to-bottom gradient, like
 * light falling on a real card), a hairline edge and an optional inner border line.
 * @param {object} [o]
 * @param {string[]} [o.paper]  top and bottom colours of the paper
 * @param {string} [o.edge]  outer edge colour
 * @param {string} [o.line]  inner border colour (none if omitted)
 * @param {number} [o.lineWidth]
 * @param {number} [o.inset]  inner border distance from the edge
 */
export function frame({ paper = ["#ffffff", "#f3eee3"], edge = "#00000055", line = null, lineWidth = 1.2, inset = 4 } = {}) {
  const [def, fill] = gradient([[0, paper[0]], [1, paper[1]]]);
  return [
    def,
    svg("rect", { x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 7, fill, stroke: edge, "stroke-width": 1 }),
    line ? svg("rect", { x: inset, y: inset, width: W - 2 * inset, height: H - 2 * inset, rx: 7 - inset / 2 + 1, fill: "none", stroke: line, "stroke-width": lineWidth }) : null,
  ];
}

/** A <g> with a transform (skipped when there is none). */
export function g(transform, ...children) {
  return svg("g", { transform: transform || null }, children);
}

/**
 * A symbol drawn in a 100-unit box centred on 0,0, placed at (x, y) with the given
 * size (and an optional turn in degrees): every suit symbol is written that way, so
 * one drawing serves the index, the pips and the centre.
 */
export function at(x, y, size, node, rotate = 0) {
  const s = +(size / 100).toFixed(4);
  return g(`translate(${x} ${y}) scale(${s})${rotate ? ` rotate(${rotate})` : ""}`, node);
}

/**
 * A line of text. Wide strings can be squeezed to `fit` units (textLength), so
 * a "13" or a "34" never spills out of its index column whatever the installed font.
 * @param {number} x
 * @param {number} y  the baseline
 * @param {string} str
 * @param {object} [o]  size, fill, weight, family, anchor ("middle"), fit, stroke, strokeWidth, italic, spacing
 */
export function label(x, y, str, { size = 20, fill = "#222", weight = "bold", family = SANS, anchor = "middle", fit = 0, stroke = null, strokeWidth = 0, italic = false, spacing = null, opacity = null } = {}) {
  const s = String(str);
  // Bold digits are ~0.6 em wide in common sans faces; squeeze only when it would overflow.
  const squeeze = fit && s.length > 1 && s.length * size * 0.6 > fit;
  return svg("text", {
    x, y, "text-anchor": anchor, "font-family": family, "font-size": size, "font-weight": weight, fill,
    "font-style": italic ? "italic" : null, "letter-spacing": spacing,
    stroke, "stroke-width": stroke ? strokeWidth : null, "paint-order": stroke ? "stroke" : null, "stroke-linejoin": stroke ? "round" : null,
    textLength: squeeze ? fit : null, lengthAdjust: squeeze ? "spacingAndGlyphs" : null, opacity,
  }, s);
}

/** Draw twice: as given (top-left) and turned half a turn about the centre (bottom-right). */
export function corners(draw) {
  return [g(null, draw()), g(`rotate(180 ${W / 2} ${H / 2})`, draw())];
}

/**
 * The standard index, both corners: the rank big and bold, the suit symbol under it.
 * @param {object} o
 * @param {string} o.rank  "7", "13", "Z"...
 * @param {string} o.color  rank colour (keep it AA on the paper: 4.5:1)
 * @param {(() => SVGElement)|null} [o.symbol]  draws the suit symbol in a 100-box
 * @param {number} [o.size]  rank font size
 * @param {number} [o.symbolSize]
 * @param {string} [o.family]
 */
export function index({ rank, color, symbol = null, size = 31, symbolSize = 25, family = SANS, stroke = null, strokeWidth = 0 }) {
  return corners(() => [
    label(INDEX_X, 34, rank, { size, fill: color, family, fit: 28, stroke, strokeWidth }),
    underline69(rank, INDEX_X, 37.5, color),
    symbol ? at(INDEX_X, 54, symbolSize, symbol()) : null,
  ]);
}

/** A bar under a lone 6 or 9, so the turned corner index cannot be misread (null otherwise). */
export function underline69(rank, x, y, color) {
  return rank === "6" || rank === "9"
    ? path(`M${x - 7},${y} L${x + 7},${y}`, { stroke: color, "stroke-width": 2.4, "stroke-linecap": "round" })
    : null;
}
/** Centre line of the index column. */
export const INDEX_X = 17;

/** A circle (a common bit of decoration). */
export function circle(cx, cy, r, attrs = {}) {
  return svg("circle", { cx, cy, r, ...attrs });
}

/** A path. */
export function path(d, attrs = {}) {
  return svg("path", { d, ...attrs });
}

/** Points of a regular polygon or star in the 100-box (radius r, optional inner radius). */
export function polygon(n, r, { inner = 0, turn = -90 } = {}) {
  const pts = [];
  const k = inner ? 2 * n : n;
  for (let i = 0; i < k; i++) {
    const a = ((turn + (360 * i) / k) * Math.PI) / 180;
    const rr = inner && i % 2 ? inner : r;
    pts.push(`${(rr * Math.cos(a)).toFixed(2)},${(rr * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}
