"""Every language atout speaks is one folder of this package: ``i18n/<lang>/`` (issue 30).

A folder holds all that a reader of the language is told, by the web table, the
terminal and the rules engines alike:

========================  ==============================================================
``table.json``            the web table's, home page's, lobby's, replay's and chat's strings
                          (its presence makes the language spoken on the site)
``games.json``            each game's summary, options' labels and helps, the bot levels
``<game>.json``           a game's own strings at the table (``wizard``, ``malin``, ...)
``terminal.json``         the terminal client (``atout play --lang``)
``review.json``           the game review (the web page and ``atout review --lang``)
``account.json``          the account pages
``reasons.json``          every message's template and the words they are built of
``rules/<page>.md``       each game's rules page (``Game.rules_page``)
========================  ==============================================================

English (``en/``) is the program's own language, the fallback of every other one
and the model of a translation: adding a language is copying ``en/`` to ``xx/``
and translating it (docs/translating.md); no list in the code names the languages,
each reader finds them from the folders holding its file (:func:`languages`).

This is a data package at the very bottom of atout: it imports the standard
library only, so the rules engines (``atout.core``, which words every refusal from
``reasons.json``), the terminal and the server all read the same files.  File names
are only ever made from a language code that :func:`is_code` accepts and a name
that :func:`is_name` accepts, never from a reader's text as it came.

>>> languages("table.json")[0], "fr" in languages("reasons.json")
('en', True)
>>> read_json("fr", "table.json")["rules"], read_json("en", "table.json")["rules"]
('Règles', 'Rules')
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

#: This package's folder: one sub-folder per language.
ROOT: Traversable = resources.files(__name__)
#: The program's own language, the fallback of every other one, and the folder a translation copies.
ENGLISH = "en"

_CODE = re.compile(r"[a-z]{2,3}")
#: A file of a language folder: lowercase words and digits joined by ``-`` or ``_``, an extension,
#: at most one sub-folder (``rules/``).
_WORD = r"[a-z0-9]+(?:[-_][a-z0-9]+)*"
_NAME = re.compile(rf"(?:{_WORD}/)?{_WORD}\.(?:json|md)")


def is_code(text: str) -> bool:
    """A language code, as the folders and Accept-Language name it: two or three lowercase ASCII letters."""
    return _CODE.fullmatch(text) is not None


def is_name(text: str) -> bool:
    """A file name a language folder may hold (``table.json``, ``rules/le-malin.md``): no ``..``, no
    absolute path, no dot file; lowercase letters, digits, ``-``, ``_`` and one ``/`` at most."""
    return _NAME.fullmatch(text) is not None


@cache
def languages(name: str) -> tuple[str, ...]:
    """The languages whose folder holds file ``name``, English first, then by code.

    Each reader asks for its own file (the site for ``table.json``, the terminal for
    ``terminal.json``, the engines for ``reasons.json``), so a folder still being
    translated is offered only where it is ready.  Read once: the package's files do not
    change while the program runs.
    """
    if not is_name(name):
        raise ValueError(f"not a file of a language folder: {name!r}")
    found = sorted(
        entry.name
        for entry in ROOT.iterdir()
        if entry.is_dir() and is_code(entry.name) and entry.joinpath(name).is_file()
    )
    return tuple(sorted(found, key=lambda lang: lang != ENGLISH))


def path(lang: str, name: str) -> Traversable:
    """File ``name`` of language ``lang``'s folder (which may not exist: ``.is_file()`` says).

    Raises :class:`ValueError` for a code or a name that is not one, so no text from
    outside can make a path out of the package.
    """
    if not is_code(lang):
        raise ValueError(f"not a language code: {lang!r}")
    if not is_name(name):
        raise ValueError(f"not a file of a language folder: {name!r}")
    return ROOT.joinpath(lang, *name.split("/"))


def read_json(lang: str, name: str) -> dict[str, Any]:
    """The JSON object of file ``name`` in ``lang``'s folder (FileNotFoundError when it has none)."""
    data: dict[str, Any] = json.loads(path(lang, name).read_text(encoding="utf-8"))
    return data


__all__ = ["ENGLISH", "ROOT", "is_code", "is_name", "languages", "path", "read_json"]
