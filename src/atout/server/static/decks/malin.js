/* Le Malin et ses petits malheurs' deck, our own drawings: numbered cards 1..34 in
   colour bands (cool blues for the low numbers, warm reds for the high ones, so a hand
   reads at a glance), the Twins (0 or high, half cold half hot), the Wish (a shooting
   star: any value) and the five Malheur cards on dark red and black with gold.

   Server notation: "1".."34", "TWIN", "WISH", and "malheur:<key>" for the Malheur
   cards (keys malin, avocat, 666, belzebuth, fennec). */

import { svg } from "../lib/dom.js";
import { frame, corners, label, at, g, circle, path, polygon, underline69, SERIF, INDEX_X } from "./kit.js";

/* ---- numbered cards ---------------------------------------------------------------- */

/** Colour bands by value: [highest number of the band, colour]. White on each is AA. */
export const BANDS = [
  [5, "#233e8b"],
  [10, "#1d63a8"],
  [15, "#0d7068"],
  [20, "#2f7425"],
  [25, "#8c5a06"],
  [30, "#b0410f"],
  [34, "#a61b2b"],
];

/** The band colour of a value (1..34). */
export function bandColour(n) {
  return (BANDS.find(([top]) => n <= top) || BANDS[BANDS.length - 1])[1];
}

/** The corner: a coloured badge with the number in white, big and bold. */
function badge(fill, draw) {
  return corners(() => [
    svg("rect", { x: 3.5, y: 6, width: 28, height: 36, rx: 6, fill }),
    draw(),
  ]);
}

function numberFace(n) {
  const c = bandColour(n);
  const t = String(n);
  return [
    ...frame({ line: c, lineWidth: 1.2 }),
    // A ring in the band colour around the number.
    circle(50, 70, 24, { fill: c, opacity: 0.1 }),
    circle(50, 70, 24, { fill: "none", stroke: c, "stroke-width": 2.5 }),
    circle(50, 70, 20, { fill: "none", stroke: c, "stroke-width": 0.8 }),
    label(50, 82, t, { size: 33, fill: c, fit: 36 }),
    badge(c, () => [label(INDEX_X, 34, t, { size: 28, fill: "#ffffff", fit: 25 }), underline69(t, INDEX_X, 38, "#ffffff")]),
  ];
}

/* ---- the Twins and the Wish -------------------------------------------------------- */

const COLD = "#233e8b";
const HOT = "#a61b2b";

/** A little face (the Twins are two of them, back to back) in the 100-box. */
function twinHead(fill) {
  return g(null,
    circle(0, 0, 40, { fill, stroke: "#ffffff", "stroke-width": 5 }),
    circle(-14, -6, 5, { fill: "#ffffff" }), circle(14, -6, 5, { fill: "#ffffff" }),
    path("M-18,14 Q0,30 18,14", { fill: "none", stroke: "#ffffff", "stroke-width": 5, "stroke-linecap": "round" }));
}

function twinFace(high) {
  const h = String(high);
  return [
    ...frame({ line: "#5a3c8c", lineWidth: 1.2 }),
    // Cold above, hot below, as in the corner: the two values the Twins can take.
    // The two faces, and the pair again turned over (twins, mirrored), and between them
    // across the card (the only full-width band the corner badges leave) the two values.
    [0, 180].map((r) => g(r ? `rotate(180 ${50} ${70})` : null, at(42, 33, 22, twinHead(COLD)), at(58, 33, 22, twinHead(HOT)))),
    label(27, 80, "0", { size: 24, fill: COLD }),
    path("M43,62 L43,84", { stroke: "#5a3c8c", "stroke-width": 1.5 }),
    label(64, 80, h, { size: 24, fill: HOT, fit: 30 }),
    // Corner: both values stacked in a split badge.
    corners(() => [
      svg("rect", { x: 3.5, y: 6, width: 28, height: 48, rx: 6, fill: HOT }),
      path("M3.5,30 L3.5,12 Q3.5,6 9.5,6 L25.5,6 Q31.5,6 31.5,12 L31.5,30 Z", { fill: COLD }),
      label(INDEX_X, 26, "0", { size: 21, fill: "#ffffff" }),
      label(INDEX_X, 50, h, { size: 21, fill: "#ffffff", fit: 24 }),
    ]),
  ];
}

/** A five-pointed star in the 100-box. */
function star(fill, extra = {}) {
  return svg("polygon", { points: polygon(5, 50, { inner: 21 }), fill, ...extra });
}

function wishFace(name) {
  return [
    ...frame({ paper: ["#21306e", "#0e1538"], edge: "#000000aa", line: "#f2cf63", lineWidth: 1.2 }),
    [[30, 100, 4], [70, 32, 3], [64, 114, 3], [34, 30, 2.5], [76, 88, 2.5]].map(([x, y, r]) => circle(x, y, r / 2, { fill: "#ffffff", opacity: 0.8 })),
    // The trail: three tapering gold streaks, then the star.
    path("M54,52 Q40,80 22,112 Q44,84 66,64 Z", { fill: "#f2cf63", opacity: 0.18 }),
    path("M56,58 Q44,82 30,110 Q48,84 62,64 Z", { fill: "#f2cf63", opacity: 0.35 }),
    path("M58,62 Q50,84 40,106 Q54,84 61,66 Z", { fill: "#fff3c2", opacity: 0.6 }),
    at(60, 58, 34, star("#f6d874", { stroke: "#fff3c2", "stroke-width": 4, "stroke-linejoin": "round" })),
    name ? label(50, 126, name, { size: 11, fill: "#f6d874", family: SERIF, weight: "normal", fit: 56 }) : null,
    corners(() => [
      svg("rect", { x: 3.5, y: 6, width: 28, height: 36, rx: 6, fill: "#f6d874" }),
      at(INDEX_X, 24, 24, star("#21306e")),
    ]),
  ];
}

/* ---- the Malheur cards ------------------------------------------------------------- */

const GOLD = "#e6c15a";
const DARK = "#2a0d0f";

/** Le Malin: a little devil's face, horns, sly eyes and a goatee. */
function devil() {
  return g(null,
    path("M-30,-22 C-40,-34 -40,-46 -34,-54 C-30,-42 -22,-36 -14,-32 Z", { fill: GOLD }),
    path("M30,-22 C40,-34 40,-46 34,-54 C30,-42 22,-36 14,-32 Z", { fill: GOLD }),
    path("M0,-36 C24,-36 36,-18 36,2 C36,26 18,40 0,48 C-18,40 -36,26 -36,2 C-36,-18 -24,-36 0,-36 Z", { fill: "#c8242c", stroke: GOLD, "stroke-width": 3 }),
    path("M-24,-8 L-8,-2 L-20,4 Z M24,-8 L8,-2 L20,4 Z", { fill: GOLD }),
    path("M-18,16 Q0,30 18,16 Q0,22 -18,16 Z", { fill: DARK, stroke: GOLD, "stroke-width": 2.5, "stroke-linejoin": "round" }),
    path("M-6,36 L0,54 L6,36 Z", { fill: "#8e1720" }));
}

/** L'Avocat du Diable: the scales, a horned post. */
function scales() {
  const pan = (x) => g(null,
    path(`M${x},-26 L${x - 14},8 M${x},-26 L${x + 14},8`, { stroke: GOLD, "stroke-width": 2 }),
    path(`M${x - 18},8 Q${x},22 ${x + 18},8 Z`, { fill: GOLD }));
  return g(null,
    path("M-7,-40 C-12,-46 -12,-52 -9,-56 C-8,-50 -5,-46 -2,-44 Z M7,-40 C12,-46 12,-52 9,-56 C8,-50 5,-46 2,-44 Z", { fill: GOLD }),
    circle(0, -36, 6, { fill: GOLD }),
    path("M0,-32 L0,40", { stroke: GOLD, "stroke-width": 5 }),
    path("M-34,-26 Q0,-34 34,-26", { fill: "none", stroke: GOLD, "stroke-width": 4, "stroke-linecap": "round" }),
    pan(-34), pan(34),
    path("M-20,46 L20,46 L12,38 L-12,38 Z", { fill: GOLD }));
}

/** 666: the fire, three tongues of flame with a gold heart (the number is on the banner). */
function sixes() {
  const tongue = (x, s) => at(x, 0, s, path("M0,-48 C10,-26 34,-8 30,16 C26,38 12,48 0,48 C-12,48 -26,38 -30,16 C-34,-8 -10,-26 0,-48 Z", { fill: "#c8242c", opacity: 0.9 }));
  return g(null,
    tongue(-30, 60), tongue(30, 60), tongue(0, 86),
    at(0, 14, 46, path("M0,-48 C10,-26 34,-8 30,16 C26,38 12,48 0,48 C-12,48 -26,38 -30,16 C-34,-8 -10,-26 0,-48 Z", { fill: GOLD, opacity: 0.9 })));
}

/** Belzébuth: the lord of the flies, a horned fly. */
function fly() {
  return g(null,
    svg("ellipse", { cx: -20, cy: -8, rx: 22, ry: 12, transform: "rotate(-30 -20 -8)", fill: "#f4e7c0", opacity: 0.55, stroke: GOLD, "stroke-width": 2 }),
    svg("ellipse", { cx: 20, cy: -8, rx: 22, ry: 12, transform: "rotate(30 20 -8)", fill: "#f4e7c0", opacity: 0.55, stroke: GOLD, "stroke-width": 2 }),
    path("M-8,18 L-26,34 M8,18 L26,34 M-9,8 L-30,14 M9,8 L30,14 M-8,28 L-18,46 M8,28 L18,46", { stroke: GOLD, "stroke-width": 2.5, "stroke-linecap": "round" }),
    svg("ellipse", { cx: 0, cy: 22, rx: 11, ry: 20, fill: DARK, stroke: GOLD, "stroke-width": 2.5 }),
    circle(0, -6, 13, { fill: DARK, stroke: GOLD, "stroke-width": 2.5 }),
    circle(-8, -8, 6, { fill: "#c8242c" }), circle(8, -8, 6, { fill: "#c8242c" }),
    path("M-8,-17 C-14,-26 -14,-34 -10,-40 C-9,-32 -6,-26 -2,-19 Z M8,-17 C14,-26 14,-34 10,-40 C9,-32 6,-26 2,-19 Z", { fill: GOLD }));
}

/** The fennec: a desert fox's head, its ears bigger than its face. */
function fennec() {
  return g(null,
    path("M-14,-10 L-40,-54 L-2,-22 Z M14,-10 L40,-54 L2,-22 Z", { fill: "#d9a05b", stroke: GOLD, "stroke-width": 2.5, "stroke-linejoin": "round" }),
    path("M-14,-16 L-33,-46 L-7,-24 Z M14,-16 L33,-46 L7,-24 Z", { fill: "#f6d9b8" }),
    path("M0,-30 C18,-30 30,-18 30,-4 C30,10 14,28 0,38 C-14,28 -30,10 -30,-4 C-30,-18 -18,-30 0,-30 Z", { fill: "#d9a05b", stroke: GOLD, "stroke-width": 2.5 }),
    path("M-30,-2 C-18,6 -10,14 0,38 C10,14 18,6 30,-2 C20,20 10,30 0,38 C-10,30 -20,20 -30,-2 Z", { fill: "#f6e6cf" }),
    svg("ellipse", { cx: -12, cy: -6, rx: 4, ry: 5, fill: DARK }), svg("ellipse", { cx: 12, cy: -6, rx: 4, ry: 5, fill: DARK }),
    circle(-11, -8, 1.4, { fill: "#ffffff" }), circle(13, -8, 1.4, { fill: "#ffffff" }),
    path("M-5,28 L5,28 L0,35 Z", { fill: DARK }));
}

/** The five Malheur cards: default name (as printed in the rules), corner mark, drawing. */
export const MALHEURS = {
  malin: { name: "Le Malin", mark: "M", draw: devil },
  avocat: { name: "L'Avocat du Diable", mark: "A", draw: scales },
  666: { name: "666", mark: "666", draw: sixes },
  belzebuth: { name: "Belzébuth", mark: "B", draw: fly },
  fennec: { name: "Fennec", mark: "F", draw: fennec },
};

/** The name split into at most two lines near the middle space, for a narrow card. */
function lines(name) {
  if (name.length <= 11 || !name.includes(" ")) return [name];
  let best = -1;
  for (let i = 0; i < name.length; i++) if (name[i] === " " && (best < 0 || Math.abs(i - name.length / 2) < Math.abs(best - name.length / 2))) best = i;
  return [name.slice(0, best), name.slice(best + 1)];
}

function malheurFace(key, name, mark) {
  const m = { ...MALHEURS[key], ...(mark ? { mark } : {}) };
  const rows = lines(name || m.name);
  const size = Math.min(13, (80 / Math.max(...rows.map((r) => r.length))) * 1.7);
  const y0 = rows.length > 1 ? 110 : 117;
  return [
    ...frame({ paper: ["#5a1216", "#1c0708"], edge: "#000000cc", line: GOLD, lineWidth: 1.4 }),
    svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "none", stroke: GOLD, "stroke-width": 0.6, opacity: 0.7 }),
    key === "666" ? null : circle(54, 58, 27, { fill: "#000000", opacity: 0.25 }),
    at(54, 58, 50, m.draw()),
    // The name on a banner across the foot of the card (these cards are laid out in a
    // row, not fanned, so the corner mark is only needed top-left).
    path("M8,96 L92,96 L92,128 Q92,132 88,132 L12,132 Q8,132 8,128 Z", { fill: "#000000", opacity: 0.35 }),
    path("M8,96 L92,96", { stroke: GOLD, "stroke-width": 0.8 }),
    rows.map((r, i) => label(50, y0 + i * (size + 2), r, { size, fill: GOLD, family: SERIF, fit: 80 })),
    label(INDEX_X + 2, m.mark.length > 1 ? 28 : 36, m.mark, { size: m.mark.length > 1 ? 15 : 28, fill: GOLD, family: SERIF, fit: 24 }),
  ];
}

/**
 * The face of one Le Malin card, for cardSvg().
 * @param {string} text  "1".."34", "TWIN", "WISH" or "malheur:<key>"
 * @param {{twinHigh?: number, name?: string, mark?: string}} [opts]
 *   twinHigh: the Twins' high value (20 at 3 players, 35 otherwise; default 35);
 *   name: the card's name to write (Malheur cards, and the Wish), e.g. translated;
 *   mark: a Malheur card's corner letter(s) to go with a translated name (default
 *   M, A, 666, B, F).
 * @returns {Array|null}  SVG nodes, null for an unknown card
 */
export function face(text, opts = {}) {
  if (text === "TWIN") return twinFace(opts.twinHigh ?? 35);
  if (text === "WISH") return wishFace(opts.name);
  if (text.startsWith("malheur:")) {
    const key = text.slice(8);
    return MALHEURS[key] ? malheurFace(key, opts.name, opts.mark) : null;
  }
  if (!/^\d{1,2}$/.test(text) || +text < 1 || +text > 34) return null;
  return numberFace(+text);
}
