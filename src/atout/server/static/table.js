/* A seat's table page: one WebSocket, the seat's key from the link's fragment.

   Messages are drawn one after another from a queue, so that each move can be
   seen: a card flies to the table, a finished trick stays complete on the felt
   (HOLD ms, or until a click) before its winner gathers it, a new deal arrives
   card by card, a finished round shows its summary.  Every drawing comes from the
   game's module (static/games/<game>.js), a pure function of the seat's message. */

import { el, t, tn, has, i18n, loadStrings, translatePage, reducedMotion, markNamed, isNamed } from "./lib/dom.js";
import { drawInfo, drawFelt, drawWhy, drawHand, drawMoves, snapshot, animatePlays, gatherTrick, animateDeal, cardElement, fitFelt, fitHand, fitHeight, keepFelt, setTempo } from "./felt.js";
import { sheetTable, roundSummary, ranking, chart } from "./sheet.js";
import * as generic from "./games/generic.js";
import { setupChat, setLog, addLine, announceEvent, replayChat } from "./chat.js";
import { setupReview, reviewStep, optionLabels } from "./review.js";
import { setupHints, hintTurn } from "./hint.js";

const $ = (id) => document.getElementById(id);
const store = {
  get(k, d) { try { return localStorage.getItem(`atout.${k}`) ?? d; } catch { return d; } },
  set(k, v) { try { localStorage.setItem(`atout.${k}`, v); } catch { /* private mode: not remembered */ } },
};
/** How long a finished trick stays whole on the felt (ms) at each card speed: "swift" is for
    players who follow the game at a glance (the last trick stays one key or click away). */
const HOLD = { normal: 1700, fast: 700, swift: 300 };
/** The pause between the bots' moves a lesson's coach held back (ms): the server's own pace
    (its bot delay, 0.8 s by default) at normal speed. */
const BOT_PACE = { normal: 800, fast: 350, swift: 150 };
/** How long a round's summary holds the table (ms) unless the player closes it first: the bots
    play on at the server, their moves are drawn once it has been read. */
const SUMMARY_HOLD = { normal: 6000, fast: 3000, swift: 1500 };
/** The cards' flights at each card speed, a share of their time (felt.js setTempo). */
const TEMPO = { normal: 1, fast: 1, swift: 0.5 };

const tableId = location.pathname.split("/").pop();
const hashParams = new URLSearchParams(location.hash.slice(1));
const key = hashParams.get("key");
/** A spectator's page: #watch=TOKEN (a private table's watch link) or #watch= (a public table). */
const watch = key ? null : hashParams.get("watch");
const spectator = !key && watch !== null;
const adapters = {};
const queue = [];
/** Whether a lesson's coach held the table (its "Continue") since the queue was last empty. */
let coachHeld = false;
let busy = false;
let socket = null;
let retry = 0;
let left = false;
let reconnecting = false;
/** The player's last move until the table answers it (a new position, or a refusal): clicked
    while the socket was reconnecting (not `sent` yet), it goes once the table is back; sent on
    a socket that then closed, it may have been lost with it (the click unanswered, nothing
    refused), so it goes again once the table is back.  Either way only if the table is still
    at the position it was chosen in: the server refuses a move made twice as stale. */
let pendingMove = null;
/** The last message and model drawn (what the player sees). */
let shown = null;
/** The newest message received (what the server last said). */
let latest = null;
let skipHold = null;
/** Ends the summary's hold early (its close button, Esc, a click outside the summary). */
let releaseSummary = null;
let summaryRound = -1;
/** The move count the round summary was opened at (it holds the table once, there). */
let summaryShownAt = -1;

function notice(text, isError) {
  $("notice").textContent = text;
  $("notice").className = `notice${isError ? " error" : ""}`;
}

function refusalInPrompt(text) {
  const prompt = $("prompt");
  prompt.textContent = text;
  prompt.classList.add("refusal");
}

function announce(text) {
  if (!text) return;
  const live = $("live");
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

async function adapterFor(game) {
  if (adapters[game]) return adapters[game];
  let mod = generic;
  try {
    mod = await import(`./games/${game}.js`);
    await loadStrings(game);
    if (mod.css) {
      // Drawn once the game's stylesheet is in: the first drawing is fitted to the window
      // (felt.js fitFelt), and measured unstyled, Le Nain Jaune's board was drawn at half size.
      const sheet = el("link", { rel: "stylesheet", href: `/static/games/${game}.css` });
      const loaded = new Promise((resolve) => { sheet.onload = resolve; sheet.onerror = resolve; });
      document.head.append(sheet);
      await loaded;
    }
  } catch (exc) {
    console.warn(`no table module for ${game}: the generic one draws it`, exc);
  }
  adapters[game] = mod;
  return mod;
}

function context(msg, mod, readOnly) {
  const names = seatNames(msg);
  const deckOpts = mod.deckOptions ? mod.deckOptions(msg) : {};
  return {
    names, readOnly, deck: mod.deck || msg.game, deckOpts,
    me: readOnly || msg.spectator ? null : msg.seat, // the reader's seat: "You are winning", not "Ann is"
    cardName: (c) => (mod.cardName ? mod.cardName(c, msg) : c),
    act: readOnly ? () => {} : act,
    choose: readOnly ? () => {} : choose,
    fallback: (card) => (mod.fallback ? mod.fallback(card, msg) : `play ${card}`),
  };
}

function act(action) {
  if (!latest) return;
  closeChooser();
  if (skipHold) skipHold();
  const move = { type: "act", action, n: latest.n };
  // A click while the socket reconnects is not lost: it is sent once the table is back, if the
  // position it was made in is still the table's (the server would refuse it as stale otherwise).
  pendingMove = move;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify(move));
  move.sent = true;
}

/* ---- a card with a choice (a Twin's value, the Wish's) ------------------------------- */

function closeChooser() { $("chooser").hidden = true; $("chooser").replaceChildren(); }

function choose(hand) {
  const box = $("chooser");
  const parts = [el("p", {}, t("choose_value"))];
  if (hand.choices && hand.choices.length) {
    parts.push(el("div", { class: "choices" }, hand.choices.map((m) => el("button", { type: "button", class: "action", "data-action": m.action, onclick: () => act(m.action) }, m.label))));
  }
  if (hand.number) {
    const input = el("input", { type: "number", min: hand.number.min, max: hand.number.max, value: hand.number.value, "aria-label": hand.number.label, class: "value" });
    parts.push(el("form", { class: "choices", onsubmit: (ev) => { ev.preventDefault(); act(hand.number.make(Number(input.value))); } },
      input, el("button", { type: "submit", class: "action", "data-action": hand.number.make(hand.number.value) }, hand.number.label)));
  }
  parts.push(el("button", { type: "button", class: "plain", onclick: closeChooser }, t("cancel")));
  box.replaceChildren(...parts);
  box.hidden = false;
  // Just above the hand, over the prompt: at the board's bottom it opened under Le Malin's panel
  // of Malheur cards, out of view, and focusing it scrolled the felt out of the window.
  const row = document.querySelector("#board .hand");
  if (row) {
    const top = row.getBoundingClientRect().top - box.parentElement.getBoundingClientRect().top - box.offsetHeight + 12;
    box.style.top = `${Math.max(0, top)}px`;
    box.style.bottom = "auto";
  }
  const first = box.querySelector("input, button");
  if (first) first.focus({ preventScroll: true });
}

/* ---- drawing --------------------------------------------------------------------------- */

/** "Bob takes the trick", or, for a trick nobody takes (Sticheln's zeros set aside), say so. */
function takenBy(names, winner) {
  return winner >= 0 ? t("trick_taken_by", { name: names[winner] }) : t("trick_taken_by_nobody");
}

function sameTrick(a, b) { return JSON.stringify(a || null) === JSON.stringify(b || null); }

function pause(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

function hold(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() { clearTimeout(timer); skipHold = null; document.removeEventListener("click", onClick, true); resolve(); }
    function onClick(ev) { if (ev.target.closest(".felt, .trick-hold")) done(); }
    skipHold = done;
    document.addEventListener("click", onClick, true);
  });
}

/** Parts of the board a click can be in flight on: the moves and the hand. */
const KEPT = ["moves", "hand-zone"];

/** Redrawing keeps the moves and the hand when they did not change (the same position told
    again: a clock, a name, a spectator): a click in flight is not lost with its button (the
    browser sends no click when the button under the press is replaced before the release), and
    a focused card keeps its focus.  They are compared as drawn (by `signature`); a kept button
    acts as the new one would (its move is sent with the newest position's number).  The felt is
    kept part by part (felt.js keepFelt). */
function keepUnchanged(board, fresh) {
  const old = [...board.children].filter((was) => was.drawn);
  return fresh.map((node) => {
    if (!KEPT.some((name) => node.classList.contains(name))) return node;
    const drawn = signature(node);
    const was = old.find((o) => o.drawn === drawn);
    if (was) return was;
    node.drawn = drawn;
    return node;
  });
}

/** What a part shows and does, as text: its classes and style, and each button's (a card's
    drawing is made from its card: its SVG's own ids differ from one drawing to the next). */
function signature(node) {
  const buttons = [...node.querySelectorAll("button")].map((b) =>
    [b.className, b.dataset.action, b.dataset.card, b.dataset.key, b.title, b.getAttribute("aria-label"), b.disabled, b.textContent]);
  return JSON.stringify([node.className, node.getAttribute("style"), buttons]);
}

/** Put `nodes` in `parent` in this order, leaving in place those already there (kept parts are
    never taken out and put back: the browser would style and lay them out again, restart their
    animations, and a button pressed there would lose its click). */
function placeChildren(parent, nodes) {
  const keep = new Set(nodes);
  for (const child of [...parent.children]) if (!keep.has(child)) child.remove();
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at || null);
  });
}

function drawBoard(msg, model, ctx) {
  const board = $("board");
  const focused = document.activeElement && document.activeElement.closest(".hand") ? [...board.querySelectorAll(".hand .card")].indexOf(document.activeElement) : -1;
  // The felt on the page is kept, its changed parts replaced (felt.js keepFelt).
  const { felt, changes } = keepFelt(board.querySelector(":scope > .felt"), drawFelt(msg, model, ctx));
  placeChildren(board, keepUnchanged(board, [
    drawInfo(model, ctx),
    felt,
    drawWhy(model),
    el("div", { class: "prompt", id: "prompt" }, model.prompt || ""),
    drawMoves(model, ctx),
    el("div", { class: "hand-zone" }, drawHand(msg, model, ctx)),
    model.panels && model.panels.length ? el("div", { class: "panels" }, model.panels) : null].filter(Boolean)));
  fitBoard(changes);
  const cards = [...board.querySelectorAll(".hand button.card")];
  const start = cards.findIndex((c) => c.classList.contains("legal"));
  cards.forEach((c, i) => { c.tabIndex = i === Math.max(0, start) ? 0 : -1; });
  // The focus is kept where it was, not shown: focusing a card out of view scrolls the page to it,
  // and a player who scrolled up to watch the felt was dragged back down at every move (the
  // round's summary cut at the window's top when the next deal's buttons pushed the hand down).
  if (focused >= 0 && cards.length) cards[Math.min(focused, cards.length - 1)].focus({ preventScroll: true });
}

/** The seats' names; a seat nobody has taken yet is named by its number, a deleted account's
    seat "former player", in the reader's language. */
function seatNames(msg) {
  return msg.seats.map((s, i) => (s.free ? t("home_seat_n", { n: i + 1 }) : s.former ? t("former_player") : s.name));
}

const phone = () => window.matchMedia("(max-width: 640px)").matches;

/** The felt fitted to the window (the hand in view, no plate over a trick card), the overlay on it;
    `changes`: what changed on a kept felt (keepFelt; null, as on a resize: fit it all). */
function fitBoard(changes = null) {
  const board = $("board");
  fitHand(board.querySelector(".hand-zone"));
  fitHeight(board);
  const felt = board.querySelector(".felt");
  if (felt) fitFelt(felt, changes);
  placeOverlay();
}

/** Milliseconds before the table makes a move the player asked not to be asked about. */
const AUTO_PAUSE = 250;

function status(msg, auto = null) {
  const names = seatNames(msg);
  const node = $("status");
  if (msg.spectator && !msg.over) {
    node.textContent = t("watching"); // who is to play is said under the felt
    node.className = "status";
  } else if (msg.over) {
    // On a phone the bar has room for "Game over" only: the ranking names the winners.
    const winners = tn("winners", msg.result.winners.length, { names: msg.result.winners.map((w) => names[w]).join(", ") });
    node.textContent = phone() ? t("game_over") : `${t("game_over")} · ${winners}`;
    node.className = "status";
  } else if (msg.to_act === msg.seat && auto) {
    node.textContent = t("passing_for_you");
    node.className = "status";
  } else if (msg.to_act === msg.seat) {
    node.textContent = t("your_turn");
    node.className = "status mine";
  } else {
    node.textContent = t("waiting_for", { name: names[msg.to_act] });
    node.className = "status";
  }
  const mine = !msg.over && msg.to_act === msg.seat && !auto;
  const title = `${mine ? `● ${t("your_turn")} · ` : ""}${msg.title} · atout`;
  if (document.title !== title) document.title = title;
  favicon(mine);
}

/** Set only when it changes: a new href makes the browser decode the icon again, at every message. */
function favicon(mine) {
  if (favicon.mine === mine) return;
  favicon.mine = mine;
  const fill = mine ? "%23e0a526" : "%231f5e3a";
  const dot = mine ? "<circle cx='25' cy='7' r='6' fill='%23d2383f'/>" : "";
  const href = `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect x='6' y='3' width='20' height='27' rx='3' fill='${fill}' stroke='white' stroke-width='2'/><text x='16' y='22' font-size='14' text-anchor='middle' fill='white' font-family='serif'>a</text>${dot}</svg>`;
  $("favicon").setAttribute("href", href);
}

let audio = null;
function chime() {
  if (store.get("sound", "off") !== "on") return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.0001, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.4);
  } catch { /* no audio here */ }
}

function overlay(kind, title, ...content) {
  const box = $("overlay");
  box.dataset.kind = kind;
  box.replaceChildren(el("div", { class: "overlay-card" },
    el("button", { type: "button", class: "close plain", "aria-label": t("close"), onclick: hideOverlay }, "×"),
    el("h2", {}, title), ...content));
  box.hidden = false;
  placeOverlay();
}
/** Overlays cover the felt only: the prompt, the moves and the hand stay usable beneath.
    The final ranking has nothing beneath to keep usable: it takes the table down to the bottom
    of the window, so that its buttons are never cut off by a short felt (a phone's). */
function placeOverlay() {
  const box = $("overlay");
  const felt = $("board").querySelector(".felt");
  if (box.hidden || !felt) return;
  if (box.dataset.kind === "final") {
    const top = box.parentElement.getBoundingClientRect().top + window.scrollY;
    box.style.top = "0px";
    box.style.height = `${Math.max(felt.offsetTop + felt.offsetHeight, window.innerHeight - top - 4)}px`;
    return;
  }
  box.style.top = `${felt.offsetTop}px`;
  box.style.height = `${felt.offsetHeight}px`;
}
function hideOverlay() {
  $("overlay").hidden = true;
  $("overlay").dataset.kind = "";
  if (releaseSummary) releaseSummary();
}

function lastTrickView() {
  if (!shown) return;
  const { msg, model, ctx } = shown;
  const last = model.lastTrick;
  if (!last) { overlay("last", t("last_trick"), el("p", {}, t("no_trick_yet"))); return; }
  overlay("last", t("last_trick"),
    el("div", { class: "last-trick" }, last.cards.map((p) => el("figure", { class: p.seat === last.winner ? "winner" : null, "data-seat": p.seat },
      cardElement(ctx.deck, p.card, { name: ctx.cardName(p.card), deckOpts: ctx.deckOpts }),
      el("figcaption", {}, ctx.names[p.seat], p.note ? el("small", {}, p.note) : null)))),
    el("p", { class: "taken" }, takenBy(ctx.names, last.winner)));
  void msg;
}

function sheetView() {
  if (!shown) return;
  const { msg, mod, ctx } = shown;
  const sheet = mod.sheet ? mod.sheet(msg) : null;
  overlay("sheet", t("score_sheet"), sheetTable(sheet, ctx.names), chart(sheet, ctx.names));
}

async function show(msg) {
  const mod = await adapterFor(msg.game);
  $("btn-last").hidden = mod.tricks === false; // a game without tricks (Le Nain Jaune)
  // No L and no bids in a game without tricks (Le Nain Jaune), no digits in one without bids (Sticheln).
  const keys = mod.tricks === false ? "keys_help_no_tricks" : mod.bids === false ? "keys_help_no_bids" : "keys_help";
  for (const help of document.querySelectorAll("[data-i18n^=keys_help]")) { // the line and the settings' copy
    help.dataset.i18n = keys; // a language switch (translatePage) then writes the game's own help
    help.textContent = t(keys);
  }
  $("keys-line").hidden = !!msg.spectator; // a spectator has no card to pick nor bid to make
  const ctx = context(msg, mod, false);
  const model = mod.model(msg, ctx);
  // A move the player asked never to be asked about (Le Malin's auto-pass): the table makes it,
  // so it offers no button for it and does not say "your turn" (a click there raced the pass
  // and was refused: issue 50).  Only for the newest position (never one already overtaken).
  const auto = mod.auto && !msg.over && msg.to_act === msg.seat && msg === latest ? mod.auto(msg) : null;
  if (auto) model.moves = [];
  const board = $("board");
  const prev = shown;
  // A backlog (a player back at the table) is drawn fast; not the moves a lesson's coach held
  // back while the learner read (they are what the step shows: drawn at the table's pace).
  const hurry = queue.length > 3 && !coachHeld;
  if (prev && model.lastTrick && !sameTrick(model.lastTrick, prev.model.lastTrick) && prev.msg.n < msg.n) {
    // The trick is complete: show it whole, let it be read, then let its winner take it.
    // The round's last trick is shown on the round it belongs to: the seats as they were, the
    // viewer's card out of the hand (it is on the table).
    const roundOver = prev.model.roundKey !== model.roundKey;
    const base = roundOver ? prev.model : model;
    const mine = model.lastTrick.cards.find((p) => p.seat === msg.seat);
    let hand = base.hand;
    if (roundOver && mine) {
      const at = hand.findIndex((h) => h.card === mine.card);
      hand = hand.filter((_, i) => i !== at);
    }
    const whole = {
      ...base, hand: hand.map((h) => ({ card: h.card, action: null })), moves: roundOver ? [] : base.moves,
      trick: model.lastTrick.cards, winning: model.lastTrick.winner,
      prompt: takenBy(ctx.names, model.lastTrick.winner),
    };
    const before = snapshot(board);
    drawBoard(msg, whole, ctx);
    announceTrick(prev, whole, ctx);
    await animatePlays(board, before, msg.seat);
    // A lesson's coach may keep the whole trick in sight while it says what happened in it.
    await Promise.all([hold(hurry ? 250 : HOLD[store.get("speed", "normal")] || HOLD.normal), tellCoach(msg)]);
    if (model.lastTrick.winner >= 0) await gatherTrick(board, model.lastTrick.winner);
    announce(takenBy(ctx.names, model.lastTrick.winner));
  }
  const before = snapshot(board);
  const newDeal = prev && prev.model.roundKey !== model.roundKey;
  drawBoard(msg, model, ctx);
  if (prev && !newDeal) announceTrick(prev, model, ctx);
  const sheet = mod.sheet ? mod.sheet(msg) : null;
  board.dataset.n = msg.n;
  board.dataset.over = msg.over;
  board.dataset.toAct = msg.over || auto ? "" : msg.to_act; // the player is not asked for an automatic move
  board.dataset.round = model.roundKey;
  board.dataset.module = mod === generic ? "generic" : msg.game;
  status(msg, auto);
  $("btn-rules").href = `/rules/${msg.game}`;
  if (!msg.spectator && !msg.over && !isNamed(tableId, msg.seat)) askName(msg, ctx.names[msg.seat]);
  const wasMine = prev && !prev.msg.over && prev.msg.to_act === prev.msg.seat;
  const mine = !msg.over && msg.to_act === msg.seat && !auto;
  if (mine && !wasMine) { chime(); announce(t("your_turn")); }
  shown = { msg, model, mod, ctx };
  hintTurn(msg, (texts) => optionLabels(mod, msg, ctx, texts));
  $("title").textContent = msg.spectator ? `${msg.title} — ${t("watching")}` : `${msg.title} — ${ctx.names[msg.seat]}`;
  if (!msg.spectator && document.activeElement !== $("name")) $("name").value = ctx.names[msg.seat];
  $("leave").hidden = msg.over || !!msg.spectator;
  roomFacts(msg);
  if (sheet && prev && sheet.rounds.length > summaryRound && summaryRound >= 0 && !msg.over) {
    const label = sheet.rounds[sheet.rounds.length - 1].label;
    overlay("summary", mod.summaryTitle ? mod.summaryTitle(label) : t("round_summary", { round: label }),
      roundSummary(sheet, ctx.names, sheet.rounds.length - 1), mod.summaryNote ? mod.summaryNote(msg, ctx) : null);
    summaryShownAt = msg.n;
  } else if ($("overlay").dataset.kind === "summary" && (model.trick.length || model.dismissSummary)) {
    hideOverlay();
  }
  if (sheet) summaryRound = sheet.rounds.length;
  if (msg.over) gameOver(msg, mod, ctx, sheet);
  // The automatic move is sent after a short pause (the window stays readable a moment); a bot
  // holding nothing playable passes at once (TableManager.bot_wait), so a longer pause hid
  // nothing and made the Malheur windows half of a game's time (issue 50).
  if (auto) setTimeout(() => { if (msg === latest) act(auto); }, AUTO_PAUSE);
  if (newDeal) animateDeal(board);
  else if (!reducedMotion()) await animatePlays(board, before, msg.seat);
  if (summaryShownAt === msg.n && $("overlay").dataset.kind === "summary") await holdSummary();
  await tellCoach(msg);
}

/** Tell a lesson's coach (lesson.js) what is drawn: it may hold the next drawings (hold(promise))
    until its words are read. */
function tellCoach(msg) {
  const holds = [];
  document.dispatchEvent(new CustomEvent("atout:shown", { detail: { msg, hold: (p) => holds.push(p) } }));
  if (holds.length) coachHeld = true;
  return Promise.all(holds);
}

/** Let the round's summary be read: the next moves wait until it is closed or SUMMARY_HOLD has
    passed; after that the next card on the table puts it away. */
function holdSummary() {
  return new Promise((resolve) => {
    const timer = setTimeout(done, SUMMARY_HOLD[store.get("speed", "normal")] || SUMMARY_HOLD.normal);
    function done() { clearTimeout(timer); releaseSummary = null; document.removeEventListener("click", onClick, true); resolve(); }
    function onClick(ev) { if (!ev.target.closest("#overlay .overlay-card")) done(); }
    releaseSummary = done;
    document.addEventListener("click", onClick, true);
  });
}

function announceTrick(prev, model, ctx) {
  const had = new Set(prev.model.trick.map((p) => `${p.seat}:${p.card}`));
  const fresh = model.trick.filter((p) => !had.has(`${p.seat}:${p.card}`));
  if (fresh.length) announce(fresh.map((p) => t("played_card", { name: ctx.names[p.seat], card: ctx.cardName(p.card) })).join(". "));
}

function gameOver(msg, mod, ctx, sheet) {
  // The replay and the records are the players' (a spectator has no key to ask them with).
  $("after").hidden = !!msg.spectator;
  if (!msg.spectator && !$("replay-seat").options.length) setupReplay(msg);
  if ($("overlay").dataset.kind === "final") return;
  window.scrollTo({ top: 0 }); // the ranking is drawn from the table's top down to the window's bottom
  overlay("final", t("final_ranking"),
    ranking(msg.result, ctx.names, mod.higherIsBetter !== false),
    mod.finalNote ? mod.finalNote(msg, ctx) : null, // why the match ended, when a game says (Le Nain Jaune)
    el("p", { class: "final-actions" },
      el("button", { type: "button", onclick: sheetView }, t("score_sheet")),
      el("button", { type: "button", onclick: () => { hideOverlay(); $("after").scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth" }); } }, t("replay")),
      msg.spectator ? null : el("button", { type: "button", id: "rematch", class: "primary", onclick: askRematch }, t("rematch"))),
    el("p", { id: "rematch-note", class: "rematch-note" }),
    chart(sheet, ctx.names));
  roomFacts(msg);
}

/** A friend opening their invite link for the first time is asked their name (the creator
    may have left "Player 2"); the seat keeps it, and this device does not ask again. */
function askName(msg, current) {
  if ($("name-ask")) return;
  const input = el("input", { id: "name-ask-input", maxlength: 40, required: true, value: current, autocomplete: "nickname", "aria-label": t("your_name") });
  const form = el("form", { id: "name-ask", class: "name-ask", role: "dialog", "aria-labelledby": "name-ask-title",
    onsubmit: (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name || !socket || socket.readyState !== WebSocket.OPEN) return;
      if (name !== current) socket.send(JSON.stringify({ type: "name", name }));
      markNamed(tableId, msg.seat);
      form.remove();
    } },
  el("strong", { id: "name-ask-title" }, t("name_ask_title")),
  el("label", { for: "name-ask-input" }, t("name_ask")),
  el("span", { class: "name-ask-row" }, input, el("button", { type: "submit", class: "primary" }, t("name_ask_go"))));
  // Not focused: a player who starts with the keyboard (digits to bid) is not typing a name.
  document.body.append(form);
}

/* ---- the living table: presence, clock, spectators, rematch (issue 18) ------------------- */

function askRematch() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "rematch" }));
  for (const b of [$("rematch"), $("rematch-after")]) if (b) b.disabled = true;
}

function nextTable(id) {
  if (!spectator && shown) markNamed(id, shown.msg.seat); // the same seats and names carry over
  const url = `/table/${id}#${key ? `key=${encodeURIComponent(key)}` : `watch=${encodeURIComponent(watch || "")}`}`;
  left = true;
  if (socket) socket.close();
  location.assign(url);
}

/** The facts of the room the board does not draw: spectators, my away bot, rematch votes. */
function roomFacts(msg) {
  const room = msg.room || {};
  $("spectators").textContent = room.spectators ? t(room.spectators === 1 ? "spectators_one" : "spectators", { n: room.spectators }) : "";
  $("spectators").hidden = !room.spectators;
  if ($("chat-watchers")) $("chat-watchers").textContent = $("spectators").textContent;
  const mine = !msg.spectator && msg.seats[msg.seat] && msg.seats[msg.seat].away;
  $("away-banner").hidden = !mine;
  $("chat").classList.toggle("read-only", !!msg.spectator && !room.spectator_chat);
  for (const note of [$("rematch-note"), $("rematch-after-note")]) {
    if (!note || !room.rematch) continue;
    const humans = msg.seats.filter((s) => !s.bot && !s.free).length;
    if (room.rematch.next) note.replaceChildren(el("button", { type: "button", class: "primary", onclick: () => nextTable(room.rematch.next) }, t("rematch_go")));
    else note.textContent = room.rematch.votes.length ? t("rematch_votes", { n: room.rematch.votes.length, of: humans }) : "";
  }
  for (const b of [$("rematch"), $("rematch-after")]) if (b && room.rematch && room.rematch.votes.includes(msg.seat)) b.disabled = true;
}

/** Each seat's clock: the server says how long is left; the page counts it down. */
function tickClocks() {
  const now = performance.now();
  document.querySelectorAll(".seat-clock[data-deadline]").forEach((c) => {
    const left = Math.max(0, Math.ceil((Number(c.dataset.deadline) - now) / 1000));
    const m = Math.floor(left / 60);
    c.textContent = `${m}:${String(left % 60).padStart(2, "0")}`;
    c.classList.toggle("low", left <= 10);
  });
}

async function pump() {
  if (busy) return;
  busy = true;
  try {
    while (queue.length) {
      const msg = queue.shift();
      if (queue.some((m) => m.n === msg.n)) continue; // a newer copy of the same position (a rename)
      await show(msg);
      // The moves a lesson's coach held back were the bots', made while the learner read: drawn
      // one at a time at the bots' own pace, as they would have come, not all at once.
      if (coachHeld && queue.length) await pause(BOT_PACE[store.get("speed", "normal")] || BOT_PACE.normal);
    }
    coachHeld = false; // (caught up: the moves held back by a coach are all drawn)
  } finally {
    busy = false;
  }
}

/* ---- the socket ------------------------------------------------------------------------ */

const REFUSALS = ["illegal", "not_your_turn", "notation", "stale", "over"];

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  socket.onopen = () => {
    retry = 0;
    const join = spectator ? { type: "join", watch: watch || true, lang: i18n.lang, living: true } : { type: "join", key, lang: i18n.lang, living: true };
    socket.send(JSON.stringify(join));
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      if (msg.room && msg.room.clock) msg.room.clock.deadline = performance.now() + msg.room.clock.left * 1000;
      const back = reconnecting;
      const fresh = !latest || msg.n !== latest.n || back;
      latest = msg;
      reconnecting = false;
      if (fresh) notice("");
      if (pendingMove && (pendingMove.n !== msg.n || msg.over || msg.to_act !== msg.seat)) pendingMove = null; // answered
      if (pendingMove && (back || !pendingMove.sent)) {
        socket.send(JSON.stringify({ type: "act", action: pendingMove.action, n: pendingMove.n }));
        pendingMove.sent = true;
      }
      queue.push(msg);
      pump();
    } else if (msg.type === "chat") {
      addLine(msg.line);
    } else if (msg.type === "chat_log") {
      setLog(msg.lines);
    } else if (msg.type === "event") {
      announce(announceEvent(msg));
    } else if (msg.type === "rematch") {
      nextTable(msg.table);
    } else if (msg.type === "error") {
      pendingMove = null; // the move's answer (or the socket's: the move is not sent again)
      const text = REFUSALS.includes(msg.code) ? t("refused", { reason: msg.message }) : t("error", { message: msg.message });
      // On a phone a refusal takes the prompt's line under the felt (the next move redraws it)
      // instead of a box over the trump, a plate or the led card.
      if (REFUSALS.includes(msg.code) && phone() && $("prompt")) refusalInPrompt(text);
      else notice(text, true);
      announce(msg.message);
      document.dispatchEvent(new CustomEvent("atout:refused", { detail: { code: msg.code, message: msg.message } }));
      if (msg.code === "bad_key" || msg.code === "not_found" || msg.code === "private") { left = true; socket.close(); }
    } else if (msg.type === "left") {
      // The seat was handed over to a bot (from another tab or device): this page no longer plays it.
      left = true; notice(t("left")); announce(msg.message); $("board").replaceChildren();
    }
  };
  socket.onclose = () => {
    if (left) return;
    reconnecting = true;
    notice(t("reconnecting"), true);
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 300 * retry);
  };
}

async function post(path, body) {
  return fetch(`/api/tables/${tableId}/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key, ...body }) });
}

async function download(format) {
  const r = await post("record", { format });
  if (!r.ok) { notice(t("error", { message: (await r.json()).message }), true); return; }
  const disposition = r.headers.get("Content-Disposition") || "";
  const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "game.atout";
  const url = URL.createObjectURL(await r.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/* ---- replay: the finished game move by move, as one seat saw it ------------------------ */

function setupReplay(msg) {
  $("replay-seat").replaceChildren(...msg.seats.map((s, i) => el("option", { value: i, selected: i === msg.seat }, s.name)));
  $("step").max = msg.n;
  $("step").value = msg.n;
  const showStep = async () => {
    const step = Number($("step").value);
    const r = await post("replay", { step, as_seat: Number($("replay-seat").value) });
    const data = await r.json();
    if (!r.ok) { notice(t("error", { message: data.message }), true); return; }
    $("step-label").textContent = t("step", { step, steps: data.steps });
    const base = latest;
    const view = { ...base, seat: data.seat, view: data.view, legal: [], over: data.over, to_act: data.view.current_player, result: data.over ? base.result : null, room: null };
    const mod = await adapterFor(base.game);
    const ctx = context(view, mod, true);
    const model = mod.model(view, ctx);
    const sheet = mod.sheet ? mod.sheet(view) : null;
    $("replay-board").replaceChildren(el("div", { class: "replay-table" }, drawInfo(model, ctx), drawFelt(view, model, ctx), el("div", { class: "hand-zone" }, drawHand(view, model, ctx))),
      el("div", { class: "replay-scores" }, chart(sheet, ctx.names)), replayChat(step));
    const felt = $("replay-board").querySelector(".felt");
    fitHand($("replay-board").querySelector(".hand-zone"));
    if (felt) fitFelt(felt);
    reviewStep(step, data.seat, (texts) => optionLabels(mod, view, ctx, texts), mod.roundUnit || "round", mod.reviewMoves || {});
  };
  $("step").addEventListener("input", showStep);
  $("replay-seat").addEventListener("change", showStep);
  $("prev").addEventListener("click", () => { $("step").value = Math.max(0, Number($("step").value) - 1); showStep(); });
  $("next").addEventListener("click", () => { $("step").value = Math.min(Number($("step").max), Number($("step").value) + 1); showStep(); });
  setupReview({ post, names: seatNames(msg), goTo: (step) => { $("step").value = step; showStep(); } });
  showStep();
}

/* ---- keyboard: arrows and Enter for cards, digits for bids ------------------------------ */

let digits = "";
let digitTimer = null;
function onKey(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const cards = [...document.querySelectorAll("#board .hand button.card")];
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    if (!cards.length) return;
    ev.preventDefault();
    let i = cards.indexOf(document.activeElement);
    if (i < 0) i = Math.max(0, cards.findIndex((c) => c.classList.contains("legal")));
    else i = (i + (ev.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards.forEach((c, j) => { c.tabIndex = j === i ? 0 : -1; });
    cards[i].focus();
  } else if (/^[0-9]$/.test(ev.key)) {
    digits += ev.key;
    clearTimeout(digitTimer);
    const exact = document.querySelector(`#board .moves button[data-key="${digits}"]`);
    const longer = document.querySelector(`#board .moves button[data-key^="${digits}"]:not([data-key="${digits}"])`);
    if (exact && !longer) { exact.click(); digits = ""; return; }
    digitTimer = setTimeout(() => { const b = document.querySelector(`#board .moves button[data-key="${digits}"]`); digits = ""; if (b) b.click(); }, 700);
  } else if (ev.key === "Escape") {
    hideOverlay(); closeChooser();
  } else if (ev.key === "l" || ev.key === "L") {
    lastTrickView();
  }
}

/* ---- start ---------------------------------------------------------------------------- */

async function main() {
  await loadStrings();
  translatePage();
  if (!key && !spectator) { notice(t("no_key"), true); return; }
  setupHints(key ? post : null); // a spectator has no key: told only whether hints are on
  document.body.classList.toggle("spectating", spectator);
  setupChat($("chat"), (text) => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "chat", text })); }, true);
  $("rematch-after").addEventListener("click", askRematch);
  $("away-back").addEventListener("click", () => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "back" })); });
  setInterval(tickClocks, 500);
  $("btn-last").addEventListener("click", lastTrickView);
  $("btn-sheet").addEventListener("click", sheetView);
  const sound = $("btn-sound");
  const paintSound = () => {
    const on = store.get("sound", "off") === "on";
    sound.textContent = t(on ? "sound_short_on" : "sound_short_off");
    sound.setAttribute("aria-pressed", String(on));
    sound.title = t(on ? "sound_on" : "sound_off");
    sound.setAttribute("aria-label", t(on ? "sound_on" : "sound_off"));
  };
  sound.addEventListener("click", () => { store.set("sound", store.get("sound", "off") === "on" ? "off" : "on"); paintSound(); chime(); });
  paintSound();
  const speed = $("speed");
  speed.value = store.get("speed", "normal");
  setTempo(TEMPO[speed.value] || 1);
  speed.addEventListener("change", () => { store.set("speed", speed.value); setTempo(TEMPO[speed.value] || 1); });
  $("download").addEventListener("click", () => download("text"));
  $("download-json").addEventListener("click", () => download("json"));
  $("rename").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "name", name: $("name").value }));
  });
  $("leave").addEventListener("click", async () => {
    if (!confirm(t("leave_confirm"))) return;
    const r = await post("leave", {});
    if (r.ok) { left = true; socket.close(); notice(t("left")); $("board").replaceChildren(); }
    else notice(t("error", { message: (await r.json()).message }), true);
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => fitBoard());
  notice(t("connecting"));
  connect();
}

void has;
main();
