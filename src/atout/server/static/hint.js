/* The table's optional hint (issue 29): on the player's turn, the search's suggestion.
 *
 * A table created with hints says so to every seat (a line in the table's top right corner on a laptop, under it on a phone); on the player's
 * own turn a "Hint" button asks the server (POST /api/tables/{id}/hint with the move number
 * shown), which searches from this seat's view only and answers the suggested move and its
 * expected points.  One hint a decision: the button is spent until the next move.
 */

import { el, t, i18n, loadStrings, reducedMotion } from "./lib/dom.js";

const state = { post: null, enabled: false, msg: null, labelOf: null, n: -1, hint: null, asking: false, error: null };

/** Ask the server whether this table gives hints (post: the page's authenticated POST; null for
    a spectator, who learns it from the room's facts with each message). */
export async function setupHints(post) {
  await loadStrings("review");
  state.post = post;
  if (!post) { draw(); return; }
  try {
    const r = await post("hint", {});
    if (r.ok) state.enabled = (await r.json()).enabled === true;
  } catch {
    state.enabled = false;
  }
  draw();
}

/** A new message was drawn; labelOf(texts) names moves as this table names them. */
export function hintTurn(msg, labelOf) {
  state.msg = msg;
  // The room's facts say whether the table gives hints: a spectator (no key to ask with) is told too.
  if (msg.room && typeof msg.room.hints === "boolean") state.enabled = msg.room.hints;
  state.labelOf = labelOf;
  if (msg.n !== state.n) Object.assign(state, { n: msg.n, hint: null, error: null, asking: false });
  draw();
}

function mine() {
  const msg = state.msg;
  // A forced move (one legal action) needs no hint.
  return !!msg && !msg.over && !msg.spectator && msg.to_act === msg.seat && (msg.legal || []).length > 1;
}

async function ask() {
  if (!mine() || state.asking || state.hint) return;
  const n = state.msg.n;
  state.asking = true;
  draw();
  let r, data;
  try {
    r = await state.post("hint", { n });
    data = await r.json();
  } catch {
    r = null;
  }
  if (n !== state.n) return; // the table moved on meanwhile: that hint is for another position
  state.asking = false;
  if (r && r.ok) state.hint = data;
  else state.error = t(r && data && data.code === "rate_limited" ? "hint_rate_limited" : "hint_failed");
  draw();
  // The answer where the player sees it: on a phone the line lies under the hand, at the fold
  // (issue 50); scrolled the least that shows it (a laptop's line is in view: nothing moves).
  const said = document.querySelector("#hint .hint-says, #hint .hint-error");
  if (said) said.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
}

function points(value) {
  return new Intl.NumberFormat(i18n.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" }).format(value);
}

function draw() {
  const bar = document.getElementById("hint");
  if (!bar) return;
  bar.hidden = !state.enabled || !state.msg || state.msg.over;
  if (bar.hidden) return;
  // Once the suggestion is said the button (spent) says hints are on: the line keeps to two rows.
  const parts = state.hint ? [] : [el("span", { class: "hint-on" }, t("hint_on"))];
  if (mine()) {
    parts.push(el("button", { type: "button", id: "hint-button", class: "hint-button", disabled: state.asking || !!state.hint, onclick: ask },
      state.asking ? t("hint_thinking") : t("hint_button")));
  }
  if (state.hint) {
    const labels = state.labelOf ? state.labelOf([state.hint.action]) : {};
    const move = labels[state.hint.action] || state.hint.action;
    // A lesson's step: the coach's move, no search behind it (server/hint.py), so no points.
    parts.push(el("span", { class: "hint-says", role: "status" },
      state.hint.lesson ? t("hint_lesson", { move }) : t("hint_says", { move, points: points(state.hint.mean) })));
  } else if (state.error) {
    parts.push(el("span", { class: "hint-error", role: "status" }, state.error));
  }
  bar.replaceChildren(...parts);
}
