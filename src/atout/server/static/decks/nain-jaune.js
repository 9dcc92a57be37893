/* Le Nain Jaune's deck: the French 52-card deck in our own drawing. Classic red and
   black, real pip arrangements for 2..10, a large pip for the aces, and a simple court
   of our own for the heads (a crown for the King, a flower for the Queen, a plumed
   cap for the Jack) around a large letter.

   Server notation: rank + suit, ranks A 2..10 J Q K, suits C D H S ("AC", "10D", "KH").
   Indices in the page's letters (i18n/<lang>/nain-jaune.json): R(oi), D(ame), V(alet) in French,
   K(önig), D(ame), B(ube) in German for K, Q, J; the ace stays A. */

import { svg } from "../lib/dom.js";
import { frame, index, label, at, g, circle, path, SERIF } from "./kit.js";

const RED = "#c1121f";
const BLACK = "#1c1c1c";
const GOLD = "#d4a72c";
const BLUE = "#27457d";

/* ---- the four pips, each in a 100-unit box centred on 0,0 -------------------------- */

function heart(fill = RED) {
  return path("M0,44 C-12,30 -47,8 -47,-15 C-47,-33 -34,-44 -21,-44 C-10,-44 -3,-37 0,-28 C3,-37 10,-44 21,-44 C34,-44 47,-33 47,-15 C47,8 12,30 0,44 Z", { fill });
}
function diamond(fill = RED) {
  return path("M0,-48 Q15,-22 37,0 Q15,22 0,48 Q-15,22 -37,0 Q-15,-22 0,-48 Z", { fill });
}
function spade(fill = BLACK) {
  return path("M0,-47 C9,-31 46,-15 46,8 C46,24 34,32 22,32 C14,32 7,28 3,22 C4,33 9,41 16,47 L-16,47 C-9,41 -4,33 -3,22 C-7,28 -14,32 -22,32 C-34,32 -46,24 -46,8 C-46,-15 -9,-31 0,-47 Z", { fill });
}
function club(fill = BLACK) {
  return g(null,
    circle(0, -23, 20, { fill }), circle(-22, 9, 20, { fill }), circle(22, 9, 20, { fill }),
    path("M-10,0 L10,0 L4,8 C5,26 10,38 17,47 L-17,47 C-10,38 -5,26 -4,8 Z", { fill }));
}

/** The suits: name, colour and pip drawing (colour and shape both say the suit). */
export const SUITS = {
  C: { name: "clubs", color: BLACK, draw: club, symbol: "♣" },
  D: { name: "diamonds", color: RED, draw: diamond, symbol: "♦" },
  H: { name: "hearts", color: RED, draw: heart, symbol: "♥" },
  S: { name: "spades", color: BLACK, draw: spade, symbol: "♠" },
};

/**
 * The rank as printed in the corner; the card text always uses the English letters.
 * @param {string} rank  "A", "2".."10", "J", "Q", "K"
 * @param {{J?: string, Q?: string, K?: string}} [letters]  the page's letters for the court
 *   cards (V, D, R in French; B, D, K in German); the English ones when not given
 */
export function rankLabel(rank, letters = {}) {
  return letters[rank] || rank;
}

/* ---- pip layouts ------------------------------------------------------------------- */

/* The pip field sits between the two index columns (which are big for phones, as on
   "jumbo index" cards): three close columns, rows spread over the height; pips of the
   lower half are turned over, as on real cards. */
const COLS = [39, 50, 61];
const TOP = 22, BOTTOM = 118;
const row = (f) => TOP + (BOTTOM - TOP) * f;

/** [column 0..2, height fraction 0..1] of each pip, for 2..10 (the usual arrangements). */
const LAYOUTS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, 0.5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, 0.5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [1, 0.75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, 0.5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};

function pips(n, s) {
  const size = n >= 9 ? 15 : 16.5;
  return [
    // A hairline panel groups the pips apart from the big indices.
    svg("rect", { x: 31, y: 11, width: 38, height: 118, rx: 5, fill: s.color, "fill-opacity": 0.035, stroke: s.color, "stroke-opacity": 0.22, "stroke-width": 0.8 }),
    LAYOUTS[n].map(([c, f]) => at(COLS[c], row(f), size, s.draw(), f > 0.5 ? 180 : 0)),
  ];
}

/* ---- the heads --------------------------------------------------------------------- */

function crown() {
  return g(null,
    path("M-40,22 L-46,-22 L-22,2 L0,-34 L22,2 L46,-22 L40,22 Z", { fill: GOLD, stroke: "#7a5a10", "stroke-width": 4, "stroke-linejoin": "round" }),
    svg("rect", { x: -42, y: 20, width: 84, height: 14, rx: 3, fill: GOLD, stroke: "#7a5a10", "stroke-width": 4 }),
    circle(-46, -24, 6, { fill: "#fff3c4", stroke: "#7a5a10", "stroke-width": 3 }),
    circle(0, -36, 6, { fill: "#fff3c4", stroke: "#7a5a10", "stroke-width": 3 }),
    circle(46, -24, 6, { fill: "#fff3c4", stroke: "#7a5a10", "stroke-width": 3 }),
    circle(0, 27, 5, { fill: RED }), circle(-24, 27, 4, { fill: BLUE }), circle(24, 27, 4, { fill: BLUE }));
}

function flower() {
  const petal = (r) => svg("ellipse", { cx: 0, cy: -24, rx: 13, ry: 22, fill: "#f3b8c4", stroke: "#a03048", "stroke-width": 3.5, transform: `rotate(${r})` });
  return g(null, [0, 72, 144, 216, 288].map(petal), circle(0, 0, 13, { fill: GOLD, stroke: "#7a5a10", "stroke-width": 3.5 }));
}

function plume() {
  return g(null,
    // The feather, then the cap with its brim.
    path("M6,-4 C10,-28 26,-44 46,-48 C40,-30 30,-12 14,0 Z", { fill: "#3f8f5a", stroke: "#1d4d2e", "stroke-width": 3.5, "stroke-linejoin": "round" }),
    path("M12,-4 C22,-18 32,-32 42,-42", { fill: "none", stroke: "#1d4d2e", "stroke-width": 2.5 }),
    path("M-34,14 C-34,-14 -16,-26 4,-26 C22,-26 32,-12 32,14 Z", { fill: BLUE, stroke: "#14264a", "stroke-width": 4, "stroke-linejoin": "round" }),
    path("M-46,14 Q0,2 46,14 Q46,26 0,24 Q-46,26 -46,14 Z", { fill: GOLD, stroke: "#7a5a10", "stroke-width": 4, "stroke-linejoin": "round" }));
}

const EMBLEMS = { K: crown, Q: flower, J: plume };

function court(rank, s, letters) {
  const ink = s.color;
  return [
    svg("rect", { x: 32, y: 12, width: 36, height: 116, rx: 4, fill: ink === RED ? "#fcefed" : "#eef0f4", stroke: ink, "stroke-width": 1.3 }),
    svg("rect", { x: 34.5, y: 14.5, width: 31, height: 111, rx: 3, fill: "none", stroke: GOLD, "stroke-width": 1 }),
    // The emblem over a large letter, the suit under it: one way up, read at a glance.
    at(50, 38, 32, EMBLEMS[rank]()),
    label(50, 88, rankLabel(rank, letters), { size: 38, fill: ink, family: SERIF }),
    at(50, 108, 17, s.draw()),
  ];
}

function ace(s) {
  return [
    circle(50, 70, 27, { fill: "none", stroke: s.color, "stroke-width": 0.8, opacity: 0.5 }),
    at(50, 70, 44, s.draw()),
  ];
}

/**
 * The face of one card, for cardSvg().
 * @param {string} text  rank + suit: "AC", "10D", "KH"...
 * @param {{letters?: {J?: string, Q?: string, K?: string}}} [opts]  the court cards' letters
 *   (the page's: R, D, V for K, Q, J in French); J, Q, K when not given
 * @returns {Array|null}  SVG nodes, null for an unknown card
 */
export function face(text, opts = {}) {
  const m = /^(A|[2-9]|10|J|Q|K)([CDHS])$/.exec(text);
  if (!m) return null;
  const [, rank, suit] = m;
  const s = SUITS[suit];
  const centre = rank === "A" ? ace(s) : EMBLEMS[rank] ? court(rank, s, opts.letters) : pips(+rank, s);
  return [
    ...frame(),
    centre,
    index({ rank: rankLabel(rank, opts.letters), color: s.color, symbol: s.draw, family: rank.length === 1 && !/\d/.test(rank) ? SERIF : undefined }),
  ];
}
