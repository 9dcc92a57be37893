"""Screenshots of the living table (issue 18): the lobby, a player's table with its chat
and turn clock, and a spectator's table, on a laptop and a phone, in English and French.

    .venv/bin/python scripts/gallery_living.py [--out artifacts/gallery-living]

Starts ``atout serve`` on a loopback port with a fresh SQLite file; for each device and
language makes a public Wizard table (Alice here, Bruno away, a free seat, a bot),
opens Alice's page and a spectator's, says something in the chat and writes
``<device>-<lang>-{lobby,player,spectator,away}.png`` (``away``: Alice closed her
tab and the bot plays for her; the server's turn clock runs 20 times faster here).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import httpx
from gallery import free_port, start_server  # the same folder
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
DEVICES = {
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
}
LOCALES = {"en": "en-US", "fr": "fr-FR"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="artifacts/gallery-living")
    out = Path(ap.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(), "gallery.sqlite3")
    # The turn clock runs 20 times faster (3 min is 9 s), so the away bot can be seen soon.
    proc = start_server(db, port, 0.8, env={**os.environ, "ATOUT_CLOCK_SCALE": "20"})  # serve's default pace
    url = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for device, opts in DEVICES.items():
                for lang, locale in LOCALES.items():
                    seats = [
                        {"name": "Alice"},
                        {"name": "Bruno"},
                        {"name": "", "open": True},
                        {"name": "Bot", "bot": "normal"},
                    ]
                    r = httpx.post(
                        url + "/api/tables",
                        json={
                            "game": "wizard",
                            "players": 4,
                            "options": {"first_dealer": 3},
                            "seats": seats,
                            "public": True,
                            "turn_time": 180,
                        },
                    )
                    data = r.json()
                    ctx = browser.new_context(locale=locale, **opts)  # type: ignore[arg-type]
                    player = ctx.new_page()
                    player.goto(data["seats"][0]["url"])
                    player.wait_for_selector("#board[data-n]")
                    player.fill(
                        "#chat-input", "Bonne chance à tous 🙂" if lang == "fr" else "Good luck everyone 🙂"
                    )
                    player.press("#chat-input", "Enter")
                    player.click(".emote >> nth=0")
                    watcher_ctx = browser.new_context(locale=locale, **opts)  # type: ignore[arg-type]
                    watcher = watcher_ctx.new_page()
                    watcher.goto(data["watch_url"])
                    watcher.wait_for_selector("#board[data-n]")
                    player.wait_for_function(
                        "() => document.getElementById('spectators').textContent.length > 0"
                    )
                    player.wait_for_timeout(1200)
                    player.screenshot(path=str(out / f"{device}-{lang}-player.png"), full_page=True)
                    watcher.wait_for_timeout(500)
                    watcher.screenshot(path=str(out / f"{device}-{lang}-spectator.png"), full_page=True)
                    home = watcher_ctx.new_page()
                    home.goto(url + "/")
                    home.wait_for_selector(".lobby-table")
                    home.locator(".lobby-join-btn").first.click()
                    home.locator("#lobby-section").scroll_into_view_if_needed()
                    home.wait_for_timeout(300)
                    home.locator("#lobby-section").screenshot(path=str(out / f"{device}-{lang}-lobby.png"))
                    player.close()  # Alice leaves: after her turn time a bot plays for her
                    watcher.wait_for_selector(".seat[data-seat='0'] .presence.away-bot", timeout=60_000)
                    watcher.wait_for_timeout(800)
                    watcher.screenshot(path=str(out / f"{device}-{lang}-away.png"), full_page=True)
                    ctx.close()
                    watcher_ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
