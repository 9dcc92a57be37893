"""Rules pages are package data found by the name each game gives (issue 19)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import atout
from atout import i18n
from atout.core.errors import UnknownGame
from atout.core.registry import game_class
from atout.core.rules_pages import page_file, rules_text
from atout.server.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", atout.names())
def test_each_game_names_its_page_in_both_languages(name: str) -> None:
    page = game_class(name).rules_page
    assert page, f"{name} names no rules page"
    english, french = rules_text(name, "en"), rules_text(name, "fr")
    assert english is not None and french is not None
    assert (english.name, english.lang) == (page, "en")
    assert (french.name, french.lang) == (page, "fr")
    assert english.text == i18n.ROOT.joinpath("en", "rules", f"{page}.md").read_text(encoding="utf-8")
    assert french.text == i18n.ROOT.joinpath("fr", "rules", f"{page}.md").read_text(encoding="utf-8")
    assert english.text.startswith("# ") and english.text != french.text


def rules_folders() -> list[tuple[str, set[str]]]:
    """Each language folder with a ``rules/`` sub-folder, and the pages (``<page>`` of ``<page>.md``) in it."""
    return [
        (
            folder.name,
            {p.name[: -len(".md")] for p in folder.joinpath("rules").iterdir() if p.name.endswith(".md")},
        )
        for folder in i18n.ROOT.iterdir()
        if folder.joinpath("rules").is_dir()
    ]


def test_every_page_belongs_to_a_game() -> None:
    named = {game_class(name).rules_page for name in atout.names()}
    folders = dict(rules_folders())
    assert folders["en"] == named, "English has every game's page and no other"
    assert {"en", "fr", "de"} <= set(folders)
    for lang, pages in folders.items():
        assert pages <= named, f"i18n/{lang}/rules/ has pages of no game: {sorted(pages - named)}"


def test_a_language_without_a_page_gets_english() -> None:
    page = rules_text("sticheln", "it")
    assert page is not None and page.lang == "en"
    assert page == rules_text("sticheln")


@pytest.mark.parametrize("lang", ["../wizard", "fr.md", "", "FR", "fr/../x"])
def test_a_language_must_be_a_code(lang: str) -> None:
    with pytest.raises(ValueError, match="not a language code"):
        rules_text("wizard", lang)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGame):
        rules_text("belote", "en")


def test_the_wheel_ships_the_pages() -> None:
    """The build backend's package data covers the pages (a wheel built by hand listed them too)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["atout"]
    package = ROOT / "src" / "atout"
    shipped = {p for pattern in patterns for p in package.glob(pattern)}
    pages = {package / "i18n" / lang / page_file(page) for lang, names in rules_folders() for page in names}
    assert len(pages) >= 3 * len(atout.names())  # English, French and German at least
    assert pages <= shipped


#: Every language the web table speaks (one per folder i18n/<lang>/ with a table.json) but English.
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]


def headings(text: str) -> list[str]:
    """The section levels of a page, in order ("##", "###", ...), its title left out."""
    return [line.split(" ")[0] for line in text.splitlines() if line.startswith("##")]


def example_lines(text: str) -> list[str]:
    """The doctest lines of a page (``>>>`` and ``...``), their comments left out (a
    translation may translate them): its worked examples."""
    return [line.split("  #")[0].rstrip() for line in text.splitlines() if line.startswith((">>> ", "... "))]


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("name", atout.names())
def test_every_language_has_every_page_with_english_s_structure(name: str, lang: str) -> None:
    """A spoken language has each game's rules, with English's sections and its worked
    examples (the code of each example is English's; the prose around it is translated)."""
    page, english = rules_text(name, lang), rules_text(name, "en")
    assert page is not None and english is not None
    assert page.lang == lang, f"no {lang} rules page for {name}: write i18n/{lang}/{page_file(english.name)}"
    assert page.text != english.text
    title, english_title = page.text.splitlines()[0], english.text.splitlines()[0]
    assert title.startswith("# ") and title != english_title
    # The game's name opens both titles ("# Wizard — ...").
    assert title.split(" — ")[0] == english_title.split(" — ")[0]
    assert headings(page.text) == headings(english.text)
    examples = example_lines(page.text)
    assert examples, f"the {lang} page of {name} lost its worked examples"
    assert set(examples) <= set(example_lines(english.text))


def test_a_page_without_its_sections_is_caught() -> None:
    english = rules_text("wizard", "en")
    assert english is not None
    shortened = english.text.replace("\n### Scoring\n", "\n")
    assert headings(shortened) != headings(english.text)
