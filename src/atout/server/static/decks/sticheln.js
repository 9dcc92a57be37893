/* Sticheln's deck, our own drawings: six colours, each with its own shape so that
   colour-blind players can tell them apart (and the pairs most often confused get
   the most different shapes: red square / green triangle, red square / orange
   hexagon, blue circle / violet star). No publisher artwork is used or imitated.

   Server notation: colour letter + value, "B7", "O0", "V12" (values 0..18). */

import { svg } from "../lib/dom.js";
import { frame, index, label, at, circle, polygon } from "./kit.js";

/** One shape in the 100-box, filled and outlined. */
function shape(kind, fill, line) {
  const a = { fill, stroke: line, "stroke-width": 6, "stroke-linejoin": "round" };
  switch (kind) {
    case "circle": return circle(0, 0, 40, a);
    case "triangle": return svg("polygon", { points: "0,-44 47,38 -47,38", ...a });
    case "square": return svg("rect", { x: -37, y: -37, width: 74, height: 74, rx: 4, ...a });
    case "diamond": return svg("polygon", { points: "0,-48 38,0 0,48 -38,0", ...a });
    case "hexagon": return svg("polygon", { points: polygon(6, 45, { turn: 0 }), ...a });
    default: return svg("polygon", { points: polygon(5, 49, { inner: 22 }), ...a });
  }
}

/**
 * The colours: name, index ink (AA on the paper), fill and outline of the shape, the
 * ink printed on the centre band (AA on the fill: white, or dark on the light yellow
 * and orange), and the shape drawing.
 */
export const SUITS = Object.fromEntries([
  ["B", "blue", "circle", "#1c56b0", "#2a6fd6", "#15407f", "#ffffff"],
  ["G", "green", "triangle", "#17703a", "#1f8646", "#12552c", "#ffffff"],
  ["R", "red", "square", "#b81f24", "#d22f2b", "#8a1417", "#ffffff"],
  ["Y", "yellow", "diamond", "#845a00", "#f5c21b", "#7a5200", "#5c3d00"],
  ["O", "orange", "hexagon", "#a9420a", "#f07a1e", "#8f3806", "#3d1a00"],
  ["V", "violet", "star", "#6a2ea0", "#8a47c8", "#4c1f76", "#ffffff"],
].map(([k, name, kind, ink, fill, line, onBand]) => [k, { name, shape: kind, ink, fill, line, onBand, draw: () => shape(kind, fill, line) }]));

/**
 * The face of one Sticheln card, for cardSvg().
 * @param {string} text  colour letter and value, "B0".."V18"
 * @returns {Array|null}  SVG nodes, null for an unknown card
 */
export function face(text) {
  const m = /^([BGRYOV])(\d{1,2})$/.exec(text);
  if (!m) return null;
  const s = SUITS[m[1]];
  const n = m[2].replace(/^0(\d)/, "$1");
  const onBand = s.onBand;
  return [
    ...frame({ line: s.fill, lineWidth: 1.4 }),
    // Centre: a band of the colour, clear of both indices, the number on it in white
    // between two white shapes (the shape says the colour without colour).
    svg("rect", { x: 33, y: 10, width: 34, height: 120, rx: 17, fill: s.fill }),
    svg("rect", { x: 35.5, y: 12.5, width: 29, height: 115, rx: 14.5, fill: "none", stroke: onBand, "stroke-width": 0.8, opacity: 0.6 }),
    at(50, 32, 20, shape(s.shape, onBand, onBand)),
    label(50, 82, n, { size: 31, fill: onBand, fit: 28 }),
    at(50, 108, 20, shape(s.shape, onBand, onBand), 180),
    index({ rank: n, color: s.ink, symbol: s.draw }),
  ];
}
