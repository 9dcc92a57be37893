"""Accounts in a real browser: sign up, the seat of a table opened while signed in becomes the
account's, the profile lists it to return to; a stranger is refused the private profile."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from .conftest import Server
from .test_browser import ARTIFACTS, browser, new_table, page  # noqa: F401

#: Whether the signed-in account's games include table ``t`` (``evaluate`` awaits the fetch).
MINE = "t => fetch('/api/account/games').then(r => r.json()).then(d => d.games.some(g => g.table === t))"


def test_sign_up_then_the_profile_lists_the_table_opened_signed_in(
    server: Server,
    page: Page,  # noqa: F811
    browser: Browser,  # noqa: F811
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
    page.screenshot(path=str(ARTIFACTS / "account-profile-en.png"), full_page=True)
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
