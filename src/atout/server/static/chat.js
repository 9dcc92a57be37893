/* The table's chat and its announcements (presence, the away bot), drawn as text only.

   Lines come from the server as {idx, seat, name, text, n} (n: the move count when said,
   so the replay shows what was said up to its step); announcements are local lines
   translated here.  Quick emotes are ordinary lines. */

import { el, t } from "./lib/dom.js";

export const EMOTES = ["😄", "😉", "😮", "😢", "♥", "GG"];
export const MAX_CHAT = 300;

const lines = [];
let box = null;

/** Build the chat panel in `root`; `say(text)` sends a line; `canWrite` false shows a note instead. */
export function setupChat(root, say, canWrite) {
  const log = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": t("chat") });
  const input = el("input", { id: "chat-input", maxlength: MAX_CHAT, autocomplete: "off", placeholder: t("chat_placeholder"), "aria-label": t("chat_placeholder") });
  const form = el("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); const v = input.value.trim(); if (v) { say(v); input.value = ""; } } },
    input, el("button", { type: "submit" }, t("chat_send")));
  const emotes = el("div", { class: "emotes", role: "group", "aria-label": t("chat_emotes") },
    EMOTES.map((e) => el("button", { type: "button", class: "emote", title: e, onclick: () => say(e) }, e)));
  root.replaceChildren(el("h2", {}, t("chat"), el("small", { id: "chat-watchers", class: "chat-watchers" })), log, emotes, form, el("p", { class: "chat-note read-only-note" }, t("chat_read_only")));
  root.classList.toggle("read-only", !canWrite);
  box = log;
  redraw();
}

function lineNode(line) {
  if (line.system) return el("li", { class: "chat-line system" }, line.text);
  return el("li", { class: `chat-line${line.seat < 0 ? " spectator" : ""}`, "data-idx": line.idx },
    el("b", { class: "chat-name" }, line.former ? t("former_player") : line.name || t("spectator")), " ", el("span", { class: "chat-text" }, line.text));
}

function redraw() {
  if (!box) return;
  box.replaceChildren(...lines.map(lineNode));
  box.scrollTop = box.scrollHeight;
}

/** The whole log as sent on joining (announcements seen so far are kept). */
export function setLog(serverLines) {
  const system = lines.filter((l) => l.system);
  lines.length = 0;
  lines.push(...serverLines, ...system);
  redraw();
}

export function addLine(line) {
  if (lines.some((l) => !l.system && l.idx === line.idx)) return;
  lines.push(line);
  if (lines.length > 300) lines.splice(0, lines.length - 300);
  redraw();
}

/** A translated announcement ("Ann joined the table", "Bot playing for Ann"). */
export function announceEvent(ev) {
  const text = t(`event_${ev.event}`, { name: ev.name, seat: ev.seat + 1 });
  addLine({ system: true, text });
  return text;
}

/** The chat as it stood after `step` moves, for the replay. */
export function replayChat(step) {
  const said = lines.filter((l) => !l.system && l.n <= step);
  return el("div", { class: "replay-chat" }, el("h3", {}, t("chat")),
    said.length ? el("ol", { class: "chat-log" }, said.map(lineNode)) : el("p", { class: "chat-note" }, t("chat_empty")));
}
