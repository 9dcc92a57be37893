/* Card drawings of our own, as SVG built in JavaScript (plain ES module, no build step).

   Every card is drawn in a 100 × 140 box (viewBox "0 0 100 140") and sized by CSS: the
   <svg> is width/height 100%, so the button or span around it decides the size.

   This module holds what the four decks share (the paper, the corner indices, the
   placement helpers, the back) and the entry point cardSvg(), which hands the face to
   the deck's module in ./decks/. The primitives the decks draw with live in
   ./decks/kit.js, which imports no deck: the imports run one way (cards.js → decks →
   kit), with no cycle.

   Layout rules every face follows, so that a phone hand stays readable:
   - the top-left index (x 3..31, y 8..66) carries the whole identity, rank AND suit
     symbol, big and bold: an overlapped hand shows only the left ~40% of each card;
   - the same index turned 180° sits bottom-right (x 69..97, y 74..132);
   - the centre art keeps out of those two columns.

   The drawing is decoration: the <svg> is aria-hidden and not focusable, the caller
   puts the card's accessible name on its button. */

import { svg } from "./lib/dom.js";
import { W, H, SERIF, frame, g, label, index, circle, path, gradient } from "./decks/kit.js";
import * as wizard from "./decks/wizard.js";
import * as malin from "./decks/malin.js";
import * as sticheln from "./decks/sticheln.js";
import * as nainJaune from "./decks/nain-jaune.js";

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
