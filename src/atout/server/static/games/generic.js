/* The table of a game without its own module: drawn from the view's common
   fields alone (hand, trick, dealer, hand sizes, scores, legal moves), so that a
   newly registered game is playable at once.  The four games have their own. */

import { num, t } from "../lib/dom.js";

export const deck = "generic";

function plays(list) {
  return (Array.isArray(list) ? list : []).map((p) => (Array.isArray(p) ? { seat: p[0], card: p[1] } : { seat: p.seat, card: p.card }))
    .filter((p) => Number.isInteger(p.seat) && typeof p.card === "string");
}

export function model(msg) {
  const v = msg.view;
  const hand = Array.isArray(v.hand) ? v.hand.filter((c) => typeof c === "string") : [];
  const byCard = {};
  for (const a of msg.legal) {
    const last = a.split(" ").pop();
    if (hand.includes(last)) byCard[last] = a;
  }
  const used = new Set(Object.values(byCard));
  const last = Array.isArray(v.tricks) && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  return {
    heading: v.round !== undefined ? t("round", { round: v.round }) : msg.title,
    info: [],
    seats: msg.seats.map((_, s) => ({
      badges: [],
      score: Array.isArray(v.scores) ? num(v.scores[s]) : undefined,
      cards: Array.isArray(v.hand_sizes) ? v.hand_sizes[s] : undefined,
      dealer: v.dealer === s,
    })),
    trick: plays(v.trick),
    winning: null,
    lastTrick: last && last.cards ? { cards: plays(last.cards), winner: last.winner } : null,
    hand: hand.map((c) => ({ card: c, action: byCard[c] || null })),
    moves: msg.legal.filter((a) => !used.has(a)).map((a) => ({ action: a, label: a })),
    prompt: null,
    roundKey: String(v.round ?? v.deal ?? ""),
  };
}
