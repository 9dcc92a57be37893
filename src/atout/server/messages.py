"""Refusals and errors in the reader's language: one renderer for every message.

Every message a player reads is data: the rules engines' refusals, the notation
errors (``'bid 9': a bid is 0..3``), the option errors and the server's own
(``it is not your turn: Bob is to play``) are each a
:class:`~atout.core.reason.Reason`, a key and typed parameters, built by the code
that decides (the engine, the notation reader, the option check, the server).
:func:`localize` puts one in the reader's words through the templates of
``i18n/<lang>/reasons.json``: seats by their player's name, cards as the table names
them, options by their label (``i18n/<lang>/games.json``), numbers with the
language's decimal mark.  Nothing is read back from English text.

A plain text (a message built without a reason: a tool's, a bug's) is sent as it
is and logged once at warning level; tests/server/test_messages.py and
tests/test_reasons.py produce every message to keep that from happening.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from typing import Any

from ..core.errors import UnknownGame
from ..core.reason import ENGINE_LANGUAGE, Reader, Reason, reason, render
from ..core.reason import catalogue as reason_catalogue
from ..core.reason import languages as reason_languages
from ..core.registry import game_class, names
from .languages import LANGUAGES, game_texts

log = logging.getLogger("atout.server")

#: Plain texts already logged; bounded: a text may hold what a player typed.
_MAX_WARNED = 1000
_warned: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class ReasonContext:
    """What a message is about: the game (its cards, options) and the seats' names."""

    game: str | None = None
    names: tuple[str, ...] = ()


def option_labels(lang: str, game: str | None) -> dict[str, str]:
    """The labels of ``game``'s options in ``lang`` (i18n/<lang>/games.json), name -> label."""
    if game is None:
        return {}
    options = game_texts(lang).get("games", {}).get(game, {}).get("options", {})
    return {
        name: entry["label"]
        for name, entry in options.items()
        if isinstance(entry, dict) and isinstance(entry.get("label"), str)
    }


def reader(lang: str, ctx: ReasonContext | None = None) -> Reader:
    """Who reads in ``lang`` (English when it has no templates) about ``ctx``'s game and seats."""
    ctx = ctx or ReasonContext()
    lang = lang if lang in reason_languages() else ENGINE_LANGUAGE
    card_name = None
    if ctx.game is not None:
        try:
            card_name = game_class(ctx.game).card_name
        except UnknownGame:
            card_name = None
    return Reader(lang, ctx.game, ctx.names, card_name, option_labels(lang, ctx.game), _titles())


@cache
def _titles() -> dict[str, str]:
    """Every registered game's title (an installation's game that cannot load keeps its name)."""
    out = {}
    for name in names():
        try:
            out[name] = game_class(name).title
        except UnknownGame:
            out[name] = name
    return out


def localize(message: str | Reason, lang: str, ctx: ReasonContext | None = None) -> str:
    """``message`` in ``lang``: a reason rendered by its templates; a plain text as it is
    (logged once: every message a player can meet is meant to be a reason)."""
    if isinstance(message, Reason):
        return render(message, reader(lang, ctx))
    key = (lang, message)
    if lang != ENGINE_LANGUAGE and key not in _warned and len(_warned) < _MAX_WARNED:
        _warned.add(key)
        log.warning("no %s translation for the message %r: sent in English", lang, message)
    return message


def render_refusal(why: Reason, lang: str, ctx: ReasonContext | None = None) -> str:
    """A rules engine's refusal in ``lang`` (English when ``lang`` has no templates)."""
    return localize(why, lang, ctx)


def said(error: Exception) -> str | Reason:
    """What an error says: its reason when it has one (``AtoutError.why``), else its text."""
    why = getattr(error, "why", None)
    return why if isinstance(why, Reason) else str(error)


def http_said(status: int, detail: str) -> str | Reason:
    """An HTTP error's words: Starlette's standard phrase (``Not Found``) as a reason, a
    detail of the server's own as it is."""
    key = f"server.http_{status}"
    try:
        standard = HTTPStatus(status).phrase
    except ValueError:
        return detail
    if detail == standard and key in reason_catalogue(ENGINE_LANGUAGE)["templates"]:
        return reason(key)
    return detail


def game_words(lang: str) -> dict[str, Any]:
    """i18n/<lang>/games.json (labels, helps, choice labels, bot levels) or {}."""
    return game_texts(lang) if lang in LANGUAGES else {}


__all__ = [
    "ReasonContext",
    "game_words",
    "http_said",
    "localize",
    "option_labels",
    "reader",
    "render_refusal",
    "said",
]
