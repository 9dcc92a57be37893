"""Why an action is refused, or any message a player reads, as data: a key and typed
parameters, rendered per language.

The code that decides legality (each game's ``refusals``, dispatched by
:meth:`State.refusal`) returns a :class:`Reason`, ``Reason("wizard.follow_suit",
{"colour": Word("colour", "blue"), "held": Cards(("B3", "B11"))})``, built only
when it refuses: the legal case returns ``None`` and builds nothing.  The other
messages are reasons too, raised in an error by the code that decides them
(:class:`~atout.core.errors.AtoutError` keeps its reason in ``why``): a notation
reader (``notation.*``, ``<game>.not_a_card``...; a reason may nest another, ``'bid 9':
a bid is 0..3``), an option check (``option.*``), the server (``server.*``).  A reason
becomes words through the templates of ``i18n/<lang>/reasons.json`` (one file in each
language's folder, :mod:`atout.i18n`; the languages are the folders holding one):

* ``templates`` maps each key to a sentence with ``{name}`` placeholders, or
  ``{name:form}`` where the language needs another form of a card or a rank
  (French "vous n'avez pas {card:neg}" gives "de Sorcier");
* ``words`` says how each kind of parameter is named in the language: seats,
  colours, phases, cards (per game, built from :meth:`atout.Game.card_name`'s
  parts), ranks, the actions of each game's action ranges.

Two ways to name the parameters, one set of templates:

* the engine's English (:func:`render` with no language, ``str(reason)``,
  ``str(IllegalAction)``, the CLI, records' errors): cards and actions in the
  game's notation (``B7``, ``play B7``), seats as the engine numbers them
  (``seat 2``), colours by their English key;
* a reader's language (:func:`render` with ``lang``, the web table): seats by
  their player's name (or "seat 3", counted from 1), cards in words ("the blue
  7", "le 7 bleu", "die blaue 7"), actions in words.

Nothing is read back from English text: no pattern matching anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from .. import i18n
from .cardname import CardName

#: The template file in each language's folder (``i18n/<lang>/reasons.json``).
REASONS_FILE = "reasons.json"
#: The language of the engine's own text.
ENGINE_LANGUAGE = "en"


# -- the parameters ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat, as the engine numbers them (from 0); a reader sees its player's name."""

    index: int


@dataclass(frozen=True, slots=True)
class Card:
    """A card in its game's notation (``"B7"``, ``"Z"``, ``"TWIN"``, ``"QS"``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards in their game's notation; ``sep`` joins them in the engine's text (``"B3, B11"``)."""

    texts: tuple[str, ...]
    sep: str = ", "


@dataclass(frozen=True, slots=True)
class Word:
    """A word of a closed set: ``table`` is its kind (colour, phase, window, malheur), ``key``
    its English word (what the engine writes)."""

    table: str
    key: str


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank of a card game's ranks (``"7"``, ``"Q"``); templates ask ``{rank:the}`` or ``{rank:a}``."""

    rank: str


@dataclass(frozen=True, slots=True)
class Num:
    """A number written as text (``"17.5"``): a reader's language gives it its decimal mark."""

    text: str


@dataclass(frozen=True, slots=True)
class Act:
    """An action, as the game writes it (``"play B7"``); ``range`` is its action range's name
    (``"play"``, ``"bid"``), ``""`` for an id outside the game's action space."""

    text: str
    range: str = ""


@dataclass(frozen=True, slots=True)
class Quoted:
    """A text the reader typed or a name of the program, quoted: the engine writes its ``repr``
    (``'bid x'``), a reader's language its quotes (``« bid x »``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Choices:
    """Texts the reader may write, each quoted, the last after "or":
    ``'play B7', 'bid 2' or 'trump green'``."""

    texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatNo:
    """A seat number as a bound (``first_dealer must be a seat 0..3``): the engine counts from
    0, a reader from 1 (the table numbers seats from 1)."""

    index: int


@dataclass(frozen=True, slots=True)
class Seats:
    """Seats as the engine numbers them, joined by ``sep`` in its text; a reader sees names."""

    indices: tuple[int, ...]
    sep: str = " "


@dataclass(frozen=True, slots=True)
class Option:
    """A game option by its name (``first_dealer``): a reader sees its label in its language
    (``Reader.labels``), quoted as ``words.option`` says."""

    name: str


@dataclass(frozen=True, slots=True)
class GameName:
    """A game by its registered name (``wizard``): a reader sees its title (``Wizard``)."""

    name: str


@dataclass(frozen=True)
class Reason:
    """Why an action is refused: a template ``key`` and the ``params`` its placeholders name.

    ``str(reason)`` is the engine's English.  Built by the code that refuses, only
    when it refuses (never on the legal path).
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items()))))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"key": ..., "params": {name: {"kind": ..., ...}}}`` (the socket sends it)."""
        return {"key": self.key, "params": {k: _param_dict(v) for k, v in self.params.items()}}


#: What a parameter may be: these, an int, a str (shown as it is: a typed text), or another
#: reason (a notation error's cause: ``'bid 9': a bid is 0..3``).
Param = (
    int
    | str
    | Seat
    | Card
    | Cards
    | Word
    | Rank
    | Num
    | Act
    | Quoted
    | Choices
    | SeatNo
    | Seats
    | Option
    | GameName
    | Reason
)


def reason(key: str, **params: Param) -> Reason:
    """``Reason(key, params)`` written as a call: ``reason("wizard.not_held", card=Card("B7"))``."""
    return Reason(key, params)


def _param_dict(value: Param) -> dict[str, Any]:
    """``{"kind": "seat", "index": 2}``, ``{"kind": "cards", "texts": [...], "sep": ", "}``, ``{"kind": "int", "value": 3}``."""
    if isinstance(value, (int, str)):
        return {"kind": "int" if isinstance(value, int) else "text", "value": value}
    if isinstance(value, Reason):
        return {"kind": "reason", **value.to_dict()}
    data = {f.name: getattr(value, f.name) for f in fields(value)}
    return {
        "kind": type(value).__name__.lower(),
        **{k: list(v) if isinstance(v, tuple) else v for k, v in data.items()},
    }


# -- the template files ----------------------------------------------------------------------


def languages() -> tuple[str, ...]:
    """The languages whose folder has a template file, English first: adding one is adding its folder."""
    return i18n.languages(REASONS_FILE)


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The template file of ``lang`` (``templates`` and ``words``); KeyError for a language without one."""
    if lang not in languages():
        raise KeyError(f"no reasons in language {lang!r}; there are: {', '.join(languages())}")
    return i18n.read_json(lang, REASONS_FILE)


@cache
def pieces(template: str) -> tuple[tuple[str, str, str], ...]:
    """``template`` as (literal text, placeholder name, form) triples; the last has no name.

    ``"you hold {held}: {rank:the}"`` -> ``(("you hold ", "held", ""), (": ", "rank", "the"),
    ("", "", ""))``.  A brace that opens no ``{name}`` or ``{name:form}`` is a ValueError
    (the tests read every template through this).
    """
    out: list[tuple[str, str, str]] = []
    pos = 0
    while True:
        start = template.find("{", pos)
        if start < 0:
            out.append((template[pos:], "", ""))
            return tuple(out)
        end = template.find("}", start)
        name, _, form = template[start + 1 : end].partition(":") if end > start else ("", "", "")
        if not name.isidentifier() or (form and not form.isidentifier()):
            raise ValueError(f"template {template!r}: a brace at {start} opens no {{name}}")
        out.append((template[pos:start], name, form))
        pos = end + 1


def placeholders(template: str) -> set[str]:
    """The parameter names ``template`` uses."""
    return {name for _, name, _ in pieces(template) if name}


# -- naming the parameters -------------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    """Who reads a reason: the language, and the game and seat names that make it concrete.

    ``lang`` ``None`` is the engine's English: the game's notation, seats from 0.
    ``game`` names the word tables (``words.card.<game>``, ``words.actions``);
    ``card_name`` is that game's :meth:`atout.Game.card_name`, which reads a card's
    notation into the parts its name is built from (a card it cannot read stays in
    notation).
    """

    lang: str | None = None
    game: str | None = None
    names: tuple[str, ...] = ()
    card_name: Callable[[str], CardName] | None = None
    #: The game's options' labels in ``lang`` (name -> label), for :class:`Option`.
    labels: Mapping[str, str] = field(default_factory=dict)
    #: The games' titles (name -> title), for :class:`GameName`.
    titles: Mapping[str, str] = field(default_factory=dict)


_ENGINE = Reader()
#: Letters a French word elides a preceding "de" / "que" before ("d'annoncer", "qu'un").
_VOWELS = frozenset("aeiouyéèêàâîôûAEIOUYÉÈÊÀÂÎÔÛ")


class _Namer:
    """The words of one language for one reader (its ``words`` table)."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.engine = reader.lang is None
        self.lang = ENGINE_LANGUAGE if reader.lang is None else reader.lang
        self.words: dict[str, Any] = catalogue(self.lang).get("words", {})

    def word(self, table: str, key: str) -> str:
        if self.engine:
            return key
        value = self.words.get(table, {}).get(key)
        return value if isinstance(value, str) else key

    def number(self, text: str) -> str:
        return text if self.engine else text.replace(".", str(self.words.get("decimal", ".")))

    def seat(self, index: int) -> str:
        if self.engine:
            return f"seat {index}"
        names = self.reader.names
        if 0 <= index < len(names) and names[index].strip():
            return names[index]
        return str(self.words.get("seat", "seat {n}")).replace("{n}", str(index + 1))

    def join(self, items: Sequence[str]) -> str:
        if len(items) <= 1:
            return "".join(items)
        sep = str(self.words.get("list_sep", ", "))
        return sep.join(items[:-1]) + str(self.words.get("and", " and ")) + items[-1]

    def rank(self, rank: str, form: str) -> str:
        """``form`` "" (the rank alone), "the" or "a" (the engine: "the 7", "a 7")."""
        if self.engine:
            return f"{form} {rank}" if form else rank
        table = {"": "rank", "the": "therank", "a": "arank"}.get(form, "rank")
        forms = self.words.get(table, {})
        value = forms.get(rank, forms.get("*", "{n}"))
        return str(value).replace("{n}", rank)

    def card(self, text: str, form: str = "") -> str:
        """A card in words: ``form`` "bare" (in a list) or "neg" (after a negation) where the
        language has such a form; the engine writes the notation."""
        game, card_name = self.reader.game, self.reader.card_name
        if self.engine or game is None or card_name is None:
            return text
        try:
            parts = card_name(text)
        except ValueError:
            return text
        forms = self.words.get("card", {}).get(game, {})
        base = parts.special or "one"
        pattern = (forms.get(f"{base}_{form}") if form else None) or forms.get(base)
        if not isinstance(pattern, str):
            return text
        values = {
            "rank": self.rank(parts.rank, "") if parts.rank else "",
            "therank": self.rank(parts.rank, "the") if parts.rank else "",
            "colour": self.word("colour", parts.colour) if parts.colour else "",
            "suit": self.word("suit", parts.suit) if parts.suit else "",
        }
        return "".join(lit + values.get(name, "") for lit, name, _ in pieces(pattern))

    def act(self, act: Act) -> str:
        """An action in words: its range's template in ``words.actions`` (``"<game>.<range>"``),
        filled from the words of its notation after the range's keyword."""
        if self.engine:
            return act.text
        actions = self.words.get("actions", {})
        template = actions.get(f"{self.reader.game}.{act.range}") if act.range else actions.get("unknown")
        if not isinstance(template, str):
            return act.text
        words = act.text.split()

        def value(name: str, form: str) -> str:
            if name == "seats":  # "malheur malin on 1 3": the seats after "on"
                seats = words[words.index("on") + 1 :] if "on" in words else []
                return self.join([self.seat(int(s)) for s in seats])
            if name == "seat":
                return self.seat(int(words[-1]))
            if name == "card":
                return self.card(words[-1], form)
            if name == "colour":
                return self.word("colour", words[-1])
            return self.number(words[-1])  # a number: a bid, a value

        return fill(self, template, value)

    def quoted(self, text: str) -> str:
        form = None if self.engine else self.words.get("quote")
        return repr(text) if not isinstance(form, str) else form.replace("{text}", text)

    def option(self, name: str) -> str:
        if self.engine:
            return name
        label = self.reader.labels.get(name, name)
        return str(self.words.get("option", "{name}")).replace("{label}", label).replace("{name}", name)

    def game_title(self, name: str) -> str:
        return name if self.engine else self.reader.titles.get(name, name)

    def value(self, value: Param, form: str) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, int):
            return str(value)
        if isinstance(value, Reason):
            return render(value, self.reader)
        if isinstance(value, Quoted):
            return self.quoted(value.text)
        if isinstance(value, Choices):
            quoted = [self.quoted(t) for t in value.texts]
            if len(quoted) <= 1:
                return "".join(quoted)
            sep = ", " if self.engine else str(self.words.get("list_sep", ", "))
            last = " or " if self.engine else str(self.words.get("or", " or "))
            return sep.join(quoted[:-1]) + last + quoted[-1]
        if isinstance(value, SeatNo):
            return str(value.index if self.engine else value.index + 1)
        if isinstance(value, Seats):
            if self.engine:
                return value.sep.join(map(str, value.indices))
            return self.join([self.seat(i) for i in value.indices])
        if isinstance(value, Option):
            return self.option(value.name)
        if isinstance(value, GameName):
            return self.game_title(value.name)
        if isinstance(value, Seat):
            return self.seat(value.index)
        if isinstance(value, Card):
            return self.card(value.text, form)
        if isinstance(value, Cards):
            if self.engine:
                return value.sep.join(value.texts)
            return self.join([self.card(t, "bare") for t in value.texts])
        if isinstance(value, Word):
            return self.word(value.table, value.key)
        if isinstance(value, Rank):
            return self.rank(value.rank, form)
        if isinstance(value, Num):
            return self.number(value.text)
        return self.act(value)


def _elided(literal: str) -> str:
    """``literal`` ending in "de " / "que " elided before a vowel ("d'", "qu'")."""
    for word in ("de ", "que "):
        if literal.endswith(word):
            before = literal[: -len(word)]
            if not before or not before[-1].isalnum():
                return before + word[:-2] + "'"
    return literal


def fill(namer: _Namer, template: str, value_of: Callable[[str, str], str]) -> str:
    """``template`` with each placeholder replaced by ``value_of(name, form)`` (French elides "de"/"que")."""
    elide = namer.words.get("elide") is True and not namer.engine
    out: list[str] = []
    for literal, name, form in pieces(template):
        if name:
            value = value_of(name, form)
            out.append(_elided(literal) if elide and value[:1] in _VOWELS else literal)
            out.append(value)
        else:
            out.append(literal)
    return "".join(out)


def render(why: Reason, reader: Reader = _ENGINE) -> str:
    """``why`` in words: the engine's English by default, or for ``reader``.

    A language without a template for the key falls back to English (the
    completeness test keeps that from happening); an unknown key is a KeyError.
    """
    namer = _Namer(reader)
    template = catalogue(namer.lang)["templates"].get(why.key)
    if template is None:
        if namer.lang == ENGINE_LANGUAGE:
            raise KeyError(f"no template for the reason {why.key!r}")
        namer = _Namer(
            Reader(ENGINE_LANGUAGE, reader.game, reader.names, reader.card_name, reader.labels, reader.titles)
        )
        template = catalogue(ENGINE_LANGUAGE)["templates"][why.key]
    params = why.params
    return fill(namer, template, lambda name, form: namer.value(params[name], form))


__all__ = [
    "Act",
    "Card",
    "Cards",
    "Choices",
    "GameName",
    "Num",
    "Option",
    "Param",
    "Quoted",
    "Rank",
    "Reader",
    "Reason",
    "Seat",
    "SeatNo",
    "Seats",
    "Word",
    "catalogue",
    "languages",
    "pieces",
    "placeholders",
    "reason",
    "render",
]
