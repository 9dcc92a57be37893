/* A first game that teaches (issue 50): the coach of a lesson's table.

   A lesson is an ordinary table whose link says so (#key=…&lesson=wizard); its script comes
   from the server (GET /api/lessons/<game>: each step's move count, words, the part of the
   table it points at, the move it asks for), the same data the server judges the learner's
   moves by (server/lessons.py).  The coach follows the table as table.js draws it (the
   "atout:shown" event, after each drawing): the step of the move count shown, its words in
   a panel beside the part it points at, which glows.  A refused move ("atout:refused": the
   rules' reason, or the lesson's when the move is legal but not the script's) is said in
   the panel with a coaching line.  This module decides no rule and sends no move. */

import { el, t, i18n, loadStrings } from "./lib/dom.js";

const params = new URLSearchParams(location.hash.slice(1));
const game = params.get("lesson");

/** Where each `point` of a step is on the page (server/lessons.py POINTS). */
const POINTS = {
  moves: "#board .moves",
  hand: "#board .hand",
  trick: "#board .felt .trick .card, #board .felt .trick",
  trump: "#board .felt-info .chip",
  seats: "#board .felt .seat:not(.me)",
  sheet: "#btn-sheet",
  ranking: "#overlay:not([hidden]) .overlay-card",
  hint: "#hint",
  board: "#board .nj-board",
  run: "#board .nj-run",
  contracts: "#board .mal-board",
};

/* `release`: ends the hold of a step the bots play through (its "Continue"); `read`: the steps
   whose words the learner has read (continued), each held once; `moved`: a new position is to
   be drawn (what the coach points at is then brought into view). */
const state = { script: null, step: -1, msg: null, refusal: null, hidden: false, release: null, read: new Set(), moved: false };

function targets(point) {
  if (!point) return [];
  if (point.startsWith("card:")) {
    const card = CSS.escape(point.slice(5));
    return [...document.querySelectorAll(`#board .hand [data-card="${card}"]`)].slice(0, 1);
  }
  const found = [...document.querySelectorAll(POINTS[point] || "")];
  // The trick's cards when there are some, else the trick's place on the felt.
  if (point === "trick") {
    const cards = found.filter((n) => n.classList.contains("card"));
    return cards.length ? cards : found.slice(0, 1);
  }
  // A drawing (Le Nain Jaune's board) glows by the box that holds it: an SVG has no ::before,
  // the ring that pulses (lesson.css).
  return found.map((n) => (n instanceof SVGElement && n.parentElement ? n.parentElement : n));
}

/** The step the table is at: the last one starting at or before the move count shown. */
function stepAt(n) {
  let at = -1;
  state.script.steps.forEach((s, i) => { if (s.n <= n) at = i; });
  return at;
}

function panel() {
  let box = document.getElementById("coach");
  if (!box) {
    box = el("aside", { id: "coach", class: "coach", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

function draw() {
  const { script, msg } = state;
  if (!script || !msg) return;
  document.querySelectorAll(".coach-target").forEach((n) => n.classList.remove("coach-target", "coach-anchor"));
  const at = stepAt(msg.n);
  const step = script.steps[at];
  const box = panel();
  box.dataset.step = String(at);
  box.dataset.n = String(msg.n);
  if (!step) { box.hidden = true; return; }
  const last = at === script.steps.length - 1;
  const yours = step.expect !== null && !msg.over && msg.to_act === msg.seat;
  box.classList.toggle("yours", yours);
  box.classList.toggle("folded", state.hidden);
  const fold = el("button", { type: "button", class: "coach-fold", "aria-expanded": String(!state.hidden),
    onclick: () => { state.hidden = !state.hidden; draw(); } }, state.hidden ? t("lesson_coach") : t("lesson_hide"));
  const glow = targets(step.point);
  glow.forEach((n) => {
    n.classList.add("coach-target");
    // The pulsing ring is placed by the part: one laid out in the flow is made its anchor (a
    // part already placed, a seat's plate or a trick's card, keeps its own position).
    if (getComputedStyle(n).position === "static") n.classList.add("coach-anchor");
  });
  const go = state.release ? el("button", { type: "button", class: "coach-continue primary", onclick: proceed }, t("lesson_continue")) : null;
  const parts = state.hidden ? [fold, go] : [
    el("div", { class: "coach-head" },
      el("strong", {}, script.title),
      el("small", { class: "coach-count" }, t("lesson_step", { n: at + 1, of: script.steps.length })),
      fold),
    el("p", { class: "coach-say" }, step.say),
    state.refusal ? el("div", { class: "coach-refused", role: "alert" },
      el("strong", {}, state.refusal), el("span", {}, t("lesson_try_again"))) : null,
    yours ? el("p", { class: "coach-do" }, t("lesson_your_move")) : null,
    go ? el("p", { class: "coach-actions" }, go) : null,
    last || msg.over ? el("p", { class: "coach-actions" },
      el("a", { class: "coach-link primary", href: "/" }, t("lesson_play_real")),
      el("a", { class: "coach-link", href: `/learn/${encodeURIComponent(game)}` }, t("lesson_again"))) : null,
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.hidden = false;
  // What it points at is brought into view at a new step, or a new position (never when the
  // player scrolls or a part of the page changes: the player's scrolling stays theirs).
  const fresh = state.step !== at || state.moved;
  state.step = at;
  state.moved = false;
  place(box, state.hidden ? [] : glow, fresh);
}

/** What the panel must leave in sight, and how much covering each costs (issue 50: it covered
    the bid's prompt line on a laptop, the learner's own plate on a phone): the part pointed at,
    the prompt line, the moves' buttons, the learner's plate, the value chooser and the hint's
    button and answer above all; the hand's cards and the trick's next; the other plates and the
    bars last.  The line under the felt saying who wins the trick is the prompt's peer: the coach
    often speaks of it, and on a German laptop (longer words, a taller panel) it hid half of it. */
const KEEP_CLEAR = [
  ["#prompt", 1000], ["#board .trick-why", 1000], ["#board .moves button", 1000], ["#board .seat.me", 1000], ["#chooser:not([hidden])", 1000],
  ["#hint button, #hint .hint-says", 1000],
  ["#board .hand .card", 6], ["#board .felt .trick .card", 6],
  ["#board .mal-board, #board .nj-board, #board .nj-run", 4],
  ["#board .felt .seat:not(.me)", 2], ["body > header", 2], ["#board .felt-info > *", 1],
];

function rectOf(nodes) {
  const rs = nodes.map((n) => n.getBoundingClientRect()).filter((x) => x.width || x.height);
  if (!rs.length) return null;
  return {
    left: Math.min(...rs.map((x) => x.left)), right: Math.max(...rs.map((x) => x.right)),
    top: Math.min(...rs.map((x) => x.top)), bottom: Math.max(...rs.map((x) => x.bottom)),
  };
}

function shared(a, b) {
  return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
}

/** The panel beside what it points at, an arrow toward it, inside the window: of the places
    around it (its sides, above, below, the window's edges), the one covering the least of what
    the player needs (KEEP_CLEAR, the part pointed at first), the nearer when several cover
    nothing.  What it points at is scrolled into view first (`fresh`: a new step or position;
    a phone's hand lies below the fold). */
function place(box, glow, fresh) {
  for (const side of ["above", "below", "left", "right", "docked"]) box.classList.remove(side);
  box.style.left = box.style.top = box.style.width = "";
  if (!glow.length) { box.classList.add("docked"); return; }
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  let r = rectOf(glow);
  if (fresh && r && (r.bottom > vh || r.top < 0)) {
    glow[0].scrollIntoView({ block: "nearest" });
    r = rectOf(glow);
  }
  if (!r) { box.classList.add("docked"); return; }
  const gap = 16;
  const avoid = [...glow.map((n) => [n.getBoundingClientRect(), 5000])];
  for (const [selector, weight] of KEEP_CLEAR) {
    document.querySelectorAll(selector).forEach((n) => {
      if (n.closest("#coach") || glow.includes(n)) return;
      if (n.id === "prompt" && !n.textContent.trim()) return;
      avoid.push([n.getBoundingClientRect(), weight]);
    });
  }
  const cx = (r.left + r.right) / 2;
  const cy = (r.top + r.bottom) / 2;
  /** The best place for the panel `width` wide: [what it covers that must stay in sight, the
      rest of its cost (what else it covers, how far it is)], the first compared first. */
  function bestAt(width) {
    box.style.width = width ? `${width}px` : "";
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    // Beside it first, then anywhere in the window (a sweep), clamped inside it.
    const lefts = [r.right + gap, r.left - gap - w, cx - w / 2, r.left, r.right - w, 8, vw - w - 8];
    const tops = [r.top - gap - h, r.bottom + gap, r.bottom - h, r.top, cy - h / 2, 48, vh - h - 8];
    for (let x = 8; x < vw - w - 8; x += 32) lefts.push(x);
    for (let y = 4; y < vh - h - 4; y += 24) tops.push(y);
    let found = null;
    for (const x0 of lefts) {
      for (const y0 of tops) {
        const c = { left: Math.max(8, Math.min(vw - w - 8, x0)), top: Math.max(4, Math.min(vh - h - 4, y0)), width: w, height: h };
        c.right = c.left + w;
        c.bottom = c.top + h;
        let must = 0;
        let cost = 0;
        for (const [rect, weight] of avoid) {
          if (weight >= 1000) must += shared(c, rect);
          else cost += weight * shared(c, rect);
        }
        // Nearer is better: the eye goes from the words to what they speak of.
        cost += Math.hypot((c.left + c.right) / 2 - cx, (c.top + c.bottom) / 2 - cy);
        if (!found || must < found.must || (must === found.must && cost < found.cost)) found = { ...c, must, cost, setWidth: width };
      }
    }
    return found;
  }
  // Its own width first; when that covers what must stay in sight (long words and a refusal
  // make it tall), wider and lower, on a window that has the room.
  let best = bestAt(0);
  for (const wider of [480, 600]) {
    if (!best.must || wider > vw - 16) break;
    const other = bestAt(wider);
    if (other.must < best.must) best = other;
  }
  box.style.width = best.setWidth ? `${best.setWidth}px` : "";
  const width = best.width;
  const height = best.height;
  // The arrow on the side facing what it points at.
  let side = null;
  if (best.top >= r.bottom) side = "below";
  else if (best.bottom <= r.top) side = "above";
  else if (best.left >= r.right) side = "right";
  else if (best.right <= r.left) side = "left";
  if (side === "below" || side === "above") {
    box.style.setProperty("--arrow-x", `${Math.max(16, Math.min(width - 16, cx - best.left))}px`);
  } else if (side) {
    box.style.setProperty("--arrow-y", `${Math.max(16, Math.min(height - 16, cy - best.top))}px`);
  }
  if (side) box.classList.add(side);
  box.style.left = `${best.left + window.scrollX}px`;
  box.style.top = `${best.top + window.scrollY}px`;
}

/** The learner has read a step the bots play through: the table draws their moves again. */
function proceed() {
  const release = state.release;
  state.release = null;
  if (release) release();
  draw();
}

/** A step the bots play through holds the table at its first position until "Continue" (the
    moves it explains would otherwise run on under the words): once a step, never at the end. */
function holdIfWatching(ev) {
  const { script, msg } = state;
  if (!script || !ev.detail.hold) return;
  const at = stepAt(msg.n);
  const step = script.steps[at];
  if (!step || step.expect !== null || msg.over || at === script.steps.length - 1 || state.read.has(at)) return;
  if (msg.to_act === msg.seat) return; // the learner's own turn: the table waits for them anyway
  state.read.add(at);
  ev.detail.hold(new Promise((resolve) => { state.release = resolve; }));
}

async function start() {
  if (!game) return;
  document.body.classList.add("lesson");
  // Listening first: the table may draw its first position while the script is on its way.
  document.addEventListener("atout:shown", (ev) => {
    const msg = ev.detail.msg;
    if (!state.msg || msg.n !== state.msg.n) state.refusal = null; // a new position: the refusal is answered
    state.msg = msg;
    state.moved = true;
    holdIfWatching(ev);
    draw();
  });
  document.addEventListener("atout:refused", (ev) => {
    if (!["illegal", "notation"].includes(ev.detail.code)) return;
    state.refusal = ev.detail.message;
    state.hidden = false;
    draw();
  });
  window.addEventListener("resize", draw);
  // The value chooser (a Twin's, the Wish's) opens over the table: the panel moves off it.
  const chooser = document.getElementById("chooser");
  if (chooser) new MutationObserver(draw).observe(chooser, { attributes: true, attributeFilter: ["hidden"] });
  // So does the hint's answer, once said (hint.js).
  const hint = document.getElementById("hint");
  if (hint) new MutationObserver(draw).observe(hint, { childList: true, subtree: true, characterData: true });
  await loadStrings("tutorial");
  const r = await fetch(`/api/lessons/${encodeURIComponent(game)}?lang=${encodeURIComponent(i18n.lang)}`);
  if (!r.ok) return;
  state.script = await r.json();
  draw();
}

start();
