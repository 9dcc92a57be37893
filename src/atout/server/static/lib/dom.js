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
  // The server writes only a language it speaks (one per folder i18n/<lang>/ with a table.json).
  lang: document.documentElement.lang || "en",
  dict: {},
  loaded: new Set(),
};

/** Load the language folder's <name>.json (name "" → table.json, the table's own) into the dictionary:
    the server serves src/atout/i18n/<lang>/<name>.json at /i18n/<lang>/<name>.json. */
export async function loadStrings(name = "") {
  const file = `${name || "table"}.json`;
  if (i18n.loaded.has(file)) return;
  i18n.loaded.add(file);
  const r = await fetch(`/i18n/${i18n.lang}/${file}`);
  if (r.ok) Object.assign(i18n.dict, await r.json());
}

/** The string `key` with {name} placeholders filled; the key itself when missing (caught by tests). */
export function t(key, vars) {
  let s = i18n.dict[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) {
    const value = String(v);
    // French elides "de" before a vowel: "la carte d'Amélie", never "de Amélie".
    if (i18n.lang === "fr" && ELIDES.test(value)) s = s.replace(new RegExp(`(^|[\\s(])([Dd])e \\{${k}\\}`, "g"), `$1$2'{${k}}`);
    s = s.split(`{${k}}`).join(value);
  }
  return s;
}

/** Names French elides "de" before: a vowel first (a mute h is too rare in names to guess). */
const ELIDES = /^[aeiouyàâäéèêëîïôöùûüœæ]/i;

/** `key` for a count of `n`: the `<key>_one` wording when n is 1 and the dictionary has it
    ("the only trick", never "the 1 tricks"), else `key`; `n` is passed as {n} too. */
export function tn(key, n, vars) {
  const one = `${key}_one`;
  return t(n === 1 && has(one) ? one : key, { n, ...vars });
}

/** Remember that seat `seat` of table `table` has been given its player's name on this device
    (the creator typed it, or the lobby asked it): its invite link then does not ask again. */
export function markNamed(table, seat) {
  try { localStorage.setItem(`atout.named.${table}.${seat}`, "1"); } catch { /* private mode: asked again */ }
}

export function isNamed(table, seat) {
  try { return localStorage.getItem(`atout.named.${table}.${seat}`) === "1"; } catch { return true; }
}

/** A score as the table writes it: a true minus sign (U+2212, "−30", as printed score sheets
    do; ASCII "-" is a hyphen, shorter and set lower), so every game writes its negatives alike. */
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** A decimal number the reader's way (a decimal comma in French) with the table's true minus (as
    `num`: Intl writes an ASCII "-", and a rating read "0,0 → -2,6" beside scores "−10"): `digits`
    decimals at most, all of them when `fixed`; `sign` as Intl's signDisplay ("always": "+0,0"). */
export function decimal(value, { digits = 0, fixed = false, sign = "auto" } = {}) {
  const format = new Intl.NumberFormat(i18n.lang, { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0, signDisplay: sign });
  return format.format(value).replace("-", "−");
}

/** A change of score: "+20", "−10", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : num(n);
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
