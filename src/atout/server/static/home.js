/* The home page: the games, their rules, and the table creation form built
   from each game's option specs (Game.option_specs, served by /api/games). */
"use strict";

(async () => {
  await atout.loadLang();
  const { games } = await (await fetch(`/api/games?lang=${atout.lang}`)).json();
  const $ = (id) => document.getElementById(id);
  for (const g of games) {
    $("games").append(atout.el("div", { class: "game-card", "data-game": g.name },
      atout.el("h3", {}, g.title),
      atout.el("p", {}, g.summary),
      atout.el("p", {}, `${g.min_players}–${g.max_players} ${atout.t("players").toLowerCase()} · `,
        atout.el("a", { href: `/rules/${g.name}`, target: "_blank" }, atout.t("rules")))));
    $("game").append(atout.el("option", { value: g.name }, g.title));
  }

  function current() { return games.find((g) => g.name === $("game").value); }

  function seatRows() {
    const g = current();
    const n = Number($("players").value);
    $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => atout.el("div", { class: "seat-row" },
      atout.el("span", {}, `${atout.t("seat")} ${i + 1} `),
      atout.el("input", { name: `name${i}`, value: i === 0 ? "" : `${atout.t("bot")} ${i + 1}`, placeholder: atout.t("name"), maxlength: 40 }),
      atout.el("select", { name: `kind${i}` },
        atout.el("option", { value: "" }, atout.t("human")),
        g.bots.map((b) => atout.el("option", { value: b, title: g.bot_help[b] || null, selected: i > 0 && b === g.default_bot }, `${atout.t("bot")}: ${b}`))))));
  }

  /* A choice as shown: its value, after its label in the page's language when there is one. */
  function choiceLabel(o, c) {
    const label = o.choice_labels && o.choice_labels[String(c)];
    return label && label !== String(c) ? `${label} (${c})` : String(c);
  }

  function optionRows() {
    const g = current();
    $("options").replaceChildren(...g.options.map((o) => {
      let input;
      if (o.kind === "bool") {
        input = atout.el("select", { name: `opt_${o.name}` },
          atout.el("option", { value: "false", selected: !o.default }, atout.t("no")),
          atout.el("option", { value: "true", selected: !!o.default }, atout.t("yes")));
      } else if (o.choices) {
        input = atout.el("select", { name: `opt_${o.name}` }, o.choices.map((c) => atout.el("option", { value: String(c), selected: c === o.default }, choiceLabel(o, c))));
      } else {
        input = atout.el("input", {
          name: `opt_${o.name}`, type: o.kind === "int" ? "number" : "text",
          min: o.minimum ?? null, max: o.maximum ?? null,
          value: o.default === null ? "" : String(o.default), placeholder: o.none_ok ? atout.t("none") : "",
        });
      }
      return atout.el("div", { class: "option" }, atout.el("label", {}, atout.el("strong", {}, o.name), " ", input), atout.el("small", {}, o.help));
    }));
  }

  function gameChanged() {
    const g = current();
    $("players").min = g.min_players;
    $("players").max = g.max_players;
    $("players").value = Math.min(g.max_players, Math.max(g.min_players, 4));
    seatRows();
    optionRows();
  }
  $("game").addEventListener("change", gameChanged);
  $("players").addEventListener("change", seatRows);
  gameChanged();

  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = current();
    const form = new FormData($("create"));
    const n = Number($("players").value);
    const options = {};
    for (const o of g.options) {
      const v = form.get(`opt_${o.name}`);
      if (v === null) continue;
      const text = String(v).trim();
      const def = o.default === null ? "" : String(o.default);
      if (text !== def) options[o.name] = text === "" ? "none" : text;
    }
    const seats = Array.from({ length: n }, (_, i) => ({ name: String(form.get(`name${i}`) || ""), bot: form.get(`kind${i}`) || null }));
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ game: g.name, players: n, options, seats }) });
    const data = await r.json();
    if (!r.ok) { $("form-error").textContent = atout.t("error", { message: data.message }); return; }
    $("form-error").textContent = "";
    $("invites").hidden = false;
    $("invite-list").replaceChildren(...data.seats.map((s) => atout.el("li", { class: "invite" },
      atout.el("a", { href: s.url, "data-seat": s.seat }, atout.t("sit", { seat: s.seat + 1 })), " ",
      atout.el("code", {}, s.url), " ",
      atout.el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(s.url) }, atout.t("copy")))));
  });
})();
