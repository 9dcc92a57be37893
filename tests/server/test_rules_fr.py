"""The rules pages in French: GET /rules/<game> serves docs/rules/<game>.fr.md to a
French reader (cookie or Accept-Language) and the English document to everyone else."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from atout.server.app import RULES_DIR, rules_file

from .conftest import game_names

FRENCH_TITLE = "les règles telles qu"  # "… — les règles telles qu'atout les joue"
ENGLISH_TITLE = "the rules as atout plays them"


def h1(html: str) -> str:
    start = html.index("<h1>") + len("<h1>")
    return html[start : html.index("</h1>", start)]


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_french_rules_file(game: str) -> None:
    path = rules_file(game, "fr")
    assert path is not None and path.name.endswith(".fr.md"), f"no French rules for {game}"
    assert path.with_name(path.name.replace(".fr.md", ".md")).is_file(), f"no English twin for {game}"
    assert path.parent == RULES_DIR
    assert FRENCH_TITLE in path.read_text(encoding="utf-8").splitlines()[0]
    english = rules_file(game, "en")
    assert english is not None and not english.name.endswith(".fr.md"), f"no English rules for {game}"


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
    [("en-US,en;q=0.9,fr;q=0.8", None), ("de-DE,de;q=0.9", None), ("", None), ("fr-FR", "en")],
)
def test_rules_in_english_otherwise(client: TestClient, game: str, header: str, cookie: str | None) -> None:
    if cookie:
        client.cookies.set("lang", cookie)
    r = client.get(f"/rules/{game}", headers={"Accept-Language": header})
    assert r.status_code == 200, r.text
    assert '<html lang="en">' in r.text
    assert ENGLISH_TITLE in h1(r.text)
    assert FRENCH_TITLE not in r.text
