/* Le Nain Jaune at the table.  Not a trick game: cards go on a face-up pile in rising
   runs regardless of suit, so the felt's middle holds the game's own pieces instead
   of a trick (model.centre):

   - the board (plateau), drawn here in SVG: four boxes at the corners (10♦, J♣, Q♠,
     K♥) and the Nain Jaune (7♦) in the middle, a yellow dwarf of our own, each box
     with its stack of tokens and their count; the box waiting to be claimed glows;
   - the run in progress: its latest cards with who played each, the card needed
     next and who is asked, the players who just said "x sans y";
   - tokens that move: when a box is won, when the losers pay the player who went
     out, when a caught board card pays its box, when the stakes go on the board, a
     few coins fly between the boxes and the seats (Web Animations, skipped when the
     user prefers less motion).  The module remembers the last message it drew, in
     `live`, to see what changed; the centre node itself is kept from one message to
     the next so that coins in flight survive the redraw.

   Seats show their tokens as the score, cards left, the opener, and the ranks each
   seat has publicly shown it lacks.  The sheet: per deal and seat, the points left in
   hand, what was paid or received, the deal's balance and the tokens after the deal;
   the chart is drawn from it (start = the starting tokens), so both agree. */

import { el, signed, svg, t, tn, i18n, reducedMotion } from "../lib/dom.js";
import { cardElement, fly } from "../felt.js";
import { SUITS, rankLabel } from "../decks/nain-jaune.js";

export const deck = "nain-jaune";
export const css = true;
export const higherIsBetter = true;
/** No tricks: the table hides its "last trick" button. */
export const tricks = false;

/** Le Nain Jaune's rounds are deals: the review names them so too. */
export const roundUnit = "deal";

/** The summary's title names a deal, not a round. */
export function summaryTitle(label) {
  return t("nj_deal_summary", { deal: label });
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** The board's boxes in stake order (1..5 per player per deal). */
const BOXES = ["10D", "JC", "QS", "KH", "7D"];
const STAKES = { "10D": 1, JC: 2, QS: 3, KH: 4, "7D": 5 };

/* ---- names ----------------------------------------------------------------------- */

function split(card) {
  const m = /^(A|[2-9]|10|J|Q|K)([CDHS])$/.exec(card || "");
  return m ? { rank: m[1], suit: m[2] } : null;
}

/** The court cards' letters in the page's language (i18n/<lang>/nain-jaune.json: R D V in French). */
function letters() {
  return { J: t("nj_letter_J"), Q: t("nj_letter_Q"), K: t("nj_letter_K") };
}

/** The rank as the cards print it: A 2 … 10 J Q K, R D V in French, B D K in German. */
export function rankShort(rank) {
  return rankLabel(rank, letters());
}

/** The rank in words for sentences: "ace", "8", "queen" ("as", "8", "dame"). */
function rankWord(rank) {
  return /^\d+$/.test(rank) ? rank : t(`nj_rank_${rank}`);
}

/** A card as drawn: "A♣", "10♦", "R♥" in French. */
export function shortName(card) {
  const c = split(card);
  return c ? `${rankShort(c.rank)}${SUITS[c.suit].symbol}` : card;
}

/** A card's name in words (accessible names): "ace of clubs", "as de trèfle". */
export function cardName(card) {
  const c = split(card);
  if (!c) return card;
  return t("nj_card", { rank: rankWord(c.rank), suit: t(`nj_suit_${c.suit}`) });
}

export function deckOptions() {
  return { letters: letters() };
}

/** Clicking a card that cannot be played sends it anyway: the server says why. */
export function fallback(card) {
  return `play ${card}`;
}

function options(msg) {
  const out = {};
  for (const pair of String(msg.options || "").split(/\s+/)) {
    const i = pair.indexOf("=");
    if (i > 0) out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

function startTokens(msg) {
  const n = Number(options(msg).start_tokens);
  return Number.isFinite(n) && n > 0 ? n : 100;
}

/** A legal move's text in the page's language. */
export function actionLabel(action, msg) {
  const v = msg && msg.view;
  if (action.startsWith("play ")) return t("play_card", { card: cardName(action.slice(5)) });
  if (action === "claim" && v && v.claim_box) return tn("nj_claim_box", v.boxes[v.claim_box] ?? 0, { card: shortName(v.claim_box) });
  if (action === "claim") return t("nj_claim");
  if (action === "pass" && v && v.claim_box) return t("nj_leave_box");
  if (action === "pass") return t("nj_pass");
  return action;
}

/* ---- the run ----------------------------------------------------------------------- */

/** The pile's latest run, oldest first: the run in progress, or the one just ended.
    A run climbs (by one with free_restart, skipping missing ranks with skip_rank), ends
    after a King, and a new run never continues the old one (the engine's render does
    the same). */
export function lastRun(played, msg) {
  if (!played.length) return [];
  const byOne = options(msg).stuck_rule === "free_restart";
  const rank = (p) => RANKS.indexOf(split(p[1])?.rank);
  let start = played.length - 1;
  while (start > 0) {
    const before = rank(played[start - 1]), after = rank(played[start]);
    if (before === 12 || after <= before || (byOne && after !== before + 1)) break;
    start -= 1;
  }
  return played.slice(start);
}

/** The seats that have passed on the rank needed now, in the order they were asked. */
function passedOn(v, msg) {
  if (!v.need || !v.asked) return [];
  const step = options(msg).direction === "counterclockwise" ? -1 : 1;
  const n = msg.players;
  return Array.from({ length: v.asked }, (_, i) => (((v.last + step * i) % n) + n) % n);
}

/* ---- the board, in SVG ---------------------------------------------------------------- */

const W = 320, H = 250;
/* Each corner box: its outer corner and which way its content runs. */
const CORNERS = {
  "10D": { x: 12, y: 12, sx: 1, sy: 1 },
  JC: { x: W - 12, y: 12, sx: -1, sy: 1 },
  QS: { x: W - 12, y: H - 12, sx: -1, sy: -1 },
  KH: { x: 12, y: H - 12, sx: 1, sy: -1 },
};
const BOX_W = 122, BOX_H = 104;
const CX = W / 2, CY = H / 2, CR = 58;
const SANS = "system-ui, 'DejaVu Sans', sans-serif";
const SERIF = "Georgia, 'DejaVu Serif', serif";

/** A stack of tokens at (x, y) (the bottom coin), up to 9 coins drawn, the count in a pill under it. */
function tokenStack(x, y, tokens, opts = {}) {
  const shown = Math.min(tokens, opts.max ?? 9);
  const coins = [];
  for (let i = 0; i < shown; i++) {
    const cy = y - i * 3.4;
    coins.push(svg("ellipse", { cx: x, cy: cy + 1.8, rx: 13, ry: 5, fill: "#7a4c00" }),
      svg("ellipse", { cx: x, cy, rx: 13, ry: 5, fill: i % 2 ? "#f6c945" : "#efb526", stroke: "#7a4c00", "stroke-width": 0.9 }));
  }
  if (!shown) coins.push(svg("ellipse", { cx: x, cy: y, rx: 13, ry: 5, fill: "none", stroke: opts.empty || "#0003", "stroke-width": 1.2, "stroke-dasharray": "3 2" }));
  const label = String(tokens);
  const pw = 12 + label.length * 9;
  return svg("g", { class: "nj-stack" },
    coins,
    svg("rect", { x: x - pw / 2, y: y + 8, width: pw, height: 19, rx: 9.5, fill: "#1c1408", opacity: 0.88 }),
    svg("text", { x, y: y + 22.5, "text-anchor": "middle", "font-size": 15, "font-weight": 800, fill: "#ffe39a", class: "nj-count", "font-family": SANS }, label));
}

/** A corner box: an ivory panel with the card's index big, its suit, its stake, its tokens. */
function cornerBox(card, tokens, state) {
  const c = CORNERS[card];
  const { rank, suit } = split(card);
  const s = SUITS[suit];
  const x0 = c.sx > 0 ? c.x : c.x - BOX_W;
  const y0 = c.sy > 0 ? c.y : c.y - BOX_H;
  // The card's index in the outer corner, the tokens beside it along the board's edge.
  const lx = c.x + c.sx * 32;
  const top = y0 + 8;
  const ty = c.sy > 0 ? y0 + 48 : y0 + 64;
  const tx = c.x + c.sx * 88;
  const title = tn("nj_box_title", tokens, { card: shortName(card), tokens, stake: STAKES[card] });
  const face = rank.length === 1 && !/\d/.test(rank) ? SERIF : SANS;
  return svg("g", { class: `nj-box${state.claim ? " nj-claim" : ""}`, "data-box": card, "data-tokens": tokens },
    svg("title", {}, title),
    svg("rect", { x: x0, y: y0, width: BOX_W, height: BOX_H, rx: 16, fill: "url(#nj-ivory)", stroke: state.claim ? "#ffd24d" : "#b08a3a", "stroke-width": state.claim ? 4 : 1.6, class: "nj-panel" }),
    svg("rect", { x: x0 + 5, y: y0 + 5, width: BOX_W - 10, height: BOX_H - 10, rx: 12, fill: "none", stroke: s.color, "stroke-opacity": 0.22, "stroke-width": 1 }),
    svg("text", { x: lx, y: top + 34, "text-anchor": "middle", "font-size": 36, "font-weight": 800, fill: s.color, "font-family": face }, rankShort(rank)),
    svg("g", { transform: `translate(${lx} ${top + 56}) scale(0.26)` }, s.draw()),
    svg("text", { x: lx, y: top + 88, "text-anchor": "middle", "font-size": 10.5, fill: "#6b5526", "font-family": SANS }, t("nj_stake_short", { n: STAKES[card] })),
    tokenStack(tx, ty, tokens, { empty: "#b08a3a" }));
}

/** Our yellow dwarf, in a 100-unit box centred on 0,0: pointed hat, white beard, a
    yellow coat with a red diamond buckle, holding up his own card. */
function dwarf() {
  const ink = "#4a3000";
  return svg("g", { class: "nj-dwarf" },
    // Feet and coat.
    svg("ellipse", { cx: -11, cy: 45, rx: 10, ry: 4.5, fill: "#5a3a1a" }),
    svg("ellipse", { cx: 11, cy: 45, rx: 10, ry: 4.5, fill: "#5a3a1a" }),
    svg("path", { d: "M-17,6 C-22,20 -27,34 -28,43 L28,43 C27,34 22,20 17,6 Z", fill: "#ffd21f", stroke: ink, "stroke-width": 2.2, "stroke-linejoin": "round" }),
    svg("rect", { x: -27, y: 30, width: 54, height: 6, fill: "#7a4a1c", stroke: ink, "stroke-width": 1.2 }),
    svg("path", { d: "M0,27.5 L5,33 L0,38.5 L-5,33 Z", fill: "#c1121f", stroke: "#fff3c4", "stroke-width": 0.8 }),
    // Arms, the right one holding a little 7♦ up.
    svg("path", { d: "M-17,12 C-27,18 -30,26 -26,31", fill: "none", stroke: ink, "stroke-width": 2.2, "stroke-linecap": "round" }),
    svg("path", { d: "M17,12 C26,8 30,0 30,-7", fill: "none", stroke: ink, "stroke-width": 2.2, "stroke-linecap": "round" }),
    svg("g", { transform: "translate(33 -15) rotate(14)" },
      svg("rect", { x: -8, y: -11, width: 16, height: 22, rx: 2.5, fill: "#fff", stroke: ink, "stroke-width": 1.4 }),
      svg("text", { x: 0, y: -1, "text-anchor": "middle", "font-size": 9, "font-weight": 800, fill: "#c1121f", "font-family": "system-ui, 'DejaVu Sans', sans-serif" }, "7"),
      svg("path", { d: "M0,2 L3.5,6 L0,10 L-3.5,6 Z", fill: "#c1121f" })),
    svg("circle", { cx: 29, cy: -4, r: 3.4, fill: "#f7d3ad", stroke: ink, "stroke-width": 1.2 }),
    // Head: face, beard, nose, eyes.
    svg("circle", { cx: 0, cy: -8, r: 13, fill: "#f7d3ad", stroke: ink, "stroke-width": 2 }),
    svg("path", { d: "M-13,-6 C-16,8 -8,22 0,25 C8,22 16,8 13,-6 C9,0 4,1 0,-1 C-4,1 -9,0 -13,-6 Z", fill: "#fffaf0", stroke: ink, "stroke-width": 1.8, "stroke-linejoin": "round" }),
    svg("circle", { cx: -5, cy: -10, r: 1.7, fill: ink }),
    svg("circle", { cx: 5, cy: -10, r: 1.7, fill: ink }),
    svg("ellipse", { cx: 0, cy: -4.5, rx: 3.6, ry: 3, fill: "#e8957a", stroke: ink, "stroke-width": 1 }),
    svg("circle", { cx: -8.5, cy: -5.5, r: 2.2, fill: "#f2a0a0", opacity: 0.7 }),
    svg("circle", { cx: 8.5, cy: -5.5, r: 2.2, fill: "#f2a0a0", opacity: 0.7 }),
    // The pointed hat, its brim and bell.
    svg("path", { d: "M-15,-17 C-13,-32 -4,-46 12,-50 C8,-42 8,-30 15,-17 Z", fill: "#ffd21f", stroke: ink, "stroke-width": 2, "stroke-linejoin": "round" }),
    svg("path", { d: "M-10,-30 C-4,-28 4,-28 10,-30", fill: "none", stroke: "#c1121f", "stroke-width": 2.2 }),
    svg("ellipse", { cx: 0, cy: -17, rx: 18, ry: 4.5, fill: "#e3a600", stroke: ink, "stroke-width": 1.8 }),
    svg("circle", { cx: 13, cy: -50, r: 4.2, fill: "#c1121f", stroke: ink, "stroke-width": 1.4 }));
}

/** The Nain Jaune's own box in the middle: a golden medallion, the dwarf, his card and tokens. */
function nainBox(tokens, state) {
  const title = tn("nj_box_title_nain", tokens, { card: shortName("7D"), tokens, stake: STAKES["7D"] });
  return svg("g", { class: `nj-box nj-nain${state.claim ? " nj-claim" : ""}`, "data-box": "7D", "data-tokens": tokens },
    svg("title", {}, title),
    svg("circle", { cx: CX, cy: CY, r: CR + 6, fill: "#3b0b14", opacity: 0.6 }),
    svg("circle", { cx: CX, cy: CY, r: CR, fill: "url(#nj-gold)", stroke: state.claim ? "#fff3b0" : "#7a5200", "stroke-width": state.claim ? 4.5 : 2.2, class: "nj-panel" }),
    svg("circle", { cx: CX, cy: CY, r: CR - 6, fill: "none", stroke: "#7a5200", "stroke-opacity": 0.5, "stroke-width": 1, "stroke-dasharray": "2 3" }),
    svg("g", { transform: `translate(${CX - 17} ${CY + 1}) scale(0.74)` }, dwarf()),
    svg("text", { x: CX + 25, y: CY - 17, "text-anchor": "middle", "font-size": 17, "font-weight": 800, fill: "#c1121f", "font-family": SANS }, shortName("7D")),
    tokenStack(CX + 25, CY + 20, tokens, { empty: "#7a5200", max: 6 }));
}

function board(v, msg) {
  const boxes = v.boxes || {};
  const claim = v.claim_box;
  const label = t("nj_board_label", { boxes: BOXES.map((b) => tn("nj_box_short", boxes[b] ?? 0, { card: shortName(b), tokens: boxes[b] ?? 0 })).join(", ") });
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "nj-board", role: "img", "aria-label": label },
    svg("defs", {},
      svg("radialGradient", { id: "nj-lacquer", cx: "50%", cy: "42%", r: "70%" },
        svg("stop", { offset: 0, "stop-color": "#8e2333" }), svg("stop", { offset: 1, "stop-color": "#4c0d19" })),
      svg("linearGradient", { id: "nj-ivory", x1: 0, y1: 0, x2: 0, y2: 1 },
        svg("stop", { offset: 0, "stop-color": "#fffaf0" }), svg("stop", { offset: 1, "stop-color": "#f1e6cc" })),
      svg("radialGradient", { id: "nj-gold", cx: "45%", cy: "38%", r: "70%" },
        svg("stop", { offset: 0, "stop-color": "#fff0a0" }), svg("stop", { offset: 0.6, "stop-color": "#ffd23a" }), svg("stop", { offset: 1, "stop-color": "#e0a000" }))),
    // The lacquered board with its gilt rim and a lozenge pattern between the boxes.
    svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 26, fill: "url(#nj-lacquer)", stroke: "#d9b25a", "stroke-width": 3 }),
    svg("rect", { x: 6, y: 6, width: W - 12, height: H - 12, rx: 22, fill: "none", stroke: "#d9b25a", "stroke-width": 0.8, "stroke-opacity": 0.7 }),
    svg("path", { d: `M${CX},8 L${CX + 9},${CY - CR - 4} M${CX},8 L${CX - 9},${CY - CR - 4} M${CX},${H - 8} L${CX + 9},${CY + CR + 4} M${CX},${H - 8} L${CX - 9},${CY + CR + 4}`, stroke: "#d9b25a", "stroke-opacity": 0.5, "stroke-width": 1, fill: "none" }),
    [["10D", "JC", "QS", "KH"].map((b) => cornerBox(b, boxes[b] ?? 0, { claim: claim === b }))],
    nainBox(boxes["7D"] ?? 0, { claim: claim === "7D" }),
  );
}

/** The board with the glow of the box waiting to be claimed: a layer drawn once over the box (in
    % of the board, so it follows its size) whose opacity alone pulses (nain-jaune.css), which
    the compositor animates without the page; a drop-shadow that grew and shrank on the SVG
    panel itself made the browser paint the board again at every frame of the claim window. */
function boardWithGlow(v, msg) {
  const claim = v.claim_box;
  let glow = null;
  if (claim === "7D") {
    glow = el("span", { class: "nj-glow round", "aria-hidden": "true", style: {
      left: `${((CX - CR) / W) * 100}%`, top: `${((CY - CR) / H) * 100}%`, width: `${((2 * CR) / W) * 100}%`, height: `${((2 * CR) / H) * 100}%` } });
  } else if (claim && CORNERS[claim]) {
    const c = CORNERS[claim];
    const x0 = c.sx > 0 ? c.x : c.x - BOX_W;
    const y0 = c.sy > 0 ? c.y : c.y - BOX_H;
    glow = el("span", { class: "nj-glow", "aria-hidden": "true", style: {
      left: `${(x0 / W) * 100}%`, top: `${(y0 / H) * 100}%`, width: `${(BOX_W / W) * 100}%`, height: `${(BOX_H / H) * 100}%` } });
  }
  return el("div", { class: "nj-board-wrap" }, board(v, msg), glow);
}

/* ---- the run strip -------------------------------------------------------------------- */

function initial(name) {
  return String(name || "?").trim().charAt(0).toUpperCase();
}

function runStrip(v, msg, ctx) {
  const me = msg.seat;
  const run = lastRun(v.played, msg);
  const names = ctx.names;
  const head = [];
  if (!v.played.length) {
    const last = v.sheet.length ? v.sheet[v.sheet.length - 1] : null;
    head.push(el("p", { class: "nj-run-empty" }, last
      ? [t("nj_last_deal", { deal: last.deal, name: names[last.winner] }), last.grand_opera ? ` ${t("nj_grand_opera")}` : ""]
      : t("nj_no_card_yet")));
  }
  const ended = !msg.over && v.played.length && v.need === null;
  const cards = run.slice(-6).map(([seat, card], i, shown) => el("figure", { class: `nj-run-card${i === shown.length - 1 ? " latest" : ""}${seat === me ? " mine" : ""}`, "data-seat": seat, "data-card": card },
    cardElement(ctx.deck, card, { name: `${names[seat]}: ${cardName(card)}`, deckOpts: ctx.deckOpts }),
    el("figcaption", {}, el("span", { class: "long" }, seat === me ? t("you") : names[seat]),
      el("span", { class: `short tone-${seat % 8}`, "aria-hidden": "true" }, initial(names[seat])))));
  // How many earlier cards of the run are not drawn: six are, four on a phone (its "+N" is its own).
  const more = (drawn, where) => run.length > drawn
    ? el("span", { class: `nj-more ${where}`, title: tn("nj_run_longer", run.length) }, `+${run.length - drawn}`) : null;
  const lines = [];
  if (!msg.over && v.phase === "play") {
    if (v.claim_box) {
      const args = { name: names[v.last], card: shortName(v.claim_box), n: v.boxes[v.claim_box] ?? 0 };
      lines.push(el("p", { class: "nj-need claim" }, tn(v.last === me ? "nj_you_may_claim" : "nj_claim_waiting", args.n, args)));
    } else if (v.need) {
      lines.push(el("p", { class: "nj-need" },
        el("span", { class: "nj-need-label" }, t("nj_need_label")), " ", el("b", { class: "nj-rank" }, rankShort(v.need)), " ",
        el("span", { class: "nj-asked" }, msg.to_act === me ? t("nj_asked_you") : t("nj_asked", { name: names[msg.to_act] }))));
    } else {
      const key = v.played.length ? "nj_new_run_by" : "nj_opens";
      lines.push(el("p", { class: "nj-need" }, el("b", {}, msg.to_act === me ? t(`${key}_you`) : t(key, { name: names[msg.to_act] }))));
    }
    const passed = passedOn(v, msg);
    if (passed.length) lines.push(el("p", { class: "nj-sans" }, t(options(msg).voluntary_stop === "true" ? "nj_passed" : "nj_sans", { rank: rankShort(v.need), names: passed.map((s) => (s === me ? t("you") : names[s])).join(", ") })));
  }
  return el("div", { class: `nj-run${ended ? " ended" : ""}`, role: "group", "aria-label": t("nj_run") },
    el("div", { class: "nj-run-title" }, el("span", {}, ended ? t("nj_run_ended") : t("nj_run")), el("small", {}, t("nj_pile", { n: v.played.length }))),
    head,
    run.length ? el("div", { class: "nj-run-cards" }, more(6, "wide"), more(4, "narrow"), cards) : null,
    lines);
}

/* ---- the model ------------------------------------------------------------------------ */

/** What the module remembers of the live table (never of a replay): the centre node, kept
    across redraws, and the last message's tokens, boxes and pile, to animate the changes. */
let live = null;

function prompt(v, msg, ctx) {
  if (msg.over || v.phase !== "play") return null;
  const me = msg.seat;
  const names = ctx.names;
  const o = options(msg);
  if (msg.to_act !== me) {
    if (v.claim_box) return tn("nj_p_other_claim", v.boxes[v.claim_box] ?? 0, { name: names[msg.to_act], card: shortName(v.claim_box) });
    if (!v.need) return t(v.played.length ? "nj_p_other_new" : "nj_p_other_open", { name: names[msg.to_act] });
    return t("nj_p_other", { name: names[msg.to_act], rank: rankWord(v.need) });
  }
  if (v.claim_box) return tn(v.hand.length ? "nj_p_claim" : "nj_p_claim_last", v.boxes[v.claim_box] ?? 0, { card: shortName(v.claim_box) });
  if (!v.need) {
    if (v.played.length) return t("nj_p_new_run");
    return t(o.first_card === "lowest" ? "nj_p_open_lowest" : "nj_p_open");
  }
  const canPlay = msg.legal.some((a) => a.startsWith("play "));
  if (!canPlay) return t("nj_p_none_pass", { rank: rankWord(v.need) });
  return t(msg.legal.includes("pass") ? "nj_p_need_pass" : "nj_p_need", { rank: rankWord(v.need) });
}

/** The ranks a seat has shown it lacks (each automatic pass tells the table), on one line
    under its plate. */
function lacksLine(ranks) {
  if (!ranks || !ranks.length) return null;
  const title = t("nj_lacks_title", { ranks: ranks.map(rankWord).join(", ") });
  return el("span", { class: "extra nj-lacks", title },
    el("small", {}, t("nj_lacks")), " ",
    ranks.map((r) => el("b", {}, rankShort(r))),
    el("span", { class: "sr-only" }, title));
}

export function model(msg, ctx) {
  const v = msg.view;
  const me = msg.seat;
  const o = options(msg);
  const cardAction = {};
  const moves = [];
  for (const a of msg.legal) {
    if (a.startsWith("play ")) cardAction[a.slice(5)] = a;
    else moves.push({ action: a, label: actionLabel(a, msg), group: a === "claim" ? "claim" : "pass", title: a === "pass" && !v.claim_box ? t("nj_pass_title") : null });
  }
  // Claim first: it is the move the window is for.
  moves.sort((a, b) => (a.action === "claim" ? -1 : 0) - (b.action === "claim" ? -1 : 0));
  const order = (c) => { const s = split(c); return s ? RANKS.indexOf(s.rank) * 4 + "CDHS".indexOf(s.suit) : 99; };
  const hand = [...v.hand].sort((a, b) => order(a) - order(b)).map((c) => ({ card: c, action: cardAction[c] || null }));
  const maxDeals = Number(o.max_deals);
  const info = [
    { label: t("nj_next"), value: msg.over || v.phase !== "play" ? "–" : v.need ? rankShort(v.need) : t("nj_any"), title: v.need ? t("nj_next_title", { rank: rankWord(v.need) }) : null },
    { label: t("nj_on_board"), value: String(BOXES.reduce((sum, b) => sum + (v.boxes[b] ?? 0), 0)), title: t("nj_on_board_title") },
  ];
  const centre = centreNode(msg, ctx);
  return {
    heading: Number.isFinite(maxDeals) && maxDeals > 0 ? t("nj_deal_of", { deal: v.deal, deals: maxDeals }) : t("nj_deal", { deal: v.deal }),
    info,
    seats: msg.seats.map((_, s) => {
      const badges = [];
      if (s === v.opener) badges.push({ label: t("nj_opener"), title: t("nj_opener_title") });
      if (v.claim_box && s === v.last && !msg.over) badges.push({ label: t("nj_may_claim"), value: shortName(v.claim_box), tone: "ok nj-claimer" });
      return { dealer: s === v.dealer, score: String(v.tokens[s]), cards: v.hand_sizes[s], badges, extra: lacksLine(v.lacks[s]) };
    }),
    trick: [],
    winning: null,
    lastTrick: null,
    hand,
    moves,
    prompt: prompt(v, msg, ctx),
    centre,
    roundKey: `d${v.deal}`,
    // The deal's summary gives way once the new deal's first card is down.
    dismissSummary: v.played.length > 0,
  };
}

/* ---- the centre node and its motion ---------------------------------------------------------- */

function centreNode(msg, ctx) {
  const v = msg.view;
  const key = `${msg.table}:${msg.seat}`;
  if (ctx.readOnly) return el("div", { class: "nj-centre" }, boardWithGlow(v, msg), runStrip(v, msg, ctx));
  if (!live || live.key !== key) {
    live = {
      key,
      root: el("div", { class: "nj-centre" }),
      fx: el("div", { class: "nj-fx", "aria-hidden": "true" }),
      say: el("div", { class: "sr-only", "aria-live": "polite" }),
      last: null,
    };
  }
  const before = live.last && live.last.n < msg.n ? live.last : null;
  // Where things are now, before the redraw: the hand's cards (a card the viewer plays
  // flies from there).
  const handRects = {};
  if (before && live.root.isConnected) {
    const boardNode = live.root.closest("#board") || document;
    boardNode.querySelectorAll(".hand .card[data-card]").forEach((c) => { handRects[c.dataset.card] = c.getBoundingClientRect(); });
  }
  live.root.replaceChildren(boardWithGlow(v, msg), runStrip(v, msg, ctx), live.say);
  // The coins fly over the seats: their layer goes on the felt itself (above the plates),
  // moved to each new felt as soon as it is drawn, so coins in flight go on flying.
  const { root, fx } = live;
  requestAnimationFrame(() => {
    const felt = root.isConnected && root.closest(".felt");
    if (felt && fx.parentNode !== felt) felt.append(fx);
  });
  live.last = {
    n: msg.n, deal: v.deal, played: v.played.map(([s, c]) => `${s}:${c}`),
    tokens: [...v.tokens], boxes: BOXES.map((b) => v.boxes[b] ?? 0), sheet: v.sheet.length,
  };
  if (before) {
    speak(live.say, before, msg, ctx);
    requestAnimationFrame(() => { if (root.isConnected) animate(root, fx, before, msg, handRects); });
  }
  return live.root;
}

/** Tell a screen reader what happened since the last message: cards played, boxes won, a deal won. */
function speak(say, before, msg, ctx) {
  const v = msg.view;
  const names = ctx.names;
  const parts = [];
  const had = new Set(v.deal === before.deal ? before.played : []);
  const line = v.sheet.length > before.sheet ? v.sheet[v.sheet.length - 1] : null;
  if (v.deal === before.deal) {
    for (const [s, c] of v.played) if (!had.has(`${s}:${c}`)) parts.push(t("played_card", { name: names[s], card: cardName(c) }));
  }
  const now = BOXES.map((b) => v.boxes[b] ?? 0);
  if (!line) {
    BOXES.forEach((b, i) => { if (now[i] < before.boxes[i] && now[i] === 0) parts.push(tn("nj_wins_box", before.boxes[i], { name: names[v.last], card: shortName(b) })); });
  } else {
    parts.push(tn("nj_deal_won", line.paid.reduce((a, b) => a + b, 0), { name: names[line.winner] }));
  }
  if (!parts.length) return;
  say.textContent = "";
  requestAnimationFrame(() => { say.textContent = parts.join(". "); });
}

/** Token moves between two lists of holdings (seats then boxes): who gave how much to whom.
    Boxes pay seats first (a box won), then seats pay seats (the deal's payments), then
    seats pay boxes (stakes, a caught board card); within each, in proportion. */
function flows(from, to, seats) {
  const delta = to.map((x, i) => x - from[i]);
  const give = delta.map((d) => Math.max(0, -d));
  const take = delta.map((d) => Math.max(0, d));
  const isSeat = (i) => i < seats;
  const out = [];
  for (const [srcSeat, dstSeat] of [[false, true], [true, true], [true, false], [false, false]]) {
    const src = give.map((g, i) => (g && isSeat(i) === srcSeat ? i : -1)).filter((i) => i >= 0);
    const dst = take.map((g, i) => (g && isSeat(i) === dstSeat ? i : -1)).filter((i) => i >= 0);
    const S = src.reduce((a, i) => a + give[i], 0);
    const K = dst.reduce((a, i) => a + take[i], 0);
    const moved = Math.min(S, K);
    if (!moved) continue;
    const pairs = [];
    for (const i of src) for (const j of dst) pairs.push({ from: i, to: j, amount: (moved * give[i] * take[j]) / (S * K) });
    for (const p of pairs) if (p.amount > 0.01) out.push(p);
    for (const i of src) give[i] -= (moved * give[i]) / S;
    for (const j of dst) take[j] -= (moved * take[j]) / K;
  }
  return out;
}

function centreOf(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width };
}

function animate(root, fx, before, msg, handRects) {
  const v = msg.view;
  const felt = root.closest(".felt");
  if (!felt || reducedMotion()) return;
  const seatNode = (s) => felt.querySelector(`.seat[data-seat="${s}"] .score`) || felt.querySelector(`.seat[data-seat="${s}"]`);
  const boxNode = (b) => root.querySelector(`.nj-box[data-box="${b}"] .nj-stack`);
  // Every box the motion needs is read first, in one layout, and only then are the
  // animations started and the coins added: a read after each write (a card's flight, a coin
  // put on the felt) had the browser recalculate the style again for every card and coin.
  const had = new Set(v.deal === before.deal ? before.played : []);
  const flights = [];
  root.querySelectorAll(".nj-run-card").forEach((fig) => {
    const key = `${fig.dataset.seat}:${fig.dataset.card}`;
    if (had.has(key)) return;
    const seat = Number(fig.dataset.seat);
    const src = seat === msg.seat && handRects[fig.dataset.card] ? handRects[fig.dataset.card] : seatNode(seat)?.getBoundingClientRect();
    if (src) flights.push({ fig, seat, src, to: fig.getBoundingClientRect() });
  });
  // Tokens: in two steps when a deal ended in between (its payments, then the new stakes).
  const n = msg.players;
  const now = [...v.tokens, ...BOXES.map((b) => v.boxes[b] ?? 0)];
  const was = [...before.tokens, ...before.boxes];
  const steps = [];
  if (v.sheet.length === before.sheet + 1) {
    const line = v.sheet[v.sheet.length - 1];
    const mid = [...line.tokens, ...line.boxes];
    steps.push(flows(was, mid, n), flows(mid, now, n));
  } else steps.push(flows(was, now, n));
  const centres = new Map();
  const centre = (i) => {
    if (!centres.has(i)) {
      const node = i < n ? seatNode(i) : boxNode(BOXES[i - n]);
      centres.set(i, node ? centreOf(node) : null);
    }
    return centres.get(i);
  };
  for (const step of steps) for (const f of step) { centre(f.from); centre(f.to); }
  const fr = felt.getBoundingClientRect();
  const base = { left: fr.left + felt.clientLeft, top: fr.top + felt.clientTop };
  // The new cards of the run fly in from the seat that played them (the viewer's from the hand).
  for (const { fig, seat, src, to } of flights) {
    const dx = src.left + src.width / 2 - (to.left + to.width / 2);
    const dy = src.top + src.height / 2 - (to.top + to.height / 2);
    const scale = Math.max(0.4, Math.min(2, src.width / (to.width || 1)));
    fly(fig, [{ transform: `translate(${dx}px, ${dy}px) scale(${seat === msg.seat ? scale : 0.5})`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
      { duration: 340, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  }
  let delay = flights.length ? 300 : 0;
  for (const step of steps) {
    if (!step.length) continue;
    const gains = {};
    step.forEach((f, k) => {
      const p = centre(f.from), q = centre(f.to);
      if (!p || !q) return;
      const coins = Math.max(1, Math.min(4, Math.round(f.amount / 3)));
      for (let c = 0; c < coins; c++) {
        const coin = el("span", { class: "nj-coin" });
        coin.style.left = `${p.x - base.left}px`;
        coin.style.top = `${p.y - base.top}px`;
        fx.append(coin);
        const jitter = (c - (coins - 1) / 2) * 5;
        const anim = coin.animate([
          { transform: `translate(-50%, -50%) translate(${jitter}px, 0) scale(.7)`, opacity: 0 },
          { transform: `translate(-50%, -50%) translate(${(q.x - p.x) * 0.5 + jitter}px, ${(q.y - p.y) * 0.5 - 28}px) scale(1.1)`, opacity: 1, offset: 0.5 },
          { transform: `translate(-50%, -50%) translate(${q.x - p.x}px, ${q.y - p.y}px) scale(.8)`, opacity: 0.2 },
        ], { duration: 720, delay: delay + k * 45 + c * 70, easing: "ease-in-out", fill: "both" });
        anim.finished.catch(() => {}).then(() => coin.remove());
      }
      if (f.to < n) gains[f.to] = (gains[f.to] || 0) + f.amount;
    });
    // The gains float up over the seat's score when the coins arrive.
    for (const [s, g] of Object.entries(gains)) {
      const q = centre(Number(s));
      if (!q || Math.round(g) < 1) continue;
      const tag = el("span", { class: "nj-gain" }, `+${Math.round(g)}`);
      tag.style.left = `${q.x - base.left}px`;
      tag.style.top = `${q.y - base.top}px`;
      fx.append(tag);
      tag.animate([{ transform: "translate(-50%, -50%)", opacity: 0 }, { transform: "translate(-50%, -120%)", opacity: 1, offset: 0.3 }, { transform: "translate(-50%, -220%)", opacity: 0 }],
        { duration: 1200, delay: delay + 600, easing: "ease-out", fill: "both" }).finished.catch(() => {}).then(() => tag.remove());
    }
    // A box just emptied flashes.
    for (const f of step) {
      if (f.from >= n) {
        const box = root.querySelector(`.nj-box[data-box="${BOXES[f.from - n]}"] .nj-panel`);
        if (box) box.animate([{ opacity: 1 }, { opacity: 0.45 }, { opacity: 1 }], { duration: 500, delay, iterations: 1 });
      }
    }
    delay += 950;
  }
}

/* ---- the sheet ---------------------------------------------------------------------------- */

/** Under the final ranking: why the match ended before its last deal (or, without a deal
    limit, at all): a player cannot pay the next deal's stakes (the rules' end check). */
export function finalNote(msg, ctx) {
  const o = options(msg);
  const maxDeals = Number(o.max_deals);
  if (!msg.over || (Number.isFinite(maxDeals) && maxDeals > 0 && msg.view.deal >= maxDeals)) return null;
  const unit = Number(o.stake_unit);
  const stake = BOXES.reduce((sum, b) => sum + STAKES[b], 0) * (Number.isFinite(unit) && unit > 0 ? unit : 1);
  const short = msg.view.tokens.map((n, s) => [n, s]).filter(([n]) => n < stake).map(([, s]) => ctx.names[s]);
  if (!short.length) return null;
  return el("p", { class: "final-note" }, tn("nj_end_short", short.length, { names: short.join(", "), deal: msg.view.deal, stake }));
}

/** Under a deal's summary: why the seats' tokens are below the summary's totals once the next
    deal has begun (its stakes are already on the board), so the two never seem to disagree. */
export function summaryNote(msg, ctx) {
  const v = msg.view;
  const line = v.sheet[v.sheet.length - 1];
  if (!line || v.deal <= line.deal) return null;
  const paid = msg.seats.map((_, s) => line.tokens[s] - v.tokens[s]);
  if (!paid.some((p) => p > 0)) return null;
  const text = paid.every((p) => p === paid[0])
    ? tn("nj_summary_stakes", paid[0], { deal: v.deal })
    : t("nj_summary_stakes_each", { deal: v.deal, list: paid.map((p, s) => t("nj_summary_stake_of", { name: ctx.names[s], n: p })).join(", ") });
  return el("p", { class: "summary-note" }, text);
}

/** Per deal and seat: the points (or cards) left in hand and the board cards caught, the
    tokens paid (or received by the winner), the deal's balance (stakes, boxes won and
    payments), and the tokens after the deal as the total; ✓ for the seat that went out. */
export function sheet(msg) {
  const v = msg.view;
  const start = msg.seats.map(() => startTokens(msg));
  let before = start;
  return {
    heads: [t("nj_h_hand"), t("nj_h_paid"), t("nj_h_net")],
    start,
    rounds: v.sheet.map((line) => {
      const received = line.paid.reduce((a, b) => a + b, 0);
      const seats = msg.seats.map((_, s) => {
        const won = s === line.winner;
        const kept = (line.kept[s] || []).map(shortName).join(" ");
        const hand = won ? (line.grand_opera ? t("nj_opera_short") : "★") : `${line.owed[s]}${kept ? ` · ${kept}` : ""}`;
        const paid = won ? signed(received) : signed(-(line.paid[s] + line.penalties[s]));
        return { cells: [hand, paid, signed(line.tokens[s] - before[s])], ok: won ? true : null, total: line.tokens[s] };
      });
      before = line.tokens;
      return { label: String(line.deal), seats };
    }),
  };
}
