/* DOM and translation helpers shared by every page (plain ES module, no build step).
   Text is always inserted as text, never as HTML: names and chat come from strangers. */

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: attributes (on* are listeners, false/null skipped) and children (text or nodes). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** An SVG element, same calling convention as el(). */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") {
      // Custom properties ("--count") need setProperty: plain assignment ignores them.
      for (const [p, x] of Object.entries(v)) {
        if (p.startsWith("--")) node.style.setProperty(p, String(x));
        else node.style[p] = x;
      }
    }
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/* ---- translations ------------------------------------------------------------------ */

export const i18n = {
  // The server writes only a language it speaks (one per static/i18n/<lang>.json).
  lang: document.documentElement.lang || "en",
  dict: {},
  loaded: new Set(),
};

/** Load static/i18n/<name>.<lang>.json (name "" → <lang>.json) into the dictionary. */
export async function loadStrings(name = "") {
  const file = name ? `${name}.${i18n.lang}.json` : `${i18n.lang}.json`;
  if (i18n.loaded.has(file)) return;
  i18n.loaded.add(file);
  const r = await fetch(`/static/i18n/${file}`);
  if (r.ok) Object.assign(i18n.dict, await r.json());
}

/** The string `key` with {name} placeholders filled; the key itself when missing (caught by tests). */
export function t(key, vars) {
  let s = i18n.dict[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** Whether the dictionary has `key` (for optional, game-specific strings). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(i18n.dict, key);
}

/** Fill [data-i18n] nodes and wire the language buttons of a static page. */
export function translatePage() {
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.querySelectorAll("[data-i18n-title]").forEach((n) => { n.title = t(n.dataset.i18nTitle); });
  document.querySelectorAll("[data-i18n-label]").forEach((n) => { n.setAttribute("aria-label", t(n.dataset.i18nLabel)); });
  document.querySelectorAll("[data-lang]").forEach((b) => {
    b.disabled = b.dataset.lang === i18n.lang;
    b.addEventListener("click", () => setLang(b.dataset.lang));
  });
}

export function setLang(lang) {
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

/** Whether the user asked for less motion (checked at each use: it can change live). */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
