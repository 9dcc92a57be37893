"""The table's strings: both languages complete, and every key the pages ask for exists.

The pages translate through ``t("key")`` (static/lib/dom.js) with the core dictionary
(static/i18n/<lang>.json) and each game's own (static/i18n/<game>.<lang>.json, loaded with
the game's module).  A key missing in one language, or asked for and never written, would
show the key itself to a player: these checks catch it before any browser does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from atout.core.registry import names
from atout.server.app import STATIC

I18N = Path(str(STATIC)) / "i18n"
LANGS = ("en", "fr")
#: A literal key in a call of t() / tn() / has(): t("your_turn"), t('bid', {...}), tn("winners", n).
CALL = re.compile(r"""\b(?:t|tn|has)\(\s*["']([A-Za-z0-9_]+)["']""")
#: Dictionaries of the table's pages (games.<lang>.json is the API's, checked in test_i18n_games.py).
TABLE_FILES = ["", *names()]


def dictionary(name: str, lang: str) -> dict[str, str]:
    path = I18N / (f"{name}.{lang}.json" if name else f"{lang}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def scripts() -> list[Path]:
    root = Path(str(STATIC))
    return sorted(p for p in root.rglob("*.js"))


@pytest.mark.parametrize("name", TABLE_FILES)
def test_both_languages_have_the_same_keys(name: str) -> None:
    en, fr = dictionary(name, "en"), dictionary(name, "fr")
    assert set(en) == set(fr), {
        "only in English": sorted(set(en) - set(fr)),
        "only in French": sorted(set(fr) - set(en)),
    }
    for lang, d in (("en", en), ("fr", fr)):
        empty = [k for k, v in d.items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"{name or 'core'}.{lang}: empty strings {empty}"


@pytest.mark.parametrize("name", TABLE_FILES)
def test_placeholders_agree_between_languages(name: str) -> None:
    en, fr = dictionary(name, "en"), dictionary(name, "fr")
    for key in set(en) & set(fr):
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", fr[key])), key


def test_every_literal_key_the_pages_ask_for_exists() -> None:
    known = set()
    for name in TABLE_FILES:
        known |= set(dictionary(name, "en"))
    missing: dict[str, list[str]] = {}
    for script in scripts():
        for key in CALL.findall(script.read_text(encoding="utf-8")):
            if key not in known:
                missing.setdefault(script.name, []).append(key)
    assert not missing, missing


#: Proper names, the same in both languages (Le Malin's Malheur cards, the Nain Jaune).
PROPER_NAMES = {"L'Avocat du Diable", "Belzébuth", "Nain Jaune", "Le Malin", "Le Nain Jaune"}


def test_the_french_table_is_not_english() -> None:
    """A French string copied from English (same text, more than one word) is a missed translation."""
    for name in TABLE_FILES:
        en, fr = dictionary(name, "en"), dictionary(name, "fr")
        same = [
            k
            for k in en
            if k in fr
            and en[k] == fr[k]
            and en[k] not in PROPER_NAMES
            and len(re.findall(r"[A-Za-z]{3,}", en[k])) > 1
        ]
        assert not same, f"{name or 'core'}: untranslated {same}"
