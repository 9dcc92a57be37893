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
};

const state = { script: null, step: -1, msg: null, refusal: null, hidden: false };

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
  return found;
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
  document.querySelectorAll(".coach-target").forEach((n) => n.classList.remove("coach-target"));
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
  glow.forEach((n) => n.classList.add("coach-target"));
  const parts = state.hidden ? [fold] : [
    el("div", { class: "coach-head" },
      el("strong", {}, script.title),
      el("small", { class: "coach-count" }, t("lesson_step", { n: at + 1, of: script.steps.length })),
      fold),
    el("p", { class: "coach-say" }, step.say),
    state.refusal ? el("div", { class: "coach-refused", role: "alert" },
      el("strong", {}, state.refusal), el("span", {}, t("lesson_try_again"))) : null,
    yours ? el("p", { class: "coach-do" }, t("lesson_your_move")) : null,
    last || msg.over ? el("p", { class: "coach-actions" },
      el("a", { class: "coach-link primary", href: "/" }, t("lesson_play_real")),
      el("a", { class: "coach-link", href: `/learn/${encodeURIComponent(game)}` }, t("lesson_again"))) : null,
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.hidden = false;
  place(box, state.hidden ? [] : glow);
}

/** The panel beside what it points at, an arrow toward it, never off the window: on a laptop to
    its side when the window has room there (the trick and the plates above stay in sight), else
    above it (the hand, the bids) or below it; on a phone under the hand, in the page. */
function place(box, glow) {
  for (const side of ["above", "below", "left", "right", "docked"]) box.classList.remove(side);
  box.style.left = box.style.top = "";
  if (!glow.length) { box.classList.add("docked"); return; }
  const rect = (nodes) => {
    const rs = nodes.map((n) => n.getBoundingClientRect());
    return {
      left: Math.min(...rs.map((x) => x.left)), right: Math.max(...rs.map((x) => x.right)),
      top: Math.min(...rs.map((x) => x.top)), bottom: Math.max(...rs.map((x) => x.bottom)),
    };
  };
  const r = rect(glow);
  // Beside a card, the panel keeps clear of the whole hand (the other cards stay in sight).
  const hand = glow[0].closest(".hand");
  const a = hand ? rect([...hand.querySelectorAll(".card"), ...glow]) : r;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const gap = 16;
  let left;
  let top;
  let side;
  const room = { left: a.left >= width + gap + 8, right: vw - a.right >= width + gap + 8 };
  if (room.left || room.right) {
    // The side nearer the card pointed at (the arrow then points across the fewest cards).
    const nearer = (r.left + r.right) / 2 >= (a.left + a.right) / 2 ? "right" : "left";
    side = room[nearer] ? nearer : nearer === "left" ? "right" : "left";
    left = side === "left" ? a.left - width - gap : a.right + gap;
    // Level with the bottom of what it points at (a hand's card), inside the window.
    top = Math.max(4, Math.min(vh - height - 4, a.bottom - height));
    box.style.setProperty("--arrow-y", `${Math.max(16, Math.min(height - 16, (r.top + r.bottom) / 2 - top))}px`);
  } else {
    const centre = (r.left + r.right) / 2;
    left = Math.max(8, Math.min(vw - width - 8, centre - width / 2));
    // Above the hand and the bids (they stay clickable); below what is on the felt (the plates
    // above the trick stay in sight), where the window has room for it.
    const low = !!glow[0].closest(".hand, .moves");
    const fitsAbove = a.top - height - gap >= 0;
    const fitsBelow = a.bottom + height + gap <= vh;
    side = low ? (fitsAbove || !fitsBelow ? "above" : "below") : (fitsBelow || !fitsAbove ? "below" : "above");
    top = Math.max(4, side === "above" ? a.top - height - gap : a.bottom + gap);
    box.style.setProperty("--arrow-x", `${Math.max(16, Math.min(width - 16, centre - left))}px`);
  }
  box.classList.add(side);
  box.style.left = `${left + window.scrollX}px`;
  box.style.top = `${top + window.scrollY}px`;
}

async function start() {
  if (!game) return;
  document.body.classList.add("lesson");
  // Listening first: the table may draw its first position while the script is on its way.
  document.addEventListener("atout:shown", (ev) => {
    const msg = ev.detail.msg;
    if (!state.msg || msg.n !== state.msg.n) state.refusal = null; // a new position: the refusal is answered
    state.msg = msg;
    draw();
  });
  document.addEventListener("atout:refused", (ev) => {
    if (!["illegal", "notation"].includes(ev.detail.code)) return;
    state.refusal = ev.detail.message;
    state.hidden = false;
    draw();
  });
  window.addEventListener("resize", draw);
  await loadStrings("tutorial");
  const r = await fetch(`/api/lessons/${encodeURIComponent(game)}?lang=${encodeURIComponent(i18n.lang)}`);
  if (!r.ok) return;
  state.script = await r.json();
  draw();
}

start();
