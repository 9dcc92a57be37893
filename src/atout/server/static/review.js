/* The game review beside the replay (issue 29): each decision of a seat weighed by the search.
 *
 * The server searches every decision of the chosen seat from that seat's view at that moment
 * (POST /api/tables/{id}/review; queued, then cached with the table) and answers each legal
 * option's expected points.  This module asks for it, waits while it is queued, and draws, for
 * the replay's current step: the options with their expected points, the move played and the
 * best one marked, the cost and its verdict; above them the summary, the per-round chart of
 * points lost (SVG) and the flagged moves, each a link to its step.  Nothing here knows a game:
 * option labels come from the game's own module (its model of the replayed view).
 */

import { el, has, svg, t, loadStrings, decimal } from "./lib/dom.js";

/** Seconds between two questions while a review is queued or running. */
const POLL = 1.2;

const state = { hooks: null, reviews: new Map(), pending: new Map(), progress: new Map(), step: 0, seat: 0, labelOf: null, unit: "round", moveKeys: {} };

/** A review string naming a round the way the game names its rounds (the game module's
    roundUnit: Sticheln's hands, Le Nain Jaune's deals), as the table above it does: the review
    said "Round 1" beside a felt saying "Deal 1 of 1". */
function unitKey(key) {
  if (state.unit === "round") return key;
  return key === "review_round" ? `review_${state.unit}` : `${key}_${state.unit}`;
}

/** Signed points with one decimal, the reader's way (a decimal comma in French). */
function points(value, signed = true) {
  return decimal(value, { digits: 1, fixed: true, sign: signed ? "exceptZero" : "auto" }); // "0,0", never "−0,0"
}

/**
 * Wire the review to the replay: a "Review" button in its controls and the panel beside its board.
 * hooks: { post(path, body) → Response, names: seat names, goTo(step) }.
 */
export async function setupReview(hooks) {
  await loadStrings("review");
  state.hooks = hooks;
  if (!document.getElementById("review-start")) {
    const button = el("button", { type: "button", id: "review-start", class: "review-start", onclick: () => ask(state.seat) }, t("review_button"));
    document.getElementById("replay-controls").append(button);
  }
  draw();
}

/** The replay moved (step, seat as seen by); labelOf(texts) names the options in that view;
    unit is what the game calls a round ("round", "hand", "deal": its module's roundUnit). */
export function reviewStep(step, seat, labelOf, unit = "round", moveKeys = {}) {
  state.step = step;
  state.seat = seat;
  state.labelOf = labelOf;
  state.unit = unit;
  state.moveKeys = moveKeys;
  draw();
}

async function ask(seat) {
  if (state.reviews.has(seat) || state.pending.has(seat)) return;
  state.pending.set(seat, t("review_running"));
  draw();
  for (;;) {
    let r, data;
    try {
      r = await state.hooks.post("review", { as_seat: seat });
      data = await r.json();
    } catch {
      state.pending.set(seat, null);
      break;
    }
    if (!r.ok) {
      // busy, rate_limited, unavailable: a sentence of our own, in the reader's language
      const known = { busy: "review_busy", rate_limited: "review_rate_limited", unavailable: "review_failed" }[data.code];
      state.pending.delete(seat);
      state.progress.delete(seat);
      state.error = { seat, text: known ? t(known) : data.message };
      draw();
      return;
    }
    if (data.status === "done") {
      state.pending.delete(seat);
      state.progress.delete(seat);
      state.reviews.set(seat, data.review);
      if (state.error && state.error.seat === seat) state.error = null;
      draw();
      return;
    }
    // Running: how many of the seat's decisions the search has weighed (a bar and its words).
    const running = data.ahead === 0 && Number.isInteger(data.done) && Number.isInteger(data.total) && data.total > 0;
    if (running) state.progress.set(seat, { done: data.done, total: data.total });
    else state.progress.delete(seat);
    state.pending.set(seat, data.ahead > 0 ? t("review_queued", { ahead: data.ahead })
      : running ? t("review_progress", { done: data.done, total: data.total }) : t("review_running"));
    draw();
    await new Promise((done) => setTimeout(done, POLL * 1000));
  }
  state.pending.delete(seat);
  state.progress.delete(seat);
  draw();
}

function draw() {
  const panel = document.getElementById("review");
  const button = document.getElementById("review-start");
  if (!panel || !state.hooks) return;
  const seat = state.seat;
  const review = state.reviews.get(seat);
  const waiting = state.pending.get(seat);
  if (button) button.hidden = !!review || !!waiting;
  if (!review && !waiting && !(state.error && state.error.seat === seat)) { panel.hidden = true; panel.replaceChildren(); return; }
  panel.hidden = false;
  if (!review) {
    const text = waiting || state.error.text;
    const bar = waiting && state.progress.get(seat);
    panel.replaceChildren(...[
      el("p", { class: waiting ? "review-wait" : "review-error", role: "status" }, text),
      bar && el("progress", { class: "review-progress", max: String(bar.total), value: String(bar.done), "aria-label": text }),
    ].filter(Boolean));
    return;
  }
  const name = state.hooks.names[seat];
  const decisions = review.decisions;
  const lost = decisions.reduce((sum, d) => sum + d.cost, 0);
  const count = (level) => decisions.filter((d) => d.level === level).length;
  panel.replaceChildren(...[
    el("h3", {}, t("review_heading", { name })),
    el("p", { class: "review-summary" }, t("review_summary", { decisions: decisions.length, mistakes: count("mistake"), blunders: count("blunder"), lost: points(lost, false) })),
    chart(review.rounds.filter((r) => r.seat === seat)),
    flagged(decisions),
    current(decisions, name),
    el("p", { class: "review-explain" }, t(unitKey("review_explain"), { playouts: review.playouts })),
  ].filter(Boolean));
}

/** Points lost by round, one bar each (a click or Enter goes to the round's first decision). */
function chart(rounds) {
  const figure = el("figure", { class: "review-chart" }, el("figcaption", {}, t(unitKey("review_chart"))));
  if (!rounds.length) return figure;
  const lost = Math.max(...rounds.map((r) => r.lost));
  // Nothing lost anywhere: a flat strip of rounds (still a way to each round), not an empty box.
  const bar = 22, gap = 6, height = lost >= 0.05 ? 90 : 6, top = 14, bottom = 16;
  const width = rounds.length * (bar + gap) + gap;
  const most = Math.max(1, lost);
  const decisions = state.reviews.get(state.seat).decisions;
  const bars = rounds.map((r, i) => {
    const x = gap + i * (bar + gap);
    const h = Math.max(1, (r.lost / most) * height);
    const first = decisions.find((d) => d.round === r.round);
    const go = () => first && state.hooks.goTo(first.step);
    return svg("g", {
      class: `review-bar${r.blunders ? " blunder" : r.mistakes ? " mistake" : ""}`, tabindex: "0", role: "button",
      onclick: go, onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } },
    },
    svg("title", {}, t(unitKey("review_chart_bar"), { round: r.round, lost: points(r.lost, false) })),
    // The whole column answers a click, not only the bar (a round with nothing lost has none).
    svg("rect", { x, y: 0, width: bar, height: top + height + bottom, class: "hit" }),
    svg("rect", { x, y: top + height - h, width: bar, height: h, rx: 2 }),
    svg("text", { x: x + bar / 2, y: top + height + 12, "text-anchor": "middle" }, String(r.round)),
    svg("text", { x: x + bar / 2, y: top + height - h - 3, "text-anchor": "middle", class: "value" }, points(r.lost, false)));
  });
  figure.append(svg("svg", {
    viewBox: `0 0 ${width} ${height + top + bottom}`, "aria-label": t(unitKey("review_chart")),
    width: Math.round(width * 1.5), height: Math.round((height + top + bottom) * 1.2),
  }, bars));
  return figure;
}

/** The mistakes and blunders, in order: a button each, and previous / next from the current step. */
function flagged(decisions) {
  const bad = decisions.filter((d) => d.level);
  if (!bad.length) return null;
  const before = [...bad].reverse().find((d) => d.step < state.step);
  const after = bad.find((d) => d.step > state.step);
  return el("div", { class: "review-flagged" },
    el("button", { type: "button", disabled: !before, onclick: () => before && state.hooks.goTo(before.step) }, t("review_prev")),
    el("button", { type: "button", disabled: !after, onclick: () => after && state.hooks.goTo(after.step) }, t("review_next")),
    el("span", { class: "review-chips" }, bad.map((d) => el("button", {
      type: "button", class: `review-chip ${d.level}${d.step === state.step ? " here" : ""}`,
      title: `${t(`review_${d.level}`)} · ${t("review_cost", { cost: points(d.cost, false) })}`,
      onclick: () => state.hooks.goTo(d.step),
    }, t("review_chip", { step: d.step })))));
}

/** The decision's heading, by the kind of move chosen (its notation's first word): a bid, a card,
    a trump, a handicap card, a Wish's value, a Malheur card (Sticheln's handicap said "your move"),
    another move.  Numbered as the replay numbers its steps ("Move 63 of 175": 63 moves made),
    the decision being the one taken there (issue 50: the review said "Move 64" there). */
function moveKey(d) {
  const chosen = d.options.find((o) => o.action === d.chosen);
  const word = chosen ? chosen.text.split(" ")[0] : "";
  if (state.moveKeys[word] && has(state.moveKeys[word])) return state.moveKeys[word]; // the game's own word (Le Malin's contract)
  return has(`review_move_${word}`) ? `review_move_${word}` : "review_move"; // a bid, a card, a trump, a handicap card…
}

/** A move's label kept on one line (in a span that does not wrap) when it is short, a card's name
 *  or a bid ("dame de carreau", "Annoncer 10": 18 characters at most, room a 360 px phone's table
 *  has beside the figures); a longer one (Le Malin's Malheur on two players) may wrap, but never
 *  between a short word at either end and its neighbour ("Annoncer" / "0", "0" / "ansagen" were
 *  split on a phone).  The text (what inner_text and a screen reader read) is unchanged. */
function oneLine(label) {
  const nowrap = (text) => el("span", { class: "rv-nowrap" }, text);
  if (label.length <= 18) return nowrap(label);
  // A change of value ("Belzébuth sur la carte de Bartholomé : 19 → 9,5") is never cut: a label too
  // long for a phone's row wraps before it.
  const change = /^(.*?)(\S+ → \S+)$/u.exec(label);
  if (change) return [change[1], nowrap(change[2])];
  const last = /^(.*?)(\S+ \S{1,3})$/u.exec(label);
  if (last) return [last[1], nowrap(last[2])];
  const first = /^(\S{1,3} \S+)(.*)$/u.exec(label);
  return first ? [nowrap(first[1]), first[2]] : label;
}

/** The decision at the replay's step: its options, best first, the played and the best marked. */
function current(decisions, name) {
  const d = decisions.find((x) => x.step === state.step);
  if (!d) return el("p", { class: "review-none" }, t("review_no_decision", { name }));
  const labels = state.labelOf ? state.labelOf(d.options.map((o) => o.text)) : {};
  const verdict = d.level ? t(`review_${d.level}`) : d.chosen === d.best ? t("review_good") : t("review_close");
  const options = [...d.options].sort((a, b) => b.mean - a.mean || a.action - b.action);
  return el("div", { class: `review-decision ${d.level || "fine"}` },
    el("p", { class: "review-verdict" },
      el("strong", {}, `${t(moveKey(d), { step: d.step })} · ${t(unitKey("review_round"), { round: d.round })} · `),
      el("span", { class: "verdict" }, verdict),
      d.cost >= 0.05 ? ` · ${t("review_cost", { cost: points(d.cost, false) })}` : null),
    el("table", { class: "review-options" },
      el("thead", {}, el("tr", {}, el("th", {}, t("review_option")), el("th", {}, t("review_expected")), el("th", {}))),
      el("tbody", {}, options.map((o) => el("tr", { class: `${o.action === d.chosen ? "rv-played" : ""}${o.action === d.best ? " rv-best" : ""}` },
        el("td", { class: "rv-label" }, oneLine(labels[o.text] || o.text)),
        el("td", { class: "num", title: t("review_worlds", { worlds: o.worlds }) }, `${points(o.mean)} `, el("span", { class: "rv-nowrap" }, `± ${points(o.stderr, false)}`)),
        el("td", { class: "marks" },
          o.action === d.best ? el("span", { class: "mark rv-best" }, `★ ${t("review_best")}`) : null,
          o.action === d.chosen ? el("span", { class: "mark rv-played" }, `◀ ${t("review_played")}`) : null))))));
}

/**
 * Names for the options of a replayed decision, from the game's module: its model of the view
 * with those options legal gives each move's label and each card's action (named by ctx.cardName).
 */
export function optionLabels(mod, view, ctx, texts) {
  const labels = {};
  try {
    const model = mod.model({ ...view, legal: texts, over: false, to_act: view.seat }, ctx);
    for (const m of model.moves || []) if (m.action) labels[m.action] = m.label;
    for (const h of model.hand || []) if (h.action) labels[h.action] = ctx.cardName(h.card);
  } catch {
    // a module that cannot draw this view with these options: the notation is shown instead
  }
  return labels;
}
