/* atout web table: shared helpers, translations, card drawings and the generic
   renderer.  Plain JavaScript, no build step.  Everything shown comes from the
   seat's own message; text is always inserted as text (never as HTML). */
"use strict";

const atout = {
  lang: document.documentElement.lang === "fr" ? "fr" : "en",
  dict: {},
  renderers: {},

  async loadLang() {
    const r = await fetch(`/static/i18n/${this.lang}.json`);
    this.dict = await r.json();
    document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = this.t(n.dataset.i18n); });
    document.querySelectorAll("[data-lang]").forEach((b) => {
      b.disabled = b.dataset.lang === this.lang;
      b.addEventListener("click", () => this.setLang(b.dataset.lang));
    });
  },

  t(key, vars) {
    let s = this.dict[key] ?? key;
    for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
    return s;
  },

  /* A view field's label: the dictionary's "f_<key>", else the key in words. */
  field(key) {
    return this.dict[`f_${key}`] ?? key.replace(/_/g, " ");
  },

  setLang(lang) {
    document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  },

  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  },

  svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  },

  /* A plain card of our own drawing: the card's notation, coloured by its
     letters (the same letters always give the same colour). */
  cardFace(text) {
    const letters = text.replace(/[0-9]/g, "") || "#";
    let h = 0;
    for (const ch of letters) h = (h * 31 + ch.charCodeAt(0)) % 1000003;
    return { fill: "#fff", ink: `hsl(${(h * 53) % 360}, 65%, 38%)`, label: text, corner: text };
  },

  drawCard(face) {
    const s = this.svg("svg", { viewBox: "0 0 60 90", role: "img", "aria-label": face.label });
    s.append(this.svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: face.fill, stroke: "#333", "stroke-width": 1.5 }));
    if (face.band) s.append(this.svg("rect", { x: 5, y: 5, width: 50, height: 80, rx: 4, fill: face.band }));
    s.append(this.svg("text", { x: 6, y: 16, "font-size": 13, "font-weight": "bold", fill: face.ink, "font-family": "sans-serif" }, face.corner));
    s.append(this.svg("text", { x: 30, y: 55, "font-size": face.label.length > 3 ? 14 : 24, "text-anchor": "middle", "font-weight": "bold", fill: face.ink, "font-family": "serif" }, face.symbol || face.label));
    return s;
  },

  /* A card element: a button when clickable. `face` comes from the game's renderer. */
  card(text, opts) {
    const o = opts || {};
    const face = (o.face || ((t) => this.cardFace(t)))(text);
    const attrs = { class: `card${o.small ? " small" : ""}${o.state ? " " + o.state : ""}`, title: text, "data-card": text };
    if (o.onclick) {
      attrs.onclick = o.onclick;
      return this.el("button", { type: "button", ...attrs }, this.drawCard(face));
    }
    return this.el("span", attrs, this.drawCard(face));
  },
};

/* Every seat's score over the rounds (message.score_history), as an SVG line chart. */
atout.chart = function (names, history) {
  if (!history || history.length < 2) return null;
  const all = history.flat();
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const W = 480, H = 180, P = 24, R = 80;
  const x = (i) => P + (i * (W - P - R)) / (history.length - 1);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
  const colours = ["#1f5fbf", "#c0262d", "#1e8a3c", "#b8860b", "#6b3fa0", "#444", "#0a8a8a", "#a0522d"];
  const s = atout.svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "chart", role: "img", "aria-label": atout.t("chart") });
  s.append(atout.svg("line", { x1: P, x2: W - R, y1: y(0), y2: y(0), stroke: "#999" }));
  const end = history[history.length - 1];
  // Labels at the lines' ends, pushed apart so that equal scores stay readable.
  const labelY = {};
  let previous = -Infinity;
  for (const seat of names.map((_, i) => i).sort((a, b) => y(end[a]) - y(end[b]))) {
    labelY[seat] = Math.max(y(end[seat]) + 3, previous + 11);
    previous = labelY[seat];
  }
  names.forEach((name, seat) => {
    const c = colours[seat % colours.length];
    s.append(atout.svg("polyline", { fill: "none", stroke: c, "stroke-width": 2, points: history.map((line, i) => `${x(i)},${y(line[seat])}`).join(" ") }));
    s.append(atout.svg("text", { x: W - R + 4, y: labelY[seat], "font-size": 10, fill: c }, `${name} ${end[seat]}`));
  });
  return atout.el("section", {}, atout.el("h3", {}, atout.t("chart")), s);
};

/* The generic renderer: works for any game from view.to_dict() alone.
   - the seat's `hand` is drawn as cards; a card whose text ends a legal action
     ("play B7") is highlighted and clickable; the others are clickable too and
     the server's refusal explains why;
   - every other legal action is a button;
   - lists indexed by seat become one table (bids, scores, tricks won...);
   - the trick in progress ([seat, card] pairs) is drawn as cards;
   - everything else is shown as a key / value table. */
atout.generic = {
  isCardList(v) { return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" && x.length <= 4); },
  /* Cards played by seats: [seat, card] pairs, or {seat, card, ...} objects. */
  isPlays(v) {
    return Array.isArray(v) && v.every((x) =>
      (Array.isArray(x) && x.length === 2 && Number.isInteger(x[0]) && (typeof x[1] === "string" || x[1] === null)) ||
      (x && typeof x === "object" && !Array.isArray(x) && Number.isInteger(x.seat) && (typeof x.card === "string" || x.card === null)));
  },
  isSeatRow(v, n) {
    return Array.isArray(v) && v.length === n &&
      v.every((x) => x === null || ["string", "number", "boolean"].includes(typeof x) || (Array.isArray(x) && (x.length === 0 || this.isCardList(x))));
  },

  scalar(v) {
    if (v === null || v === undefined) return "—";
    if (typeof v === "boolean") return atout.t(v ? "yes" : "no");
    return String(v);
  },

  value(v, ctx) {
    if (this.isCardList(v)) return atout.el("div", { class: "cards" }, v.map((c) => atout.card(c, { small: true, face: ctx.face })));
    if (Array.isArray(v) && v.length && this.isPlays(v)) return this.plays(v, ctx);
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === "object" && !Array.isArray(x))) return this.rows(v, ctx);
    if (v && typeof v === "object" && !Array.isArray(v)) return this.kv(v, ctx);
    if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : this.scalar(x))).join(", ") : "—";
    return this.scalar(v);
  },

  plays(list, ctx) {
    return atout.el("div", { class: "cards" }, list.map((p) => {
      const [s, c] = Array.isArray(p) ? p : [p.seat, p.card];
      const extra = Array.isArray(p) ? "" : Object.entries(p).filter(([k, v]) => k !== "seat" && k !== "card" && v !== p.card)
        .map(([k, v]) => `${atout.field(k)} ${this.scalar(v)}`).join(", ");
      return atout.el("span", { class: "play-seat" }, c === null ? "?" : atout.card(c, { small: true, face: ctx.face }), ctx.names[s] ?? s, extra ? atout.el("small", {}, extra) : null);
    }));
  },

  rows(list, ctx) {
    const keys = [...new Set(list.flatMap((r) => Object.keys(r)))];
    return atout.el("table", { class: "sheet" },
      atout.el("tr", {}, keys.map((k) => atout.el("th", {}, atout.field(k)))),
      list.map((r) => atout.el("tr", {}, keys.map((k) => atout.el("td", {}, this.value(r[k], ctx))))));
  },

  kv(obj, ctx) {
    return atout.el("table", { class: "kv" }, Object.entries(obj).map(([k, v]) =>
      atout.el("tr", {}, atout.el("th", {}, atout.field(k)), atout.el("td", {}, this.value(v, ctx)))));
  },

  seatTable(view, msg, keys, ctx) {
    const n = msg.players;
    return atout.el("table", { class: "seats" },
      atout.el("tr", {}, atout.el("th", {}, atout.t("seat")), keys.map((k) => atout.el("th", {}, atout.field(k)))),
      Array.from({ length: n }, (_, s) => atout.el("tr", { class: msg.to_act === s ? "to-act" : null },
        atout.el("td", {}, ctx.names[s] + (s === msg.seat ? ` (${atout.t("you")})` : "")),
        keys.map((k) => atout.el("td", {}, Array.isArray(view[k][s]) ? this.value(view[k][s], ctx) : this.scalar(view[k][s]))))));
  },

  /* The hand and the moves: shared by the Wizard renderer too. */
  handAndMoves(msg, ctx) {
    const view = msg.view;
    const legal = ctx.legal || [];
    const hand = Array.isArray(view.hand) ? view.hand.filter((c) => typeof c === "string") : [];
    const used = new Set();
    const cardAction = {};
    for (const a of legal) {
      const last = a.split(" ").pop();
      if (hand.includes(last)) { cardAction[last] = a; used.add(a); ctx.memory.playPrefix = a.slice(0, a.length - last.length).trim(); }
    }
    const prefix = ctx.memory.playPrefix || "play";
    const cards = hand.map((c) => atout.card(c, {
      face: ctx.face,
      state: ctx.readOnly ? null : cardAction[c] ? "legal" : "illegal",
      onclick: ctx.readOnly ? null : () => ctx.act(cardAction[c] || `${prefix} ${c}`),
    }));
    const zone = atout.el("section", { class: "zone hand" }, atout.el("h3", {}, atout.t("hand")), atout.el("div", { class: "cards" }, cards));
    const others = legal.filter((a) => !used.has(a));
    const buttons = atout.el("div", { class: "actions" }, others.map((a) =>
      atout.el("button", { type: "button", class: "action", "data-action": a, onclick: () => ctx.act(a) }, a)));
    return [zone, others.length ? atout.el("section", { class: "zone" }, atout.el("h3", {}, atout.t("actions")), buttons) : null];
  },

  render(msg, ctx) {
    const view = msg.view;
    const skip = new Set(["game", "seat", "current_player", "legal_actions", "hand"]);
    const n = msg.players;
    const seatKeys = Object.keys(view).filter((k) => !skip.has(k) && this.isSeatRow(view[k], n));
    const playKeys = Object.keys(view).filter((k) => !skip.has(k) && !seatKeys.includes(k) && this.isPlays(view[k]) && view[k].length);
    const rest = Object.fromEntries(Object.entries(view).filter(([k]) => !skip.has(k) && !seatKeys.includes(k) && !playKeys.includes(k)));
    return atout.el("div", { class: "generic" },
      this.seatTable(view, msg, seatKeys, ctx),
      playKeys.map((k) => atout.el("section", { class: "zone" }, atout.el("h3", {}, atout.field(k)), this.plays(view[k], ctx))),
      this.handAndMoves(msg, ctx),
      atout.chart(ctx.names, msg.score_history),
      atout.el("details", { open: true }, atout.el("summary", {}, atout.t("details")), this.kv(rest, ctx)));
  },
};
