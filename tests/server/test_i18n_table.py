"""The table's strings: every language complete, and every key the pages ask for exists.

The pages translate through ``t("key")`` (static/lib/dom.js) with the core dictionary
(i18n/<lang>/table.json) and each game's own (i18n/<lang>/<game>.json, loaded with the
game's module), each fetched from the language's folder (``GET /i18n/<lang>/<name>.json``).  A key missing in one language, or asked for and never written, would
show the key itself to a player: these checks catch it before any browser does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import atout
from atout import i18n
from atout.core.registry import names
from atout.server.app import STATIC
from atout.server.languages import LANGUAGES

#: Every language the table speaks (one per folder i18n/<lang>/ with a table.json), each checked against English.
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]
#: A literal key in a call of t() / tn() / has(): t("your_turn"), t('bid', {...}), tn("winners", n).
CALL = re.compile(r"""\b(?:t|tn|has)\(\s*["']([A-Za-z0-9_]+)["']""")
#: Dictionaries of the table's pages, ``<name>.json`` in each language's folder (games.json is
#: the API's, checked in test_i18n_games.py).
TABLE_FILES = ["table", *names(), "review", "account", "terminal", "tutorial"]


def dictionary(name: str, lang: str) -> dict[str, str]:
    path = i18n.path(lang, f"{name}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def scripts() -> list[Path]:
    root = Path(str(STATIC))
    return sorted(p for p in root.rglob("*.js"))


def test_german_and_french_are_spoken() -> None:
    """The languages are found from the files; both translations are there."""
    assert LANGUAGES[0] == "en" and {"fr", "de"} <= set(TRANSLATIONS)


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("name", TABLE_FILES)
def test_every_language_has_the_english_keys(name: str, lang: str) -> None:
    en, other = dictionary(name, "en"), dictionary(name, lang)
    assert set(en) == set(other), {
        "only in English": sorted(set(en) - set(other)),
        f"only in {lang}": sorted(set(other) - set(en)),
    }
    for code, d in (("en", en), (lang, other)):
        empty = [k for k, v in d.items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"{code}/{name}.json: empty strings {empty}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("name", TABLE_FILES)
def test_placeholders_agree_between_languages(name: str, lang: str) -> None:
    en, other = dictionary(name, "en"), dictionary(name, lang)
    for key in set(en) & set(other):
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", other[key])), key


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


#: Proper names, the same in every language (Le Malin's Malheur cards, the Nain Jaune).
PROPER_NAMES = {"L'Avocat du Diable", "Belzébuth", "Nain Jaune", "Le Malin", "Le Nain Jaune"}
#: Keys a language writes exactly as English does, on purpose: placeholders in English order
#: and punctuation only (French puts a space before a colon, German does not; German names a
#: card colour first, "Blau 7"), and German's own word "Computer".
SAME_AS_ENGLISH = {
    "de": {"played_card", "mal_log_line", "st_pain_of_seat", "home_level", "wiz_card", "st_card"}
}


def copied_from_english(en: dict[str, str], other: dict[str, str], lang: str) -> list[str]:
    """Keys whose ``lang`` translation is the English text (more than one word, not a proper
    name, not in :data:`SAME_AS_ENGLISH`): missed translations."""
    return [
        k
        for k in en
        if k in other
        and k not in SAME_AS_ENGLISH.get(lang, set())
        and en[k] == other[k]
        and en[k] not in PROPER_NAMES
        and len(re.findall(r"[A-Za-z]{3,}", en[k])) > 1
    ]


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_translation_is_english(lang: str) -> None:
    """A string copied from English (same text, more than one word) is a missed translation."""
    untranslated = {
        name: copied_from_english(dictionary(name, "en"), dictionary(name, lang), lang)
        for name in TABLE_FILES
    }
    assert not any(untranslated.values()), f"{lang}: untranslated {untranslated}"


def test_a_copied_string_is_caught() -> None:
    """The check above can fail: an English sentence left in a translation is named, a proper
    name or a single word is not."""
    en = dictionary("table", "en")
    german = {**dictionary("table", "de"), "your_turn": en["your_turn"], "mal_m_avocat": en["mal_m_avocat"]}
    assert copied_from_english(en, german, "de") == ["your_turn"]


#: Decisions the review heads "your move" (review.js's moveKey falls back to review_move): a
#: pass in Le Malin's windows and Le Nain Jaune, Le Nain Jaune's claim.
GENERIC_MOVES = {"pass", "claim"}


@pytest.mark.parametrize("game", names())
def test_the_review_names_every_kind_of_decision(game: str) -> None:
    """Each kind of move a game has (its notation's first word) gets its own review heading
    ("your bid", "your card", "your choice of trump", "your handicap card"...): Sticheln's
    handicap card was headed "your move"."""
    rules = atout.load(game, players=4)
    kinds = {rules.action_to_text(action).split()[0] for action in range(rules.num_actions)}
    review = dictionary("review", "en")
    assert {kind for kind in kinds - GENERIC_MOVES if f"review_move_{kind}" not in review} == set()
