/* Le Malin et ses petits malheurs at the table: contracts, tricks and Malheur cards on
   each seat, the card put aside on the felt, the contracts already taken on the felt
   while bidding, the Twins' and the Wish's declared (and cursed) values under the
   trick's cards, the card winning so far crowned, the viewer's Malheur cards in a
   panel, and the score sheet (contract / tricks / penalty, ✓ when the contract is made).

   Le Malin's windows ask every seat holding a Malheur card after every card played,
   even when none of its cards can be played (so that being asked reveals nothing):
   `auto(msg)` answers "pass" for the seat then, unless the player turned that off. */

import { el, t, tn, decimal } from "../lib/dom.js";
import { cardElement, seatModels, trickModel, whyKey } from "../felt.js";

export const deck = "malin";
export const css = true;
/** The highest capital wins (points are only ever lost). */
export const higherIsBetter = true;
/** The review heads a bid with Le Malin's word, a contract ("your bid" over options "Contract 3"). */
export const reviewMoves = { bid: "mal_review_move_bid" };

const MALHEURS = ["malin", "avocat", "666", "belzebuth", "fennec"];
const AUTOPASS_KEY = "atout.malin.autopass";

const DEFAULTS = {
  start_score: "10", sum_rule: "final", wish_beats_both_twins: "last_trick", clamp_at_zero: "false", fun: "false",
  reverse_single_digit: "unchanged", halve_rounding: "exact", malin_steal: "one_from_each",
};

/** The table's options ("k=v k=v", only those that differ from the defaults) with the defaults filled in. */
function options(msg) {
  const o = { ...DEFAULTS };
  for (const pair of String(msg.options || "").split(/\s+/)) {
    const i = pair.indexOf("=");
    if (i > 0) o[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return o;
}

/** The Twins' high value: 20 at 3 players, 35 otherwise. */
function twinHigh(msg) { return msg.players === 3 ? 20 : 35; }

/** A value as read at the table: 17, 17.5 (17,5 in French), −100. */
export function fmt(value) {
  const n = Number(value);
  return decimal(n, { digits: 4 });
}

/** A lesson's table (#…&lesson=malin, server/lessons.py): its script asks every move, a forced
    pass too, and its coach says why; the table passes for nobody there. */
const LESSON = new URLSearchParams(location.hash.slice(1)).get("lesson") !== null;

/** Why the crowned card wins, its value in brackets only when it is not the card's own number (a
    Twin, the Wish, a card Belzébuth halved): "winning with 18: the highest value (18)" said it twice. */
function plainWhy(v, ctx) {
  const w = v.winning;
  if (!w || w.why !== "mal_win_highest" || !w.card || ctx.cardName(w.card) !== fmt(w.value)) return {};
  return { why: t(whyKey("mal_win_highest_plain", w.seat, ctx), { name: ctx.names[w.seat], card: ctx.cardName(w.card) }) };
}

/** Whether the player lets the table pass for them when no Malheur card of theirs can be played (on by default). */
export function autoPassOn() {
  if (LESSON) return false;
  try { return localStorage.getItem(AUTOPASS_KEY) !== "off"; } catch { return true; }
}
function setAutoPass(on) {
  try { localStorage.setItem(AUTOPASS_KEY, on ? "on" : "off"); } catch { /* private mode: not remembered */ }
}

/** The action to send at once for this seat without asking, or null: "pass" when it is the seat's
    turn in a Malheur window (or a reaction) and "pass" is its only legal action. */
export function auto(msg) {
  if (!msg || msg.over || msg.to_act !== msg.seat) return null;
  if (!Array.isArray(msg.legal) || msg.legal.length !== 1 || msg.legal[0] !== "pass") return null;
  return autoPassOn() ? "pass" : null;
}

export function deckOptions(msg) {
  return { twinHigh: twinHigh(msg) };
}

/** A card's name in words: "17", "Twin (0 or 35)", "Wish", "666". */
export function cardName(card, msg) {
  if (card === "TWIN") return t("mal_twin", { high: msg ? twinHigh(msg) : 35 });
  if (card === "WISH") return t("mal_wish");
  if (String(card).startsWith("malheur:")) return t(`mal_m_${card.slice(8)}`);
  return String(card);
}

/** The card sent when an unplayable card of the hand is clicked, so the server says why. */
export function fallback(card, msg) {
  if (card === "TWIN") return `play TWIN ${twinHigh(msg)}`;
  if (card === "WISH") return "play WISH 100";
  return `play ${card}`;
}

/* ---- the Malheur cards' effects, for the buttons' previews ------------------------- */

function reverseDigits(value, pad) {
  const sign = value < 0 ? -1 : 1;
  let digits = String(Math.abs(value));
  if (pad && digits.length === 1) digits = `0${digits}`;
  return sign * Number([...digits].reverse().join(""));
}

/** What a card effect makes of `value` (666 reverses the digits, Belzébuth halves, Fennec zeroes). */
function effect(kind, value, o) {
  if (kind === "666") return reverseDigits(value, o.reverse_single_digit === "pad_to_two");
  if (kind === "belzebuth") return o.halve_rounding === "floor" ? Math.floor(value / 2) : value / 2;
  if (kind === "fennec") return 0;
  return value;
}

function tableCardOf(v, seat) { return v.trick.find((c) => c.seat === seat) || null; }

/** "Bob's card" / "your card" (who a card effect aims at). */
function whoseCard(seat, msg, names) {
  return seat === msg.seat ? t("mal_your_card") : t("mal_card_of", { name: names[seat] });
}

function seatName(seat, names) { return names[seat] ?? t("mal_seat_n", { n: seat }); }

/** A Malheur action's parts: its card, the seats it aims at, the card effect it applies to the
    first seat's card of the trick (666, Belzébuth, Fennec, or the one L'Avocat du Diable sends on;
    null for Le Malin's theft) and that card's value before and after ("?" when not on the table). */
function malheurMove(action, msg) {
  const v = msg.view;
  const w = action.split(" ");
  const kind = w[1];
  const seats = w.slice(3).map(Number);
  const sent = v.pending && v.pending.card !== "malin" ? v.pending.card : null;
  const applied = kind === "avocat" ? sent : kind === "malin" ? null : kind;
  const c = applied ? tableCardOf(v, seats[0]) : null;
  const change = c ? [fmt(c.value), fmt(effect(applied, c.value, options(msg)))] : ["?", "?"];
  return { kind, seats, applied, from: change[0], to: change[1] };
}

/** A Malheur move in a full sentence ("Le Malin on Bob: take one of their Malheur cards",
    "666 on Bob's card: 19 → 91", "L'Avocat du Diable: send it to Chloé's card (23 → 32)"). */
function malheurLabel(action, msg, names) {
  const { kind, seats, applied, from, to } = malheurMove(action, msg);
  const card = t(`mal_m_${kind}`);
  if (kind === "malin") {
    if (seats.length === 1) return t("mal_do_malin_1", { card, a: seatName(seats[0], names) });
    return t(options(msg).malin_steal === "one_total" ? "mal_do_malin_2_one" : "mal_do_malin_2", { card, a: seatName(seats[0], names), b: seatName(seats[1], names) });
  }
  if (kind === "avocat" && !applied) return t("mal_do_avocat_malin", { card, name: seatName(seats[0], names), malin: t("mal_m_malin") });
  const target = whoseCard(seats[0], msg, names);
  if (kind === "avocat") return t("mal_do_avocat_effect", { card, what: t(`mal_m_${applied}`), target, from, to });
  return t("mal_do_effect", { card, target, from, to });
}

/** A Malheur move's button: its full sentence, and beside it the same move in two or three short
    lines (the card, whose card or seat, the value's change or Le Malin's second seat) that
    malin.css shows instead when there are many moves: eight sentences took four rows of a 360 px
    phone and pushed the hand below the window. */
function malheurButton(action, msg, names) {
  const { kind, seats, applied, from, to } = malheurMove(action, msg);
  const who = applied && seats[0] === msg.seat ? t("mal_your_card") : seatName(seats[0], names);
  // Le Malin on two seats names the second on the third line (a chip's one line cut "Robotine und…").
  const third = applied ? el("b", { class: "mal-change" }, `${from} → ${to}`) : seats.length > 1 ? el("span", { class: "mal-who" }, `+\u2009${seatName(seats[1], names)}`) : null;
  return [
    el("span", { class: "mal-long" }, malheurLabel(action, msg, names)),
    el("span", { class: "mal-short", "aria-hidden": "true" }, el("small", { class: "mal-kind" }, t(`mal_m_${kind}`)), el("span", { class: "mal-who" }, who), third),
  ];
}

/** The longer explanation of a Malheur move (its button's tooltip). */
function malheurTitle(action, msg, names) {
  const w = action.split(" ");
  const seats = w.slice(3).map(Number);
  if (w[1] === "malin") {
    const targets = seats.map((s) => seatName(s, names)).join(t("mal_and"));
    return t(seats.length === 1 || options(msg).malin_steal === "one_total" ? "mal_malin_title_one" : "mal_malin_title_each", { targets });
  }
  return t(`mal_help_${w[1]}`);
}

/** A legal action's text in the page's language ("bid 2" → "Contrat 2", "play TWIN 35" → …). */
export function actionLabel(action, msg, names) {
  const w = action.split(" ");
  const who = names || (msg ? msg.seats.map((s) => s.name) : []);
  if (w[0] === "bid") return t("mal_bid", { n: w[1] });
  if (action === "pass") return t("mal_pass");
  if (w[0] === "play" && w[1] === "TWIN") return t("mal_play_twin", { v: fmt(w[2]) });
  if (w[0] === "play" && w[1] === "WISH") return t("mal_play_wish_v", { v: fmt(w[2]) });
  if (w[0] === "play") return t("play_card", { card: w[1] });
  if (w[0] === "wish") return t("mal_redeclare_v", { v: fmt(w[1]) });
  if (w[0] === "malheur" && msg) return malheurLabel(action, msg, who);
  return action;
}

/* ---- the trick ---------------------------------------------------------------------- */

/** The note under a card on the table: a Twin's or the Wish's declared value, and what a
    Malheur card made of any card ("= 35", "19 → 91", "= 35 → 17,5"). */
function note(c) {
  const special = c.card === "TWIN" || c.card === "WISH";
  const printed = special ? Number(c.declared) : Number(c.card);
  const changed = Number(c.value) !== printed;
  if (special) return changed ? `= ${fmt(c.declared)} → ${fmt(c.value)}` : `= ${fmt(c.declared)}`;
  return changed ? `${c.card} → ${fmt(c.value)}` : undefined;
}

function plays(cards) { return cards.map((c) => ({ seat: c.seat, card: c.card, note: note(c) })); }

/* ---- the model ------------------------------------------------------------------------ */

export function model(msg, ctx) {
  const v = msg.view;
  const me = msg.seat;
  const names = ctx.names;
  const o = options(msg);
  const high = twinHigh(msg);
  const fun = o.fun === "true" || v.malheur_counts.some((c) => c > 0) || v.malheur_pile > 0;
  const mine = !msg.over && msg.to_act === me;

  const byCard = {};
  const twin = [];
  const wish = [];
  const bids = [];
  const redeclare = [];
  const malheur = [];
  const others = [];
  let pass = false;
  for (const a of msg.legal) {
    const w = a.split(" ");
    if (w[0] === "play" && w[1] === "TWIN") twin.push(a);
    else if (w[0] === "play" && w[1] === "WISH") wish.push(Number(w[2]));
    else if (w[0] === "play") byCard[w[1]] = a;
    else if (w[0] === "bid") bids.push(Number(w[1]));
    else if (w[0] === "wish") redeclare.push(Number(w[1]));
    else if (w[0] === "malheur") malheur.push(a);
    else if (a === "pass") pass = true;
    else others.push(a);
  }

  // The hand: a Twin with two values to choose opens the chooser, the Wish a value field.
  const hand = v.hand.map((c) => {
    if (c === "TWIN") {
      if (twin.length === 1) return { card: c, action: twin[0] };
      if (twin.length > 1) return { card: c, action: null, choices: twin.map((a) => ({ action: a, label: `= ${fmt(a.split(" ")[2])}`, title: actionLabel(a, msg, names) })) };
      return { card: c, action: null };
    }
    if (c === "WISH") {
      if (!wish.length) return { card: c, action: null };
      const best = wish.includes(100) ? 100 : Math.max(...wish);
      const quick = [100, -100].filter((x) => wish.includes(x));
      return {
        card: c, action: null,
        choices: quick.map((x) => ({ action: `play WISH ${x}`, label: `= ${fmt(x)}`, title: actionLabel(`play WISH ${x}`, msg, names) })),
        number: { min: -100, max: 100, value: best, label: t("mal_play_wish"), make: (n) => `play WISH ${Math.round(n)}` },
      };
    }
    return { card: c, action: byCard[c] || null };
  });

  const moves = [];
  for (const b of bids) moves.push({ action: `bid ${b}`, label: t("mal_bid", { n: b }), key: String(b), short: String(b), group: "bid" });
  for (const x of [100, -100]) if (redeclare.includes(x)) moves.push({ action: `wish ${x}`, label: actionLabel(`wish ${x}`, msg, names), group: "wish" });
  // Pass first: it is the usual answer, and a long list of Malheur moves must not push it out of sight.
  if (pass) moves.push({ action: "pass", label: t("mal_pass"), group: "pass" });
  for (const a of malheur) moves.push({ action: a, label: malheurLabel(a, msg, names), short: malheurButton(a, msg, names), title: malheurTitle(a, msg, names), group: "malheur" });
  for (const a of others) moves.push({ action: a, label: actionLabel(a, msg, names), group: "other" });

  const panels = [];
  if (mine && v.phase === "redeclare") panels.push(redeclarePanel(msg, redeclare, ctx));
  if (fun) panels.push(malheurPanel(msg, ctx, o));

  return {
    heading: t("round", { round: v.round }),
    info: info(msg, ctx),
    seats: seatModels(msg, v, (s) => ({
      cards: v.hand_sizes[s],
      badges: badges(v, s, fun, names),
    })),
    ...trickModel(v, ctx, plays, fmt),
    ...plainWhy(v, ctx),
    hand,
    moves,
    prompt: prompt(msg, ctx, o, { bids, twin, high, malheur }),
    centre: v.phase === "bid" && !msg.over ? contractBoard(msg, ctx, o) : null,
    panels,
    roundKey: `r${v.round}`,
  };
}

function info(msg, ctx) {
  const v = msg.view;
  const chips = [];
  const short = { TWIN: t("mal_twin_short"), WISH: t("mal_wish_short") };
  if (v.removed) chips.push({ label: t("mal_removed"), value: short[v.removed] || ctx.cardName(v.removed), card: v.removed, title: t("mal_removed_title", { card: ctx.cardName(v.removed) }) });
  chips.push({ label: t("mal_tricks_label"), value: String(v.hand_size), title: tn("mal_tricks_title", v.hand_size) });
  return chips;
}

function badges(v, s, fun, names) {
  const bid = v.bids[s];
  const won = v.tricks_won[s];
  let tone = null;
  if (bid !== null && won > bid) tone = "over";
  else if (bid !== null && won === bid) tone = "ok";
  const trickTitle = bid === null ? null : t(won === bid ? "mal_on_target" : won > bid ? "mal_too_many" : "mal_needs", { n: Math.abs(bid - won) });
  // A phone's seat plate has room for one line of badges: tricks and contract go together there ("1/2").
  const narrow = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(max-width: 640px)").matches;
  const out = narrow ? [
    { label: t("won"), value: `${won}/${bid === null ? "–" : bid}`, tone, title: trickTitle ? `${t("mal_won_of_contract")}: ${trickTitle}` : t("mal_won_of_contract") },
  ] : [
    { label: t("mal_contract"), value: bid === null ? "–" : String(bid), title: bid === null ? t("mal_no_contract_yet") : tn("mal_contract_title", bid) },
    { label: t("won"), value: String(won), tone, title: trickTitle },
  ];
  if (fun) out.push({ label: t("mal_badge_malheur"), value: String(v.malheur_counts[s]), tone: "malheur", title: t("mal_malheur_count", { name: names[s], n: v.malheur_counts[s] }) });
  return out;
}

/** The contracts 0 … tricks − 1 on the felt while bidding: taken ones with their owner, the one
    the sum rule forbids to the seat bidding now marked as such, the free ones plain. */
function contractBoard(msg, ctx, o) {
  const v = msg.view;
  const size = v.hand_size;
  const bidder = v.current_player;
  const total = v.bids.reduce((a, b) => a + (b ?? 0), 0);
  const sumBinds = bidder === v.dealer || o.sum_rule === "running";
  const chips = [];
  for (let b = 0; b < size; b++) {
    const owner = v.bids.indexOf(b);
    if (owner >= 0) {
      const why = t("mal_bid_taken", { n: b, name: ctx.names[owner] });
      chips.push(el("span", { class: `mal-bid taken`, title: why, "aria-label": why },
        el("b", {}, String(b)), el("small", { class: `who tone-${owner % 8}` }, ctx.names[owner])));
    } else if (sumBinds && total + b === size) {
      const why = t("mal_bid_sum", { n: b, size });
      chips.push(el("span", { class: "mal-bid forbidden", title: why, "aria-label": why }, el("b", {}, String(b)), el("small", {}, t("mal_sum_short"))));
    } else {
      chips.push(el("span", { class: "mal-bid free", title: t("mal_bid_free", { n: b }), "aria-label": t("mal_bid_free", { n: b }) }, el("b", {}, String(b))));
    }
  }
  return el("div", { class: "mal-board", role: "group", "aria-label": t("mal_contracts") },
    el("div", { class: "mal-board-title" }, t("mal_contracts")),
    el("div", { class: "mal-bids" }, chips));
}

function prompt(msg, ctx, o, { bids, twin, high, malheur }) {
  const v = msg.view;
  const me = msg.seat;
  const names = ctx.names;
  if (msg.over) return null;
  const mine = msg.to_act === me;
  const actor = names[msg.to_act] ?? "";
  if (v.phase === "bid") {
    if (!mine) return t("mal_is_bidding", { name: actor });
    const size = v.hand_size;
    const forbidden = [];
    for (let b = 0; b < size; b++) if (!bids.includes(b) && !v.bids.includes(b)) forbidden.push(b);
    if (forbidden.length) return tn("mal_bid_prompt_sum", size, { size, n: forbidden.join(", ") });
    return tn(v.bids.some((b) => b !== null) ? "mal_bid_prompt" : "mal_bid_prompt_first", size, { size });
  }
  if (v.phase === "play") {
    if (!mine) return t("is_playing", { name: actor });
    const base = v.trick.length ? t("follow_prompt") : t("lead_prompt");
    if (v.hand.includes("TWIN") && twin.length === 1) {
      const forced = twin[0].split(" ")[2];
      return `${base} ${t("mal_twin_forced", { v: forced, other: Number(forced) === 0 ? high : 0 })}`;
    }
    return base;
  }
  if (v.phase === "redeclare") {
    const w = v.trick.find((c) => c.card === "WISH");
    const lastCard = v.trick[v.trick.length - 1];
    if (!mine) return t("mal_is_redeclaring", { name: actor });
    return t("mal_redeclare_prompt_v", { v: w ? fmt(w.declared) : "?", name: lastCard ? names[lastCard.seat] : "" });
  }
  if (v.phase === "window") {
    const when = v.window === "before bidding" ? t("mal_w_before_bidding") : v.last_actor === msg.seat && !msg.spectator ? t("mal_w_after_your_card") : t("mal_w_after_card", { name: names[v.last_actor] ?? "" });
    if (!mine) return t("mal_window_other", { name: actor, when });
    if (!malheur.length) return autoPassOn() ? t("mal_window_autopass", { when }) : t("mal_window_none", { when });
    return t("mal_window_mine", { when });
  }
  if (v.phase === "react" && v.pending) {
    const p = v.pending;
    const target = p.targets[p.asking];
    const redirected = p.redirected[p.asking];
    const card = t(`mal_m_${p.card}`);
    const caster = names[p.caster];
    const c = p.card === "malin" ? null : tableCardOf(v, target);
    const change = c ? ` (${fmt(c.value)} → ${fmt(effect(p.card, c.value, o))})` : "";
    if (!mine) {
      const on = p.card === "malin" ? names[target] : t("mal_card_of", { name: names[target] });
      return t("mal_react_other", { caster, card, on, name: names[target], change });
    }
    // Who sent it on to this seat, when an Avocat did: the latest Avocat in the log.
    const avocats = v.malheur_log.filter(([, a]) => a.startsWith("malheur avocat"));
    const by = redirected && avocats.length ? names[avocats[avocats.length - 1][0]] : "";
    let what;
    if (p.card === "malin") what = t(redirected ? "mal_react_malin_sent" : "mal_react_malin", { caster, card, by });
    else what = t(redirected ? "mal_react_effect_sent" : "mal_react_effect", { caster, card, change, by });
    const canAnswer = malheur.some((a) => a.startsWith("malheur avocat"));
    if (canAnswer) return `${what} ${t("mal_react_answer")}`;
    return `${what} ${t(autoPassOn() ? "mal_react_autopass" : "mal_react_cannot")}`;
  }
  if (mine && msg.legal.length) return t("actions");
  return null;
}

/* ---- panels ---------------------------------------------------------------------------- */

/** The Wish's new value after a collision: quick buttons are in the moves, any value here. */
function redeclarePanel(msg, legal, ctx) {
  const best = legal.includes(100) ? 100 : Math.max(...legal);
  const input = el("input", { type: "number", min: -100, max: 100, step: 1, value: best, class: "value", id: "mal-wish-value", "aria-label": t("mal_redeclare_value") });
  return el("section", { class: "panel mal-redeclare" },
    el("h3", {}, t("mal_redeclare")),
    el("form", { class: "choices", onsubmit: (ev) => { ev.preventDefault(); ctx.act(`wish ${Math.round(Number(input.value))}`); } },
      el("label", { for: "mal-wish-value" }, t("mal_redeclare_value")), " ", input, " ",
      el("button", { type: "submit", class: "mal-go", "data-action": `wish ${best}` }, t("mal_redeclare_go"))));
}

function malheurPanel(msg, ctx, o) {
  const v = msg.view;
  const names = ctx.names;
  const own = MALHEURS.filter((m) => (v.malheur[m] || 0) > 0);
  const discard = MALHEURS.filter((m) => (v.malheur_discard[m] || 0) > 0).map((m) => `${t(`mal_m_${m}`)} ×${v.malheur_discard[m]}`).join(", ");
  const cards = own.length
    ? el("div", { class: "mal-cards" }, own.map((m) => el("figure", { class: "mal-card", "data-malheur": m },
        cardElement("malin", `malheur:${m}`, { name: `${t(`mal_m_${m}`)} ×${v.malheur[m]}`, title: t(`mal_help_${m}`) }),
        el("figcaption", {}, el("b", {}, `×${v.malheur[m]}`), " ", el("small", {}, t(`mal_help_short_${m}`))))))
    : el("p", { class: "mal-none" }, t("mal_no_malheur"));
  const log = v.malheur_log.length
    ? el("ol", { class: "mal-log", "aria-label": t("mal_log") }, v.malheur_log.map(([s, a]) => el("li", {}, el("b", {}, names[s]), " ", logText(a, msg, names))))
    : null;
  let toggle = null;
  if (!ctx.readOnly && !LESSON) {
    const box = el("input", {
      type: "checkbox", id: "mal-autopass", checked: autoPassOn(),
      onchange: (ev) => {
        setAutoPass(ev.target.checked);
        const a = auto(msg);
        if (a) ctx.act(a);
      },
    });
    toggle = el("p", { class: "mal-autopass" }, box, " ", el("label", { for: "mal-autopass" }, t("mal_autopass")));
  }
  void o;
  return el("section", { class: "panel mal-panel", "aria-label": t("mal_your_malheur") },
    el("h3", {}, t("mal_your_malheur")),
    cards,
    el("p", { class: "mal-piles" }, t("mal_pile", { n: v.malheur_pile }), " · ", t("mal_discard", { list: discard || "—" })),
    toggle,
    log ? el("h3", {}, t("mal_log")) : null,
    log);
}

/** A logged Malheur play, without the preview (the trick has moved on): "666 on Chloé's card". */
function logText(action, msg, names) {
  const w = action.split(" ");
  const kind = w[1];
  const seats = w.slice(3).map(Number);
  const card = t(`mal_m_${kind}`);
  if (kind === "malin") return t("mal_log_malin", { card, targets: seats.map((s) => seatName(s, names)).join(t("mal_and")) });
  if (kind === "avocat") return t("mal_log_avocat", { card, name: seatName(seats[0], names) });
  return t("mal_log_effect", { card, target: seats[0] === msg.seat ? t("mal_your_card") : t("mal_card_of", { name: seatName(seats[0], names) }) });
}

/* ---- the score sheet --------------------------------------------------------------------- */

/** Per hand and seat: contract, tricks and the penalty (✓ when the contract was made); the
    total is the capital left, from the starting capital down. */
export function sheet(msg) {
  const v = msg.view;
  const o = options(msg);
  const start = Number(o.start_score) || 10;
  const clamp = o.clamp_at_zero === "true";
  const totals = msg.seats.map(() => start);
  return {
    heads: [t("mal_contract"), t("won"), t("mal_penalty")],
    start: msg.seats.map(() => start),
    rounds: v.sheet.map((line, r) => ({
      label: String(r + 1),
      seats: msg.seats.map((_, s) => {
        const p = line.penalties[s];
        totals[s] -= p;
        if (clamp) totals[s] = Math.max(0, totals[s]);
        return { cells: [String(line.bids[s]), String(line.tricks[s]), p ? `−${p}` : "0"], ok: p === 0, total: totals[s] };
      }),
    })),
  };
}
