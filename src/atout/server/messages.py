"""Refusals and errors in the reader's language.

Refusals (an action the rules forbid) are data: the rules engines give a
:class:`~atout.core.reason.Reason`, a key and typed parameters, and
:func:`render_refusal` puts it in the reader's words through the templates of
``core/reasons/<lang>.json`` (seats by their player's name, cards as the table
names them), with no reading back of English text.

The other messages (the server's own errors, notation and option errors) are still
English sentences built with f-strings; this module turns such a sentence into the
reader's language after the fact:

* ``static/i18n/reasons.<lang>.json`` holds a catalogue: each key is an English
  *template*, the exact text of one engine or server message with typed
  placeholders (``"you must follow {colour:colour}: you hold {held:cards}"``), and
  its value the sentence in that language (``"... ({colour}) : vous avez {held}"``);
* a template becomes an anchored regular expression (literal text escaped, each
  placeholder a named group whose pattern comes from its kind, a repeated
  placeholder a back-reference); the message is matched against the templates
  whose literal beginning it starts with, then those that start with a
  placeholder, in file order;
* each captured value is re-rendered by its kind: numbers get the language's
  decimal mark, colour and phase names are looked up (``words``), cards are read
  with the game's own card parser and named as the table names them ("le 7 bleu",
  "l'as de trèfle"), seats become the seat's player name (the interface numbers
  seats from 1: an unnamed seat is "place 3" for engine seat 2), and a ``reason``
  value is itself matched against the templates (``"'bid x': invalid literal ..."``);
* a kind that cannot read its value (an unknown colour, a card the game does not
  have) makes the template not match, so the next one is tried.

The words (card names, colours, seats...) are those of ``core/reasons/<lang>.json``,
completed by the file's own ``words`` (quotes, options, the Malheur cards' names).
English is the source: an English template with no entry in reasons.en.json is
rendered as itself (with its placeholders re-rendered: seats by name and from 1,
cards as drawn).  A message no template matches falls back to the English text as
it came, and is logged once at warning level; tests/server/test_messages.py walks
random states of every game to keep that from happening.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ..core.cardname import CardName
from ..core.errors import UnknownGame
from ..core.reason import ENGINE_LANGUAGE, Reader, Reason, render
from ..core.reason import catalogue as reason_catalogue
from ..core.reason import languages as reason_languages
from ..core.registry import game_class

log = logging.getLogger("atout.server")

I18N = resources.files("atout.server") / "static" / "i18n"


def _catalogue_languages() -> tuple[str, ...]:
    """The languages with a catalogue, ``static/i18n/reasons.<lang>.json``, English first.

    Another language's messages are rendered in English (with names and card words);
    adding a language's catalogue is adding its file, not editing a list.
    """
    names = [p.name for p in I18N.iterdir() if p.name.startswith("reasons.") and p.name.endswith(".json")]
    langs = {name[len("reasons.") : -len(".json")] for name in names} | {"en"}
    return tuple(sorted(langs, key=lambda lang: (lang != "en", lang)))


LANGUAGES = _catalogue_languages()

#: Placeholder in a template key: ``{name:kind}`` (a brace not followed by that is literal).
_PLACEHOLDER = re.compile(r"\{(\w+):(\w+)\}")
#: Placeholder in a template value: ``{name}``.
_SLOT = re.compile(r"\{(\w+)\}")

_CARD = r"[^\s,():'\"]+"
_RANK = r"(?:A|[2-9]|10|J|Q|K)"
#: What each kind of placeholder matches in the English message.
PATTERNS: dict[str, str] = {
    "n": r"-?\d+(?:\.\d+)?",
    "text": r".+?",
    "name": r".+?",
    "list": r".+?",
    "quoted": r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"",
    "seat": r"seat \d+",
    "seatidx": r"\d+",
    "seatno": r"\d+",
    "seats": r"\d+(?:(?:, | )\d+)*",
    "card": _CARD,
    "cardneg": _CARD,
    "cards": rf"{_CARD}(?:(?:, | ){_CARD})*",
    "colour": r"blue|green|red|yellow|orange|violet",
    "therank": rf"the {_RANK}",
    "arank": rf"an? {_RANK}",
    "malheur": r"Le Malin|L'Avocat du Diable|666|Belzébuth|Fennec",
    "malheurname": r"malin|avocat|666|belzebuth|fennec",
    "phase": r"[a-z-]+",
    "window": r"before bidding|after a card",
    "option": r"[a-z][a-z0-9_]*",
    "allowed": r".+?",
    "game": r"[a-z][a-z-]*",
    "reason": r".+",
}

#: Placeholder values French elides a preceding "de" / "que" before ("d'annoncer").
_VOWEL = re.compile(r"[aeiouyéèêàâîôûAEIOUYÉÈÊÀÂÎÔÛ]")
_ELIDING = re.compile(r"(?:^|(?<=\W))(de|que) $")
#: Cached (un)matched messages per process; bounded: messages hold what players type.
_MAX_WARNED = 1000


class NoMatch(ValueError):
    """A placeholder value its kind cannot read: the template does not apply."""


@dataclass(frozen=True)
class ReasonContext:
    """What a message is about: the game (its cards, options) and the seats' names."""

    game: str | None = None
    names: tuple[str, ...] = ()


@dataclass
class Template:
    source: str
    target: str
    regex: re.Pattern[str]
    kinds: dict[str, str]
    #: Literal text before the first placeholder (the index key).
    prefix: str
    #: Position in the catalogue: candidates are tried in this order.
    index: int = 0


@dataclass
class Catalogue:
    lang: str
    templates: list[Template]
    words: dict[str, Any]
    by_prefix: dict[str, list[Template]] = field(default_factory=dict)
    generic: list[Template] = field(default_factory=list)


def compile_template(source: str, target: str | None) -> Template:
    """The regular expression of an English template; ``target`` ``None`` renders it as itself."""
    parts: list[str] = []
    kinds: dict[str, str] = {}
    pos = 0
    for m in _PLACEHOLDER.finditer(source):
        parts.append(re.escape(source[pos : m.start()]))
        name, kind = m.group(1), m.group(2)
        if kind not in PATTERNS:
            raise ValueError(f"template {source!r}: unknown placeholder kind {kind!r}")
        if name in kinds:
            if kinds[name] != kind:
                raise ValueError(f"template {source!r}: {name} has two kinds")
            parts.append(f"(?P={name})")
        else:
            kinds[name] = kind
            parts.append(f"(?P<{name}>{PATTERNS[kind]})")
        pos = m.end()
    parts.append(re.escape(source[pos:]))
    first = _PLACEHOLDER.search(source)
    prefix = source[: first.start()] if first else source
    plain = _PLACEHOLDER.sub(lambda m: "{" + m.group(1) + "}", source)
    if target is not None:
        unknown = set(_SLOT.findall(target)) - set(kinds)
        if unknown:
            raise ValueError(f"template {source!r}: the translation uses unknown {sorted(unknown)}")
    return Template(
        source, plain if target is None else target, re.compile("".join(parts), re.S), kinds, prefix
    )


def _read(lang: str) -> dict[str, Any]:
    path = I18N / f"reasons.{lang}.json"
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def catalogue(lang: str) -> Catalogue:
    """The compiled catalogue of ``lang``: the English keys in file order, their translations.

    English keys come from reasons.fr.json (the complete list) and reasons.en.json
    (English wordings that differ from the engine's, and the English words); the
    words start from the refusals' (``core/reasons/<lang>.json``), one place for the
    names of the cards.
    """
    own = _read(lang)
    english = _read("en")
    french = _read("fr")

    def compiled(section: str) -> list[Template]:
        keys = list(dict.fromkeys([*french.get(section, {}), *english.get(section, {})]))
        texts: dict[str, str] = own.get(section, {})
        out = []
        for key in keys:
            if key in texts:
                out.append(compile_template(key, texts[key]))
            elif lang == "en":
                out.append(compile_template(key, None))
        for i, t in enumerate(out):
            t.index = i
        return out

    shared = reason_catalogue(lang)["words"] if lang in reason_languages() else {}
    cat = Catalogue(lang, compiled("templates"), {**shared, **own.get("words", {})})
    for t in cat.templates:
        if t.prefix:
            cat.by_prefix.setdefault(t.prefix, []).append(t)
        else:
            cat.generic.append(t)
    return cat


# -- rendering placeholder values --------------------------------------------------------


def _word(cat: Catalogue, table: str, key: str) -> str:
    value = cat.words.get(table, {}).get(key)
    if isinstance(value, str):
        return value
    if cat.lang == "en":
        return key
    raise NoMatch(f"no {cat.lang} word for {table} {key!r}")


def _number(cat: Catalogue, text: str) -> str:
    return text.replace(".", str(cat.words.get("decimal", ".")))


def _seat_name(cat: Catalogue, index: int, ctx: ReasonContext) -> str:
    if 0 <= index < len(ctx.names) and ctx.names[index].strip():
        return ctx.names[index]
    return str(cat.words.get("seat", "seat {n}")).replace("{n}", str(index + 1))


def _join(cat: Catalogue, items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    sep = str(cat.words.get("list_sep", ", "))
    last = str(cat.words.get("and", " and "))
    return sep.join(items[:-1]) + last + items[-1]


def _card_parts(game: str, text: str) -> CardName:
    """Read ``text`` as a card of ``game`` (the game reads its own notation); :class:`NoMatch` otherwise."""
    try:
        return game_class(game).card_name(text)
    except (ValueError, UnknownGame):
        raise NoMatch(text) from None


def _rank(cat: Catalogue, table: str, rank: str) -> str:
    words = cat.words.get(table, {})
    value = words.get(rank, words.get("*"))
    if not isinstance(value, str):
        if cat.lang == "en" and table == "rank":
            return rank
        raise NoMatch(f"no {cat.lang} {table} for {rank}")
    return value.replace("{n}", rank)


def _card(cat: Catalogue, text: str, ctx: ReasonContext, form_name: str = "") -> str:
    """A card as the table names it: ``form_name`` "bare" in lists, "neg" after a negation."""
    if ctx.game is None:
        return text
    parts = _card_parts(ctx.game, text)
    forms = cat.words.get("card", {}).get(ctx.game)
    if not isinstance(forms, dict):
        if cat.lang == "en":
            return text
        raise NoMatch(f"no {cat.lang} card names for {ctx.game}")
    base = parts.special or "one"
    form = forms.get(f"{base}_{form_name}") if form_name else None
    form = form or forms.get(base)
    if not isinstance(form, str):
        raise NoMatch(f"no {cat.lang} name for {ctx.game} card {text}")
    values = {
        "rank": _rank(cat, "rank", parts.rank) if parts.rank else "",
        "therank": _rank(cat, "therank", parts.rank) if "{therank}" in form else "",
        "colour": _word(cat, "colour", parts.colour) if parts.colour else "",
        "suit": _word(cat, "suit", parts.suit) if parts.suit else "",
    }
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), form)


def _option(cat: Catalogue, name: str, ctx: ReasonContext) -> str:
    """An option as ``words.option`` says: its ``{label}`` in the reader's language
    (games.<lang>.json) or its ``{name}`` (English: what the program accepts)."""
    label = name
    if ctx.game is not None:
        entry = game_words(cat.lang).get("games", {}).get(ctx.game, {}).get("options", {}).get(name, {})
        if isinstance(entry, dict) and isinstance(entry.get("label"), str):
            label = entry["label"]
    return str(cat.words.get("option", "{name}")).replace("{label}", label).replace("{name}", name)


def _allowed(cat: Catalogue, text: str) -> str:
    """The values an option takes (OptionSpec.allowed), in the reader's language."""
    words = cat.words.get("allowed", {})

    def w(key: str, default: str) -> str:
        value = words.get(key)
        if isinstance(value, str):
            return value
        if cat.lang == "en":
            return default
        raise NoMatch(f"no {cat.lang} word for allowed {key}")

    none = text.endswith(" or none")
    core = text[: -len(" or none")] if none else text
    if core == "true or false":
        out = w("bool", core)
    elif core == "a text":
        out = w("text", core)
    elif core == "an integer":
        out = w("int", core)
    elif m := re.fullmatch(r"an integer (-?\d*)\.\.(-?\d*)", core):
        lo, hi = m.group(1), m.group(2)
        key = "range" if lo and hi else "min" if lo else "max"
        out = w(key, core).replace("{lo}", lo).replace("{hi}", hi)
    else:
        out = core  # the choices, as the program accepts them
    return out + (w("or_none", " or none") if none else "")


def _game_title(name: str) -> str:
    from ..core.errors import UnknownGame
    from ..core.registry import game_class

    try:
        return game_class(name).title
    except UnknownGame:
        raise NoMatch(name) from None


def _quoted(cat: Catalogue, text: str) -> str:
    form = cat.words.get("quote")
    return text if not isinstance(form, str) else form.replace("{text}", text[1:-1])


def render_value(cat: Catalogue, kind: str, value: str, ctx: ReasonContext, depth: int) -> str:
    """``value`` (captured from an English message) in ``cat``'s language; NoMatch if unreadable."""
    if kind == "n":
        return _number(cat, value)
    if kind in ("text", "name", "list"):
        return value
    if kind == "quoted":
        return _quoted(cat, value)
    if kind == "seat":
        return _seat_name(cat, int(value.split()[1]), ctx)
    if kind == "seatidx":
        return _seat_name(cat, int(value), ctx)
    if kind == "seatno":
        return str(int(value) + 1)
    if kind == "seats":
        return _join(cat, [_seat_name(cat, int(s), ctx) for s in re.split(r",? ", value)])
    if kind == "card":
        return _card(cat, value, ctx)
    if kind == "cardneg":
        return _card(cat, value, ctx, "neg")
    if kind == "cards":
        return _join(cat, [_card(cat, c, ctx, "bare") for c in re.split(r",? ", value)])
    if kind in ("colour", "phase", "window", "malheur", "malheurname"):
        return _word(cat, kind, value)
    if kind in ("therank", "arank"):
        return _rank(cat, kind, value.split()[1])
    if kind == "option":
        return _option(cat, value, ctx)
    if kind == "allowed":
        return _allowed(cat, value)
    if kind == "game":
        return _game_title(value)
    if kind == "reason":
        if depth > 4:
            raise NoMatch("nested too deep")
        out = _render(candidates(cat, value), cat, value, ctx, depth + 1)
        if out is None:
            raise NoMatch(value)
        return out
    raise NoMatch(kind)  # pragma: no cover - compile_template refuses unknown kinds


def candidates(cat: Catalogue, message: str) -> list[Template]:
    """The templates that may match ``message``: those it starts like, then the generic ones."""
    out = [t for prefix, ts in cat.by_prefix.items() if message.startswith(prefix) for t in ts]
    return sorted(out + cat.generic, key=lambda t: t.index)


def _fill(cat: Catalogue, target: str, values: dict[str, str]) -> str:
    """``target`` with its ``{name}`` slots filled (French: "de annoncer" becomes "d'annoncer")."""
    out: list[str] = []
    pos = 0
    elide = cat.words.get("elide") is True
    for m in _SLOT.finditer(target):
        literal = target[pos : m.start()]
        value = values[m.group(1)]
        e = _ELIDING.search(literal) if elide and _VOWEL.match(value) else None
        if e is not None:
            literal = literal[: e.start(1)] + e.group(1)[:-1] + "'"
        out.append(literal)
        out.append(value)
        pos = m.end()
    out.append(target[pos:])
    return "".join(out)


def _render(
    templates: Sequence[Template], cat: Catalogue, message: str, ctx: ReasonContext, depth: int
) -> str | None:
    for t in templates:
        m = t.regex.fullmatch(message)
        if m is None:
            continue
        try:
            values = {
                name: render_value(cat, kind, m.group(name), ctx, depth) for name, kind in t.kinds.items()
            }
        except (NoMatch, ValueError, IndexError):
            continue
        return _fill(cat, t.target, values)
    return None


@lru_cache(maxsize=2048)
def translate(message: str, lang: str, ctx: ReasonContext = ReasonContext()) -> str | None:
    """``message`` in ``lang``, or ``None`` when no template matches it."""
    if lang not in LANGUAGES:
        lang = "en"
    cat = catalogue(lang)
    return _render(candidates(cat, message), cat, message, ctx, 0)


_warned: set[tuple[str, str]] = set()


def localize(message: str, lang: str, ctx: ReasonContext | None = None) -> str:
    """``message`` (an engine's or the server's English) in ``lang``.

    Unmatched: the English message itself, logged once at warning level.
    """
    out = translate(message, lang, ctx or ReasonContext())
    if out is not None:
        return out
    key = (lang, message)
    if key not in _warned and len(_warned) < _MAX_WARNED:
        _warned.add(key)
        log.warning("no %s translation for the message %r: sent in English", lang, message)
    return message


def render_refusal(why: Reason, lang: str, ctx: ReasonContext | None = None) -> str:
    """A rules engine's refusal in ``lang`` (English when ``lang`` has no templates):
    seats by their player's name, cards in words, from the templates alone."""
    ctx = ctx or ReasonContext()
    card_name = None
    if ctx.game is not None:
        try:
            card_name = game_class(ctx.game).card_name
        except UnknownGame:
            card_name = None
    lang = lang if lang in reason_languages() else ENGINE_LANGUAGE
    return render(why, Reader(lang, ctx.game, ctx.names, card_name))


@cache
def game_words(lang: str) -> dict[str, Any]:
    """static/i18n/games.<lang>.json (labels, helps, choice labels, bot levels) or {}."""
    path = I18N / f"games.{lang}.json"
    if lang not in LANGUAGES or not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


__all__ = [
    "LANGUAGES",
    "NoMatch",
    "ReasonContext",
    "catalogue",
    "game_words",
    "localize",
    "render_refusal",
    "translate",
]
