/* Sticheln at the table: each seat's handicap ("pain") card(s) laid face down,
   turned face up together at the reveal; during play the led colour (every other
   colour is trump), the card winning the trick crowned by the engine's rule, and
   per seat the tricks and cards taken and what its handicap colour costs so far;
   the score sheet (handicap cards and points per hand).

   The view's fields: phase "pain" | "play" | "over"; pain_laid[s] (cards laid,
   public), pains[s] (own always, the others' once revealed, else null), revealed;
   trick [[seat, card]…], tricks [{cards, winner}…] of this hand (winner -1: a
   trick of zeros set aside), last_trick {cards, winner, round}; led_card (the card
   whose colour is led, null: none yet); sheet [{pains, deltas}]. */

import { el, signed, t, tn } from "../lib/dom.js";
import { cardElement, seatModels, trickModel } from "../felt.js";

export const deck = "sticheln";
export const css = true;

/** No bids: the keyboard's help names no digits to bid with. */
export const bids = false;

/** Sticheln calls its rounds hands: the review names them so too. */
export const roundUnit = "hand";

/** The summary's title names a hand, as Sticheln calls its rounds. */
export function summaryTitle(label) {
  return t("st_hand_summary", { hand: label });
}

const ORDER = "BGRYOV";
const colourOf = (c) => c[0];
const valueOf = (c) => Number(c.slice(1));
const colourName = (letter) => t(`st_c_${letter}`);

/** The table's options as a map ("gentle=true zero_lead_colour=first_nonzero"). */
function options(msg) {
  return Object.fromEntries((msg.options || "").split(/\s+/).filter(Boolean).map((p) => p.split("=")));
}

/** A card's name in words: "blue 7" ("7 bleu"). */
export function cardName(card) {
  if (!/^[BGRYOV]\d+$/.test(card)) return card;
  return t("st_card", { colour: colourName(colourOf(card)), value: card.slice(1) });
}

/** A legal move's text in the page's language ("pain B7" → "Lay the blue 7 as handicap"). */
export function actionLabel(action) {
  const [verb, arg] = action.split(" ");
  if (verb === "play") return t("play_card", { card: cardName(arg) });
  if (verb === "pain") return t("st_lay_pain", { card: cardName(arg) });
  return action;
}

/** A click on a card that cannot be played sends this, so the server says why. */
export function fallback(card, msg) {
  return msg.view.phase === "pain" ? `pain ${card}` : `play ${card}`;
}

/** Per seat this hand: tricks and cards taken, and what its handicap colour(s) cost so far
    (the laid cards and the taken cards of those colours; null while its handicap is hidden). */
export function taken(msg) {
  const v = msg.view;
  const o = options(msg);
  const gentle = o.gentle === "true";
  const cardOnly = o.pain_card_only === "true";
  return msg.seats.map((_, s) => {
    const mine = v.tricks.filter((tr) => tr.winner === s);
    const cards = mine.flatMap((tr) => tr.cards.map(([, c]) => c));
    const pains = v.pains[s];
    let cost = null;
    let points = null;
    if (pains && pains.length) {
      const colours = new Set(pains.map(colourOf));
      const price = (c) => (gentle ? 1 : valueOf(c));
      cost = pains.reduce((a, c) => a + price(c), 0);
      const bad = cardOnly ? [] : cards.filter((c) => colours.has(colourOf(c)));
      cost += bad.reduce((a, c) => a + price(c), 0);
      points = cards.length - bad.length - cost;
    }
    return { tricks: mine.length, cards: cards.length, cost, points };
  });
}

/** The cost of a seat's handicap so far, as a small tag ("−8"; "?" while face down). */
function costNode(got) {
  if (got.cost === null) return el("span", { class: "st-cost unknown", title: t("st_cost_hidden") }, el("small", {}, t("st_cost_short")), " ", el("b", {}, "?"));
  return el("span", { class: `st-cost${got.cost ? " paid" : ""}`, title: t("st_cost_title", { cost: got.cost, points: signed(got.points) }) },
    el("small", {}, t("st_cost_short")), " ", el("b", {}, got.cost ? `−${got.cost}` : "0"));
}

/** A seat's handicap cards (face up when known to the viewer, else backs; empty slots while
    choosing) and, during play, what they cost so far. */
function painsNode(msg, s, ctx, perSeat, got, flip) {
  const v = msg.view;
  const known = v.pains[s];
  const laid = v.pain_laid[s];
  const mine = s === msg.seat;
  const secret = mine && !v.revealed && laid > 0;
  const nodes = [];
  if (known && known.length) {
    for (const c of known) {
      nodes.push(cardElement(ctx.deck, c, {
        size: "pain", name: t(secret ? "st_your_pain_secret" : "st_pain_of", { card: cardName(c) }), deckOpts: ctx.deckOpts,
      }));
    }
  } else {
    for (let i = 0; i < laid; i++) nodes.push(cardElement(ctx.deck, null, { size: "pain", name: t("st_pain_face_down") }));
  }
  const choosing = v.phase === "pain" && laid < perSeat;
  for (let i = laid; choosing && i < perSeat; i++) {
    nodes.push(el("span", { class: "card pain slot", role: "img", "aria-label": t("st_pain_choosing"), title: t("st_pain_choosing") }));
  }
  if (!nodes.length) return null;
  const colours = known && known.length && !secret ? [...new Set(known.map(colourOf))].map(colourName).join(", ") : null;
  return el("span", {
    class: `extra st-pains${secret ? " secret" : ""}${flip ? " flip" : ""}`,
    title: secret ? t("st_secret_title") : colours ? t("st_pain_colour", { colours }) : t("st_handicap"),
  },
  el("small", { class: "st-pain-label" }, t("st_handicap")),
  nodes,
  secret ? el("small", { class: "st-secret" }, t("st_secret_short")) : null,
  v.phase !== "pain" ? costNode(got) : null);
}

function seatBadges(got, msg) {
  const v = msg.view;
  const badges = [{ label: t("won"), value: String(got.tricks), title: tn("st_tricks_title", got.tricks) }];
  if (v.phase === "pain" && !v.tricks.length) return badges;
  badges.push({ label: t("st_taken_short"), value: String(got.cards), title: tn("st_taken_title", got.cards) });
  return badges;
}

/** The centre of the felt just after the reveal: every seat's handicap card(s), face up. */
function revealPiece(msg, ctx) {
  const v = msg.view;
  return el("div", { class: "st-reveal", role: "status" },
    el("strong", {}, t("st_revealed")),
    el("div", { class: "st-reveal-row" }, msg.seats.map((_, s) => el("figure", { "data-seat": s },
      (v.pains[s] || []).map((c) => cardElement(ctx.deck, c, { size: "pain", name: t("st_pain_of_seat", { name: ctx.names[s], card: cardName(c) }), deckOpts: ctx.deckOpts })),
      el("figcaption", {}, ctx.names[s])))));
}

/** The centre of the felt while the handicap cards are laid: what the choice means. */
function painPiece(o, perSeat) {
  let cost = "st_explain_cost";
  if (o.pain_card_only === "true") cost = "st_explain_cost_card_only";
  else if (o.gentle === "true") cost = "st_explain_cost_gentle";
  return el("div", { class: "st-explain" },
    el("strong", {}, t(perSeat === 2 ? "st_explain_lay_two" : "st_explain_lay")),
    el("p", {}, t(cost)),
    o.hidden_pain === "true" ? el("p", {}, t("st_v_hidden_title")) : null);
}

function variants(o) {
  const list = [];
  if (o.gentle === "true") list.push(["st_v_gentle", "st_v_gentle_title"]);
  if (o.two_pain_colours === "true") list.push(["st_v_two", "st_v_two_title"]);
  if (o.pain_card_only === "true") list.push(["st_v_card_only", "st_v_card_only_title"]);
  if (o.hidden_pain === "true") list.push(["st_v_hidden", "st_v_hidden_title"]);
  if (o.zero_lead_colour === "first_nonzero") list.push(["st_v_zero_lead", "st_v_zero_lead_title"]);
  if (o.all_zero_trick === "void") list.push(["st_v_zero_void", "st_v_zero_void_title"]);
  if (o.first_lead === "dealer") list.push(["st_v_dealer_leads", "st_v_dealer_leads_title"]);
  return list;
}

export function model(msg, ctx) {
  const v = msg.view;
  const me = msg.seat;
  const o = options(msg);
  const perSeat = o.two_pain_colours === "true" ? 2 : 1;
  const got = taken(msg);

  const cardAction = {};
  const moves = [];
  for (const a of msg.legal) {
    const [verb, arg] = a.split(" ");
    if ((verb === "play" || verb === "pain") && arg && (v.hand || []).includes(arg)) cardAction[arg] = a;
    else moves.push({ action: a, label: actionLabel(a), group: verb });
  }
  const hand = [...(v.hand || [])]
    .sort((a, b) => ORDER.indexOf(colourOf(a)) - ORDER.indexOf(colourOf(b)) || valueOf(a) - valueOf(b))
    .map((c) => ({ card: c, action: cardAction[c] || null }));

  const justRevealed = v.phase === "play" && v.revealed && !v.tricks.length && !v.trick.length;
  const toAct = v.current_player;
  const actor = ctx.names[toAct];
  let prompt = null;
  if (msg.over) prompt = null;
  else if (v.phase === "pain") {
    if (toAct === me) {
      if (v.pain_laid[me] > 0) prompt = t("st_pain_prompt_second", { colour: colourName(colourOf(v.pains[me][0])) });
      else prompt = t(perSeat === 2 ? "st_pain_prompt_first" : "st_pain_prompt");
    } else prompt = t("st_pain_waiting", { name: actor });
  } else if (v.phase === "play") {
    const lead = !v.trick.length;
    if (toAct === me) prompt = lead ? t("st_lead_prompt") : t("st_follow_prompt");
    else prompt = t("is_playing", { name: actor });
    if (justRevealed) prompt = `${t("st_revealed")} ${toAct === me ? t("st_lead_prompt") : t("st_leads", { name: actor })}`;
  }

  const info = [];
  if (v.phase === "pain") {
    const done = v.pain_laid.reduce((a, b) => a + b, 0);
    info.push({ label: t("st_handicap"), value: t("st_laid_count", { n: done, of: perSeat * msg.seats.length }), title: `${t("st_laid_title")}. ${t(perSeat === 2 ? "st_explain_lay_two" : "st_explain_lay")}` });
  }
  const myPains = v.pains[me] || [];
  if (myPains.length) {
    const cols = [...new Set(myPains.map(colourOf))].map(colourName).join(", ");
    info.push({ label: t("st_handicap"), value: cols, card: myPains[0], title: t("st_your_handicap_title", { colours: cols }) });
  }
  if (v.phase === "play") {
    // The view says which card's colour is led (the rules, in Python): drawn here, not worked out.
    const ledCard = v.led_card;
    const led = ledCard ? colourName(colourOf(ledCard)) : null;
    if (led) info.push({ label: t("st_led_label"), value: led, card: ledCard, title: t("st_led_title", { colour: led }) });
    else if (v.trick.length) info.push({ label: t("st_led_label"), value: t("st_led_none"), title: t("st_led_none_title") });
    else info.push({ label: t("st_led_label"), value: "–", title: t("st_led_next") });
  }
  const vs = variants(o);
  if (vs.length) info.push({ label: t(vs.length > 1 ? "st_variants" : "st_variant"), value: vs.map(([key]) => t(key)).join(" · "), title: vs.map(([, title]) => t(title)).join(". ") });

  return {
    heading: t("st_hand_of", { round: v.round, rounds: v.rounds }),
    info,
    seats: seatModels(msg, v, (s) => ({
      cards: v.phase === "over" ? undefined : v.hand_sizes[s],
      badges: seatBadges(got[s], msg),
      extra: painsNode(msg, s, ctx, perSeat, got[s], justRevealed && s !== me),
    })),
    ...trickModel(v, ctx),
    hand,
    moves,
    prompt,
    centre: justRevealed ? revealPiece(msg, ctx) : v.phase === "pain" && !msg.over ? painPiece(o, perSeat) : null,
    roundKey: `h${v.round}`,
  };
}

/** The score sheet: per hand and seat its handicap card(s) and points (no contract: no ✓/✗). */
export function sheet(msg) {
  const v = msg.view;
  const totals = msg.seats.map(() => 0);
  return {
    heads: [t("st_handicap"), t("points")],
    rounds: v.sheet.map((line, r) => ({
      label: String(r + 1),
      seats: msg.seats.map((_, s) => {
        const d = line.deltas[s];
        totals[s] += d;
        return { cells: [(line.pains[s] || []).map(cardName).join(", "), signed(d)], ok: null, total: totals[s] };
      }),
    })),
  };
}
