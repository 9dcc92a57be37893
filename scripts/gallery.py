"""Screenshots of every game's table at its key moments, to look at as a player would.

    .venv/bin/python scripts/gallery.py [--out artifacts/gallery] [--games wizard,malin] [--players 4]

Starts ``atout serve`` on a loopback port with a fresh SQLite file, sits one human
(this script, clicking the first playable card or move like a hurried player)
with bots, and writes PNGs named ``<game>-<device>-<lang>-<moment>.png``:

- ``0-name``: the first visit of an invite link, asking the player's name;
- ``1-start``: the first decision (a bid, a handicap card, the first lead);
- ``2-mid``: cards on the table, the human to play (a few turns in, for a game without tricks);
- ``3-trick``: a finished trick held whole on the felt, its winner crowned;
- ``4-summary``: the summary of a finished round;
- ``5-over``: the final ranking;
- ``6-review``: the replay of the finished game with its review beside it, at a decision.

and, once per device and language, the other pages as ``page-<device>-<lang>-<page>.png``: the
home page with a public table in its lobby (``home``), the account page signed out
(``account``), the profile of the account that played the games above (``profile``), a
leaderboard (``leaderboard``) and every game's rules (``rules-<game>``).  Pass ``--pages
only`` for these alone, ``--pages no`` for the tables alone.

Devices: ``laptop`` (1280×800) and ``phone`` (360×740, touch); languages EN and FR by
default, any language the table speaks with ``--langs en,fr,de``.
Needs Debian's chromium (``apt-get install chromium``), as the browser tests do.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from atout.core.registry import game_class, names

CHROMIUM = "/usr/bin/chromium"
DEVICES: dict[str, dict[str, Any]] = {
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
}
#: The browser's locale for a language the table speaks (its Accept-Language: en-US, fr-FR, de-DE).
LOCALES = {"en": "en-US"}


def locale(lang: str) -> str:
    return LOCALES.get(lang, f"{lang}-{lang.upper()}")


#: Short games (two rounds of Wizard, one hand of the others), with every optional part of the
#: table shown (Le Malin's Malheur cards): each applies to the games that have the option.
SHORT = {"rounds": 2, "hands": 1, "max_deals": 1, "start_score": 6, "fun": True}
NAMES = ["Alice", "Bruno", "Chloé", "Dmitri", "Eve", "Farid", "Gaëlle", "Hugo"]
MAX_MOVES = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: str, port: int, bot_delay: float, env: dict[str, str] | None = None, review_playouts: int = 40
) -> subprocess.Popen[bytes]:
    """``atout serve`` on ``db`` at ``port``, once it answers (its log beside the database)."""
    cmd = [
        sys.executable,
        "-c",
        "from atout.cli.main import app; app()",
        "serve",
        "--db",
        db,
        "--port",
        str(port),
    ]
    cmd += ["--bot-delay", str(bot_delay), "--review-playouts", str(review_playouts)]
    log = open(db + ".log", "ab")  # noqa: SIM115 - the server's lifetime
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}  # its address line in the log at once
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    for _ in range(200):
        if proc.poll() is not None:  # it could not start (the port taken): never shoot another server
            break
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            # Ours answered only if it says so (another process may hold the port).
            if proc.poll() is None and f"127.0.0.1:{port}/" in Path(db + ".log").read_text(errors="replace"):
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: {Path(db + '.log').read_text(errors='replace')}")


def new_table(url: str, game: str, players: int, extra: dict[str, Any]) -> str:
    specs = {s.name for s in game_class(game).option_specs}
    options = {k: v for k, v in {**SHORT, **extra}.items() if k in specs}
    seats = [{"name": NAMES[i], "bot": None if i == 0 else "normal"} for i in range(players)]
    r = httpx.post(
        f"{url}/api/tables", json={"game": game, "players": players, "options": options, "seats": seats}
    )
    r.raise_for_status()
    link: str = r.json()["seats"][0]["url"]
    return link


def data(page: Page) -> dict[str, str]:
    d: dict[str, str] = page.eval_on_selector("#board", "b => ({...b.dataset})")
    return d


def play_one(page: Page) -> None:
    n = int(data(page)["n"])
    target = page.locator("#board button.card.legal, #board button.action").first
    if "card" in (target.get_attribute("class") or ""):
        target.click(position={"x": 8, "y": 24})  # the corner that shows in a fanned hand
    else:
        target.click()
    page.wait_for_function(
        "n => Number(document.getElementById('board').dataset.n) > n || !document.getElementById('chooser').hidden",
        arg=n,
    )
    chooser = page.locator("#chooser:not([hidden]) button.action")
    if chooser.count():
        chooser.first.click()
    page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)


#: In the page: nothing on it moves but what moves on and on (a glow): every card dealt, played,
#: gathered, every coin and fading line has finished (Web Animations; CSS animations and
#: transitions are among them).
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || !a.effect || a.effect.getComputedTiming().iterations === Infinity)"""


def settle(page: Page, timeout: float = 8000) -> None:
    """Wait until the cards have landed and every finite animation of the page has finished, then
    a frame more (drawn): a fixed pause caught the third trick's last card in flight, drawn small
    and off its place, on a busy machine.  A page still moving after ``timeout`` ms is shot as
    it is (said on stderr), the gallery goes on."""
    try:
        page.wait_for_function(SETTLED, timeout=timeout)
    except PlaywrightError:
        print(f"{page.url}: still moving after {timeout:.0f} ms, shot as it is", file=sys.stderr)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shoot(page: Page, out: Path, stem: str, moment: str, done: set[str]) -> None:
    if moment in done:
        return
    done.add(moment)
    settle(page)
    page.screenshot(path=str(out / f"{stem}-{moment}.png"))


def shoot_review(page: Page, out: Path, stem: str) -> None:
    """The finished game's replay with its review beside it, at the first reviewed decision."""
    page.locator("#overlay .close").click()
    page.click("#prev")
    page.locator("#review-start").scroll_into_view_if_needed()
    page.click("#review-start")
    page.wait_for_selector("#review .review-summary", timeout=180_000)
    bars = page.locator("#review .review-chart g.review-bar")
    if bars.count():  # (no bar when the seat had no decision with a choice)
        bars.first.click()
        page.wait_for_selector("#review .review-decision")
    page.locator("#review").scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(out / f"{stem}-6-review.png"))


def play_and_shoot(
    browser: Browser,
    link: str,
    out: Path,
    stem: str,
    device: str,
    lang: str,
    players: int,
    cookies: list[Any] | None = None,
) -> None:
    context = browser.new_context(locale=locale(lang), **DEVICES[device])
    if cookies:  # signed in: the seat becomes the account's, whose profile is shot later
        context.add_cookies(cookies)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(link)
    page.wait_for_selector("#board[data-n]")
    done: set[str] = set()
    # A friend's first visit asks their name (the seat's name offered): shot once, then given.
    page.wait_for_selector("#name-ask")
    shoot(page, out, stem, "0-name", done)
    page.locator("#name-ask button[type=submit]").click()
    full = f"() => document.querySelectorAll('#board .trick .played').length === {players}"
    for turns in range(MAX_MOVES):
        page.wait_for_function(
            "() => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === '0'; }"
        )
        if page.locator("#overlay[data-kind=summary]:not([hidden])").count():
            shoot(page, out, stem, "4-summary", done)
        if data(page)["over"] == "true":
            page.wait_for_selector("#overlay[data-kind=final]:not([hidden])")
            shoot(page, out, stem, "5-over", done)
            shoot_review(page, out, stem)
            done.add("6-review")
            break
        if "1-start" not in done:
            shoot(page, out, stem, "1-start", done)
        elif "2-mid" not in done and (page.locator("#board .trick .played").count() or turns >= 4):
            shoot(page, out, stem, "2-mid", done)  # cards on the table (or, without tricks, a few turns in)
        play_one(page)
        if "3-trick" not in done:
            try:
                page.wait_for_function(full, timeout=3000)  # (bots play the rest at their pace)
                shoot(page, out, stem, "3-trick", done)  # (once the last card has landed)
            except PlaywrightError:
                pass
    context.close()
    if errors:
        print(f"{stem}: JavaScript errors: {errors}", file=sys.stderr)
    print(f"{stem}: {', '.join(sorted(done))}")


#: The account whose profile is shot (it plays every table of the gallery).
ACCOUNT = {"name": "Zoé", "password": "a gallery of pages"}


def sign_up(url: str) -> list[Any]:
    """The gallery's account, signed up once; returns its session cookie for the browser."""
    with httpx.Client(base_url=url) as client:
        r = client.post("/api/account/signup", json=ACCOUNT)
        r.raise_for_status()
        return [{"name": c.name, "value": c.value or "", "url": url} for c in client.cookies.jar]


def shoot_pages(browser: Browser, url: str, out: Path, device: str, lang: str, cookies: list[Any]) -> None:
    """Every page but the table's: home (a public table in its lobby), account, profile, a
    leaderboard and each game's rules."""
    stem = f"page-{device}-{lang}"
    context = browser.new_context(locale=locale(lang), **DEVICES[device])
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/account")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.screenshot(path=str(out / f"{stem}-account.png"), full_page=True)
    page.goto(url + "/")
    page.wait_for_selector("#lobby .lobby-table")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"{stem}-home.png"), full_page=True)
    for game in names():
        page.goto(f"{url}/rules/{game}")
        page.screenshot(path=str(out / f"{stem}-rules-{game}.png"))
    context.add_cookies(cookies)
    page.goto(f"{url}/u/{ACCOUNT['name']}")
    page.wait_for_selector("#figures:not([hidden])")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"{stem}-profile.png"), full_page=True)
    page.goto(f"{url}/leaderboard/wizard")
    page.wait_for_timeout(600)
    page.screenshot(path=str(out / f"{stem}-leaderboard.png"), full_page=True)
    context.close()
    if errors:
        print(f"{stem}: JavaScript errors: {errors}", file=sys.stderr)
    print(f"{stem}: pages")


def public_table(url: str) -> None:
    """A public table with a free seat, for the home page's lobby."""
    seats = [{"name": NAMES[0], "bot": "normal"}, {"name": "", "bot": None, "open": True}]
    seats += [{"name": NAMES[i], "bot": "normal"} for i in range(2, 4)]
    body = {
        "game": "wizard",
        "players": 4,
        "options": {"rounds": 2},
        "seats": seats,
        "public": True,
        "bot_pace": "slow",
    }
    httpx.post(f"{url}/api/tables", json=body).raise_for_status()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default="artifacts/gallery", help="folder for the PNGs")
    parser.add_argument("--games", default=",".join(names()), help="comma-separated game names")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--devices", default="laptop,phone")
    parser.add_argument("--langs", default="en,fr")
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--pages", choices=("yes", "no", "only"), default="yes", help="the other pages too")
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(str(Path(tmp) / "gallery.sqlite3"), port, args.bot_delay)
        url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                cookies = sign_up(url)
                for game in args.games.split(",") if args.pages != "only" else []:
                    cls = game_class(game)
                    players = max(cls.min_players, min(cls.max_players, args.players))
                    for device in args.devices.split(","):
                        for lang in args.langs.split(","):
                            link = new_table(url, game, players, {})
                            play_and_shoot(
                                browser, link, out, f"{game}-{device}-{lang}", device, lang, players, cookies
                            )
                if args.pages != "no":
                    for device in args.devices.split(","):
                        for lang in args.langs.split(","):
                            public_table(url)  # (a fresh one each time: the bots finish games)
                            shoot_pages(browser, url, out, device, lang, cookies)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"screenshots in {out}/")


if __name__ == "__main__":
    main()
