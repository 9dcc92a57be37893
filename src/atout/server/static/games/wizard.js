/* Wizard's table: coloured suits, Wizards and Jesters of our own drawing,
   trump and turned-up card, the trick, bids, the score sheet and a chart. */
"use strict";

(() => {
  const SUITS = { B: ["#1f5fbf", "blue"], G: ["#1e8a3c", "green"], R: ["#c0262d", "red"], Y: ["#b8860b", "yellow"] };
  const g = atout.generic;

  function face(text) {
    if (text === "Z") return { fill: "#fff", band: "#3b2a6b", ink: "#f3d36b", label: "Wizard", corner: "Z", symbol: "★" };
    if (text === "N") return { fill: "#fff", band: "#d9d9d9", ink: "#444", label: "Jester", corner: "N", symbol: "☺" };
    const suit = SUITS[text[0]];
    if (!suit) return atout.cardFace(text);
    return { fill: "#fff", ink: suit[0], label: text.slice(1), corner: text, symbol: text.slice(1) };
  }

  function seats(msg, ctx) {
    const v = msg.view;
    return atout.el("table", { class: "seats" },
      atout.el("tr", {}, [atout.t("seat"), atout.t("bid"), atout.t("won"), atout.t("cards"), atout.t("score")].map((h) => atout.el("th", {}, h))),
      ctx.names.map((name, s) => atout.el("tr", { class: v.current_player === s && !msg.over ? "to-act" : null, "data-seat": s },
        atout.el("td", {}, name + (s === msg.seat ? ` (${atout.t("you")})` : "") + (s === v.dealer ? ` · ${atout.t("dealer")}` : "")),
        atout.el("td", {}, v.bids[s] !== null ? String(v.bids[s]) : v.has_bid[s] ? "✓" : "—"),
        atout.el("td", {}, String(v.tricks_won[s])),
        atout.el("td", {}, String(v.hand_sizes[s])),
        atout.el("td", {}, String(v.scores[s])))));
  }

  function sheet(msg, ctx) {
    const v = msg.view;
    if (!v.sheet.length) return null;
    const totals = ctx.names.map(() => 0);
    return atout.el("section", {}, atout.el("h3", {}, atout.t("score_sheet")),
      atout.el("table", { class: "sheet" },
        atout.el("tr", {}, atout.el("th", {}, "#"), ctx.names.map((n) => atout.el("th", {}, n))),
        v.sheet.map((line, r) => atout.el("tr", {}, atout.el("td", {}, String(r + 1)), ctx.names.map((_, s) => {
          totals[s] += line.deltas[s];
          return atout.el("td", { title: `${atout.t("bid")} ${line.bids[s]}, ${atout.t("won")} ${line.tricks[s]}` },
            `${line.bids[s]}/${line.tricks[s]} → ${totals[s]}`);
        })))));
  }

  function render(msg, ctx) {
    const v = msg.view;
    const table = atout.el("section", { class: "zone" },
      atout.el("h3", {}, atout.t("round_of", { round: v.round, rounds: v.rounds })),
      atout.el("div", { class: "cards" },
        v.turned ? atout.el("span", { class: "play-seat" }, atout.card(v.turned, { small: true, face }), atout.t("turned")) : null,
        atout.el("span", { class: "play-seat trump" }, atout.el("strong", {}, v.trump ? v.trump : atout.t("no_trump")), atout.t("trump"))),
      atout.el("h3", {}, atout.t("trick")),
      atout.el("div", { class: "cards trick" }, v.trick.map(([s, c]) => atout.el("span", { class: "play-seat" }, atout.card(c, { face }), ctx.names[s]))),
      v.tricks.length && !v.trick.length ? atout.el("p", {}, `${atout.t("last_trick")}: `,
        v.tricks[v.tricks.length - 1].cards.map(([s, c]) => `${ctx.names[s]} ${c}`).join(", "),
        ` → ${ctx.names[v.tricks[v.tricks.length - 1].winner]}`) : null);
    const seen = v.seen_hands ? atout.el("section", { class: "zone" }, v.seen_hands.map((h, s) => h ? atout.el("div", {}, ctx.names[s], atout.el("div", { class: "cards" }, h.map((c) => atout.card(c, { small: true, face })))) : null)) : null;
    return atout.el("div", { class: "wizard" }, seats(msg, ctx), table, seen, g.handAndMoves(msg, ctx), sheet(msg, ctx), atout.chart(ctx.names, msg.score_history));
  }

  atout.renderers.wizard = { render, face };
})();
