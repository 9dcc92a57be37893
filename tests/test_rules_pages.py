"""Rules pages are package data found by the name each game gives (issue 19)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import atout
from atout.core.errors import UnknownGame
from atout.core.registry import game_class
from atout.core.rules_pages import PAGES, rules_text

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", atout.names())
def test_each_game_names_its_page_in_both_languages(name: str) -> None:
    page = game_class(name).rules_page
    assert page, f"{name} names no rules page"
    english, french = rules_text(name, "en"), rules_text(name, "fr")
    assert english is not None and french is not None
    assert (english.name, english.lang) == (page, "en")
    assert (french.name, french.lang) == (page, "fr")
    assert english.text == (PAGES / f"{page}.md").read_text(encoding="utf-8")
    assert french.text == (PAGES / f"{page}.fr.md").read_text(encoding="utf-8")
    assert english.text.startswith("# ") and english.text != french.text


def test_every_page_belongs_to_a_game() -> None:
    named = {game_class(name).rules_page for name in atout.names()}
    files = {p.name.split(".")[0] for p in PAGES.iterdir() if p.name.endswith(".md")}
    assert files == named


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
    assert {package / "rules" / p.name for p in PAGES.iterdir() if p.name.endswith(".md")} <= shipped
