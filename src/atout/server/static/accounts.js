/* Optional accounts in the pages (server/account_web.py): the sign-in page (/account), a profile
   (/u/NAME), a game's leaderboard (/leaderboard/GAME), "my games" on the home page, and on a
   table page the seat's claim by the signed-in player and their rating change once the game is
   over.  Every text comes from i18n/<lang>/account.json; names are inserted as text. */
import { el, svg, t, has, i18n, loadStrings, translatePage, isNamed, markNamed, decimal } from "./lib/dom.js";

const $ = (id) => document.getElementById(id);

/** A JSON request to the API: {ok, status, data}. */
async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  try {
    const r = await fetch(path, init);
    return { ok: r.ok, status: r.status, data: await r.json().catch(() => ({})) };
  } catch {
    return { ok: false, status: 0, data: { code: "network" } };
  }
}

/** What went wrong, in the reader's language (an API error's code). */
function errorText(data) {
  const key = `acc_err_${data && data.code}`;
  return has(key) ? t(key) : t("acc_err_other");
}

async function me() {
  const r = await api("/api/account/me");
  return r.ok ? r.data.account : null;
}

let titles = null;
/** The games' titles by name (from the catalogue). */
async function gameTitles() {
  if (!titles) {
    const r = await api(`/api/games?lang=${i18n.lang}`);
    titles = Object.fromEntries(((r.data && r.data.games) || []).map((g) => [g.name, g.title]));
  }
  return titles;
}

const number = (x, digits = 1) => decimal(Number(x), { digits, fixed: true });
const signed = (x) => decimal(Number(x), { digits: 1, fixed: true, sign: "exceptZero" });
const when = (iso) => new Date(iso).toLocaleDateString(i18n.lang, { year: "numeric", month: "short", day: "numeric" });
const tableLink = (g) => `/table/${encodeURIComponent(g.table)}#key=${encodeURIComponent(g.key)}`;

/* ---- /account ------------------------------------------------------------------------- */
async function accountPage() {
  const account = await me();
  $("signed-out").hidden = !!account;
  $("signed-in").hidden = !account;
  if (account) return showSettings(account);
  for (const id of ["signin", "signup"]) {
    const form = $(id);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await api(`/api/account/${id}`, { name: form.elements.name.value, password: form.elements.password.value });
      if (r.ok) location.assign(`/u/${encodeURIComponent(r.data.account.name)}`);
      else form.querySelector(".notice").textContent = errorText(r.data);
    });
    // Enabled only now: a form sent before this listener would go to the server as a plain
    // POST (method="post", refused there), never with the password in a URL.
    form.querySelector("button[type=submit]").disabled = false;
  }
}

function showSettings(account) {
  $("hello").textContent = t("acc_hello", { name: account.name });
  $("my-profile").href = `/u/${encodeURIComponent(account.name)}`;
  $("public").checked = account.public;
  $("leaderboard").checked = account.leaderboard;
  const save = async () => {
    const r = await api("/api/account/settings", { public: $("public").checked, leaderboard: $("leaderboard").checked });
    $("saved").textContent = r.ok ? t("acc_saved") : errorText(r.data);
  };
  $("public").addEventListener("change", save);
  $("leaderboard").addEventListener("change", save);
  $("signout").addEventListener("click", async () => {
    await api("/api/account/signout", {});
    location.assign("/account");
  });
}

/* ---- /u/NAME --------------------------------------------------------------------------- */
async function profilePage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  $("who").textContent = name;
  const r = await api(`/api/profile/${encodeURIComponent(name)}`);
  if (!r.ok) {
    $("refused").hidden = false;
    $("refused").textContent = errorText(r.data);
    return;
  }
  const { summary, ratings, games, owner, account } = r.data;
  const names = await gameTitles();
  $("who").textContent = account.name;
  document.title = `${account.name} · atout`;
  const played = Object.keys({ ...summary, ...ratings });
  $("by-game").replaceChildren(
    el("thead", {}, el("tr", {}, ...["acc_game", "acc_played", "acc_wins", "acc_margin", "acc_contracts", "acc_rating", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : "")))),
    el("tbody", {}, ...played.map((g) => {
      const s = summary[g] || { played: 0, wins: 0, margin_per_round: 0, made: null };
      const rating = ratings[g];
      // data-label: a phone shows each game as a card of labelled lines (account.css).
      return el("tr", {},
        el("th", { scope: "row" }, names[g] || g),
        el("td", { "data-label": t("acc_played") }, String(s.played)),
        el("td", { "data-label": t("acc_wins") }, String(s.wins)),
        el("td", { "data-label": t("acc_margin") }, s.played ? signed(s.margin_per_round) : "–"),
        el("td", { "data-label": t("acc_contracts") }, s.made === null ? "–" : t("acc_made", { made: s.made, of: s.contracts })),
        el("td", { "data-label": t("acc_rating"), title: rating ? t("acc_rating_help", { mu: number(rating.mu), sigma: number(rating.sigma) }) : null }, rating ? number(rating.rating) : "–"),
        el("td", {}, el("a", { href: `/leaderboard/${encodeURIComponent(g)}` }, t("acc_board"))));
    })),
  );
  // No game yet: no table of headings over nothing (the line under "Games" says so).
  const byGame = $("by-game").parentElement;
  byGame.hidden = byGame.previousElementSibling.hidden = played.length === 0;
  $("games").replaceChildren(...games.map((g) => gameLine(g, names, owner)));
  $("no-games").hidden = games.length > 0;
  $("figures").hidden = false;
}

/** One game of a list: its title, date, seats, result; the owner's with a link to the table
    (unfinished: to play on; finished: its replay, record and review). */
function gameLine(g, names, linked) {
  // The other players' names are the owner's to see only (the server sends them to no one else).
  const seats = g.names.map((n, i) => (i === g.seat ? `${n} (${t("acc_you")})` : n)).join(", ");
  let outcome = t("acc_unfinished");
  if (g.finished && g.result) {
    outcome = t(g.result.won ? "acc_won" : "acc_place", { rank: g.result.rank, players: g.result.players });
    if (g.result.rating) outcome += ` · ${t("acc_rating_change", { before: number(g.result.rating.before), after: number(g.result.rating.after) })}`;
  } else if (g.finished) outcome = t("acc_finished");
  const title = names[g.game] || g.game;
  return el("li", { class: g.finished ? "acc-game" : "acc-game acc-open" },
    el("span", { class: "acc-game-title" }, linked && g.key ? el("a", { href: tableLink(g) }, title) : title),
    el("span", { class: "acc-game-when" }, when(g.created)),
    el("span", { class: "acc-game-outcome" }, outcome),
    seats ? el("span", { class: "acc-game-seats" }, seats) : null,
    linked && g.key ? el("a", { class: "acc-game-go", href: tableLink(g) }, t(g.finished ? "acc_replay" : "acc_return")) : null);
}

/* ---- /leaderboard/GAME ------------------------------------------------------------------ */
async function leaderboardPage() {
  const game = decodeURIComponent(location.pathname.split("/").pop());
  const [r, names] = await Promise.all([api(`/api/leaderboard/${encodeURIComponent(game)}`), gameTitles()]);
  $("board-title").textContent = t("acc_board_title", { game: names[game] || game });
  const entries = (r.data && r.data.entries) || [];
  $("board").replaceChildren(
    el("thead", {}, el("tr", {}, ...["acc_rank", "acc_player", "acc_rating", "acc_rated_games"].map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, ...entries.map((e, i) => el("tr", { class: e.bot ? "acc-bot" : null },
      el("td", {}, String(i + 1)),
      el("th", { scope: "row" }, e.bot ? t("acc_bot_level", { level: has(`acc_level_${e.name}`) ? t(`acc_level_${e.name}`) : e.name })
        : e.public ? el("a", { href: `/u/${encodeURIComponent(e.name)}` }, e.name) : e.name),
      el("td", {}, number(e.rating)),
      el("td", {}, e.bot ? "–" : String(e.games))))),
  );
}

/* ---- the home page: the account link and "my games" ---------------------------------------- */
async function homePage() {
  const account = await me();
  const link = $("account-link");
  const label = account ? account.name : t("acc_signin");
  // A person's outline, then the name: a phone's bar keeps the outline only (account.css).
  link.replaceChildren(
    svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", class: "acc-link-icon" },
      svg("circle", { cx: 8, cy: 5, r: 3, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
      svg("path", { d: "M2.5 14.5c.8-3 3-4.5 5.5-4.5s4.7 1.5 5.5 4.5", fill: "none", stroke: "currentColor", "stroke-width": 1.6 })),
    el("span", { class: "acc-link-text" }, label));
  link.setAttribute("aria-label", label);
  link.title = label;
  link.href = account ? `/u/${encodeURIComponent(account.name)}` : "/account";
  link.hidden = false;
  if (!account) return;
  const r = await api("/api/account/games");
  const games = (r.ok && r.data.games) || [];
  if (!games.length) return;
  $("my-games-title").textContent = t("acc_my_games");
  const names = await gameTitles();
  // Unfinished tables first (to return to), then the latest finished ones.
  const shown = [...games.filter((g) => !g.finished), ...games.filter((g) => g.finished).slice(0, 5)];
  $("my-games").replaceChildren(...shown.map((g) => gameLine(g, names, true)));
  $("my-games-section").hidden = false;
}

/* ---- a table page: the seat joins the signed-in player's games; rating changes at the end ---
   A seat is the account's once its player has sat down on this device (named it: the creator's
   own link, a lobby seat, a friend's link once they gave their name): the creator checking a
   friend's link does not take the friend's seat.  Any other seat (a game played by link before
   signing in, a game over) is offered with a button: claimed by its key. */
async function tablePage() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const ratings = rankingRatings(table); // everyone's page: the final ranking shows what the reader may see
  if (!key || !(await me())) return;
  const r = await api("/api/account/seat", { table, key });
  if (!r.ok || r.data.owner === "other") return; // a key that no longer works, or another account's seat
  const claim = async () => (await api("/api/account/claim", { table, key })).ok;
  const showRating = () => ratings.reload();
  if (r.data.owner === "me") return;
  const seat = r.data.seat;
  let bar = null;
  let done = false;
  const tick = async () => {
    if (done) return;
    if (isNamed(table, seat)) { // they sat down here: the seat is theirs
      done = true;
      if (bar) bar.remove();
      if (await claim()) showRating();
      return;
    }
    // The offer waits while the table asks the newcomer's name (giving it answers both).
    if (!bar && !document.getElementById("name-ask")) {
      bar = note(t("acc_claim_offer"), el("button", { type: "button", class: "acc-note-action", onclick: async () => {
        done = true;
        if (await claim()) { bar.remove(); markNamed(table, seat); showRating(); }
      } }, t("acc_claim")));
    }
    setTimeout(tick, 1500);
  };
  setTimeout(tick, 1500); // the table's first message first: it may ask the name
}

/** A note over the table (the offer to keep a seat), closable. */
function note(...content) {
  const box = el("div", { class: "acc-note", role: "status" }, ...content,
    el("button", { type: "button", class: "acc-note-close", "aria-label": t("acc_close"), title: t("acc_close"), onclick: () => box.remove() }, "×"));
  document.body.append(box);
  return box;
}

/** The rating changes in the final ranking (the box with "Play again"), under each rated seat's
    name: the reader's own, and those of accounts whose profile is public (a private account's seat
    shows nothing: the server does not send it).  Asked for once the ranking is drawn (the game is
    counted then), drawn again whenever table.js redraws the box; ``reload()`` after a claim. */
function rankingRatings(table) {
  let ratings = null;
  let asking = false;
  const draw = () => {
    const list = document.querySelector('#overlay[data-kind="final"] ol.ranking');
    if (!list || !ratings) return;
    for (const r of ratings) {
      const row = list.querySelector(`li[data-seat="${r.seat}"]`);
      if (!row || row.querySelector(".acc-rating")) continue;
      const label = t(r.mine ? "acc_rating_mine" : "acc_rating_other", { before: number(r.before), after: number(r.after), diff: signed(r.after - r.before) });
      row.append(el("span", { class: r.mine ? "acc-rating acc-rating-mine" : "acc-rating" },
        r.mine ? label : el("a", { href: `/u/${encodeURIComponent(r.profile)}`, title: t("acc_profile_of", { name: r.profile }) }, label)));
    }
  };
  const ask = async () => {
    if (asking) return;
    asking = true;
    const r = await api(`/api/account/ratings/${encodeURIComponent(table)}`);
    asking = false;
    if (r.ok) { ratings = r.data.ratings; draw(); }
  };
  const look = () => {
    if (!document.querySelector('#overlay[data-kind="final"] ol.ranking')) return;
    if (ratings) draw(); else ask();
  };
  new MutationObserver(look).observe(document.getElementById("overlay"), { childList: true, subtree: true, attributes: true, attributeFilter: ["data-kind"] });
  look(); // the ranking may be drawn already (a finished game opened)
  // Asked only once the ranking is drawn: asked before (a claim during the game), the answer is
  // empty, and kept it hid the rating at the game's end (issue 50).
  return { reload: () => { ratings = null; document.querySelectorAll(".acc-rating").forEach((n) => n.remove()); look(); } };
}

async function main() {
  await loadStrings("account");
  const page = document.body.dataset.page;
  if (page) await loadStrings();
  if (page) translatePage();
  if (page === "account") await accountPage();
  else if (page === "profile") await profilePage();
  else if (page === "leaderboard") await leaderboardPage();
  else if ($("my-games-section")) await homePage();
  else if (location.pathname.startsWith("/table/")) await tablePage();
}

main();
