/* The home page's lobby: public tables with a free seat or under way, refreshed every few
   seconds (GET /api/tables), with Join (a name, then the free seat's own link) and Watch.
   Names come from strangers: always inserted as text. */

import { el, t, tn, markNamed } from "./lib/dom.js";

const POLL = 4000;
let timer = null;
/** The games as /api/games describes them in the page's language (option labels). */
let catalogue = [];

/** "rounds=2 bids=hidden" as the creation form words it: "Rounds: 2 · Bids: hidden until…". */
function optionsText(entry) {
  const game = catalogue.find((g) => g.name === entry.game);
  if (!entry.options) return "";
  return entry.options.split(" ").map((pair) => {
    const [name, value] = pair.split("=");
    const o = game && game.options.find((x) => x.name === name);
    if (!o) return pair;
    const shown = name === "first_dealer" && /^\d+$/.test(value) ? t("lobby_seat_n", { n: Number(value) + 1 })
      : (o.choice_labels && o.choice_labels[value]) || (value === "none" && o.none_label) || value;
    return `${o.label}: ${shown}`;
  }).join(" · ");
}

function seatLine(s) {
  const state = s.free ? t("lobby_free_bot") : s.bot ? t("lobby_bot") : s.away ? t("lobby_away") : s.connected ? t("lobby_here") : t("lobby_gone");
  return el("li", { class: `lobby-seat${s.free ? " free" : ""}${s.connected ? " here" : ""}`, "data-seat": s.seat },
    el("span", { class: "lobby-seat-name" }, s.free ? t("home_seat_n", { n: s.seat + 1 }) : s.name), " ", el("small", {}, state));
}

async function join(table, seat, name, out) {
  const r = await fetch(`/api/tables/${table}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat, name }) });
  const data = await r.json();
  if (!r.ok) { out.textContent = t("error", { message: data.message }); return; }
  markNamed(table, seat); // the name was just given: the table does not ask it again
  location.href = data.url;
}

function joinForm(entry) {
  const free = entry.seats.filter((s) => s.free);
  const name = el("input", { class: "lobby-name", maxlength: 40, required: true, placeholder: t("your_name"), "aria-label": t("your_name"), autocomplete: "nickname" });
  const seat = el("select", { class: "lobby-seat-choice", "aria-label": t("lobby_seat") }, free.map((s) => el("option", { value: s.seat }, t("home_seat_n", { n: s.seat + 1 }))));
  const out = el("p", { class: "notice error", role: "alert" });
  const form = el("form", { class: "lobby-join", onsubmit: (ev) => { ev.preventDefault(); if (name.value.trim()) join(entry.table, Number(seat.value), name.value, out); } },
    name, free.length > 1 ? seat : null, el("button", { type: "submit", class: "primary small" }, t("lobby_sit")), out);
  form.dataset.seat = String(free[0].seat);
  seat.addEventListener("change", () => { form.dataset.seat = seat.value; });
  return form;
}

function card(entry, open) {
  const joinBox = el("div", { class: "lobby-join-box" });
  const free = entry.seats.some((s) => s.free);
  const actions = el("p", { class: "lobby-actions" },
    free ? el("button", { type: "button", class: "primary small lobby-join-btn", onclick: () => { if (!joinBox.firstChild) { joinBox.append(joinForm(entry)); joinBox.querySelector("input").focus(); } } }, t("lobby_join")) : null,
    el("a", { class: "secondary small lobby-watch", href: `/table/${entry.table}#watch=` }, t("lobby_watch")));
  const facts = [entry.status === "open" ? t("lobby_status_open") : t("lobby_status_running"), tn("lobby_moves", entry.moves)];
  if (entry.spectators) facts.push(t(entry.spectators === 1 ? "spectators_one" : "spectators", { n: entry.spectators }));
  if (entry.turn_time) facts.push(t("lobby_turn_time", { s: entry.turn_time }));
  return el("li", { class: `lobby-table ${entry.status}`, "data-table": entry.table },
    el("h3", {}, entry.title, " ", el("small", {}, t("lobby_players", { n: entry.players }))),
    entry.options ? el("p", { class: "lobby-options", title: entry.options }, optionsText(entry)) : null,
    el("p", { class: "lobby-facts" }, facts.join(" · ")),
    el("ul", { class: "lobby-seats" }, entry.seats.map(seatLine)),
    actions, open ? joinBox : joinBox);
}

async function refresh(root) {
  // A join form being filled is not redrawn under the player's fingers.
  if (root.querySelector(".lobby-join")) return;
  try {
    const r = await fetch("/api/tables");
    const data = await r.json();
    const tables = data.tables || [];
    root.dataset.count = String(tables.length);
    root.replaceChildren(tables.length ? el("ul", { class: "lobby-list" }, tables.map((e) => card(e))) : el("p", { class: "lobby-empty" }, t("lobby_empty")));
  } catch { /* offline for a moment: the next poll tries again */ }
}

/** Draw the lobby and poll it; resolves once it is first drawn (the home page draws what sits
    below it after: a lobby filled later pushed the game cards down under a reader's finger). */
export function startLobby(root, games = []) {
  catalogue = games;
  clearInterval(timer);
  timer = setInterval(() => { if (!document.hidden) refresh(root); }, POLL);
  return refresh(root);
}
