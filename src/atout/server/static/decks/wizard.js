/* Wizard's deck, our own drawings: four suits told apart by colour AND by symbol (a
   water drop, a leaf, a flame, a sun: colour-blind players read the shape), the
   Wizards (a star-spangled hat on a night-violet card) and the Jesters (a jester's cap
   in the four suit colours on grey). No publisher artwork is used or imitated.

   Server notation: suit letter + 1..13 ("B7", "Y13"), "Z" a Wizard, "N" a Jester. */

import { svg } from "../lib/dom.js";
import { frame, index, corners, label, at, g, circle, path, polygon, SERIF, INDEX_X } from "./kit.js";

/* ---- suit symbols, each in a 100-unit box centred on 0,0 --------------------------- */

/* Each symbol takes its colours (body, outline, detail) so that one drawing serves
   both the bold index and the pale watermark behind the centre number. */

function drop(fill = "#2f6fd6", line = "#173f86", detail = "#ffffff") {
  return g(null,
    path("M0,-47 C7,-32 35,-8 35,14 C35,34 20,47 0,47 C-20,47 -35,34 -35,14 C-35,-8 -7,-32 0,-47 Z",
      { fill, stroke: line, "stroke-width": 5, "stroke-linejoin": "round" }),
    path("M-19,8 C-22,22 -14,33 -3,35", { fill: "none", stroke: detail, "stroke-width": 7, "stroke-linecap": "round", opacity: 0.75 }));
}

function leaf(fill = "#2f9e4f", line = "#17602c", detail = "#17602c") {
  return g("rotate(35)",
    path("M0,-48 C28,-30 32,10 0,40 C-32,10 -28,-30 0,-48 Z",
      { fill, stroke: line, "stroke-width": 5, "stroke-linejoin": "round" }),
    path("M0,-34 L0,49 M0,-8 L13,-20 M0,10 L15,-2 M0,-8 L-13,-20 M0,10 L-15,-2",
      { fill: "none", stroke: detail, "stroke-width": 4.5, "stroke-linecap": "round" }));
}

function flame(fill = "#e2392f", line = "#8f1a14", detail = "#ffc04a") {
  return g(null,
    path("M3,-48 C8,-30 24,-22 30,-4 C36,14 31,35 15,45 C6,49 -6,49 -15,45 C-31,35 -35,14 -27,-3 C-23,-12 -17,-17 -15,-29 C-7,-21 -7,-12 -5,-8 C-3,-23 -7,-36 3,-48 Z",
      { fill, stroke: line, "stroke-width": 5, "stroke-linejoin": "round" }),
    path("M2,-6 C11,5 17,15 15,28 C13,38 7,43 0,43 C-8,43 -15,37 -15,28 C-15,18 -7,14 -5,4 C-3,10 0,12 2,15 C4,8 5,2 2,-6 Z",
      { fill: detail }));
}

function sun(fill = "#f6b812", line = "#8a5a00", detail = "#ffd95a") {
  return g(null,
    svg("polygon", { points: polygon(12, 49, { inner: 31 }), fill, stroke: line, "stroke-width": 4.5, "stroke-linejoin": "round" }),
    circle(0, 0, 24, { fill: detail, stroke: line, "stroke-width": 4.5 }));
}

/**
 * The suits: name, colour of the index (AA on the paper), the watermark's colours
 * (body, outline, detail) and the symbol drawing (bold colours by default).
 * `dy` moves the centre number to the visual middle of the shape (a drop's belly).
 */
export const SUITS = {
  B: { name: "blue", ink: "#1b4fa0", ghost: ["#d3e2fa", "#86aae2", "#ffffff"], dy: 6, draw: drop },
  G: { name: "green", ink: "#1b6b33", ghost: ["#cfeed6", "#7fc08e", "#9fd3ab"], dy: 0, draw: leaf },
  R: { name: "red", ink: "#b3211b", ghost: ["#fbd6d0", "#e58b80", "#fde9c8"], dy: 7, draw: flame },
  Y: { name: "yellow", ink: "#855600", ghost: ["#fbe7a8", "#e0b64a", "#fff3cc"], dy: 0, draw: sun },
};

/* ---- the two special cards --------------------------------------------------------- */

/** A four-pointed sparkle in the 100-box. */
function sparkle(fill = "#f4d36b") {
  return path("M0,-50 C4,-12 12,-4 50,0 C12,4 4,12 0,50 C-4,12 -12,4 -50,0 C-12,-4 -4,-12 0,-50 Z", { fill });
}

/** The wizard's hat: a cone with a bent tip, a gold band, stars; in the 100-box. */
function hat() {
  return g(null,
    svg("ellipse", { cx: 0, cy: 32, rx: 48, ry: 12, fill: "#5b36b0", stroke: "#f4d36b", "stroke-width": 3 }),
    path("M-29,30 C-22,4 -12,-22 -2,-38 C4,-46 14,-50 24,-46 C14,-42 10,-34 10,-24 C14,-4 22,14 29,30 Z",
      { fill: "#6d44c8", stroke: "#f4d36b", "stroke-width": 3, "stroke-linejoin": "round" }),
    path("M-27,22 C-10,28 10,28 27,22 L29,30 C10,37 -10,37 -29,30 Z", { fill: "#f4d36b" }),
    at(-8, 2, 16, svg("polygon", { points: polygon(5, 50, { inner: 21 }), fill: "#f4d36b" })),
    at(10, -16, 11, svg("polygon", { points: polygon(5, 50, { inner: 21 }), fill: "#f4d36b" })),
    at(12, 10, 9, sparkle("#ffe9a8")));
}

/** The jester's cap: three lobes in the suit colours ending in bells, on a band. */
function cap() {
  const bell = (x, y) => g(null, circle(x, y, 7, { fill: "#f6c431", stroke: "#6b4a00", "stroke-width": 2.5 }), circle(x, y + 3, 2, { fill: "#6b4a00" }));
  const side = (m) => path(`M${-30 * m},20 C${-34 * m},-4 ${-40 * m},-18 ${-46 * m},-16 C${-34 * m},-20 ${-18 * m},-6 ${-8 * m},20 Z`,
    { fill: m > 0 ? "#d23a30" : "#2f9e4f", stroke: "#2c2c2c", "stroke-width": 3, "stroke-linejoin": "round" });
  return g(null,
    side(1), side(-1),
    path("M-13,22 C-13,-8 -6,-32 0,-44 C6,-32 13,-8 13,22 Z", { fill: "#2f6fd6", stroke: "#2c2c2c", "stroke-width": 3, "stroke-linejoin": "round" }),
    path("M-32,18 Q0,30 32,18 L32,32 Q0,44 -32,32 Z", { fill: "#f6c431", stroke: "#2c2c2c", "stroke-width": 3, "stroke-linejoin": "round" }),
    [-20, -7, 7, 20].map((x) => path(`M${x},${28 + Math.abs(x) / 10} l4,-4 4,4 -4,4 z`, { fill: "#2c2c2c", transform: `translate(-4 0)` })),
    bell(-47, -13), bell(0, -46), bell(47, -13));
}

/** A five-pointed star in the 100-box. */
function star(fill) {
  return svg("polygon", { points: polygon(5, 50, { inner: 21 }), fill });
}

function wizardFace(opts) {
  const letter = opts.letters?.Z || "Z";
  const gold = "#f6d874";
  // Sparkles kept off the two index columns.
  const stars = [[52, 16, 5], [70, 28, 6], [40, 26, 3], [30, 114, 6], [50, 124, 5], [60, 114, 3], [78, 56, 4], [24, 84, 4]];
  return [
    ...frame({ paper: ["#3e2180", "#170b38"], edge: "#000000aa", line: gold, lineWidth: 1.2, inset: 4 }),
    stars.map(([x, y, r]) => at(x, y, r * 2, sparkle(r > 5 ? gold : "#cdb8ff"))),
    circle(50, 70, 30, { fill: "#ffffff", opacity: 0.06 }),
    circle(50, 70, 24, { fill: "#ffffff", opacity: 0.05 }),
    at(50, 63, 54, hat()),
    corners(() => [
      label(INDEX_X + 1, 35, letter, { size: 30, fill: gold, family: SERIF, fit: 24 }),
      at(INDEX_X + 1, 53, 20, star(gold)),
    ]),
  ];
}

function jesterFace(opts) {
  const letter = opts.letters?.N || "N";
  return [
    ...frame({ paper: ["#f7f7f8", "#d6d6de"], line: "#8a8a96", lineWidth: 1.2 }),
    circle(50, 72, 24, { fill: "#ffffff", opacity: 0.8 }),
    at(50, 74, 44, cap()),
    corners(() => [
      label(INDEX_X + 1, 35, letter, { size: 30, fill: "#333338", family: SERIF }),
      at(INDEX_X + 1, 54, 24, cap()),
    ]),
  ];
}

function numberFace(suit, n) {
  const s = SUITS[suit];
  return [
    ...frame({ line: s.ink, lineWidth: 1 }),
    // One centre motif, clear of both indices: the suit symbol large and pale, the number on it.
    at(50, 70 - s.dy * 0.5, 50, s.draw(...s.ghost)),
    label(50, 70 + s.dy * 0.5 + 12, n, { size: 34, fill: s.ink, fit: 36, stroke: "#ffffff", strokeWidth: 3 }),
    index({ rank: String(n), color: s.ink, symbol: () => s.draw() }),
  ];
}

/**
 * The face of one Wizard card, for cardSvg().
 * @param {string} text  "B1".."Y13", "Z" or "N"
 * @param {{letters?: {Z?: string, N?: string}}} [opts]  the letters written in the special
 *   cards' corners (W/J in English, Z/N in French and German); Z/N, the server's notation,
 *   when not given.
 * @returns {Array|null}  SVG nodes, null for an unknown card
 */
export function face(text, opts = {}) {
  if (text === "Z") return wizardFace(opts);
  if (text === "N") return jesterFace(opts);
  const m = /^([BGRY])(\d{1,2})$/.exec(text);
  if (!m || +m[2] < 1 || +m[2] > 13) return null;
  return numberFace(m[1], +m[2]);
}
