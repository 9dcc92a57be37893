"""Accounts in a real browser: sign up, the seat of a table opened while signed in becomes the
account's, the profile lists it to return to; a stranger is refused the private profile."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, ViewportSize
from websockets.sync.client import connect

from atout.server import accounts
from atout.server.storage import Storage

from .conftest import Server, screenshot
from .test_browser import new_table, page  # noqa: F401

#: Whether the signed-in account's games include table ``t`` (``evaluate`` awaits the fetch).
MINE = "t => fetch('/api/account/games').then(r => r.json()).then(d => d.games.some(g => g.table === t))"


def test_sign_up_then_the_profile_lists_the_table_opened_signed_in(
    server: Server,
    page: Page,  # noqa: F811
    browser: Browser,
) -> None:
    page.goto(f"{server.url}/account")
    form = page.locator("#signup")
    form.locator("input[name=name]").fill("Zoé")
    form.locator("button[type=submit]:enabled").wait_for()
    form.locator("input[name=password]").fill("short")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#signup .notice:not(:empty)")
    assert form.locator(".notice").inner_text() == "A password has 8 to 200 characters."
    form.locator("input[name=password]").fill("a good long password")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/u/Zo%C3%A9")
    page.wait_for_selector("#figures:not([hidden])")
    assert page.inner_text("#who") == "Zoé"
    assert page.locator("#no-games").is_visible()
    assert page.locator("#by-game").is_hidden()  # no empty table of headings
    # A table's link opened while signed in: once the player gives their name (they sat
    # down), the seat is the account's.
    url = new_table(server, "wizard", 1)[0]
    table = url.split("/table/")[1].split("#")[0]
    page.goto(url)
    page.wait_for_selector("#board[data-n]")
    page.wait_for_selector("#name-ask")
    page.wait_for_timeout(1800)  # past the page's first look (1.5 s): not taken before the name
    assert not page.evaluate(MINE, table)
    page.fill("#name-ask-input", "Zoé")
    page.locator("#name-ask button[type=submit]").click()
    deadline = time.monotonic() + 20
    while not page.evaluate(MINE, table):  # evaluate awaits the fetch (wait_for_function would not)
        assert time.monotonic() < deadline, "the seat did not become the account's"
        page.wait_for_timeout(200)
    page.goto(f"{server.url}/u/Zo%C3%A9")
    line = page.locator("#games .acc-open")
    line.wait_for()
    assert "Wizard" in line.inner_text() and "Unfinished" in line.inner_text()
    assert line.locator("a.acc-game-go").get_attribute("href") == url.replace(server.url, "")
    screenshot(page, "account-profile-en.png", full_page=True)
    # The home page's "my games" has it too; a stranger is refused the private profile.
    page.goto(server.url)
    page.wait_for_selector("#my-games-section:not([hidden]) .acc-open")
    assert page.inner_text("#account-link") == "Zoé"
    stranger = browser.new_context(locale="de-DE")
    try:
        other = stranger.new_page()
        response = other.goto(f"{server.url}/u/Zo%C3%A9")
        assert response is not None and response.status == 403
        other.wait_for_selector("#refused:not([hidden])")
        assert other.inner_text("#refused") == "Dieses Profil ist privat: Nur sein Inhaber kann es sehen."
        assert other.locator("#figures").is_hidden()
    finally:
        stranger.close()


#: The final ranking's box and its buttons, where the window shows them.
BOXES = """() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return { x: b.left, y: b.top, right: b.right, bottom: b.bottom }; };
  return { vw: innerWidth, vh: innerHeight, card: r(document.querySelector('#overlay .overlay-card')),
           buttons: [...document.querySelectorAll('#overlay .final-actions button')].map(r),
           ratings: [...document.querySelectorAll('#overlay ol.ranking .acc-rating')].map(r) };
}"""


def play_out(server: Server, url: str, keys: list[str]) -> None:
    """The human seats (``keys``) play random legal moves over sockets until the game is over."""
    table = url.split("/table/")[1].split("#")[0]
    rng = random.Random(4)
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{server.url.replace('http', 'ws')}/ws/{table}")) for _ in keys
        ]
        for ws, key in zip(sockets, keys, strict=True):
            ws.send(json.dumps({"type": "join", "key": key}))
        last: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + 60
        while not any(m.get("over") for m in last.values()):
            assert time.monotonic() < deadline, "the game did not end"
            for seat, ws in enumerate(sockets):
                try:
                    msg = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if msg.get("type") != "state":
                    continue
                last[seat] = msg
                if not msg["over"] and msg["to_act"] == seat and msg["legal"]:
                    ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]}))


def account(server: Server, name: str) -> httpx.Client:
    """A client signed up as ``name`` (its cookie kept)."""
    client = httpx.Client(base_url=server.url)
    r = client.post("/api/account/signup", json={"name": name, "password": "a good long password"})
    assert r.status_code == 200, r.text
    return client


def test_the_final_ranking_shows_the_rating_changes_the_reader_may_see(
    server: Server,
    browser: Browser,
) -> None:
    """At a game's end the final ranking (the box with "Play again") shows, under the names, the
    reader's own rating change and that of a player whose profile is public (a link to it); a
    bot's row nothing.  EN, FR, DE on a 1280×800 laptop and a 360×740 phone: the box's buttons
    stay inside the window, the rating lines inside the box.  Screenshots in artifacts/."""
    bea = account(server, "Bea")  # public profile: her rating change is shown to the others
    assert bea.post("/api/account/settings", json={"public": True, "leaderboard": False}).status_code == 200
    words = {
        "en": ("Your rating", "Rating"),
        "fr": ("Votre cote", "Cote"),
        "de": ("Deine Wertung", "Wertung"),
    }
    try:
        for lang, (mine_word, other_word) in words.items():
            me = account(server, f"Reader {lang}")
            urls = new_table(server, "wizard", 2)
            keys = [u.split("#key=")[1] for u in urls]
            table = urls[0].split("/table/")[1].split("#")[0]
            for client, key in ((me, keys[0]), (bea, keys[1])):
                assert client.post("/api/account/claim", json={"table": table, "key": key}).status_code == 200
            play_out(server, urls[0], keys)
            mine = me.get(f"/api/account/result/{table}").json()["result"]["rating"]
            for device, size in (
                ("laptop", ViewportSize(width=1280, height=800)),
                ("phone", ViewportSize(width=360, height=740)),
            ):
                extra: dict[str, Any] = {"is_mobile": True, "has_touch": True} if device == "phone" else {}
                context = browser.new_context(locale=lang, viewport=size, **extra)
                context.add_cookies(
                    [{"name": "atout_session", "value": me.cookies["atout_session"], "url": server.url}]
                )
                try:
                    page = context.new_page()
                    page.goto(urls[0])
                    page.wait_for_selector(
                        "#overlay[data-kind=final]:not([hidden]) ol.ranking li[data-seat='1'] .acc-rating a"
                    )
                    own = page.locator("#overlay ol.ranking li[data-seat='0'] .acc-rating-mine")
                    text = own.inner_text()
                    assert text.startswith(mine_word + " "), text
                    before = f"{mine['before']:.1f}".replace(".", "," if lang != "en" else ".")
                    assert before in text and "→" in text, (text, mine)
                    other = page.locator("#overlay ol.ranking li[data-seat='1'] .acc-rating a")
                    assert other.get_attribute("href") == "/u/Bea"
                    assert other.inner_text().startswith(other_word + " ")
                    assert (
                        page.locator("#overlay ol.ranking li[data-seat='2'] .acc-rating").count() == 0
                    )  # the bot
                    assert page.locator(".acc-note").count() == 0  # nothing over the table any more
                    seen = page.evaluate(BOXES)
                    assert len(seen["buttons"]) == 3 and len(seen["ratings"]) == 2
                    for b in seen["buttons"] + seen["ratings"]:
                        assert (
                            b["x"] >= 0
                            and b["right"] <= seen["vw"]
                            and b["y"] >= 0
                            and b["bottom"] <= seen["vh"]
                        ), (b, seen)
                        assert seen["card"]["x"] <= b["x"] and b["right"] <= seen["card"]["right"], (b, seen)
                        assert seen["card"]["y"] <= b["y"] and b["bottom"] <= seen["card"]["bottom"], (
                            b,
                            seen,
                        )
                    screenshot(page, f"account-final-ranking-{device}-{lang}.png")
                finally:
                    context.close()
            me.close()
    finally:
        bea.close()


def test_a_deleted_accounts_seat_is_a_former_player_on_the_running_server(
    server: Server,
    browser: Browser,
) -> None:
    """``atout accounts delete`` from another process while ``atout serve`` (SQLite) holds the
    finished table in memory: the table's next page shows the seat as a former player, in the
    reader's language, in the final ranking and on the seat's plate; no restart."""
    ugo = account(server, "Ugo")
    urls = new_table(server, "wizard", 1)
    key = urls[0].split("#key=")[1]
    table = urls[0].split("/table/")[1].split("#")[0]
    assert ugo.post("/api/account/claim", json={"table": table, "key": key}).status_code == 200
    play_out(server, urls[0], [key])
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(urls[0])
        page.wait_for_selector("#overlay[data-kind=final]:not([hidden]) ol.ranking")
        assert page.inner_text("#overlay ol.ranking li[data-seat='0'] .name") == "Human 0"
        storage = Storage(server.db)
        try:
            assert accounts.delete_account(storage, "Ugo") == 1  # as `atout accounts delete` does
        finally:
            storage.close()
        page.goto(f"{server.url}/")  # away, then the table's link again: its next read
        page.goto(urls[0])
        page.wait_for_selector("#overlay[data-kind=final]:not([hidden]) ol.ranking")
        assert page.inner_text("#overlay ol.ranking li[data-seat='0'] .name") == "ancien joueur"
        assert "ancien joueur" in page.inner_text("#board .felt")
    finally:
        context.close()
        ugo.close()
