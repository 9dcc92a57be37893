"""The languages the web table speaks, found from their folders, and the reader's.

A language is spoken when its folder has the table's core dictionary,
``i18n/<lang>/table.json`` (:mod:`atout.i18n`): adding one is adding its folder (a
copy of ``i18n/en/``, translated; docs/translating.md), with no list to edit in the
code.  Completeness is the tests' business (tests/server/test_i18n_*.py and
tests/test_languages.py check every language against English), so a file that exists
here is trusted to be whole.

>>> LANGUAGES[0], "fr" in LANGUAGES
('en', True)
"""

from __future__ import annotations

from functools import cache
from typing import Any

from starlette.requests import HTTPConnection

from .. import i18n

#: English is the language of the program itself and the fallback of every other one.
DEFAULT_LANGUAGE = i18n.ENGLISH
#: The file whose presence in a language's folder makes the language spoken on the site.
TABLE_FILE = "table.json"

#: The languages a reader may choose, English first (read once, at import).
LANGUAGES: tuple[str, ...] = i18n.languages(TABLE_FILE)


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
    """i18n/<lang>/games.json: what the interface says of the games in ``lang``.

    Every language: each option's ``label``, ``help`` (worded for the form: it names
    the choices by their labels), ``choices`` labels and ``none`` label, and the bot
    levels' ``label`` and ``help`` (``levels``).  Languages other than English also:
    the games' summaries and the levels' technical helps (``bots``), whose English is in
    the Game classes and in ``atout.bots.factory.LEVELS``.  ``{}`` for a language not
    spoken (no file name is ever made from a reader's text).
    """
    if lang not in LANGUAGES:
        return {}
    if not i18n.path(lang, "games.json").is_file():
        return {}
    return i18n.read_json(lang, "games.json")


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


def language_links(current: str) -> str:
    """The language switch of a page drawn without a script (a rules page): one link per spoken
    language, ``?lang=<code>``, which the page answers in that language and remembers (the
    same ``lang`` cookie as the other pages' buttons: :func:`chosen_language`)."""
    return "".join(
        f'<a href="?lang={code}" lang="{code}" aria-current="true">{code.upper()}</a>'
        if code == current
        else f'<a href="?lang={code}" lang="{code}">{code.upper()}</a>'
        for code in LANGUAGES
    )


def chosen_language(request: HTTPConnection) -> str | None:
    """The language a ``?lang=`` link chose, if it names one spoken here (else None)."""
    lang = request.query_params.get("lang")
    return lang if lang in LANGUAGES else None


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "TABLE_FILE",
    "chosen_language",
    "game_texts",
    "language_buttons",
    "language_links",
    "pick_language",
]
