/* Wizard at the table: bids and tricks on each seat, trump and the turned-up
   card on the felt, the card winning the trick crowned, the dealer's trump choice
   told as such, and the score sheet (bid / tricks / points, ✓ when the bid is made). */

import { signed, t, tn, i18n } from "../lib/dom.js";
import { seatModels, trickModel } from "../felt.js";

export const deck = "wizard";
const LETTERS = "BGRY";
const SUIT_WORDS = ["blue", "green", "red", "yellow"];

/** The drawing's letters follow the page's dictionary: W and J in English, Z and N in French and German. */
export function deckOptions() {
  return { letters: { Z: t("wiz_letter_wizard"), N: t("wiz_letter_jester") } };
}

/** A card's name in words: "blue 7", "Wizard", "Jester" (accessible names, announcements). */
export function cardName(card) {
  if (card === "Z") return t("wiz_wizard");
  if (card === "N") return t("wiz_jester");
  const suit = LETTERS.indexOf(card[0]);
  return suit < 0 ? card : t("wiz_card", { suit: t(`wiz_suit_${SUIT_WORDS[suit]}`), rank: card.slice(1) });
}

/** A legal move's text in the page's language ("bid 2" → "annoncer 2", "trump blue" → "atout : bleu"). */
export function actionLabel(action) {
  const [verb, arg] = action.split(" ");
  if (verb === "bid") return t("wiz_bid_n", { n: arg });
  if (verb === "trump") return t("wiz_trump_suit", { suit: t(`wiz_suit_${arg}`) });
  if (action === "play blind") return t("wiz_play_blind");
  if (verb === "play") return t("play_card", { card: cardName(arg) });
  return action;
}

function bidBadge(v, s) {
  if (v.bids[s] !== null) return { label: t("bid"), value: String(v.bids[s]) };
  if (v.has_bid[s]) return { label: t("bid"), value: "✓", title: t("wiz_bid_secret") };
  return { label: t("bid"), value: "–" };
}

export function model(msg, ctx) {
  const v = msg.view;
  const me = msg.seat;
  const cardAction = {};
  const moves = [];
  for (const a of msg.legal) {
    if (a.startsWith("play ") && a !== "play blind") cardAction[a.slice(5)] = a;
    else moves.push({
      action: a, label: actionLabel(a),
      key: a.startsWith("bid ") ? a.slice(4) : undefined,
      short: a.startsWith("bid ") ? a.slice(4) : undefined,
      group: a.split(" ")[0],
    });
  }
  let prompt = null;
  const dealerName = ctx.names[v.dealer];
  if (msg.over) prompt = null;
  else if (v.phase === "trump") prompt = v.current_player === me ? t("wiz_choose_trump") : t("wiz_dealer_chooses", { name: dealerName });
  else if (v.phase === "bid") {
    if (v.current_player === me) {
      const allowed = moves.filter((m) => m.group === "bid").map((m) => Number(m.key));
      const forbidden = Array.from({ length: v.round + 1 }, (_, i) => i).filter((i) => !allowed.includes(i));
      prompt = forbidden.length ? t("wiz_bid_prompt_forbidden", { n: forbidden.join(", ") }) : tn("wiz_bid_prompt", v.round, { round: v.round });
    } else prompt = t("wiz_is_bidding", { name: ctx.names[v.current_player] });
  } else if (v.phase === "play") {
    prompt = v.current_player === me ? (v.trick.length ? t("follow_prompt") : t("lead_prompt")) : t("is_playing", { name: ctx.names[v.current_player] });
  }
  let trumpValue = t("wiz_no_trump");
  if (v.trump) trumpValue = t(`wiz_suit_${v.trump}`);
  else if (v.phase === "trump" || (v.turned === "Z" && !v.trump)) trumpValue = v.phase === "trump" ? t("wiz_dealer_choosing") : t("wiz_no_trump");
  const info = [
    { label: t("trump"), value: trumpValue, card: v.turned || undefined, title: v.turned ? t("wiz_turned", { card: cardName(v.turned) }) : t("wiz_no_turned") },
  ];
  const seen = v.seen_hands;
  const hand = v.hand.map((c) => ({ card: c, action: cardAction[c] || null }));
  if (msg.legal.includes("play blind")) moves.unshift({ action: "play blind", label: t("wiz_play_blind"), group: "play" });
  return {
    heading: t("round_of", { round: v.round, rounds: v.rounds }),
    info,
    seats: seatModels(msg, v, (s) => ({
      cards: v.hand_sizes[s],
      badges: [bidBadge(v, s), { label: t("won"), value: String(v.tricks_won[s]), tone: v.bids[s] !== null && v.tricks_won[s] > v.bids[s] ? "over" : null }],
      extra: seen && seen[s] ? seenHand(seen[s], ctx) : null,
    })),
    ...trickModel(v, ctx),
    hand,
    moves,
    prompt,
    roundKey: `r${v.round}`,
  };
}

function seenHand(cards, ctx) {
  const span = document.createElement("span");
  span.className = "seen-hand";
  span.title = t("wiz_seen");
  span.textContent = cards.map((c) => ctx.cardName(c)).join(", ");
  return span;
}

/** The score sheet: per round and seat, bid, tricks and the round's points; ✓ when the bid was made. */
export function sheet(msg) {
  const v = msg.view;
  const totals = msg.seats.map(() => 0);
  return {
    heads: [t("bid"), t("won"), t("points")],
    rounds: v.sheet.map((line, r) => ({
      label: String(r + 1),
      seats: msg.seats.map((_, s) => {
        totals[s] += line.deltas[s];
        const d = line.deltas[s];
        return { cells: [String(line.bids[s]), String(line.tricks[s]), signed(d)], ok: line.bids[s] === line.tricks[s], total: totals[s] };
      }),
    })),
  };
}
