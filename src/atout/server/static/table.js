/* A seat's table: one WebSocket, the seat's key from the link's fragment,
   every message drawn by the game's renderer (or the generic one). */
"use strict";

(async () => {
  await atout.loadLang();
  const $ = (id) => document.getElementById(id);
  const tableId = location.pathname.split("/").pop();
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  const memory = {};
  let last = null;
  let socket = null;
  let retry = 0;
  let left = false;
  let reconnecting = false;
  let gamesInfo = null;

  function notice(text, isError) {
    $("notice").textContent = text;
    $("notice").className = `notice${isError ? " error" : ""}`;
  }
  if (!key) { notice(atout.t("no_key"), true); return; }

  async function renderer(game) {
    if (atout.renderers[game]) return atout.renderers[game];
    if (!gamesInfo) gamesInfo = (await (await fetch("/api/games")).json()).games;
    const info = gamesInfo.find((g) => g.name === game);
    if (info && info.renderer) {
      await new Promise((ok) => {
        const s = atout.el("script", { src: `/static/games/${game}.js` });
        s.onload = ok; s.onerror = ok;
        document.head.append(s);
      });
    }
    return atout.renderers[game] || atout.generic;
  }

  function act(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !last) return;
    socket.send(JSON.stringify({ type: "act", action, n: last.n }));
  }

  async function draw(msg) {
    const r = await renderer(msg.game);
    if (msg !== last) return; // a newer message arrived while the renderer loaded: draw that one
    const names = msg.seats.map((s) => s.name);
    const ctx = { names, act, memory, legal: msg.legal, face: r.face ? (t) => r.face(t) : null };
    document.title = `${msg.title} · atout`;
    $("title").textContent = `${msg.title} — ${names[msg.seat]}`;
    const status = $("status");
    if (msg.over) {
      status.textContent = `${atout.t("game_over")} · ${atout.t("winners", { names: msg.result.winners.map((w) => names[w]).join(", ") })}`;
      status.className = "status";
    } else if (msg.to_act === msg.seat) {
      status.textContent = atout.t("your_turn");
      status.className = "status mine";
    } else {
      status.textContent = atout.t("waiting_for", { name: names[msg.to_act] });
      status.className = "status";
    }
    $("board").replaceChildren(r.render(msg, ctx));
    $("board").dataset.n = msg.n;
    $("board").dataset.over = msg.over;
    $("board").dataset.toAct = msg.over ? "" : msg.to_act;
    $("after").hidden = false;
    $("replay-controls").hidden = !msg.over;
    $("leave").hidden = msg.over;
    if (document.activeElement !== $("name")) $("name").value = names[msg.seat];
    if (msg.over && !$("replay-seat").options.length) setupReplay(msg);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
    socket.onopen = () => { retry = 0; socket.send(JSON.stringify({ type: "join", key })); };
    socket.onmessage = async (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        const fresh = !last || msg.n !== last.n || reconnecting;
        last = msg;
        reconnecting = false;
        if (fresh) notice("");
        await draw(msg);
      } else if (msg.type === "error") {
        notice(["illegal", "not_your_turn", "notation", "stale", "over"].includes(msg.code)
          ? atout.t("refused", { reason: msg.message }) : atout.t("error", { message: msg.message }), true);
        if (msg.code === "bad_key" || msg.code === "not_found") { left = true; socket.close(); }
      }
    };
    socket.onclose = () => {
      if (left) return;
      reconnecting = true;
      notice(atout.t("reconnecting"), true);
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 300 * retry);
    };
  }
  notice(atout.t("connecting"));
  connect();

  async function post(path, body) {
    return fetch(`/api/tables/${tableId}/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key, ...body }) });
  }

  async function download(format) {
    const r = await post("record", { format });
    if (!r.ok) { notice(atout.t("error", { message: (await r.json()).message }), true); return; }
    const disposition = r.headers.get("Content-Disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "game.atout";
    const url = URL.createObjectURL(await r.blob());
    const a = atout.el("a", { href: url, download: name });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  $("download").addEventListener("click", () => download("text"));
  $("download-json").addEventListener("click", () => download("json"));

  function setupReplay(msg) {
    $("replay-seat").replaceChildren(...msg.seats.map((s, i) => atout.el("option", { value: i, selected: i === msg.seat }, s.name)));
    $("step").max = msg.n;
    $("step").value = msg.n;
    const show = async () => {
      const step = Number($("step").value);
      const r = await post("replay", { step, as_seat: Number($("replay-seat").value) });
      const data = await r.json();
      if (!r.ok) { notice(atout.t("error", { message: data.message }), true); return; }
      $("step-label").textContent = atout.t("step", { step, steps: data.steps });
      const view = { ...last, seat: data.seat, view: data.view, legal: [], over: data.over, to_act: data.view.current_player };
      const rr = await renderer(last.game);
      const ctx = { names: last.seats.map((s) => s.name), act: () => {}, memory: {}, legal: [], readOnly: true, face: rr.face ? (t) => rr.face(t) : null };
      $("replay-board").replaceChildren(rr.render(view, ctx));
    };
    $("step").addEventListener("input", show);
    $("replay-seat").addEventListener("change", show);
    $("prev").addEventListener("click", () => { $("step").value = Math.max(0, Number($("step").value) - 1); show(); });
    $("next").addEventListener("click", () => { $("step").value = Math.min(Number($("step").max), Number($("step").value) + 1); show(); });
    show();
  }

  $("rename").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "name", name: $("name").value }));
  });

  $("leave").addEventListener("click", async () => {
    if (!confirm(atout.t("leave_confirm"))) return;
    const r = await post("leave", {});
    if (r.ok) { left = true; socket.close(); notice(atout.t("left")); $("board").replaceChildren(); }
    else notice(atout.t("error", { message: (await r.json()).message }), true);
  });
})();
