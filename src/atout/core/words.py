"""The terminal's words in the reader's language, from the language's folder (``i18n/<lang>/``).

The terminal client (``atout play --lang``) says what the web table says, from the
same folder of dictionaries (:mod:`atout.i18n`): its own strings are
``terminal.json``, beside the table's ``table.json``; the review's (``atout review``)
are ``review.json``.  Both the CLI and the games' terminal renderers read them, so
the loader lives here, below both.  A language is spoken when its folder has the file.
"""

from __future__ import annotations

from functools import cache

from .. import i18n

#: The language of the program itself, and of a terminal that asks for none.
ENGLISH = i18n.ENGLISH


def languages(name: str = "terminal") -> tuple[str, ...]:
    """The languages of dictionary ``name``, one per folder holding ``<name>.json``, English first."""
    return i18n.languages(f"{name}.json")


class Words:
    """``say(key, **values)``: a string of dictionary ``name`` in one language, placeholders filled."""

    def __init__(self, lang: str, name: str = "terminal") -> None:
        self.lang = lang
        self.table: dict[str, str] = i18n.read_json(lang, f"{name}.json")

    def __call__(self, key: str, **values: object) -> str:
        text = self.table[key]
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def count(self, key: str, n: int, **values: object) -> str:
        """``key`` for a count ``n`` (its ``n`` placeholder): ``key_one`` when ``n`` is 1 and the
        language has it ("1 trick"), as the pages' ``tn()`` does."""
        one = f"{key}_one"
        return self(one if n == 1 and one in self.table else key, **{"n": n, **values})

    def colour(self, name: str) -> str:
        """A colour's name (``blue``) in the language."""
        return self(f"term_colour_{name}")

    def level(self, name: str) -> str:
        """A bot level's name (``easy``) in the language; another bot's name as it is."""
        return self.table.get(f"term_level_{name}", name)


@cache
def words(lang: str = ENGLISH) -> Words:
    """The terminal's words in ``lang`` (a KeyError names the languages for another)."""
    if lang not in languages():
        raise KeyError(f"no terminal words in {lang!r}; there are: {', '.join(languages())}")
    return Words(lang)


__all__ = ["ENGLISH", "Words", "languages", "words"]
