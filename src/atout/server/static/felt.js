/* The card table: seats around a felt, the trick in the middle, the hand below.

   felt.js draws a *table model* (see the typedef below), which each game's module
   (static/games/<game>.js) builds from the seat's message alone; nothing here knows
   a game.  Motion (cards flying to the table, a trick gathered by its winner, the
   deal) is done with the Web Animations API on the drawn elements, and skipped when
   the user prefers reduced motion.

   @typedef {{seat: number, card: string, note?: string}} Play
   @typedef {{label: string, value?: string, title?: string, tone?: string}} Badge
   @typedef {{badges: Badge[], score?: string, cards?: number, extra?: Node, dealer?: boolean, away?: string}} SeatModel
   @typedef {{action: string, label: string, short?: string, key?: string, group?: string, title?: string}} Move
   @typedef {{card: string, action: string|null, choices?: Move[], number?: {min: number, max: number, value: number, label: string, make: (n: number) => string}}} HandCard
   @typedef {{
     heading: string, info: {label: string, value?: string, card?: string, title?: string}[],
     seats: SeatModel[], trick: Play[], winning: number|null,
     lastTrick: {cards: Play[], winner: number, round?: number}|null,
     hand: HandCard[], moves: Move[], prompt: string|null,
     centre?: Node|null, panels?: Node[], roundKey: string, dismissSummary?: boolean
   }} TableModel
*/

import { el, has, num, t, tn, reducedMotion } from "./lib/dom.js";
import { cardSvg, backSvg } from "./cards.js";

/** A view's trick as `[seat, card]` pairs (Wizard's, Sticheln's) → the model's plays. */
export function pairPlays(pairs) {
  return pairs.map(([seat, card]) => ({ seat, card }));
}

/** The model's `lastTrick` of a trick game's view: its `last_trick`, else this round's last finished trick.
    `toPlays` reads a trick's cards as the model's plays (the view's own form differs by game). */
export function lastTrickModel(v, toPlays) {
  const last = v.last_trick || (v.tricks.length ? { ...v.tricks[v.tricks.length - 1], round: v.round } : null);
  return last ? { cards: toPlays(last.cards), winner: last.winner, round: last.round } : null;
}

/** A trick game's seats in the model: the dealer's mark and the score every such game shows,
    then what `more(s)` adds for seat `s` (cards, badges, extra). */
export function seatModels(msg, v, more) {
  return msg.seats.map((_, s) => ({ dealer: s === v.dealer, score: num(v.scores[s]), ...more(s) }));
}

/** A trick game's trick in the model: the trick, who is winning it and why, and the last trick;
    `toPlays` reads a trick's cards as the model's plays, `number` writes a value (see trickWinning). */
export function trickModel(v, ctx, toPlays = pairPlays, number = String) {
  return { trick: toPlays(v.trick), ...trickWinning(v, ctx, number), lastTrick: lastTrickModel(v, toPlays) };
}

/** Where seat `seat` sits, in % of the felt, with the viewer at the bottom and play going clockwise. */
export function seatPlace(seat, viewer, n) {
  const r = (seat - viewer + n) % n;
  const angle = Math.PI / 2 + (r * 2 * Math.PI) / n;
  const phone = window.matchMedia("(max-width: 640px)").matches;
  const x = 50 + (phone ? 36 : 43) * Math.cos(angle);
  const y = 50 + 41 * Math.sin(angle);
  let side = "top";
  if (r === 0) side = "bottom";
  else if (x < 30) side = "left";
  else if (x > 70) side = "right";
  return { x, y, side, r };
}

/** Where the card seat `seat` played lies on the felt: between the centre and the seat. */
function trickPlace(seat, viewer, n) {
  const p = seatPlace(seat, viewer, n);
  const phone = window.matchMedia("(max-width: 640px)").matches;
  return { x: 50 + (p.x - 50) * (phone ? 0.36 : 0.38), y: 48 + (p.y - 50) * (phone ? 0.44 : 0.34) };
}

/** A card's drawing as an element: a real button when it can be clicked. */
export function cardElement(deck, card, opts = {}) {
  const attrs = {
    class: ["card", opts.size || "", opts.state || ""].filter(Boolean).join(" "),
    "data-card": card,
    "aria-label": opts.name || card,
    title: opts.title || opts.name || card,
  };
  const art = card === null ? backSvg() : cardSvg(deck, card, opts.deckOpts || {});
  if (opts.onclick) {
    // An unplayable card stays clickable (the server then says which rule forbids it); its name says so.
    if (opts.state === "illegal") attrs["aria-label"] = t("not_playable", { card: attrs["aria-label"] });
    return el("button", { type: "button", ...attrs, onclick: opts.onclick }, art);
  }
  return el("span", { ...attrs, role: "img" }, art);
}

function initials(name) {
  const words = String(name || "?").trim().split(/\s+/);
  return (words[0][0] + (words.length > 1 ? words[1][0] : "")).toUpperCase();
}

/** One seat's plate: name, dealer mark, badges (bid, tricks…), cards left, score. */
function plate(msg, model, seat, names, place) {
  const s = model.seats[seat] || { badges: [] };
  const acting = !msg.over && msg.to_act === seat;
  const info = msg.seats[seat] || {};
  const backs = Math.min(s.cards ?? 0, 8);
  return el("div", {
    class: `seat side-${place.side}${acting ? " to-act" : ""}${seat === msg.seat ? " me" : ""}`,
    "data-seat": seat,
    style: { left: `${place.x}%`, top: `${place.y}%` },
  },
  el("div", { class: "plate" },
    el("span", { class: `avatar tone-${seat % 8}`, "aria-hidden": "true" }, initials(names[seat])),
    el("span", { class: "who" },
      el("span", { class: "name", title: names[seat] }, names[seat]), // a name cut on a narrow plate says itself whole
      info.bot ? el("span", { class: "bot-mark", title: t("bot_level", { level: t(`level_${info.bot}`) }) }, t("bot_short")) : null,
      s.dealer ? el("span", { class: "dealer", title: t("dealer_title") }, t("dealer_mark")) : null),
    s.score !== undefined ? el("span", { class: "score", title: t("score") }, s.score) : null,
    el("span", { class: "badges" }, s.badges.map((b) => el("span", { class: `badge${b.tone ? " " + b.tone : ""}`, title: b.title || null },
      b.value !== undefined ? [el("small", {}, b.label), " ", el("b", {}, b.value)] : b.label))),
    s.cards && seat !== msg.seat ? el("span", { class: "backs", title: tn("cards_left", s.cards), "aria-label": tn("cards_left", s.cards) },
      Array.from({ length: backs }, () => el("span", { class: "mini-back" })), el("span", { class: "count" }, String(s.cards))) : null,
    s.extra || null,
    s.away ? el("span", { class: "away" }, s.away) : null,
    presence(msg, seat, names)));
}

/** Whether the seat's player is here, a bot playing for them, the clock of the seat to act. */
function presence(msg, seat, names) {
  const info = msg.seats[seat] || {};
  const clock = msg.room && msg.room.clock && msg.room.clock.seat === seat && !msg.over ? msg.room.clock : null;
  const parts = [];
  if (info.free) parts.push(el("span", { class: "presence free" }, t("seat_free_bot")));
  if (info.away) parts.push(el("span", { class: "presence away-bot" }, t("bot_playing_for", { name: names[seat] })));
  else if (!info.bot && !info.free && info.connected !== undefined) {
    parts.push(el("span", { class: `presence ${info.connected ? "online" : "offline"}`, title: t(info.connected ? "connected" : "disconnected") },
      el("span", { class: "dot", "aria-hidden": "true" }), info.connected ? null : t("disconnected")));
  }
  if (clock) {
    const left = Math.ceil(clock.left);
    parts.push(el("span", { class: `seat-clock${left <= 10 ? " low" : ""}`, "data-deadline": String(clock.deadline ?? performance.now() + clock.left * 1000), title: t("clock_title") },
      `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`));
  }
  return parts.length ? el("span", { class: "presence-row" }, parts) : null;
}

/** The round and the game's facts of the moment (trump…): over the felt's corner on a laptop,
    a row above it on a phone, where the felt has no corner to spare. */
export function drawInfo(model, ctx) {
  return el("div", { class: "felt-info" },
    el("strong", { class: "heading" }, model.heading),
    model.info.map((c) => el("span", { class: "chip", title: c.title || null },
      c.card ? cardElement(ctx.deck, c.card, { size: "tiny", name: c.value || c.card, deckOpts: ctx.deckOpts }) : null,
      el("small", {}, c.label), c.value !== undefined ? el("b", {}, c.value) : null)));
}

/**
 * Who takes the trick so far and why, as the view says (the rules decide it in Python: the
 * page draws it and decides nothing): { winning: seat|null, why: the words|null }.
 * @param {object} view  msg.view, whose `winning` is {seat, why, card, ...params} or null
 * @param {object} ctx  names and cardName
 * @param {(value: string) => string} [number]  how the game writes a value in the page's language
 */
export function trickWinning(view, ctx, number = String) {
  const w = view.winning;
  if (!w) return { winning: null, why: null };
  const vars = {
    name: w.seat === null ? "" : ctx.names[w.seat],
    card: w.card ? ctx.cardName(w.card) : "",
    value: w.value === undefined ? "" : number(w.value),
  };
  return { winning: w.seat, why: t(whyKey(w.why, w.seat, ctx), vars) };
}

/** The words saying who takes the trick, said to the player when it is their own card ("You are
    winning with…", where "{name} is winning" would read "You is winning" at a lesson's table,
    whose learner is named "You"): the key's `_you` form when the seat is the reader's own. */
export function whyKey(key, seat, ctx) {
  return seat !== null && seat === ctx.me && has(`${key}_you`) ? `${key}_you` : key;
}

/** Whether the player asked to read the line under the felt whole (kept across redraws). */
let whyWhole = false;

/** Why the trick's crowned card is winning, under the felt (where it covers no seat on a phone).
    A phone draws it on one line, cut (table.css: the hand stays in view), and a title says it
    whole to no one there (no pointer hovers): a tap shows it whole, on the lines it takes, until
    tapped again (a lesson's coach speaks of this line, and "…la plus fo…" said nothing). */
export function drawWhy(model) {
  if (!model.why) return null;
  const line = el("p", { class: `trick-why${whyWhole ? " whole" : ""}`, title: model.why, onclick: () => {
    whyWhole = !whyWhole;
    line.classList.toggle("whole", whyWhole);
    const board = line.closest("#board");
    if (board) fitHeight(board);
  } }, model.why);
  return line;
}

/** The felt: seats, the trick, and a game's own centre piece. */
export function drawFelt(msg, model, ctx) {
  const n = msg.players;
  const viewer = msg.seat;
  const names = ctx.names;
  // A phone's plates are compact from the first layout (fitSeats makes a narrow felt's so too).
  const compact = window.matchMedia("(max-width: 640px)").matches ? " compact" : "";
  const felt = el("section", { class: `felt players-${n}${compact}`, "aria-label": t("table") });
  for (let s = 0; s < n; s++) felt.append(plate(msg, model, s, names, seatPlace(s, viewer, n)));
  if (model.centre) felt.append(el("div", { class: "centre-piece" }, model.centre));
  const trick = el("div", { class: "trick", "aria-label": t("trick") });
  for (const p of model.trick) {
    const at = trickPlace(p.seat, viewer, n);
    trick.append(el("div", {
      class: `played${model.winning === p.seat ? " winning" : ""}`,
      "data-seat": p.seat, "data-card": p.card, "data-x": at.x, "data-y": at.y,
      style: { left: `${at.x}%`, top: `${at.y}%` },
    },
    cardElement(ctx.deck, p.card, { name: `${names[p.seat]}: ${ctx.cardName(p.card)}`, deckOpts: ctx.deckOpts }),
    p.note ? el("span", { class: "note" }, p.note) : null,
    model.winning === p.seat ? el("span", { class: "crown", title: t("winning") }, "♛") : null));
  }
  felt.append(trick);
  return felt;
}

/* ---- fitting the felt to the window ------------------------------------------------ */

/** Rectangles a and b (DOMRects) overlap by more than `margin` px on both axes. */
function overlapArea(a, b, margin = 0) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left) + margin;
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) + margin;
  return w > 0 && h > 0 ? w * h : 0;
}

const TRICK_CENTRE = { x: 50, y: 48 };
/** Sizes a trick's cards may shrink to, and how much of another card one may cover (area):
    a little, on its edge, leaves every card's index in view.  0.8 is a phone's 40 px card, the
    smallest whose rank and suit a player reads (Sticheln's seven cards at 8 seats fitted there,
    not at 0.82: a step from 0.82 to 0.76 drew them 38 px wide). */
const TRICK_SCALES = [1, 0.94, 0.88, 0.82, 0.8, 0.76, 0.7, 0.64, 0.58, 0.52, 0.46];
/** How much of a trick card another may cover (a share of its area): none first (issue 50: at 8
    seats two clusters hid the winning card), then a corner when nothing else fits at any size. */
const TRICK_COVERS = [0.01, 0.2];
/** Sideways steps (in card widths) a trick card may take when the line from its seat to the
    middle is blocked: on a felt made short (fitHeight) the cards of the seats above and below
    the middle meet on that line, and side by side they keep their size. */
const TRICK_SIDEWAYS = [0, 0.6, -0.6, 1.1, -1.1];
/** How small a card may get on its seat's line before it may leave that line for the nearest
    free place of the felt (TRICK_GRID): to 82 % of its size, or to 54 px where that is smaller (a
    laptop's cards are large: shrunk a little they stay by their seats, not at the felt's corners).
    Le Malin at 6 seats on a phone drew every card 30 px wide (too small to read) in the middle
    column, with the felt free beside it. */
const TRICK_LINE_FLOOR = 0.82;
const TRICK_LINE_PX = 54;
/** The felt's free places a card may take, off its line, in steps of this share of the felt. */
const TRICK_GRID = 0.04;
/** Room kept above a trick card for the crown of the winning one (px). */
const CROWN = 22;

/** Place the trick's cards where no seat plate covers them and they keep clear of each other:
    each card slides from its seat's place toward the middle of the felt until it is clear (then,
    if it never is, along lines beside that one: TRICK_SIDEWAYS); when some card cannot be, every
    card is drawn smaller (down to TRICK_LINE_FLOOR), then each may take the free place nearest its
    seat's, then smaller still.  The boxes are computed (the plates measured once), then the
    result is applied: it holds for any game, player count and screen, the winning card, its
    crown and a card's note under it (Le Malin's "= 35") included. */
/** The last fitting of each felt's trick: how many cards, at what scale (fitTrick's cap). */
const trickScales = new WeakMap();

export function fitTrick(felt) {
  const played = [...felt.querySelectorAll(".trick .played")];
  if (!played.length) return;
  const area = felt.querySelector(".trick").getBoundingClientRect();
  const plates = [...felt.querySelectorAll(".seat .plate")].map((p) => p.getBoundingClientRect());
  const width = parseFloat(getComputedStyle(played[0]).getPropertyValue("--trick-w")) || played[0].getBoundingClientRect().width;
  // Each card starts from its place (drawFelt) moved out toward its seat by the felt's
  // --trick-reach (table.css; 1: as drawn) and slides back toward the middle until clear: Wizard's
  // trick on a phone sat in a tight cluster in the middle, far from whoever played each card.
  const reach = parseFloat(getComputedStyle(felt).getPropertyValue("--trick-reach")) || 1;
  const anchors = played.map((p) => ({
    x: TRICK_CENTRE.x + (Number(p.dataset.x) - TRICK_CENTRE.x) * reach,
    y: TRICK_CENTRE.y + (Number(p.dataset.y) - TRICK_CENTRE.y) * reach,
  }));
  // A card's note under it (Le Malin's "= 35", "25 → 12,5"): how wide, and how far below the card it reaches.
  const notes = played.map((p) => {
    const n = p.querySelector(".note");
    return n ? { width: n.getBoundingClientRect().width, below: n.getBoundingClientRect().bottom - p.querySelector(".card").getBoundingClientRect().bottom } : { width: 0, below: 0 };
  });
  // Room above a card for its crown, on the winning card only (the trick is fitted again at each
  // card, the crown moving with it): kept above all eight, it took a phone's felt the room of a
  // row of cards (Sticheln at 8 seats drew them 29 px wide).
  const crowns = played.map((p) => (p.querySelector(".crown") ? CROWN : 0));
  const steps = Array.from({ length: 21 }, (_, i) => 1 - i * 0.05);
  const boxAt = (x, y, w, i) => {
    const cx = area.left + (x / 100) * area.width, cy = area.top + (y / 100) * area.height, h = w * 1.4;
    const half = Math.max(w, notes[i].width) / 2;  // a note wider than a small card
    return { left: cx - half, right: cx + half, top: cy - h / 2 - crowns[i], bottom: cy + h / 2 + Math.max(0, notes[i].below) };
  };
  // The places of the felt's grid, each card's nearest to its own place first.
  const grid = [];
  for (let gx = TRICK_GRID; gx < 1; gx += TRICK_GRID) for (let gy = TRICK_GRID; gy < 1; gy += TRICK_GRID) grid.push({ x: gx * 100, y: gy * 100 });
  // Sorted only when a card may leave its line (rarely: most tricks fit on their lines), once per
  // card: 576 places sorted for each card at each drawing were most of the fitting's script time.
  const sorted = [];
  const near = (i) => {
    const a = anchors[i];
    sorted[i] ??= grid.map((p) => ({ p, d: Math.hypot(p.x - a.x, p.y - a.y) })).sort((u, v) => u.d - v.d).map((u) => u.p);
    return sorted[i];
  };
  const lineSpots = (a, i, w) => TRICK_SIDEWAYS.flatMap((side) => {
    // Every other card tries the other side first, so that two cards on one line part.
    const dx = ((i % 2 ? -side : side) * w * 100) / area.width;
    return steps.map((k) => ({ x: TRICK_CENTRE.x + (a.x - TRICK_CENTRE.x) * k + dx, y: TRICK_CENTRE.y + (a.y - TRICK_CENTRE.y) * k }));
  });
  const inside = (b) => b.left >= area.left && b.right <= area.right && b.top >= area.top && b.bottom <= area.bottom;
  // Off their lines the cards keep the smallest size tried on them (and shrink from there): a card
  // added to the trick never makes the others larger (a jump of size and place at each card).
  const onLine = TRICK_SCALES.filter((s) => s >= Math.min(TRICK_LINE_FLOOR, TRICK_LINE_PX / width));
  const smallest = onLine[onLine.length - 1];
  // And a card added never makes the trick's cards larger than the last fitting drew them (the
  // crown, room kept above the winning card only, moves: the trick fitted 0.8 could fit 0.82).
  const last = trickScales.get(felt);
  const cap = last && played.length > last.cards ? last.scale : Infinity;
  const all = [
    ...onLine.map((scale) => ({ scale, cover: TRICK_COVERS[0], anywhere: false })),
    ...TRICK_COVERS.flatMap((cover) => TRICK_SCALES.filter((s) => s <= smallest).map((scale) => ({ scale, cover, anywhere: true }))),
  ];
  const capped = all.filter((a) => a.scale <= cap);
  const attempts = capped.length ? capped : all.slice(-1);
  /** The cards placed one after another in `order` at this size: their spots, and how many found none. */
  const place = (order, w, cover, anywhere) => {
    const placed = [];
    const spots = [];
    const missed = [];
    for (const i of order) {
      const clear = ({ x, y }, edge) => {
        const box = boxAt(x, y, w, i);
        if (edge && !inside(box)) return null;
        if (plates.some((r) => overlapArea(box, r, -2) > 0)) return null;
        if (placed.some((q) => overlapArea(box, q) > cover * w * w * 1.4)) return null;
        return { box, x, y };
      };
      let chosen = null;
      for (const at of lineSpots(anchors[i], i, w)) if ((chosen = clear(at, false))) break;
      if (!chosen && anywhere) for (const at of near(i)) if ((chosen = clear(at, true))) break;
      if (!chosen) { missed.push(i); chosen = { box: boxAt(anchors[i].x, anchors[i].y, w, i), x: anchors[i].x, y: anchors[i].y }; }
      placed.push(chosen.box);
      spots[i] = chosen;
    }
    return { spots, missed };
  };
  let best = null;
  for (const { scale, cover, anywhere } of attempts) {
    const w = width * scale;
    // In play order; a card that found no place goes first on another try (an earlier card's
    // place may have been its only one), once per card.
    let order = anchors.map((_, i) => i);
    let tried = place(order, w, cover, anywhere);
    for (let k = 0; anywhere && tried.missed.length && k < anchors.length; k++) {
      order = [tried.missed[0], ...order.filter((i) => i !== tried.missed[0])];
      const again = place(order, w, cover, anywhere);
      if (again.missed.length < tried.missed.length) tried = again;
      else break;
    }
    const misses = tried.missed.length;
    if (!best || misses < best.misses) best = { scale, misses, spots: tried.spots };
    if (!misses) break;
  }
  // Nothing fits everywhere (a tiny window): the size that fitted the most cards.
  trickScales.set(felt, { cards: played.length, scale: best.scale });
  played.forEach((p, i) => {
    p.style.width = `calc(var(--trick-w) * ${best.scale})`;
    p.style.left = `${best.spots[i].x}%`;
    p.style.top = `${best.spots[i].y}%`;
  });
}

/** A felt narrower than this (px) has compact plates, as a phone's (table.css `.felt.compact`). */
const COMPACT_FELT = 600;

/** Compact plates on a narrow felt; and each seat's plate inside the felt's container, sideways: the side seats sit astride the
    felt's rim, and on a narrow felt (a tablet, the replay beside its review) a plate centred on
    its place would leave the window or slide under the review panel. */
export function fitSeats(felt) {
  felt.classList.toggle("compact", felt.clientWidth < COMPACT_FELT || window.matchMedia("(max-width: 640px)").matches);
  // All cleared, then all measured, then all moved: a plate's place does not depend on another's
  // (each is placed on the felt by itself), and clearing and measuring one after another made the
  // browser lay the page out again for every seat.
  const seats = [...felt.querySelectorAll(".seat")];
  seats.forEach((seat) => { seat.style.marginLeft = ""; });
  const box = felt.parentElement.getBoundingClientRect();
  const shifts = seats.map((seat) => {
    const r = seat.getBoundingClientRect();
    return r.left < box.left ? box.left - r.left : r.right > box.right ? box.right - r.right : 0;
  });
  seats.forEach((seat, i) => { if (shifts[i]) seat.style.marginLeft = `${shifts[i]}px`; });
  separateSeats(felt, box);
}

/** Room kept between two plates pushed apart (px). */
const PLATE_GAP = 3;

/** Plates pushed apart where they lie over one another (issue 50: at 8 seats the phone's own plate
    lay under its two neighbours, the laptop's side plates overlapped): each overlapping pair
    parts along the axis where it overlaps least, the viewer's own plate staying put (the other
    takes the whole step), a few rounds, every plate kept inside the felt's container. */
function separateSeats(felt, box) {
  const seats = [...felt.querySelectorAll(".seat")];
  const offsets = seats.map(() => ({ x: 0, y: 0 }));
  seats.forEach((s) => { s.style.translate = ""; });
  const base = seats.map((s) => s.querySelector(".plate").getBoundingClientRect());
  const fixed = seats.map((s) => s.classList.contains("me"));
  const at = (i) => ({ left: base[i].left + offsets[i].x, right: base[i].right + offsets[i].x, top: base[i].top + offsets[i].y, bottom: base[i].bottom + offsets[i].y });
  for (let round = 0; round < 12; round++) {
    let moved = false;
    for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
      const a = at(i), b = at(j);
      const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (ox <= 0 || oy <= 0) continue;
      moved = true;
      const horizontal = ox < oy;
      const step = (horizontal ? ox : oy) + PLATE_GAP;
      // The one more to the left (above) goes left (up), the other right (down).
      const [first, second] = horizontal ? (a.left <= b.left ? [i, j] : [j, i]) : (a.top <= b.top ? [i, j] : [j, i]);
      const share = fixed[first] ? [0, 1] : fixed[second] ? [1, 0] : [0.5, 0.5];
      const axis = horizontal ? "x" : "y";
      offsets[first][axis] -= step * share[0];
      offsets[second][axis] += step * share[1];
    }
    // Inside the container sideways (a plate pushed out comes back; its neighbour moves next round).
    offsets.forEach((o, i) => {
      const r = at(i);
      if (r.left < box.left) o.x += box.left - r.left;
      else if (r.right > box.right) o.x -= r.right - box.right;
    });
    if (!moved) break;
  }
  seats.forEach((s, i) => {
    const o = offsets[i];
    if (o.x || o.y) s.style.translate = `${Math.round(o.x)}px ${Math.round(o.y)}px`;
  });
}

/** Sizes a game's centre piece (Le Nain Jaune's board and run, a contract board) may shrink to:
    every hundredth from 1 to 0.5 (the trials are computed, not measured: they cost the page no
    layout); steps of 7 % drew a piece that just missed one size at the next, 7 % smaller (Le
    Nain Jaune's run on a phone at 39 px in CI). */
const CENTRE_SCALES = Array.from({ length: 51 }, (_, i) => (100 - i) / 100);
/** How far (a fraction of the felt's height) the centre piece may be moved down or up from where
    the stylesheet puts it: between the plates above and below it may stay larger there. */
const CENTRE_SHIFTS = [0, 0.05, -0.05, 0.1, -0.1];

/** Draw the felt's centre piece as large as it can be with no seat plate over it and inside
    the felt: each arrangement (the game's own, then its `stacked` one: one part above the
    other, for a narrow felt) at the largest size that fits at some height (CENTRE_SHIFTS),
    the larger of the two kept; when none fits (a tiny window), the smallest size of the
    game's own arrangement.  Measured, not guessed: it holds for any game, player count and
    window, the replay's felt too (issue 29: Le Nain Jaune's run under the right seat's plate). */
export function fitCentre(felt) {
  const piece = felt.querySelector(".centre-piece");
  if (!piece) return;
  const plates = [...felt.querySelectorAll(".seat .plate")].map((p) => p.getBoundingClientRect());
  const f = felt.getBoundingClientRect();
  const rim = felt.clientLeft;
  const inside = { left: f.left + rim, right: f.right - rim, top: f.top + felt.clientTop, bottom: f.bottom - felt.clientTop };
  // What the piece shows, not its box: its drawings (an SVG is one), its lines of text and
  // whatever holds nothing else (a run's cards may spill out of their box, and a box may be
  // wider than what it shows, beside a plate that covers nothing of it).
  const parts = [...piece.querySelectorAll(":not(svg *)")].filter((e) => e.tagName.toLowerCase() === "svg" || e.tagName === "P" || !e.firstElementChild);
  const text = document.createRange();
  const boxOf = (e) => {
    if (e.firstElementChild || !e.textContent.trim()) return e.getBoundingClientRect();
    text.selectNodeContents(e); // a line of text: the words, not the width of its block
    return text.getBoundingClientRect();
  };
  // Each arrangement is measured once, at scale 1 and no shift; a trial's boxes are computed
  // from those: the piece's transform (table.css: translateY(dy) scale(s) about its centre)
  // moves no layout, so a part's box at (s, dy) is its box at (1, 0) scaled by s about the
  // piece's centre and moved dy down.  Measuring every trial instead (up to 90 per message)
  // had the browser recalculate the style at each: some 15 forced recalculations a message
  // on Le Nain Jaune's table, whose centre changes at every card.
  const measure = (stacked) => {
    piece.classList.toggle("stacked", stacked);
    piece.style.setProperty("--centre-scale", "1");
    piece.style.setProperty("--centre-dy", "0px");
    const p = piece.getBoundingClientRect();
    return { cx: p.left + p.width / 2, cy: p.top + p.height / 2, rects: parts.map(boxOf) };
  };
  const fits = (m, scale, dy) => m.rects.every((b) => {
    const r = {
      left: m.cx + (b.left - m.cx) * scale, right: m.cx + (b.right - m.cx) * scale,
      top: m.cy + dy + (b.top - m.cy) * scale, bottom: m.cy + dy + (b.bottom - m.cy) * scale,
    };
    if (b.width * scale <= 1 || b.height * scale <= 1) return true; // hidden, or read aloud only
    return r.left >= inside.left && r.right <= inside.right && r.top >= inside.top && r.bottom <= inside.bottom
      && !plates.some((p) => overlapArea(r, p, -2) > 0);
  });
  let best = null;
  for (const stacked of [false, true]) {
    if (best && best.scale >= CENTRE_SCALES[0]) break;
    const m = measure(stacked);
    for (const scale of CENTRE_SCALES) {
      if (best && scale <= best.scale) break;
      const dy = CENTRE_SHIFTS.find((k) => fits(m, scale, k * f.height));
      if (dy !== undefined) { best = { stacked, scale, dy }; break; }
    }
  }
  best = best || { stacked: false, scale: CENTRE_SCALES[CENTRE_SCALES.length - 1], dy: 0 };
  piece.classList.toggle("stacked", best.stacked);
  piece.style.setProperty("--centre-scale", String(best.scale));
  piece.style.setProperty("--centre-dy", `${best.dy * f.height}px`);
}

/* ---- keeping the felt from one message to the next ------------------------------------ */

/** What a freshly drawn felt shows, part by part, as text: its classes (seat count, a phone's
    compact plates), each seat's plate, the centre piece, the trick.  Read before any fitting
    writes its sizes and places into the parts. */
function feltParts(felt) {
  const piece = felt.querySelector(":scope > .centre-piece");
  return {
    base: felt.className,
    seats: [...felt.querySelectorAll(":scope > .seat")].map((s) => s.outerHTML),
    centre: piece ? piece.outerHTML : "",
    trick: felt.querySelector(":scope > .trick").outerHTML,
  };
}

/**
 * The felt to show for a new message: the one on the page, its changed parts replaced by the
 * fresh drawing's, when it draws the same seats (count, layout): most messages change a plate or
 * two (whose turn, a trick won) and the trick, and a felt drawn anew at each one had the browser
 * style and lay out every plate, the board and the trick again, and fitFelt measure and place
 * them all, for the few that changed.  `changes` says what fitFelt must fit again (null: all).
 * @param {HTMLElement|null} old  the felt drawn at the last message (or null)
 * @param {HTMLElement} fresh  the felt drawn for this one (drawFelt)
 * @returns {{felt: HTMLElement, changes: {seats: HTMLElement[][], centre: boolean, trick: boolean}|null}}
 */
export function keepFelt(old, fresh) {
  const parts = feltParts(fresh);
  const was = old && old.feltDrawn;
  if (!was || was.base !== parts.base || was.seats.length !== parts.seats.length) {
    fresh.feltDrawn = parts;
    return { felt: fresh, changes: null };
  }
  const seats = [];
  const oldSeats = [...old.querySelectorAll(":scope > .seat")];
  const freshSeats = [...fresh.querySelectorAll(":scope > .seat")];
  parts.seats.forEach((html, i) => {
    if (html === was.seats[i]) return;
    oldSeats[i].replaceWith(freshSeats[i]);
    seats.push([oldSeats[i], freshSeats[i]]);
  });
  const oldPiece = old.querySelector(":scope > .centre-piece");
  const freshPiece = fresh.querySelector(":scope > .centre-piece");
  const centre = parts.centre !== was.centre;
  if (centre) {
    if (oldPiece) oldPiece.remove();
    if (freshPiece) old.querySelector(":scope > .trick").before(freshPiece);
  } else if (freshPiece && freshPiece.firstChild && !oldPiece.firstChild) {
    // The same drawing in a game's centre node kept from one message to the next (Le Nain
    // Jaune's): the fresh felt took it; it comes back into the fitted piece, whose size it keeps.
    oldPiece.replaceChildren(...freshPiece.childNodes);
  }
  // A trick gathered by its winner (its cards held where the gathering left them, faded) or still
  // moving is drawn anew, even the same.
  const trick = parts.trick !== was.trick || old.querySelector(":scope > .trick").getAnimations({ subtree: true }).length > 0;
  if (trick) old.querySelector(":scope > .trick").replaceWith(fresh.querySelector(":scope > .trick"));
  old.feltDrawn = parts;
  return { felt: old, changes: { seats, centre, trick } };
}

/** A plate's size (px): a plate the size of the one it replaces sits where that one sat. */
function plateSize(seat) {
  const r = seat.querySelector(".plate").getBoundingClientRect();
  return `${r.width.toFixed(2)}x${r.height.toFixed(2)}`;
}

/** The felts whose size is watched (fitFelt): each one's observer is disconnected once the felt
    has left the page (a new game's felt, the replay's next step, the seat handed over). */
const watched = new Set();

function unwatchGone() {
  for (const felt of watched) {
    if (felt.isConnected) continue;
    felt.fitting.disconnect();
    felt.fitting = null;
    watched.delete(felt);
  }
}

/** Fit what is drawn on the felt to its size: the plates inside, then the centre piece and the
    trick clear of them.  Run after each drawing, and again whenever the felt changes size (the
    window, the review opening beside the replay, fitHeight).  `changes` (keepFelt's) limits the
    work to what changed on a felt of the same size: plates of the same sizes as the ones they
    replace take their places (fitSeats is not run), and the centre piece and the trick are fitted
    again only when they or the plates moved. */
export function fitFelt(felt, changes = null) {
  unwatchGone();
  const size = `${felt.offsetWidth}x${felt.offsetHeight}`;
  let moved = !changes || felt.fitted !== size || changes.seats.some(([was, now]) => was.plateSize !== plateSize(now));
  if (!moved) {
    for (const [was, now] of changes.seats) {
      now.plateSize = was.plateSize;
      now.style.marginLeft = was.style.marginLeft;
      now.style.translate = was.style.translate;
    }
  }
  if (moved) fitSeats(felt);
  if (moved || changes.centre) fitCentre(felt);
  if (moved || changes.trick) fitTrick(felt);
  if (moved) felt.querySelectorAll(":scope > .seat").forEach((s) => { s.plateSize = plateSize(s); });
  felt.fitted = size;
  if (!felt.fitting && typeof ResizeObserver !== "undefined") {
    felt.fitting = new ResizeObserver(() => {
      if (!felt.isConnected) { unwatchGone(); return; }
      if (`${felt.offsetWidth}x${felt.offsetHeight}` !== felt.fitted) fitFelt(felt);
    });
    felt.fitting.observe(felt);
    watched.add(felt);
  }
}

/** Shrink the felt (never below its floor) when the hand would end below the window: the
    moves above the hand may take several rows (Le Malin's Malheur cards), and the cards one
    plays must stay in view without scrolling. */
export function fitHeight(board) {
  const felt = board.querySelector(".felt");
  const hand = board.querySelector(".hand-zone");
  if (!felt || !hand) return;
  felt.style.height = "";
  felt.style.minHeight = "";
  const over = hand.getBoundingClientRect().bottom + window.scrollY - window.innerHeight;
  if (over <= 0) return;
  const floor = window.matchMedia("(max-width: 640px)").matches ? 230 : 280;
  // The stylesheet's min-height (the felt's usual floor) gives way too, down to this one.
  felt.style.minHeight = `${floor}px`;
  felt.style.height = `${Math.max(floor, felt.offsetHeight - over - 4)}px`;
}

/** The viewer's hand: playable cards lift, the others dim; arrows move between them. */
export function drawHand(msg, model, ctx) {
  // Cards lift when playable and dim when not, only while some card is playable:
  // during a bid or someone else's turn the hand stays plain.
  const playable = (h) => h.action !== null || (h.choices && h.choices.length) || h.number;
  const anyPlayable = model.hand.some(playable);
  const cards = model.hand.map((h, i) => {
    const state = ctx.readOnly || !anyPlayable ? null : playable(h) ? "legal" : "illegal";
    const click = ctx.readOnly ? null : () => {
      if (h.choices && h.choices.length || h.number) ctx.choose(h, i);
      else ctx.act(h.action || ctx.fallback(h.card));
    };
    const node = cardElement(ctx.deck, h.card, { state, name: ctx.cardName(h.card), onclick: click, deckOpts: ctx.deckOpts });
    if (node.tagName === "BUTTON") node.tabIndex = -1;
    return node;
  });
  const hand = el("div", { class: `hand count-${Math.min(cards.length, 20)}`, role: "group", "aria-label": t("hand"), style: { "--count": cards.length } }, cards);
  return hand;
}

/** The smallest hand card (px, a finger's width) and the least share of its width kept in view
    beside the next one: table.css's `.hand .card` clamp, which one row of the hand keeps to. */
const HAND_MIN = 44;
const HAND_SHOWN = 0.38;

/** A hand too long for one row of the smallest cards in two rows, the second over the lower part
    of the first (each card's index stays in view): Le Nain Jaune's 26 cards at 2 players (and
    Wizard's 20 at 3) on a phone ran off both sides of the window, the end cards out of reach.
    Run after each drawing (a kept hand keeps its rows) and when the window changes size. */
export function fitHand(zone) {
  const hand = zone && zone.querySelector(".hand");
  if (!hand) return;
  const cards = [...hand.querySelectorAll(".card")];
  const one = HAND_MIN * (1 + (cards.length - 1) * HAND_SHOWN) + 8 <= zone.clientWidth;
  if (one === !hand.classList.contains("rows-2")) return;
  hand.classList.toggle("rows-2", !one);
  if (one) {
    hand.replaceChildren(...cards);
    hand.style.setProperty("--count", cards.length);
    return;
  }
  const half = Math.ceil(cards.length / 2);
  hand.replaceChildren(el("div", { class: "hand-row" }, cards.slice(0, half)), el("div", { class: "hand-row" }, cards.slice(half)));
  hand.style.setProperty("--count", half);
}

/** The moves that are not cards in the hand (bids, trump, pass…), grouped. */
export function drawMoves(model, ctx) {
  if (ctx.readOnly || !model.moves.length) return null;
  const groups = new Map();
  for (const m of model.moves) {
    const g = m.group || "other";
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(m);
  }
  return el("div", { class: "moves" }, [...groups.entries()].map(([g, ms]) => el("div", { class: `move-group group-${g}` },
    ms.map((m) => el("button", {
      type: "button", class: "action", "data-action": m.action, "data-key": m.key || null,
      title: m.title || (m.short ? m.label : null), "aria-label": m.short ? m.label : null, onclick: () => ctx.act(m.action),
    }, m.short || m.label)))));
}

/* ---- motion --------------------------------------------------------------------- */

/** Rectangles of what is on screen now, to animate from after a redraw. */
export function snapshot(root) {
  const rects = { hand: {}, seats: {}, played: {} };
  root.querySelectorAll(".hand .card").forEach((c, i) => { rects.hand[`${c.dataset.card}#${i}`] = c.getBoundingClientRect(); rects.hand[c.dataset.card] ??= c.getBoundingClientRect(); });
  root.querySelectorAll(".felt .seat").forEach((s) => { rects.seats[s.dataset.seat] = s.getBoundingClientRect(); });
  root.querySelectorAll(".trick .played").forEach((p) => { rects.played[`${p.dataset.seat}:${p.dataset.card}`] = p.getBoundingClientRect(); });
  return rects;
}

/** Animate a card in flight.  While it moves it lets the pointer through: a card flying over a
    bid button, or resting at the felt's centre before its turn to be dealt, would take the
    button's release and the click would be lost (the browser clicks only where the press and
    the release meet). */
export function fly(node, keyframes, options) {
  const anim = node.animate(keyframes, tempo === 1 ? options
    : { ...options, duration: (options.duration ?? 0) * tempo, delay: (options.delay ?? 0) * tempo });
  inFlight.set(node, (inFlight.get(node) || 0) + 1);
  node.style.pointerEvents = "none";
  const landed = () => {
    const left = inFlight.get(node) - 1;
    inFlight.set(node, left);
    if (!left) node.style.pointerEvents = "";
  };
  anim.finished.then(landed, landed);
  return anim;
}
/** How many flights each node is in (a card dealt again while it still lands). */
const inFlight = new WeakMap();
/** The card speed's share of each flight's time (1: as written; the table's "swift" speed halves
    them, for players who follow at a glance).  Set by the table (setTempo). */
let tempo = 1;
export function setTempo(share) { tempo = share > 0 ? share : 1; }

function fromRect(node, rect, opts = {}) {
  if (reducedMotion() || !rect) return null;
  const to = node.getBoundingClientRect();
  if (!to.width) return null;
  const dx = rect.left + rect.width / 2 - (to.left + to.width / 2);
  const dy = rect.top + rect.height / 2 - (to.top + to.height / 2);
  const scale = opts.scale ?? Math.max(0.3, Math.min(1.6, rect.width / to.width));
  return fly(node,
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: opts.fade ? 0 : 1 }, { transform: "none", opacity: 1 }],
    { duration: opts.duration ?? 320, easing: "cubic-bezier(.2,.7,.3,1)", delay: opts.delay ?? 0, fill: "backwards" });
}

/** New cards on the table fly in from the hand (the viewer's) or from the seat that played them. */
export function animatePlays(root, before, viewer) {
  const anims = [];
  root.querySelectorAll(".trick .played").forEach((p) => {
    const key = `${p.dataset.seat}:${p.dataset.card}`;
    if (before.played[key]) return;
    const src = Number(p.dataset.seat) === viewer ? before.hand[p.dataset.card] : before.seats[p.dataset.seat];
    const a = fromRect(p, src, { scale: Number(p.dataset.seat) === viewer ? undefined : 0.45 });
    if (a) anims.push(a.finished.catch(() => {}));
  });
  return Promise.all(anims);
}

/** The finished trick slides to its winner's seat and vanishes. */
export function gatherTrick(root, winner) {
  const seat = root.querySelector(`.felt .seat[data-seat="${winner}"]`);
  const cards = [...root.querySelectorAll(".trick .played")];
  if (!seat || !cards.length || reducedMotion()) return Promise.resolve();
  const target = seat.getBoundingClientRect();
  return Promise.all(cards.map((c, i) => {
    const from = c.getBoundingClientRect();
    const dx = target.left + target.width / 2 - (from.left + from.width / 2);
    const dy = target.top + target.height / 2 - (from.top + from.height / 2);
    return fly(c, [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0 }],
      { duration: 420, delay: i * 40, easing: "ease-in", fill: "forwards" }).finished.catch(() => {});
  }));
}

/** A new deal: the hand's cards arrive from the middle of the table one after another. */
export function animateDeal(root) {
  if (reducedMotion()) return;
  const felt = root.querySelector(".felt");
  if (!felt) return;
  const f = felt.getBoundingClientRect();
  const centre = { left: f.left + f.width / 2 - 20, top: f.top + f.height / 2 - 28, width: 40, height: 56 };
  root.querySelectorAll(".hand .card").forEach((c, i) => fromRect(c, centre, { delay: i * 45, duration: 300, scale: 0.5 }));
  root.querySelectorAll(".felt .seat:not(.me) .mini-back").forEach((c, i) => fromRect(c, centre, { delay: i * 25, duration: 260, scale: 1 }));
}
