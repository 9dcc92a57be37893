"""Each game's rules page, shipped inside the package and found by the name its game gives.

The pages are Markdown files in ``atout/rules/`` (package data, so they are in
a wheel too): ``<page>.md`` in English and ``<page>.<lang>.md`` translated,
where ``<page>`` is the game's :attr:`~atout.core.game.Game.rules_page`
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

import re
from dataclasses import dataclass
from importlib import resources

from .registry import game_class

#: The package directory holding the pages.
PAGES = resources.files("atout") / "rules"
#: English is the page without a language suffix, and the fallback of every language.
DEFAULT_LANGUAGE = "en"
_LANG = re.compile(r"[a-z]{2,3}")


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
    if not _LANG.fullmatch(lang):
        raise ValueError(f"not a language code: {lang!r}")
    name = game_class(game).rules_page
    if not name:
        return None
    candidates = [(lang, f"{name}.{lang}.md")] if lang != DEFAULT_LANGUAGE else []
    candidates.append((DEFAULT_LANGUAGE, f"{name}.md"))
    for page_lang, file_name in candidates:
        page = PAGES / file_name
        if page.is_file():
            return RulesPage(name, page_lang, page.read_text(encoding="utf-8"))
    return None
