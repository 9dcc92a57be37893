/* Card drawings of our own, as SVG built in JavaScript (plain ES module, no build step).

   Every card is drawn in a 100 × 140 box (viewBox "0 0 100 140") and sized by CSS: the
   <svg> is width/height 100%, so the button or span around it decides the size.

   This module holds what the four decks share (the paper, the corner indices, the
   placement helpers, the back) and the entry point cardSvg(), which hands the face to
   the deck's module in ./decks/. The deck modules import these primitives back: the
   cycle is safe because only function declarations cross it, and function
   declarations exist before any module body runs.

   Layout rules every face follows, so that a phone hand stays readable:
   - the top-left index (x 3..31, y 8..66) carries the whole identity, rank AND suit
     symbol, big and bold: an overlapped hand shows only the left ~40% of each card;
   - the same index turned 180° sits bottom-right (x 69..97, y 74..132);
   - the centre art keeps out of those two columns.

   The drawing is decoration: the <svg> is aria-hidden and not focusable, the caller
   puts the card's accessible name on its button. */

import { svg } from "./lib/dom.js";
import * as wizard from "./decks/wizard.js";
import * as malin from "./decks/malin.js";
import * as sticheln from "./decks/sticheln.js";
import * as nainJaune from "./decks/nain-jaune.js";

/** Card box size in viewBox units. */
export const W = 100;
export const H = 140;

/** Type faces installed everywhere (nothing to download): a serif for words and
    court letters, a sans for numbers (Georgia's old-style figures dance up and
    down, which reads badly in an index). */
export const SERIF = "Georgia, 'DejaVu Serif', serif";
export const SANS = "system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

/** The deck modules by game name (the Python package spelling is accepted too). */
const DECKS = { wizard, malin, sticheln, "nain-jaune": nainJaune, nain_jaune: nainJaune };

/* ---- entry points ------------------------------------------------------------------ */

/**
 * The drawing of one card as an <svg> element.
 * @param {string} deck  "wizard" | "malin" | "sticheln" | "nain-jaune"
 * @param {string|null} text  the card as the server writes it ("B7", "TWIN", "10D"...);
 *   null, undefined or "" draws the back (a card seen face down).
 * @param {object} [opts]  passed to the deck (lang, twinHigh, name: see each deck).
 * @returns {SVGSVGElement}
 */
export function cardSvg(deck, text, opts = {}) {
  if (text === null || text === undefined || text === "") return backSvg();
  const mod = DECKS[deck];
  const content = (mod && mod.face(String(text), opts || {})) || unknownFace(String(text));
  return wrap(content, { "data-card": String(text), "data-deck": deck });
}

/** The shared back: a green and gold lattice around an "a" monogram (ours). */
export function backSvg() {
  return wrap(backFace(), { "data-card": "back" });
}

/**
 * A suit symbol alone, for a trump indicator or a legend (viewBox "-50 -50 100 100").
 * @param {string} deck
 * @param {string} suit  the suit letter ("B", "H"...)
 * @returns {SVGSVGElement|null}  null when the deck has no such suit
 */
export function symbolSvg(deck, suit) {
  const s = DECKS[deck]?.SUITS?.[suit];
  if (!s) return null;
  return svg("svg", { viewBox: "-50 -50 100 100", width: "100%", height: "100%", focusable: "false", "aria-hidden": "true", class: "suit-svg" },
    s.draw());
}

function wrap(content, attrs) {
  return svg("svg", {
    viewBox: `0 0 ${W} ${H}`, width: "100%", height: "100%",
    focusable: "false", "aria-hidden": "true", class: "card-svg", ...attrs,
  }, content);
}

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

/* ---- faces shared by every deck ---------------------------------------------------- */

/** The back: deep green, a gold lattice (drawn as clipped lines, so no pattern id is
    needed), a double gold border and an "a" monogram in a medallion. */
function backFace() {
  const x0 = 7, y0 = 7, x1 = W - 7, y1 = H - 7;
  const lines = [];
  // Diagonals x - y = c and x + y = c, cut to the inner rectangle.
  for (let c = -140; c <= 240; c += 12) {
    const a = clip(c, 1, x0, y0, x1, y1), b = clip(c, -1, x0, y0, x1, y1);
    if (a) lines.push(`M${a}`);
    if (b) lines.push(`M${b}`);
  }
  const dots = [];
  for (let y = y0 + 6; y < y1; y += 12) for (let x = x0 + ((y - y0 - 6) / 12 % 2 ? 0 : 6); x <= x1; x += 12) {
    if (x > x0 + 1 && x < x1 - 1) dots.push(circle(x, y, 0.9));
  }
  const [def, fill] = gradient([[0, "#17603f"], [1, "#0b3b26"]]);
  return [
    def,
    svg("rect", { x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 7, fill, stroke: "#00000066", "stroke-width": 1 }),
    path(lines.join(" "), { stroke: "#d8b45a", "stroke-width": 0.8, opacity: 0.55, fill: "none" }),
    svg("g", { fill: "#f1d98a", opacity: 0.7 }, dots),
    svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 4, fill: "none", stroke: "#d8b45a", "stroke-width": 1.6 }),
    svg("rect", { x: x0 - 3, y: y0 - 3, width: x1 - x0 + 6, height: y1 - y0 + 6, rx: 6, fill: "none", stroke: "#d8b45a", "stroke-width": 0.6, opacity: 0.8 }),
    // The medallion: a green oval, two gold rings, a small laurel of dots and the monogram.
    svg("ellipse", { cx: 50, cy: 70, rx: 24, ry: 28, fill: "#0f4a30", stroke: "#e3c46e", "stroke-width": 2.2 }),
    svg("ellipse", { cx: 50, cy: 70, rx: 19.5, ry: 23.5, fill: "none", stroke: "#e3c46e", "stroke-width": 0.7 }),
    [0, 90, 180, 270].map((r) => g(`rotate(${r} 50 70)`, path("M50,39 l3,3 -3,3 -3,-3 z", { fill: "#e3c46e" }))),
    label(50, 80, "a", { size: 38, family: SERIF, fill: "#f2d98c", weight: "bold", italic: true }),
  ];
}

/** End points "x,y L x,y" of the line x·1 + y·(-s) = c (s = ±1 picks the diagonal) inside the box. */
function clip(c, s, x0, y0, x1, y1) {
  // s = 1: y = x - c ; s = -1: y = c - x
  const yAt = (x) => (s === 1 ? x - c : c - x);
  const xAt = (y) => (s === 1 ? y + c : c - y);
  const pts = [];
  for (const x of [x0, x1]) { const y = yAt(x); if (y >= y0 && y <= y1) pts.push([x, y]); }
  for (const y of [y0, y1]) { const x = xAt(y); if (x > x0 && x < x1) pts.push([x, y]); }
  if (pts.length < 2) return null;
  const [a, b] = pts;
  return `${a[0]},${a[1]} L${b[0]},${b[1]}`;
}

/** A card this page does not know (a new deck, a typo): the text itself, plainly. */
function unknownFace(text) {
  return [
    ...frame({ line: "#999" }),
    index({ rank: text.length > 3 ? text.slice(0, 3) : text, color: "#333", size: 24 }),
    label(50, 78, text, { size: 22, fill: "#333", fit: 70 }),
  ];
}
