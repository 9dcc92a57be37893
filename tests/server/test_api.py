"""The HTTP side of the web table: pages, the game catalogue, table creation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import atout.server
from atout.core.registry import game_class

from .conftest import create_table, game_names


def test_home_and_static_pages(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert '<html lang="en">' in r.text
    for path in (
        "/static/lib/dom.js",
        "/static/home.js",
        "/static/table.js",
        "/static/felt.js",
        "/static/cards.js",
        "/static/app.css",
    ):
        assert client.get(path).status_code == 200, path


def test_pages_carry_the_shared_head(client: TestClient) -> None:
    """static/head.html fills each page's ``{{head}}``; no placeholder reaches the browser."""
    head = (Path(atout.server.__file__).parent / "static" / "head.html").read_text(encoding="utf-8")
    for path in ("/", "/table/abc"):
        text = client.get(path).text
        assert "{{" not in text, path
        assert f"<head>\n{head}" in text, path
        assert '<meta name="referrer" content="no-referrer">' in text, path


@pytest.mark.parametrize(
    ("header", "cookie", "lang"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", None, "fr"),
        ("en-US,en;q=0.9,fr;q=0.8", None, "en"),
        ("it-IT,it;q=0.9", None, "en"),
        ("it;q=1, fr;q=0.5", None, "fr"),
        ("de-DE,de;q=0.9,en;q=0.8", None, "de"),
        ("de-AT", None, "de"),
        ("it;q=1, de;q=0.7, fr;q=0.5", None, "de"),
        ("fr-FR", "de", "de"),
        ("fr-FR", "en", "en"),
        ("", "fr", "fr"),
    ],
)
def test_language_follows_accept_language_then_cookie(
    client: TestClient, header: str, cookie: str | None, lang: str
) -> None:
    if cookie:
        client.cookies.set("lang", cookie)
    r = client.get("/table/abc", headers={"Accept-Language": header})
    assert f'<html lang="{lang}">' in r.text


def test_dictionaries_have_the_same_keys(client: TestClient) -> None:
    en = client.get("/i18n/en/table.json").json()
    fr = client.get("/i18n/fr/table.json").json()
    assert en.keys() == fr.keys()
    assert en["your_turn"] != fr["your_turn"]


def test_catalogue_lists_every_game_with_its_options(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == set(game_names())
    for name, g in games.items():
        cls = game_class(name)
        assert g["title"] == cls.title and g["summary"] == cls.summary
        assert [o["name"] for o in g["options"]] == [s.name for s in cls.option_specs]
        assert "random" in g["bots"]
    assert games["wizard"]["renderer"] is True


@pytest.mark.parametrize("game", game_names())
def test_rules_page(client: TestClient, game: str) -> None:
    r = client.get(f"/rules/{game}")
    assert r.status_code == 200, f"i18n/en/rules/ has no rules page for {game}"
    assert "<h1>" in r.text and "<script" not in r.text
    # A phone lays it out at its own width (it was drawn 980 px wide, its text tiny), under the
    # site's bar that leads home.
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text
    assert '<a class="brand" href="/">' in r.text


def test_rules_of_an_unknown_game(client: TestClient) -> None:
    r = client.get("/rules/chess")
    assert r.status_code == 404 and "unknown game" in r.json()["message"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess", "players": 4, "seats": []}, "unknown game"),
        ({"game": "wizard", "players": 9, "seats": []}, "3 to 6 players"),
        ({"game": "wizard", "players": "4", "seats": []}, "number of players"),
        ({"game": "wizard", "players": 3, "seats": [{}, {}]}, "give 3 seats"),
        ({"game": "wizard", "players": 3, "options": {"rounds": 99}, "seats": [{}] * 3}, "rounds"),
        ({"game": "wizard", "players": 3, "options": {"colour": "x"}, "seats": [{}] * 3}, "no option"),
        ({"game": "wizard", "players": 3, "options": [1], "seats": [{}] * 3}, "options must be"),
        ({"game": "wizard", "players": 3, "seats": [{"bot": "genius"}, {}, {}]}, "no bot 'genius'"),
        ({"game": "wizard", "players": 3, "seats": [{"bot": "cmd:rm -rf /"}, {}, {}]}, "no bot"),
        ({"game": "wizard", "players": 3, "seats": [{"bot": 3}, {}, {}]}, "a seat is"),
        ([1, 2], "JSON object"),
    ],
)
def test_creation_refuses_bad_requests(client: TestClient, body: Any, message: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    data = r.json()
    assert data["type"] == "error" and message in data["message"]
    assert "Traceback" not in r.text


def test_creation_refuses_malformed_and_oversized_bodies(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    r = client.post(
        "/api/tables", content=b'{"x": "' + b"a" * 10000 + b'"}', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["code"] == "too_large"


def test_creation_gives_one_secret_key_per_human_seat(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 4, bots={1: "random", 3: "heuristic"})
    assert sorted(keys) == [0, 2]
    assert keys[0] != keys[2] and len(keys[0]) >= 32
    state = client.post(f"/api/tables/{table}/seat", json={"key": keys[2]}).json()
    assert state["seat"] == 2
    assert [s["bot"] for s in state["seats"]] == [None, "random", None, "heuristic"]
    # The key is never stored: the database holds only its hash.
    storage = client.app.state.storage  # type: ignore[attr-defined]
    stored = storage.load(table)
    assert all(keys[s] not in str(stored) for s in keys)


def test_seat_endpoints_refuse_wrong_keys(client: TestClient) -> None:
    table, keys = create_table(client)
    _, other_keys = create_table(client)
    for key in ("", "forged-key", other_keys[0], None, 12, "x" * 300):
        r = client.post(f"/api/tables/{table}/seat", json={"key": key})
        assert r.status_code == 403, key
        assert r.json()["code"] == "bad_key"
    r = client.post("/api/tables/nosuchtable/seat", json={"key": keys[0]})
    assert r.status_code == 404
    r = client.post("/api/tables/../../etc/seat", json={"key": keys[0]})
    assert r.status_code == 404


def test_unknown_paths_get_json_errors(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["type"] == "error"
    r = client.put("/api/tables")  # GET lists the lobby (issue 18); PUT is no method of it
    assert r.status_code == 405 and r.json()["type"] == "error"


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/static/table.js", "/api/games", "/rules/wizard", "/no/such/page"):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "DENY", path
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, path


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_posts_are_json_only(client: TestClient, content_type: str | None) -> None:
    """A page of another site may POST text/plain or a form without asking: such a request creates nothing."""
    body = json.dumps(
        {"game": "wizard", "players": 3, "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}
    )
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post("/api/tables", content=body, headers=headers)
    assert r.status_code == 415, r.text
    assert r.json()["code"] == "unsupported_media"
    ok = client.post("/api/tables", content=body, headers={"Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 200, ok.text


def _first_hands(tmp_path: Path, name: str, deal_seed: int | None) -> list[list[str]]:
    """Seat 0's first hand at each of two Sticheln tables created on a fresh server."""
    from atout.server import create_app

    from .conftest import join

    hands = []
    with TestClient(create_app(str(tmp_path / f"{name}.sqlite3"), bot_delay=0, deal_seed=deal_seed)) as c:
        for _ in range(2):
            table, keys = create_table(c, "sticheln", 4)
            with c.websocket_connect(f"/ws/{table}") as ws:
                hands.append(sorted(join(ws, keys[0])["view"]["hand"]))
    return hands


def test_a_deal_seed_makes_the_nth_table_s_deal_the_same_on_every_server(tmp_path: Path) -> None:
    """``atout serve --deal-seed``: the browser tests replay with the same cards; without it each
    table's deal is the system's (15 cards of 60 each: two equal hands are out of reach)."""
    seeded = _first_hands(tmp_path, "a", 7)
    assert seeded == _first_hands(tmp_path, "b", 7)
    assert seeded[0] != seeded[1]  # the tables of one server differ
    assert _first_hands(tmp_path, "c", 8) != seeded
    unseeded = _first_hands(tmp_path, "d", None)
    assert unseeded != seeded and unseeded != _first_hands(tmp_path, "e", None)
