/* The home page: the games (rules one click away) and the table creation form,
   built from GET /api/games: each option's label, help and choice labels in the
   page's language, the bot levels, the bot paces.  Plain ES module, no build step.

   Every text comes from i18n/<lang>/ (table.json "home_*" keys, games.json
   through the API); names typed by people are inserted as text, never as HTML.
   Seats are numbered from 1 everywhere on the page; the first_dealer option's value
   is the engine's seat index (seat 1 is 0). */

import { startLobby } from "./lobby.js";
import { el, t, i18n, loadStrings, translatePage, markNamed, decimal } from "./lib/dom.js";

const $ = (id) => document.getElementById(id);
/** Per-game look of the game cards: an accent colour and an emblem (decoration only). */
const LOOKS = {
  wizard: { accent: "#3f51b5", emblem: "★" },
  malin: { accent: "#b3261e", emblem: "♣" },
  sticheln: { accent: "#00796b", emblem: "◆" },
  "nain-jaune": { accent: "#c98a00", emblem: "♦" },
};

const state = {
  games: [],
  paces: [],
  game: null,
  /** What each seat is, kept when the number of players changes: {name, kind}. */
  seats: [],
  pace: "normal",
  /** The signed-in account's name (null signed out): the creator's seat's name by default. */
  account: null,
};

function number(value) {
  return decimal(Number(value), { digits: 2 });
}

function levelOf(g, name) {
  return g.levels.find((l) => l.name === name);
}

/** A seat left unnamed: a bot's "Bot n"; the creator's own seat (the first human one) the signed-in
    account's name (issue 50: it was "Player 1" in the table, the ranking and the profile);
    any other human seat "Player n". */
function defaultName(i) {
  const s = state.seats[i];
  if (s && s.kind) return t("home_default_bot", { n: i + 1 });
  if (state.account && i === state.seats.findIndex((x) => !x.kind)) return state.account;
  return t("home_default_player", { n: i + 1 });
}

/** Each name field's placeholder says the name the seat gets if left empty. */
function namePlaceholders() {
  document.querySelectorAll("#seats input[name^=name]").forEach((input, i) => { input.placeholder = defaultName(i); });
}

function seatName(i) {
  const s = state.seats[i];
  return (s && s.name.trim()) || defaultName(i);
}

/* ---- the game cards ---------------------------------------------------------------- */

function gameCards() {
  $("games").replaceChildren(...state.games.map((g) => {
    const look = LOOKS[g.name] || { accent: "#1f5e3a", emblem: "♠" };
    return el("article", { class: "game-card", "data-game": g.name, style: `--accent: ${look.accent}` },
      el("div", { class: "game-band", "aria-hidden": "true" }, el("span", { class: "emblem" }, look.emblem)),
      el("div", { class: "game-body" },
        el("h3", {}, g.title),
        el("p", { class: "summary" }, g.summary),
        el("div", { class: "game-meta" },
          el("span", { class: "badge" }, t("home_players_range", { min: g.min_players, max: g.max_players })))),
      el("div", { class: "game-actions" },
        el("button", { type: "button", class: "primary small", onclick: () => chooseGame(g.name, true) }, t("home_play")),
        g.lesson ? el("a", { class: "learn-link", href: `/learn/${g.name}` }, t("home_learn")) : null,
        el("a", { class: "rules-link", href: `/rules/${g.name}`, target: "_blank", rel: "noopener", "aria-label": t("home_rules_of", { game: g.title }) }, t("rules"))));
  }));
}

function chooseGame(name, scroll) {
  $("game").value = name;
  gameChanged();
  if (scroll) {
    $("new-table").scrollIntoView({ behavior: "smooth", block: "start" });
    $("game").focus({ preventScroll: true });
  }
}

/* ---- seats ------------------------------------------------------------------------- */

function ensureSeats(n) {
  const g = state.game;
  while (state.seats.length < n) state.seats.push({ name: "", kind: state.seats.length === 0 ? "" : g.default_bot });
  for (const s of state.seats) if (s.kind && s.kind !== "open" && !levelOf(g, s.kind)) s.kind = g.default_bot;
}

function players() {
  const g = state.game;
  const n = Math.round(Number($("players").value));
  return Number.isFinite(n) ? Math.min(g.max_players, Math.max(g.min_players, n)) : g.min_players;
}

function kindSelect(g, i) {
  const s = state.seats[i];
  const human = el("option", { value: "", selected: !s.kind, title: t("home_human_help") }, t("human"));
  const bots = el("optgroup", { label: t("home_computer") },
    g.levels.map((l) => el("option", { value: l.name, selected: s.kind === l.name, title: g.bot_help[l.name] || l.help }, t("home_level", { level: l.label }))));
  const open = el("option", { value: "open", selected: s.kind === "open", title: t("home_open_help") }, t("home_open"));
  return el("select", { name: `kind${i}`, class: "kind", "aria-label": `${t("home_seat_n", { n: i + 1 })}: ${t("home_who")}` }, human, open, bots);
}

function seatHelp(g, i) {
  const s = state.seats[i];
  if (s.kind === "open") return t("home_open_help");
  return s.kind ? (levelOf(g, s.kind) || {}).help || "" : t("home_human_help");
}

function seatRows() {
  const g = state.game;
  const n = players();
  $("players").value = n;
  ensureSeats(n);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => {
    const s = state.seats[i];
    const help = el("small", { class: "seat-help" }, seatHelp(g, i));
    const name = el("input", {
      name: `name${i}`, value: s.name, placeholder: defaultName(i), maxlength: 40, autocomplete: "off",
      "aria-label": `${t("home_seat_n", { n: i + 1 })}: ${t("name")}`,
    });
    const kind = kindSelect(g, i);
    name.addEventListener("input", () => { s.name = name.value; dealerChoices(); });
    kind.addEventListener("change", () => {
      s.kind = kind.value;
      namePlaceholders();
      help.textContent = seatHelp(g, i);
      row.classList.toggle("is-bot", !!s.kind && s.kind !== "open");
      dealerChoices();
      allBots();
    });
    const row = el("li", { class: `seat-row${s.kind && s.kind !== "open" ? " is-bot" : ""}` },
      el("span", { class: "seat-no", "aria-hidden": "true" }, String(i + 1)),
      el("div", { class: "seat-fields" }, name, kind),
      help);
    return row;
  }));
  $("fewer").disabled = n <= g.min_players;
  $("more").disabled = n >= g.max_players;
  dealerChoices();
  allBots();
}

function allBots() {
  const n = players();
  $("all-bots").hidden = !state.seats.slice(0, n).every((s) => s.kind && s.kind !== "open");
}

/* ---- options ------------------------------------------------------------------------ */

/** The seat an option names (first_dealer): a choice of seats, shown from 1, valued from 0. */
function isSeatOption(o) {
  return o.kind === "int" && o.name === "first_dealer";
}

function dealerChoices() {
  const select = document.querySelector("select[name=opt_first_dealer]");
  if (!select) return;
  const o = state.game.options.find(isSeatOption);
  const keep = select.value;
  const n = players();
  select.replaceChildren(
    el("option", { value: "" }, o.none_label),
    ...Array.from({ length: n }, (_, i) => el("option", { value: String(i) }, t("home_seat_option", { n: i + 1, name: seatName(i) }))));
  select.value = Number(keep) < n ? keep : "";
}

function optionControl(o) {
  const name = `opt_${o.name}`;
  const id = `opt-${o.name}`;
  if (o.kind === "bool") {
    return el("span", { class: "switch" },
      el("input", { type: "checkbox", id, name, checked: !!o.default, role: "switch" }),
      el("span", { class: "switch-track", "aria-hidden": "true" }));
  }
  if (isSeatOption(o)) return el("select", { id, name });
  if (o.choices) {
    return el("select", { id, name }, o.choices.map((c) =>
      el("option", { value: String(c), selected: c === o.default }, (o.choice_labels && o.choice_labels[String(c)]) || String(c))));
  }
  return el("input", {
    id, name, type: o.kind === "int" ? "number" : "text", inputmode: o.kind === "int" ? "numeric" : null,
    min: o.minimum ?? null, max: o.maximum ?? null,
    value: o.default === null ? "" : String(o.default),
    placeholder: o.none_ok ? o.none_label : "",
    title: o.none_ok ? t("home_empty_means", { label: o.none_label }) : null,
  });
}

function optionRows() {
  const g = state.game;
  $("options").replaceChildren(...g.options.map((o) => {
    const control = optionControl(o);
    const bool = o.kind === "bool";
    return el("div", { class: `option${bool ? " option-bool" : ""}`, "data-option": o.name },
      el("label", { class: "option-head", for: `opt-${o.name}` },
        el("span", { class: "option-label" }, o.label),
        control),
      el("small", {}, o.help));
  }));
  $("options-block").hidden = g.options.length === 0;
}

function optionValues() {
  const out = {};
  for (const o of state.game.options) {
    const field = document.querySelector(`[name=opt_${o.name}]`);
    if (!field) continue;
    let text;
    if (o.kind === "bool") text = field.checked ? "true" : "false";
    else text = String(field.value).trim();
    const def = o.default === null ? "" : o.kind === "bool" ? String(!!o.default) : String(o.default);
    if (text !== def) out[o.name] = text === "" ? "none" : text;
  }
  return out;
}

/* ---- bot pace ----------------------------------------------------------------------- */

function paceButtons() {
  $("paces").replaceChildren(...state.paces.map((p) => {
    const input = el("input", { type: "radio", name: "bot_pace", value: p.name, id: `pace-${p.name}`, checked: p.name === state.pace });
    input.addEventListener("change", () => { state.pace = p.name; });
    return el("label", { class: "segment", for: `pace-${p.name}` }, input,
      el("span", { class: "segment-text" }, el("strong", {}, t(`home_pace_${p.name}`)), el("small", {}, t("home_pace_seconds", { s: number(p.seconds) }))));
  }));
}

/* ---- the form ----------------------------------------------------------------------- */

function gameChanged() {
  const g = state.games.find((x) => x.name === $("game").value) || state.games[0];
  const previous = state.game;
  state.game = g;
  if (previous && previous !== g) for (const s of state.seats) if (s.kind && !levelOf(g, s.kind)) s.kind = g.default_bot;
  $("players").min = g.min_players;
  $("players").max = g.max_players;
  if (!previous) $("players").value = Math.min(g.max_players, Math.max(g.min_players, 4));
  $("players-range").textContent = t("home_players_range", { min: g.min_players, max: g.max_players });
  optionRows();
  seatRows();
}

function step(delta) {
  $("players").value = players() + delta;
  seatRows();
}

async function copy(url, button) {
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = t("home_copied");
  } catch {
    button.textContent = t("home_copy_failed");
  }
  setTimeout(() => { button.textContent = t("copy"); }, 2000);
}

function showInvites(data, seats) {
  $("invites").hidden = false;
  $("create").hidden = true;
  const none = data.seats.length === 0;
  $("no-human").hidden = !none;
  $("invites-help").hidden = none;
  $("invite-list").replaceChildren(...data.seats.map((s) => {
    const button = el("button", { type: "button", class: "secondary small" }, t("copy"));
    button.addEventListener("click", () => copy(s.url, button));
    return el("li", { class: "invite" },
      el("a", { href: s.url, "data-seat": s.seat, class: "invite-open", onclick: () => markNamed(data.table, s.seat) }, t("home_open_seat", { seat: s.seat + 1, name: seats[s.seat].name })),
      el("div", { class: "invite-url" }, el("code", {}, s.url), button));
  }), watchInvite(data));
  $("invites").focus();
}

/** The lobby and clock settings of the creation form (issue 18). */
function livingSettings() {
  const turn = $("turn-time").value;
  return { public: $("public").checked, spectator_chat: $("spectator-chat").checked, hints: $("hints").checked, ...(turn === "" ? {} : { turn_time: Number(turn) }) };
}

/** The watch link: spectators see the public view only. */
function watchInvite(data) {
  if (!data.watch_url) return null;
  const button = el("button", { type: "button", class: "secondary small" }, t("copy"));
  button.addEventListener("click", () => copy(data.watch_url, button));
  return el("li", { class: "invite watch" },
    el("a", { href: data.watch_url, class: "invite-open invite-watch" }, t("home_watch_link")),
    el("div", { class: "invite-url" }, el("code", {}, data.watch_url), button));
}

async function submit(ev) {
  ev.preventDefault();
  const g = state.game;
  const n = players();
  const seats = Array.from({ length: n }, (_, i) => {
    const kind = state.seats[i].kind;
    return kind === "open" ? { name: state.seats[i].name.trim(), bot: null, open: true } : { name: seatName(i), bot: kind || null };
  });
  const body = { game: g.name, players: n, options: optionValues(), seats, bot_pace: state.pace, ...livingSettings() };
  const button = $("create-button");
  button.disabled = true;
  button.textContent = t("home_creating");
  try {
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) { $("form-error").textContent = t("error", { message: data.message }); return; }
    $("form-error").textContent = "";
    showInvites(data, seats);
  } catch {
    $("form-error").textContent = t("home_network");
  } finally {
    button.disabled = false;
    button.textContent = t("create");
  }
}

/** The signed-in account's name, or null (no account, or the server unreachable). */
async function accountName() {
  try {
    const r = await fetch("/api/account/me");
    const data = r.ok ? await r.json() : null;
    return (data && data.account && data.account.name) || null;
  } catch {
    return null;
  }
}

async function main() {
  await loadStrings();
  await loadStrings("review"); // the hint setting's label
  await loadStrings("tutorial"); // "Learn to play" (lessons: server/lessons.py)
  translatePage();
  const data = await (await fetch(`/api/games?lang=${i18n.lang}`)).json();
  state.games = data.games;
  state.paces = data.bot_paces || [];
  state.pace = data.default_pace || "normal";
  // The lobby above the game cards first: drawn after them, it moved them (and their links) down.
  // (A slow answer does not hold the cards back more than a moment.)
  await Promise.race([startLobby($("lobby"), state.games), new Promise((done) => setTimeout(done, 1500))]);
  // The games offered only now, with the form made ready in the same task: a game chosen
  // while the lobby loaded was set back to the first one below (the choice was lost and the
  // table created for Wizard).
  for (const g of state.games) $("game").append(el("option", { value: g.name }, g.title));
  gameCards();
  paceButtons();
  $("game").addEventListener("change", gameChanged);
  $("players").addEventListener("change", seatRows);
  $("fewer").addEventListener("click", () => step(-1));
  $("more").addEventListener("click", () => step(1));
  $("create").addEventListener("submit", submit);
  $("again").addEventListener("click", () => {
    $("invites").hidden = true;
    $("create").hidden = false;
    $("create").scrollIntoView({ block: "start" });
  });
  accountName().then((name) => { state.account = name; namePlaceholders(); dealerChoices(); });
  const wanted = new URLSearchParams(location.search).get("game");
  $("game").value = state.games.some((g) => g.name === wanted) ? wanted : state.games[0].name;
  gameChanged();
}

main();
