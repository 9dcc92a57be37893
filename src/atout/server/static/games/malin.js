/* Le Malin et ses petits malheurs' table: numbered cards, the Twins and the Wish
   of our own drawing, the card put aside, contracts and tricks, declared values
   under the trick's cards, the Malheur cards and the reaction windows. */
"use strict";

(() => {
  const MALHEURS = ["malin", "avocat", "666", "belzebuth", "fennec"];

  /* The Twin's high value: 20 at 3 players, 35 otherwise (the table size is public). */
  let high = 35;
  const twinHigh = (msg) => (msg.players === 3 ? 20 : 35);

  function face(text) {
    if (text === "TWIN") return { fill: "#fff", band: "#dcd3f2", ink: "#4b2a8a", label: atout.t("mal_twin", { high }), corner: "T", symbol: `0|${high}` };
    if (text === "WISH") return { fill: "#fff", band: "#2b2b5e", ink: "#f3d36b", label: atout.t("mal_wish"), corner: "W", symbol: "✦" };
    const n = Number(text);
    if (!Number.isInteger(n)) return atout.cardFace(text);
    return { fill: "#fff", ink: n > 17 ? "#8a1c1c" : "#1f3f7f", label: text, corner: text, symbol: text };
  }

  function seatLabel(msg, ctx, s) {
    return ctx.names[s] + (s === msg.seat ? ` (${atout.t("you")})` : "") + (s === msg.view.dealer ? ` · ${atout.t("dealer")}` : "");
  }

  function seats(msg, ctx) {
    const v = msg.view;
    const fun = v.malheur_counts.some((c) => c > 0) || v.malheur_pile > 0 || v.malheur_log.length > 0;
    const heads = [atout.t("seat"), atout.t("mal_contract"), atout.t("won"), atout.t("cards"), fun ? atout.t("mal_malheur") : null, atout.t("score")];
    return atout.el("table", { class: "seats" },
      atout.el("tr", {}, heads.filter((h) => h !== null).map((h) => atout.el("th", {}, h))),
      ctx.names.map((_, s) => atout.el("tr", { class: v.current_player === s && !msg.over ? "to-act" : null, "data-seat": s },
        atout.el("td", {}, seatLabel(msg, ctx, s)),
        atout.el("td", {}, v.bids[s] === null ? "—" : String(v.bids[s])),
        atout.el("td", {}, String(v.tricks_won[s])),
        atout.el("td", {}, String(v.hand_sizes[s])),
        fun ? atout.el("td", { class: "malheur-count" }, String(v.malheur_counts[s])) : null,
        atout.el("td", {}, String(v.scores[s])))));
  }

  /* A card on the table with its seat and, when it differs from the printed
     number (Twin, Wish, or a Malheur card's effect), its declared and current value. */
  function tableCard(c, ctx, small) {
    const printed = Number(c.card);
    const notes = [];
    if (c.card === "TWIN" || c.card === "WISH") notes.push(atout.t("mal_declared", { value: c.declared }));
    if (c.value !== c.declared) notes.push(atout.t("mal_now", { value: c.value }));
    else if (Number.isInteger(printed) && c.value !== printed) notes.push(atout.t("mal_now", { value: c.value }));
    return atout.el("span", { class: "play-seat", "data-seat": c.seat },
      atout.card(c.card, { face, small }), ctx.names[c.seat] ?? c.seat,
      notes.length ? atout.el("small", { class: "declared" }, notes.join(" · ")) : null);
  }

  function table(msg, ctx) {
    const v = msg.view;
    const last = v.tricks.length && !v.trick.length ? v.tricks[v.tricks.length - 1] : null;
    return atout.el("section", { class: "zone malin-table" },
      atout.el("h3", {}, atout.t("round", { round: v.round }), ` · ${atout.t("mal_tricks_in_hand", { n: v.hand_size })}`),
      atout.el("div", { class: "malin-row" },
        atout.el("div", {}, atout.el("h3", {}, atout.t("mal_removed")),
          atout.el("span", { class: "play-seat removed" },
            v.removed ? atout.card(v.removed, { face }) : atout.el("span", { class: "card" }, "—"))),
        atout.el("div", {}, atout.el("h3", {}, atout.t("trick")),
          atout.el("div", { class: "cards trick" }, v.trick.map((c) => tableCard(c, ctx, false))))),
      last ? atout.el("div", {}, atout.el("h3", {}, `${atout.t("last_trick")} → ${ctx.names[last.winner]}`),
        atout.el("div", { class: "cards" }, last.cards.map((c) => tableCard(c, ctx, true)))) : null);
  }

  function malheurName(m) { return atout.t(`mal_m_${m}`); }

  /* One Malheur move's text ("malheur 666 on 2", "malheur malin on 1 3") in words:
     Le Malin aims at players, L'Avocat redirects, the others aim at a seat's card. */
  function malheurText(action, ctx) {
    const w = action.split(" ");
    const targets = w.slice(3).map((s) => ctx.names[Number(s)] ?? s).join(", ");
    const key = w[1] === "malin" ? "mal_play_on" : w[1] === "avocat" ? "mal_redirect" : "mal_play_on_card";
    return atout.t(key, { card: malheurName(w[1]), targets });
  }

  function malheurZone(msg, ctx) {
    const v = msg.view;
    const fun = v.malheur_counts.some((c) => c > 0) || v.malheur_pile > 0 || v.malheur_log.length > 0;
    if (!fun) return null;
    const own = MALHEURS.filter((m) => v.malheur[m] > 0);
    const p = v.pending;
    return atout.el("section", { class: "zone malheur" },
      atout.el("h3", {}, atout.t("mal_your_malheur")),
      atout.el("div", { class: "malheur-cards" }, own.length
        ? own.map((m) => atout.el("span", { class: "malheur-card", "data-malheur": m }, `${malheurName(m)} ×${v.malheur[m]}`))
        : atout.t("none")),
      atout.el("p", {}, atout.t("mal_pile", { n: v.malheur_pile }), " · ", atout.t("mal_discard", {
        list: MALHEURS.filter((m) => v.malheur_discard[m] > 0).map((m) => `${malheurName(m)} ×${v.malheur_discard[m]}`).join(", ") || "—",
      })),
      v.window ? atout.el("p", { class: "window" }, atout.t("mal_window", { window: atout.t(`mal_w_${v.window.replace(/ /g, "_")}`) })) : null,
      p ? atout.el("p", { class: "pending" }, atout.t("mal_pending", {
        caster: ctx.names[p.caster], card: malheurName(p.card),
        targets: p.targets.map((s) => ctx.names[s]).join(", "), asking: ctx.names[p.targets[p.asking]] ?? "—",
      })) : null,
      v.malheur_log.length ? atout.el("ul", { class: "malheur-log" },
        v.malheur_log.map(([s, a]) => atout.el("li", {}, atout.t("mal_log_line", { name: ctx.names[s], text: malheurText(a, ctx) })))) : null);
  }

  /* A value chooser (the Wish, a re-declaration): a number field and a button. */
  function valueChooser(values, make, label, ctx) {
    const best = Math.max(...values);
    const input = atout.el("input", { type: "number", min: Math.min(...values), max: best, value: best, class: "wish-value", "aria-label": label });
    return atout.el("span", { class: "chooser" }, input,
      atout.el("button", { type: "button", class: "action", "data-action": make(best), onclick: () => ctx.act(make(Number(input.value))) }, label));
  }

  /* The hand and the moves: numbered cards play on a click; the Twin shows
     its two values as buttons, the Wish a value field. */
  function handAndMoves(msg, ctx) {
    const v = msg.view;
    const legal = ctx.legal || [];
    const used = new Set();
    const ro = ctx.readOnly;
    const cards = [];
    const seen = {};
    v.hand.forEach((c) => {
      seen[c] = (seen[c] || 0) + 1;
      if (c === "TWIN" || c === "WISH") {
        const mine = legal.filter((a) => a.startsWith(`play ${c} `));
        mine.forEach((a) => used.add(a));
        let choice = null;
        if (!ro && mine.length && seen[c] === 1) {
          const values = mine.map((a) => Number(a.split(" ")[2]));
          choice = c === "TWIN"
            ? atout.el("span", { class: "chooser" }, mine.map((a) => atout.el("button", { type: "button", class: "action", "data-action": a, onclick: () => ctx.act(a) }, `= ${a.split(" ")[2]}`)))
            : valueChooser(values, (x) => `play WISH ${x}`, atout.t("mal_play_wish"), ctx);
        }
        const fallback = c === "TWIN" ? `play TWIN ${twinHigh(msg)}` : "play WISH 100";
        const card = mine.length && !ro
          ? atout.card(c, { face, state: "legal choosing" })
          : atout.card(c, { face, state: ro ? null : "illegal", onclick: ro ? null : () => ctx.act(fallback) });
        cards.push(atout.el("span", { class: "hand-card" }, card, choice));
      } else {
        const a = `play ${c}`;
        const ok = legal.includes(a);
        if (ok) used.add(a);
        cards.push(atout.card(c, { face, state: ro ? null : ok ? "legal" : "illegal", onclick: ro ? null : () => ctx.act(a) }));
      }
    });
    const zone = atout.el("section", { class: "zone hand" }, atout.el("h3", {}, atout.t("hand")), atout.el("div", { class: "cards" }, cards));
    const rest = legal.filter((a) => !used.has(a));
    const wishes = rest.filter((a) => a.startsWith("wish "));
    const buttons = [];
    if (wishes.length) buttons.push(valueChooser(wishes.map((a) => Number(a.split(" ")[1])), (x) => `wish ${x}`, atout.t("mal_redeclare"), ctx));
    for (const a of rest) {
      if (a.startsWith("wish ")) continue;
      let label = a;
      if (a.startsWith("bid ")) label = atout.t("mal_bid", { n: a.split(" ")[1] });
      else if (a === "pass") label = atout.t("mal_pass");
      else if (a.startsWith("malheur ")) label = malheurText(a, ctx);
      buttons.push(atout.el("button", { type: "button", class: "action", "data-action": a, title: a, onclick: () => ctx.act(a) }, label));
    }
    const prompts = { react: "mal_react_prompt", window: "mal_window_prompt", redeclare: "mal_redeclare_prompt" };
    const prompt = prompts[v.phase] && buttons.length ? atout.el("p", { class: "prompt" }, atout.t(prompts[v.phase])) : null;
    return [zone, buttons.length ? atout.el("section", { class: "zone" }, atout.el("h3", {}, atout.t("actions")), prompt, atout.el("div", { class: "actions" }, buttons)) : null];
  }

  function sheet(msg, ctx) {
    const v = msg.view;
    if (!v.sheet.length) return null;
    return atout.el("section", {}, atout.el("h3", {}, atout.t("score_sheet")),
      atout.el("table", { class: "sheet" },
        atout.el("tr", {}, atout.el("th", {}, "#"), ctx.names.map((n) => atout.el("th", {}, n))),
        v.sheet.map((line, r) => atout.el("tr", {}, atout.el("td", {}, String(r + 1)), ctx.names.map((_, s) =>
          atout.el("td", { title: `${atout.t("mal_contract")} ${line.bids[s]}, ${atout.t("won")} ${line.tricks[s]}` },
            `${line.bids[s]}/${line.tricks[s]} → ${line.penalties[s] ? `−${line.penalties[s]}` : "0"}`))))));
  }

  function render(msg, ctx) {
    high = twinHigh(msg);
    return atout.el("div", { class: "malin" }, seats(msg, ctx), table(msg, ctx), malheurZone(msg, ctx),
      handAndMoves(msg, ctx), sheet(msg, ctx), atout.chart(ctx.names, msg.score_history));
  }

  atout.renderers.malin = { render, face };
})();
