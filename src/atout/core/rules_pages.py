"""Each game's rules page, shipped inside the package and found by the name its game gives.

The pages are Markdown files in each language's folder (package data, so they
are in a wheel too): ``i18n/<lang>/rules/<page>.md`` (:mod:`atout.i18n`), English
in ``i18n/en/``, where ``<page>`` is the game's :attr:`~atout.core.game.Game.rules_page`
(``le-malin`` for ``malin``).  Naming the page on the class, rather than
guessing it from file names, lets a page be renamed or a game be added without
a lookup rule to keep in step.  The web table's ``/rules/<game>`` serves them.

>>> page = rules_text("malin", "fr")
>>> page.lang, page.name
('fr', 'le-malin')
>>> rules_text("wizard", "it").lang  # no Italian page: the English one
'en'
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import i18n
from .registry import game_class

#: English is the fallback of every language.
DEFAULT_LANGUAGE = i18n.ENGLISH


@dataclass(frozen=True)
class RulesPage:
    """A rules page: its name, the language it is written in and its Markdown text."""

    name: str
    lang: str
    text: str


def rules_text(game: str, lang: str = DEFAULT_LANGUAGE) -> RulesPage | None:
    """The rules of the game named ``game`` in ``lang``, else in English; ``None`` if it has none.

    Raises :class:`~atout.core.errors.UnknownGame` for a game that is not
    registered and :class:`ValueError` for a language that is not a language
    code (two or three lowercase letters), so no text from outside can make
    a file name.
    """
    if not i18n.is_code(lang):
        raise ValueError(f"not a language code: {lang!r}")
    name = game_class(game).rules_page
    if not name:
        return None
    for page_lang in dict.fromkeys([lang, DEFAULT_LANGUAGE]):
        page = i18n.path(page_lang, page_file(name))
        if page.is_file():
            return RulesPage(name, page_lang, page.read_text(encoding="utf-8"))
    return None


def page_file(name: str) -> str:
    """The file of rules page ``name`` in a language's folder: ``rules/<name>.md``."""
    return f"rules/{name}.md"
