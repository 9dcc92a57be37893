"""The languages the web table speaks, found from its translation files, and the reader's.

A language is spoken when ``static/i18n/<lang>.json`` (the table's core dictionary)
exists: adding one is adding its folder of files (the ``*.<lang>.json`` dictionaries
beside it and the rules pages ``atout/rules/<page>.<lang>.md``; docs/translating.md),
with no list to edit in the code.  Completeness is the tests' business
(tests/server/test_i18n_*.py check every language against English), so a file that
exists here is trusted to be whole.

>>> LANGUAGES[0], "fr" in LANGUAGES
('en', True)
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from starlette.requests import HTTPConnection

#: The translation files (``<lang>.json``, ``<game>.<lang>.json``, ``games.<lang>.json``).
I18N = resources.files("atout.server") / "static" / "i18n"
#: English is the language of the program itself and the fallback of every other one.
DEFAULT_LANGUAGE = "en"


def _is_code(text: str) -> bool:
    """A language code, as files and Accept-Language name it: two or three lowercase ASCII letters."""
    return 2 <= len(text) <= 3 and text.isascii() and text.isalpha() and text.islower()


def _spoken() -> tuple[str, ...]:
    """Every ``<lang>.json`` of static/i18n, English first then in code order."""
    found = {p.name[: -len(".json")] for p in I18N.iterdir() if p.name.endswith(".json")}
    codes = sorted(c for c in found if _is_code(c) and c != DEFAULT_LANGUAGE)
    return (DEFAULT_LANGUAGE, *codes)


#: The languages a reader may choose, English first (read once, at import).
LANGUAGES: tuple[str, ...] = _spoken()


def pick_language(request: HTTPConnection) -> str:
    """``lang`` cookie first, then the first spoken language of Accept-Language, else English.

    ``de-DE`` and ``de-AT`` are both German: a tag counts by its primary subtag.
    """
    cookie = request.cookies.get("lang")
    if cookie in LANGUAGES:
        return cookie
    header = request.headers.get("accept-language", "")
    weighted: list[tuple[float, str]] = []
    for part in header.split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES:
            weighted.append((q, lang))
    weighted.sort(key=lambda p: -p[0])
    return weighted[0][1] if weighted else DEFAULT_LANGUAGE


@cache
def game_texts(lang: str) -> dict[str, Any]:
    """static/i18n/games.<lang>.json: what the interface says of the games in ``lang``.

    Every language: each option's ``label``, ``help`` (worded for the form: it names
    the choices by their labels), ``choices`` labels and ``none`` label, and the bot
    levels' ``label`` and ``help`` (``levels``).  Languages other than English also:
    the games' summaries and the levels' technical helps (``bots``), whose English is in
    the Game classes and in ``atout.bots.factory.LEVELS``.  ``{}`` for a language not
    spoken (no file name is ever made from a reader's text).
    """
    if lang not in LANGUAGES:
        return {}
    path = I18N / f"games.{lang}.json"
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def language_buttons(current: str) -> str:
    """The language switch of a page: one button per spoken language, its code in capitals.

    Built from :data:`LANGUAGES`, so a new language appears without touching the pages;
    the codes are ours (never a reader's text), hence safe to write as HTML.
    """
    current_mark = ' aria-current="true"'
    return "".join(
        f'<button data-lang="{code}" type="button" lang="{code}"{current_mark if code == current else ""}>'
        f"{code.upper()}</button>"
        for code in LANGUAGES
    )


__all__ = ["DEFAULT_LANGUAGE", "I18N", "LANGUAGES", "game_texts", "language_buttons", "pick_language"]
