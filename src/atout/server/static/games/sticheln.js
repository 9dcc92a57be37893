/* Sticheln's table: the hand sorted by colour, each seat's handicap card(s)
   (face down until the reveal), the trick with its led colour marked, and the
   cards taken this hand with what the handicap colour costs. */
"use strict";

(() => {
  const COLOURS = { B: "#1f5fbf", G: "#1e8a3c", R: "#c0262d", Y: "#b8860b", O: "#d2691e", V: "#6b3fa0" };
  const ORDER = Object.keys(COLOURS);

  const colourOf = (c) => c[0];
  const valueOf = (c) => Number(c.slice(1));

  function face(text) {
    const ink = COLOURS[colourOf(text)];
    if (!ink) return atout.cardFace(text);
    return { fill: "#fff", ink, label: text, corner: text, symbol: text.slice(1) };
  }

  /* A card laid face down: our own plain back. */
  const BACK = { fill: "#2c4f8a", band: "#3d66a8", ink: "#dfe8f7", corner: "", symbol: "?" };
  function back() {
    return atout.el("span", { class: "card small back", title: atout.t("st_face_down") },
      atout.drawCard({ ...BACK, label: atout.t("st_face_down") }));
  }

  function hasOption(msg, text) { return (msg.options || "").split(" ").includes(text); }

  /* The led colour: the first card's, or (zero_lead_colour=first_nonzero) the first non-zero card's. */
  function ledColour(msg) {
    const trick = msg.view.trick;
    if (!trick.length) return null;
    if (hasOption(msg, "zero_lead_colour=first_nonzero")) {
      const first = trick.find(([, c]) => valueOf(c) !== 0);
      return first ? colourOf(first[1]) : null;
    }
    return colourOf(trick[0][1]);
  }

  /* Per seat: tricks and cards taken this hand, and the cost of its handicap
     colour(s) so far (null while its handicap cards are hidden). */
  function taken(msg) {
    const v = msg.view;
    const gentle = hasOption(msg, "gentle=true");
    const cardOnly = hasOption(msg, "pain_card_only=true");
    return msg.seats.map((_, s) => {
      const mine = v.tricks.filter((t) => t.winner === s);
      const cards = mine.flatMap((t) => t.cards.map(([, c]) => c));
      const pains = v.pains[s];
      let cost = null;
      if (pains) {
        const colours = new Set(pains.map(colourOf));
        const price = (c) => (gentle ? 1 : valueOf(c));
        cost = pains.reduce((a, c) => a + price(c), 0);
        if (!cardOnly) cost += cards.filter((c) => colours.has(colourOf(c))).reduce((a, c) => a + price(c), 0);
      }
      return { tricks: mine.length, cards: cards.length, cost };
    });
  }

  function seats(msg, ctx) {
    const v = msg.view;
    const got = taken(msg);
    return atout.el("table", { class: "seats" },
      atout.el("tr", {}, [atout.t("seat"), atout.t("st_handicap"), atout.t("won"), atout.t("st_cards_taken"), atout.t("st_cost"), atout.t("cards"), atout.t("score")].map((h) => atout.el("th", {}, h))),
      ctx.names.map((name, s) => atout.el("tr", { class: v.current_player === s && !msg.over ? "to-act" : null, "data-seat": s },
        atout.el("td", {}, name + (s === msg.seat ? ` (${atout.t("you")})` : "") + (s === v.dealer ? ` · ${atout.t("dealer")}` : "")),
        atout.el("td", { class: "pains" }, atout.el("div", { class: "cards" },
          v.pains[s] && (v.revealed || s === msg.seat) && v.pains[s].length
            ? v.pains[s].map((c) => atout.card(c, { small: true, face }))
            : Array.from({ length: v.pain_laid[s] }, back),
          v.pain_laid[s] === 0 ? "—" : null)),
        atout.el("td", {}, String(got[s].tricks)),
        atout.el("td", {}, String(got[s].cards)),
        atout.el("td", { class: "cost" }, got[s].cost === null ? "?" : got[s].cost ? `−${got[s].cost}` : "0"),
        atout.el("td", {}, String(v.hand_sizes[s])),
        atout.el("td", {}, String(v.scores[s])))));
  }

  function table(msg, ctx) {
    const v = msg.view;
    const led = ledColour(msg);
    const last = v.tricks.length && !v.trick.length ? v.tricks[v.tricks.length - 1] : null;
    return atout.el("section", { class: "zone sticheln-table" },
      atout.el("h3", {}, atout.t("round_of", { round: v.round, rounds: v.rounds }),
        v.phase === "pain" ? ` · ${atout.t("st_choose_handicap")}` : ""),
      atout.el("h3", {}, atout.t("trick"), " ",
        led ? atout.el("span", { class: "led", "data-led": led, style: `background:${COLOURS[led]}` }, atout.t("st_led", { colour: atout.t(`st_c_${led}`) })) : null),
      atout.el("div", { class: "cards trick" }, v.trick.map(([s, c]) =>
        atout.el("span", led && colourOf(c) !== led && valueOf(c) !== 0 ? { class: "play-seat trumps", title: atout.t("trump") } : { class: "play-seat" },
          atout.card(c, { face }), ctx.names[s]))),
      last ? atout.el("p", {}, `${atout.t("last_trick")}: `, last.cards.map(([s, c]) => `${ctx.names[s]} ${c}`).join(", "),
        ` → ${last.winner >= 0 ? ctx.names[last.winner] : "—"}`) : null);
  }

  function handAndMoves(msg, ctx) {
    const v = msg.view;
    const legal = new Set(ctx.legal || []);
    const prefix = v.phase === "pain" ? "pain" : "play";
    const ro = ctx.readOnly;
    const used = new Set();
    const rows = ORDER.map((col) => {
      const cs = (v.hand || []).filter((c) => colourOf(c) === col);
      if (!cs.length) return null;
      return atout.el("div", { class: "cards colour-row", "data-colour": col, title: atout.t(`st_c_${col}`) }, cs.map((c) => {
        const a = `${prefix} ${c}`;
        if (legal.has(a)) used.add(a);
        return atout.card(c, { face, state: ro ? null : legal.has(a) ? "legal" : "illegal", onclick: ro ? null : () => ctx.act(a) });
      }));
    });
    const zone = atout.el("section", { class: "zone hand" },
      atout.el("h3", {}, atout.t("hand"), v.phase === "pain" && !ro && legal.size ? ` · ${atout.t("st_pick_handicap")}` : ""),
      atout.el("div", { class: "colour-groups" }, rows));
    const others = [...legal].filter((a) => !used.has(a));
    return [zone, others.length ? atout.el("section", { class: "zone" }, atout.el("h3", {}, atout.t("actions")),
      atout.el("div", { class: "actions" }, others.map((a) => atout.el("button", { type: "button", class: "action", "data-action": a, onclick: () => ctx.act(a) }, a)))) : null];
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
          return atout.el("td", { title: (line.pains[s] || []).join(" ") },
            `${(line.pains[s] || []).join(" ")} ${line.deltas[s] >= 0 ? "+" : ""}${line.deltas[s]} → ${totals[s]}`);
        })))));
  }

  function render(msg, ctx) {
    return atout.el("div", { class: "sticheln" }, seats(msg, ctx), table(msg, ctx), handAndMoves(msg, ctx),
      sheet(msg, ctx), atout.chart(ctx.names, msg.score_history));
  }

  atout.renderers.sticheln = { render, face };
})();
