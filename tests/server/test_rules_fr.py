"""The rules pages in French: GET /rules/<game> serves the game's ``i18n/fr/rules/<page>.md``
(package data) to a French reader (cookie or Accept-Language) and the English
document to everyone else."""

from __future__ import annotations

import html

import pytest
from starlette.testclient import TestClient

from atout import i18n
from atout.core.registry import game_class
from atout.core.rules_pages import page_file, rules_text
from atout.server.languages import LANGUAGES

from .conftest import game_names

FRENCH_TITLE = "les règles telles qu"  # "… — les règles telles qu'atout les joue"
ENGLISH_TITLE = "the rules as atout plays them"


def h1(html: str) -> str:
    start = html.index("<h1>") + len("<h1>")
    return html[start : html.index("</h1>", start)]


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_french_rules_file(game: str) -> None:
    page = rules_text(game, "fr")
    assert page is not None and page.lang == "fr", f"no French rules for {game}"
    assert page.name == game_class(game).rules_page
    assert i18n.path("en", page_file(page.name)).is_file(), f"no English twin for {game}"
    assert FRENCH_TITLE in page.text.splitlines()[0]
    english = rules_text(game, "en")
    assert english is not None and english.lang == "en", f"no English rules for {game}"
    assert FRENCH_TITLE not in english.text.splitlines()[0]


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize(
    ("header", "cookie"),
    [("fr-FR,fr;q=0.9,en;q=0.8", None), ("en-US,en;q=0.9", "fr"), ("", "fr")],
)
def test_rules_in_french(client: TestClient, game: str, header: str, cookie: str | None) -> None:
    if cookie:
        client.cookies.set("lang", cookie)
    r = client.get(f"/rules/{game}", headers={"Accept-Language": header})
    assert r.status_code == 200, r.text
    assert '<html lang="fr">' in r.text
    assert FRENCH_TITLE in h1(r.text)
    assert "<script" not in r.text


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize(
    ("header", "cookie"),
    [("en-US,en;q=0.9,fr;q=0.8", None), ("it-IT,it;q=0.9", None), ("", None), ("fr-FR", "en")],
)
def test_rules_in_english_otherwise(client: TestClient, game: str, header: str, cookie: str | None) -> None:
    if cookie:
        client.cookies.set("lang", cookie)
    r = client.get(f"/rules/{game}", headers={"Accept-Language": header})
    assert r.status_code == 200, r.text
    assert '<html lang="en">' in r.text
    assert ENGLISH_TITLE in h1(r.text)
    assert FRENCH_TITLE not in r.text


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_rules_in_every_language(client: TestClient, game: str, lang: str) -> None:
    """Each spoken language gets its own page, by header or by cookie, its title as the heading."""
    page = rules_text(game, lang)
    assert page is not None and page.lang == lang
    title = page.text.splitlines()[0].removeprefix("# ")
    for headers, cookie in (({"Accept-Language": f"{lang}-{lang.upper()},{lang};q=0.9"}, None), ({}, lang)):
        client.cookies.clear()
        if cookie:
            client.cookies.set("lang", cookie)
        r = client.get(f"/rules/{game}", headers=headers)
        assert r.status_code == 200, r.text
        assert f'<html lang="{lang}">' in r.text
        assert html.unescape(h1(r.text)) == title
