/* Le Nain Jaune's table: the five-box board (10♦, J♣, Q♠, K♥ and the Nain
   Jaune 7♦ in the centre) drawn as SVG with each box's tokens, the run in
   progress and the rank it needs next, the hand and everyone's tokens. */
"use strict";

(() => {
  const SUITS = { C: ["♣", "#1b1b1b"], D: ["♦", "#c0262d"], H: ["♥", "#c0262d"], S: ["♠", "#1b1b1b"] };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  /* The board's boxes: card, stake, position (x, y) of the box's centre. */
  const BOXES = [
    { card: "10D", stake: 1, x: 60, y: 50 },
    { card: "JC", stake: 2, x: 260, y: 50 },
    { card: "QS", stake: 3, x: 260, y: 170 },
    { card: "KH", stake: 4, x: 60, y: 170 },
  ];

  const rankOf = (c) => c.slice(0, -1);
  const suitOf = (c) => c.slice(-1);
  const pretty = (c) => (SUITS[suitOf(c)] ? rankOf(c) + SUITS[suitOf(c)][0] : c);

  function face(text) {
    const suit = SUITS[suitOf(text)];
    if (!suit) return atout.cardFace(text);
    const nain = text === "7D";
    return { fill: nain ? "#fff6c8" : "#fff", ink: suit[1], label: pretty(text), corner: rankOf(text), symbol: pretty(text) };
  }

  /* One box: a rounded square (a circle for the Nain Jaune), its card and its tokens. */
  function box(cx, cy, card, tokens, centre, claim) {
    const s = atout.svg;
    const g = s("g", { class: `nj-box${claim ? " claim" : ""}`, "data-box": card, "data-tokens": tokens });
    const [sym, ink] = SUITS[suitOf(card)];
    if (centre) g.append(s("circle", { cx, cy, r: 52, fill: "#f5d328", stroke: claim ? "#e0a526" : "#6b5a00", "stroke-width": claim ? 5 : 2 }));
    else g.append(s("rect", { x: cx - 48, y: cy - 38, width: 96, height: 76, rx: 10, fill: "#fbfaf6", stroke: claim ? "#e0a526" : "#555", "stroke-width": claim ? 5 : 1.5 }));
    g.append(s("text", { x: cx, y: cy - (centre ? 16 : 10), "text-anchor": "middle", "font-size": 24, "font-weight": "bold", "font-family": "serif", fill: ink }, `${rankOf(card)}${sym}`));
    if (centre) g.append(s("text", { x: cx, y: cy + 2, "text-anchor": "middle", "font-size": 10, "font-family": "sans-serif", fill: "#4a3f00" }, atout.t("nj_nain_jaune")));
    // The tokens: a small stack and the count.
    const ty = cy + (centre ? 24 : 20);
    for (let i = 0; i < Math.min(tokens, 5); i++) g.append(s("circle", { cx: cx - 22, cy: ty - i * 3, r: 8, fill: "#e0a526", stroke: "#765", "stroke-width": 1 }));
    g.append(s("text", { x: cx + 4, y: ty + 5, "text-anchor": "middle", "font-size": 15, "font-family": "sans-serif", fill: "#1b1b1b", class: "count" }, `× ${tokens}`));
    g.append(s("title", {}, atout.t("nj_box_title", { card: pretty(card), tokens })));
    return g;
  }

  function board(msg) {
    const v = msg.view;
    const svg = atout.svg("svg", { viewBox: "0 0 320 220", width: 320, height: 220, class: "nj-board", role: "img", "aria-label": atout.t("nj_board") });
    svg.append(atout.svg("rect", { x: 0, y: 0, width: 320, height: 220, rx: 14, fill: "#2a6e45" }));
    for (const b of BOXES) svg.append(box(b.x, b.y, b.card, v.boxes[b.card] ?? 0, false, v.claim_box === b.card));
    svg.append(box(160, 110, "7D", v.boxes["7D"] ?? 0, true, v.claim_box === "7D"));
    return svg;
  }

  /* The run in progress: the pile's latest cards of rising consecutive ranks. */
  function run(played) {
    let i = played.length - 1;
    if (i < 0) return [];
    while (i > 0 && RANKS.indexOf(rankOf(played[i - 1][1])) === RANKS.indexOf(rankOf(played[i][1])) - 1) i--;
    return played.slice(i);
  }

  function seats(msg, ctx) {
    const v = msg.view;
    return atout.el("table", { class: "seats" },
      atout.el("tr", {}, [atout.t("seat"), atout.t("nj_tokens"), atout.t("cards"), atout.t("nj_lacks")].map((h) => atout.el("th", {}, h))),
      ctx.names.map((name, s) => atout.el("tr", { class: v.current_player === s && !msg.over ? "to-act" : null, "data-seat": s },
        atout.el("td", {}, name + (s === msg.seat ? ` (${atout.t("you")})` : "") + (s === v.dealer ? ` · ${atout.t("dealer")}` : "") + (s === v.opener ? ` · ${atout.t("nj_opener")}` : "")),
        atout.el("td", { class: "tokens" }, String(v.tokens[s])),
        atout.el("td", {}, String(v.hand_sizes[s])),
        atout.el("td", {}, v.lacks[s].length ? v.lacks[s].join(" ") : "—"))));
  }

  function table(msg, ctx) {
    const v = msg.view;
    const current = run(v.played);
    return atout.el("section", { class: "zone nj-table" },
      atout.el("h3", {}, atout.t("nj_deal", { deal: v.deal })),
      atout.el("div", { class: "nj-layout" },
        board(msg),
        atout.el("div", { class: "nj-run" },
          atout.el("h3", {}, atout.t("nj_run"), " ",
            msg.over ? null : atout.el("span", { class: "need" }, v.need ? atout.t("nj_need", { rank: v.need }) : atout.t("nj_new_run"))),
          atout.el("div", { class: "cards run" }, current.map(([s, c]) => atout.el("span", { class: "play-seat" }, atout.card(c, { small: true, face }), ctx.names[s]))),
          atout.el("p", {}, atout.t("nj_pile", { n: v.played.length })),
          v.claim_box ? atout.el("p", { class: "claim" }, atout.t("nj_claim_waiting", { name: ctx.names[v.last], card: pretty(v.claim_box) })) : null)));
  }

  function handAndMoves(msg, ctx) {
    const v = msg.view;
    const legal = new Set(ctx.legal || []);
    const ro = ctx.readOnly;
    const used = new Set();
    const cards = (v.hand || []).map((c) => {
      const a = `play ${c}`;
      if (legal.has(a)) used.add(a);
      return atout.card(c, { face, state: ro ? null : legal.has(a) ? "legal" : "illegal", onclick: ro ? null : () => ctx.act(a) });
    });
    const zone = atout.el("section", { class: "zone hand" }, atout.el("h3", {}, atout.t("hand")), atout.el("div", { class: "cards" }, cards));
    const others = [...legal].filter((a) => !used.has(a));
    const label = (a) => (a === "pass" ? atout.t("nj_pass") : a === "claim" ? atout.t("nj_claim") : a);
    return [zone, others.length ? atout.el("section", { class: "zone" }, atout.el("h3", {}, atout.t("actions")),
      atout.el("div", { class: "actions" }, others.map((a) => atout.el("button", { type: "button", class: "action", "data-action": a, title: a, onclick: () => ctx.act(a) }, label(a))))) : null];
  }

  function sheet(msg, ctx) {
    const v = msg.view;
    if (!v.sheet.length) return null;
    return atout.el("section", {}, atout.el("h3", {}, atout.t("score_sheet")),
      atout.el("table", { class: "sheet" },
        atout.el("tr", {}, atout.el("th", {}, "#"), ctx.names.map((n) => atout.el("th", {}, n))),
        v.sheet.map((r) => atout.el("tr", {}, atout.el("td", {}, String(r.deal)), ctx.names.map((_, s) =>
          atout.el("td", { class: r.winner === s ? "to-act" : null }, `${r.winner === s ? "★ " : ""}${r.tokens[s]}`))))));
  }

  function render(msg, ctx) {
    return atout.el("div", { class: "nain-jaune" }, seats(msg, ctx), table(msg, ctx), handAndMoves(msg, ctx),
      sheet(msg, ctx), atout.chart(ctx.names, msg.score_history));
  }

  atout.renderers["nain-jaune"] = { render, face };
})();
