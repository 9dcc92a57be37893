"""Every screen as a new player sees it (issue 50's last look): what a player met playing the four
games whole in Chromium on the laptop (EN), the phone (FR) and in German, each checked here in
real Chromium, as test_browser.py does (Debian's chromium, ``atout serve`` in a subprocess).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from atout.core.registry import game_class

from . import test_browser as tb
from .conftest import Server, screenshot, short_options
from .test_browser_hint import PHONE
from .test_browser_malheur import BOXES, outside


def seated(browser: Browser, url: str, height: int = 800) -> Page:
    """A laptop's page at a seat's invite link, cards not in motion, sat down as Alice."""
    page = tb.open_table(browser, url, viewport={"width": 1280, "height": height})
    page.emulate_media(reduced_motion="reduce")
    page.fill("#name-ask-input", "Alice")
    page.locator("#name-ask button[type=submit]").click()
    return page


def test_the_page_stays_where_the_player_scrolled_it_when_the_table_is_redrawn(
    server: Server, browser: Browser
) -> None:
    """A player who picked a card (by a click or the arrows) and then scrolled up to watch the
    felt stays there while the table is redrawn: the focus kept on the hand across a redraw does
    not drag the page down to it (Chromium scrolls to an element focused out of view, and the
    round's summary box was cut at the window's top when the next deal's buttons pushed the hand
    down: Le Malin, laptop)."""
    urls = tb.new_table(server, "wizard", 1, players=3, options={"rounds": 2})
    page = seated(browser, urls[0], height=520)
    try:
        tb.wait_my_turn_or_end(page, 0)
        page.wait_for_selector("#board .moves button[data-key='0']")
        page.keyboard.press("ArrowRight")  # a card of the hand takes the focus (the page follows it)
        assert page.evaluate("() => document.activeElement.matches('#board .hand .card')")
        page.evaluate("window.scrollTo(0, 0)")  # back up, to watch the felt
        # The hand is out of view (at least in part): Chromium would scroll to it on a focus().
        assert page.evaluate(
            "() => document.querySelector('#board .hand .card').getBoundingClientRect().bottom > innerHeight"
        )
        n = int(page.eval_on_selector("#board", "b => b.dataset.n"))
        page.keyboard.press("0")  # the bid, by its digit: the table is redrawn
        page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
        page.wait_for_timeout(300)
        assert page.evaluate("() => document.activeElement.matches('#board .hand .card')"), "focus lost"
        assert page.evaluate("window.scrollY") == 0
    finally:
        page.context.close()


#: In the page: each seat's name as drawn, and whether it is cut (its box narrower than its text).
NAMES_CUT = """() => [...document.querySelectorAll('#board .felt .seat .name')]
  .map((n) => [n.textContent, n.scrollWidth > n.clientWidth])"""


@pytest.mark.parametrize("game", ["wizard", "sticheln"])
def test_a_phone_with_few_seats_shows_whole_names(server: Server, browser: Browser, game: str) -> None:
    """On a 360 px phone in French at 3 seats, names of eight letters are whole on their plates,
    the dealer's mark beside one of them: the plates kept the width they have at 8 seats and cut
    "Cléme…" with the felt empty between them."""
    names = ["Béatrice", "Fernando", "Clémence"]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": game,
            "players": 3,
            "options": short_options(game),
            "seats": [{"name": names[0]}] + [{"name": name, "bot": "random"} for name in names[1:]],
        },
    )
    assert r.status_code == 200, r.text
    page = tb.open_table(browser, r.json()["seats"][0]["url"], locale="fr-FR", **PHONE)  # type: ignore[arg-type]
    try:
        page.locator("#name-ask button[type=submit]").click()
        page.wait_for_selector("#board .felt .seat .dealer")
        page.wait_for_timeout(300)
        seen = page.evaluate(NAMES_CUT)
        screenshot(page, f"look-phone-names-{game}-fr.png")
        assert sorted(name for name, _ in seen) == sorted(names), seen
        assert [name for name, cut in seen if cut] == [], seen
        # A score of four characters keeps each plate to its lines (at "−10" the viewer's plate
        # put its tricks on a third line, "Annonce" and "Plis" no longer side by side).
        grown = page.evaluate(WIDE_SCORES)
        assert grown == [], grown
    finally:
        page.context.close()


#: In the page: the plates whose height changes when every score is written "−100" (then put back).
WIDE_SCORES = """() => {
  const plates = [...document.querySelectorAll('#board .felt .seat .plate')];
  const before = plates.map((p) => p.getBoundingClientRect().height);
  const scores = plates.map((p) => p.querySelector('.score'));
  const was = scores.map((s) => s.textContent);
  scores.forEach((s) => { s.textContent = '−100'; });
  const grown = plates.map((p, i) => [p.querySelector('.name').textContent, before[i], p.getBoundingClientRect().height]).filter(([, a, b]) => b > a + 1);
  scores.forEach((s, i) => { s.textContent = was[i]; });
  return grown;
}"""


#: In the page: the value chooser's box and the hand's, the window's height and how far it is scrolled.
CHOOSER_SEEN = """() => {
  const box = (id) => { const r = document.querySelector(id).getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
  return { chooser: box('#chooser'), hand: box('#board .hand'), height: innerHeight, scrolled: scrollY };
}"""


def test_le_malins_value_chooser_opens_by_the_hand_in_view(server: Server, browser: Browser) -> None:
    """Le Malin on the laptop: a Twin (or the Wish) clicked in the hand asks its value in a box
    by the hand, in view, and the table stays where it was (the box opened at the board's bottom,
    under the panel of Malheur cards, and focusing it scrolled the felt out of the window)."""
    urls = tb.new_table(server, "malin", 1, options={"fun": True})
    page = seated(browser, urls[0])
    try:
        for _ in range(tb.MAX_MOVES):
            tb.wait_my_turn_or_end(page, 0)
            assert tb.board(page)["over"] != "true", "the game ended before a Twin or the Wish was playable"
            valued = page.locator(
                "#board .hand button.card.legal[data-card^='T'], #board .hand button.card.legal[data-card^='W']"
            )
            if not valued.count():
                tb.play_one(page)
                continue
            page.evaluate("window.scrollTo(0, 0)")
            valued.first.click(position={"x": 8, "y": 24})  # (in view at the top: no scrolling to it)
            page.wait_for_selector("#chooser:not([hidden]) button.action")
            page.wait_for_timeout(300)
            seen = page.evaluate(CHOOSER_SEEN)
            screenshot(page, "look-malin-chooser-laptop-en.png")
            assert seen["scrolled"] == 0, seen
            assert seen["chooser"]["top"] >= 0 and seen["chooser"]["bottom"] <= seen["height"], seen
            assert seen["chooser"]["bottom"] <= seen["hand"]["top"] + 24, seen  # by the hand, not under it
            break
    finally:
        page.context.close()


def test_the_home_pages_game_cards_line_up_their_buttons(server: Server, browser: Browser) -> None:
    """On the laptop's home page the four game cards, side by side, have their Play buttons on one
    line (a card with a lesson had its "Learn to play" under them, lifting its Play above the
    others')."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        # Whether the lobby (above the cards) was drawn when the cards first were: drawn after,
        # it pushed them and their links down under a reader's finger (a lesson's link clicked
        # as it moved opened nothing: the lessons' browser test met it on a loaded machine).
        page.add_init_script(
            """new MutationObserver((changes, watch) => {
                 const games = document.getElementById("games");
                 if (games && games.children.length) {
                   window.lobbyFirst = document.getElementById("lobby").children.length > 0;
                   watch.disconnect();
                 }
               }).observe(document, { childList: true, subtree: true });"""
        )
        page.goto(server.url + "/")
        page.wait_for_selector("#games .game-card")
        assert page.evaluate("() => window.lobbyFirst") is True
        tops = page.evaluate(
            "() => [...document.querySelectorAll('#games .game-card .game-actions button')].map((b) => b.getBoundingClientRect().top)"
        )
        assert len(tops) >= 4, tops
        assert max(tops) - min(tops) < 1, tops
        screenshot(page.locator("#games"), "look-home-game-cards-laptop-en.png")
    finally:
        context.close()


def test_a_game_chosen_while_the_lobby_loads_is_kept(server: Server, browser: Browser) -> None:
    """The home page waits for the lobby before drawing what sits below it; a game chosen in the
    form meanwhile was set back to the first one once the wait ended (a Sticheln table created
    as Wizard: the whole-game browser test met it on a loaded machine)."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()

        # The lobby's first answer late, as on a busy server (in the page: a route handler
        # would hold Playwright's own calls while it waits).
        page.add_init_script(
            """const fetched = window.fetch;
               window.fetch = (url, ...rest) => String(url).endsWith("/api/tables")
                 ? new Promise((done) => setTimeout(done, 1000)).then(() => fetched(url, ...rest))
                 : fetched(url, ...rest);"""
        )
        page.goto(server.url + "/")
        page.select_option("#game", "sticheln")
        page.wait_for_selector("#games .game-card")
        assert page.input_value("#game") == "sticheln"
        assert page.locator("#players").get_attribute("max") == str(game_class("sticheln").max_players)
    finally:
        context.close()


def test_le_malin_says_a_winning_cards_value_once(server: Server, browser: Browser) -> None:
    """Le Malin's line under the felt says a crowned card's value in brackets only when it is not
    the card's number (a Twin, the Wish, a card halved): "Chloé is winning with 18: the highest
    value (18)" said it twice."""
    urls = tb.new_table(server, "malin", 1)
    page = seated(browser, urls[0])
    lines: set[str] = set()
    try:
        for _ in range(tb.MAX_MOVES):
            tb.wait_my_turn_or_end(page, 0)
            if tb.board(page)["over"] == "true":
                break
            why = page.locator("#board .trick-why")
            if why.count():
                lines.add(why.inner_text())
            tb.play_one(page)
        highest = [line for line in lines if "the highest value" in line]
        assert highest, lines
        twice = [line for line in highest if re.search(r"with (\S+): the highest value \(\1\)", line)]
        assert twice == [], twice
    finally:
        page.context.close()


#: In the page: each name's row of a summary as soon as one is drawn (Le Nain Jaune's gives way
#: once the next deal's first card is down): its text, height, line height, whether it is cut, its tooltip.
SUMMARY_ROWS = """
window.__rows = null;
new MutationObserver(() => {
  const ths = [...document.querySelectorAll('#overlay table.summary tbody th[scope=row]')];
  if (window.__rows || !ths.length) return;
  window.__rows = ths.map((th) => {
    const text = th.firstElementChild || th;
    return [th.textContent, th.getBoundingClientRect().height, parseFloat(getComputedStyle(th).lineHeight) || 20,
      text.scrollWidth > text.clientWidth, th.title || text.title || ''];
  });
}).observe(document, { subtree: true, childList: true });
"""


def test_le_nain_jaunes_summary_writes_each_name_on_one_line(server: Server, browser: Browser) -> None:
    """Le Nain Jaune's summary of a deal at 8 seats on a 360 px phone in German (its widest
    headings): each player's name on one line ("Human / 0", "Bot / 2" wrapped), whole or cut with
    its whole name in a tooltip."""
    urls = tb.new_table(server, "nain-jaune", 1, players=8, options={"max_deals": 3, "start_tokens": 200})
    context = browser.new_context(locale="de-DE", **PHONE)  # type: ignore[arg-type]
    context.add_init_script(tb.FAST_CARDS)
    context.add_init_script(SUMMARY_ROWS)
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.emulate_media(reduced_motion="reduce")
        page.goto(urls[0])
        page.wait_for_selector("#board[data-n]")
        page.locator("#name-ask button[type=submit]").click()
        for _ in range(tb.MAX_MOVES):
            if page.evaluate("window.__rows"):
                break
            tb.wait_my_turn_or_end(page, 0)
            if tb.board(page)["over"] == "true":
                break
            tb.play_one(page)
        rows = page.evaluate("window.__rows")
        screenshot(page, "look-nain-jaune-summary-phone-de.png")
        assert rows and len(rows) == 8, (rows, tb.board(page))
        for name, height, line, cut, title in rows:
            assert height < 2 * line - 1, (name, height, line)
            assert not cut or title == name, (name, title)
    finally:
        context.close()


def watched_game(
    server: Server,
    browser: Browser,
    game: str,
    players: int,
    script: str,
    locale: str,
    device: dict[str, Any],
    options: dict[str, Any] | None = None,
    moves: int = 6,
) -> Page:
    """A table of `game` at `players` seats, a human's page (``device``: the context's settings,
    cards not in motion) watched by ``script``, sat down as Alice and played `moves` moves in."""
    urls = tb.new_table(server, game, 1, players=players, options=options)
    page = tb.open_table(browser, urls[0], locale, scripts=[script], reduced_motion="reduce", **device)
    try:
        tb.give_name(page, "Alice")
        tb.play_to_the_end(page, 0, stop_after=moves)
        page.wait_for_timeout(300)
    except BaseException:
        page.context.close()
        raise
    return page


#: In the page: after each change of the board, once its cards have stopped moving, the trick's
#: narrowest card (px) and how much of a card or of a plate a card's note ("= 35") covers (a share
#: of the card's height; how deep over a plate, px).
TRICK_SIZES = """
window.__trick = { narrowest: Infinity, cardOnPlate: 0, notes: 0, noteOnCard: 0, noteOnPlate: 0 };
// How deep a box lies over another (px: the smaller of the two overlaps).
const depth = (a, b) => Math.max(0, Math.min(Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)));
const look = () => {
  if (document.getAnimations().some((a) => a.playState === 'running')) return;
  const seen = window.__trick;
  const plates = [...document.querySelectorAll('#board .felt .seat .plate')].map((p) => p.getBoundingClientRect());
  for (const p of document.querySelectorAll('#board .trick .played')) {
    const card = p.querySelector('.card').getBoundingClientRect();
    seen.narrowest = Math.min(seen.narrowest, card.width);
    seen.cardOnPlate = Math.max(seen.cardOnPlate, ...plates.map((r) => depth(card, r)));
    const note = p.querySelector('.note');
    if (!note) continue;
    const n = note.getBoundingClientRect();
    seen.notes += 1;
    seen.noteOnCard = Math.max(seen.noteOnCard, Math.max(0, Math.min(card.bottom, n.bottom) - Math.max(card.top, n.top)) / card.height);
    seen.noteOnPlate = Math.max(seen.noteOnPlate, ...plates.map((r) => depth(n, r)));
  }
};
new MutationObserver(() => setTimeout(look, 50)).observe(document, { subtree: true, childList: true });
"""


def test_le_malins_trick_at_six_seats_on_a_phone_is_readable(server: Server, browser: Browser) -> None:
    """Le Malin (with its Malheur cards: plates of three lines) at 6 seats on the 360 px phone in
    French: every trick card at least 35 px wide (they were drawn 30 px wide, in a column between
    the side plates with the felt free beside it) and a Twin's declared value ("= 35") under its
    card, covering neither the card (it hid the card's lower half) nor a plate."""
    page = watched_game(server, browser, "malin", 6, TRICK_SIZES, "fr-FR", PHONE, {"fun": True}, moves=10)
    try:
        screenshot(page, "look-malin-six-seats-phone-fr.png")
        seen = page.evaluate("window.__trick")
        assert seen["narrowest"] >= 35, seen
        assert seen["cardOnPlate"] <= 3, seen
        assert seen["notes"] > 0, seen  # a Twin was played (the seeded deal has one): the note was looked at
        assert seen["noteOnCard"] <= 0.02, seen
        assert seen["noteOnPlate"] <= 3, seen  # (fitTrick lets a box touch a plate by 2 px)
    finally:
        page.context.close()


#: In the page: each hand card's left and right edges and width, the hand zone's width, the
#: window's width and the page's.
HAND_BOXES = """() => ({
  cards: [...document.querySelectorAll('#board .hand .card')].map((c) => { const r = c.getBoundingClientRect(); return [c.dataset.card, r.left, r.right, r.width]; }),
  zone: document.querySelector('#board .hand-zone').clientWidth, width: innerWidth, page: document.scrollingElement.scrollWidth })"""


@pytest.mark.parametrize(("game", "players"), [("nain-jaune", 2), ("sticheln", 3)])
def test_a_long_hand_on_a_phone_stays_in_the_window_and_uses_it(
    server: Server, browser: Browser, game: str, players: int
) -> None:
    """On the 360 px phone a long hand lies in the window, its cards at least 44 px wide (a
    finger's width), the page not scrolling sideways, and it uses the width it has: Le Nain
    Jaune's 26 cards at 2 seats ran off both sides of the window (the end cards out of reach);
    Sticheln's 15 at 3 seats were fanned into 250 px of 350 (its step reckoned on a card wider than
    the one drawn)."""
    urls = tb.new_table(server, game, 1, players=players)
    page = tb.open_table(browser, urls[0], "fr-FR", reduced_motion="reduce", **PHONE)  # type: ignore[arg-type]
    try:
        tb.give_name(page, "Alice")
        page.wait_for_selector("#board .hand .card")
        page.wait_for_timeout(300)
        seen = page.evaluate(HAND_BOXES)
        screenshot(page, f"look-long-hand-{game}-phone-fr.png")
        cards = seen["cards"]
        assert len(cards) >= 15, seen
        outside = [c for c in cards if c[1] < 0 or c[2] > seen["width"] or c[3] < 44]
        assert outside == [], outside
        assert seen["page"] <= seen["width"], seen
        span = max(c[2] for c in cards) - min(c[1] for c in cards)
        assert span >= 0.9 * seen["zone"], (span, seen["zone"])
    finally:
        page.context.close()


#: In the page: Le Malin's Malheur window's moves as the table draws them (a Pass and `n` Malheur
#: targets, in their groups) put above the board; each button's box.
MALHEUR_MOVES = """(n) => {
  const moves = document.createElement('div');
  moves.className = 'moves';
  moves.innerHTML = '<div class="move-group group-pass"><button class="action">Passer</button></div><div class="move-group group-malheur">'
    + Array.from({ length: n }, (_, i) => `<button class="action">Le Malin sur ${['Bruno', 'Chloé'][i % 2]}</button>`).join('') + '</div>';
  document.getElementById('board').prepend(moves);
  const boxes = [...moves.querySelectorAll('button')].map((b) => { const r = b.getBoundingClientRect(); return { top: r.top, width: r.width, height: r.height }; });
  moves.remove();
  return boxes;
}"""


def test_le_malins_malheur_buttons_on_a_phone_are_one_line_beside_pass(
    server: Server, browser: Browser
) -> None:
    """On the 360 px phone, a Malheur window's one or two targets ("Le Malin sur Bruno") stand on
    Pass's row, as tall as Pass (a finger's height): two went on a row of their own under Pass, and
    a lone one (its 50 % of a group as narrow as its words) stood in the gallery 70 px wide and four
    lines tall beside a Pass as tall."""
    urls = tb.new_table(server, "malin", 1)
    page = tb.open_table(browser, urls[0], "fr-FR", **PHONE)  # type: ignore[arg-type]
    try:
        for n in (1, 2):
            passing, *targets = page.evaluate(MALHEUR_MOVES, n)
            for box in targets:
                assert abs(box["top"] - passing["top"]) < 1, (n, passing, targets)
                assert 44 <= box["height"] <= passing["height"] + 1, (n, passing, targets)
    finally:
        page.context.close()


def test_eight_seats_on_a_phone_show_whole_names_beside_the_dealers_mark(
    server: Server, browser: Browser
) -> None:
    """Sticheln at 8 seats on the 360 px phone in French: names of five or six letters are whole on
    their plates, the dealer's among them (its mark took the room of two letters beside the name:
    "Bru… D"; on a compact plate it sits on the avatar's corner)."""
    names = ["Alice", "Bruno", "Chloé", "Dmitri", "Eve", "Farid", "Gaëlle", "Hugo"]
    seats = [{"name": names[0]}] + [{"name": name, "bot": "random"} for name in names[1:]]
    answer = server.create_table(game="sticheln", players=8, options=short_options("sticheln"), seats=seats)
    page = tb.open_table(browser, answer["seats"][0]["url"], "fr-FR", reduced_motion="reduce", **PHONE)  # type: ignore[arg-type]
    try:
        page.locator("#name-ask button[type=submit]").click()
        page.wait_for_selector("#board .felt .seat .dealer")
        page.wait_for_timeout(300)
        seen = page.evaluate(NAMES_CUT)
        screenshot(page, "look-phone-eight-names-fr.png")
        assert sorted(name for name, _ in seen) == sorted(names), seen
        assert [name for name, cut in seen if cut] == [], seen
    finally:
        page.context.close()


#: In the page: each time a trick gains a card, the cards already down that were drawn larger
#: (seat, width before, width after): a trick growing must not make its cards jump (its own scope:
#: it runs beside other watchers).
TRICK_GROWS = """(() => {
window.__grew = [];
let before = {};
const look = () => {
  if (document.getAnimations().some((a) => a.playState === 'running')) return;
  const now = Object.fromEntries([...document.querySelectorAll('#board .trick .played')].map((p) => [p.dataset.seat, p.querySelector('.card').getBoundingClientRect().width]));
  const same = Object.keys(before).length && Object.keys(before).every((s) => s in now);
  if (same && Object.keys(now).length > Object.keys(before).length) {
    for (const s of Object.keys(before)) if (now[s] > before[s] + 0.5) window.__grew.push([s, before[s], now[s]]);
  }
  before = now;
};
new MutationObserver(() => setTimeout(look, 50)).observe(document, { subtree: true, childList: true });
})();
"""


#: In the page: after each change of the board, once its cards have stopped moving, how much two
#: trick cards overlap at most (a share of a card's area).
TRICK_OVERLAP = """(() => {
window.__overlap = 0;
const look = () => {
  if (document.getAnimations().some((a) => a.playState === 'running')) return;
  const cards = [...document.querySelectorAll('#board .trick .played .card')].map((c) => c.getBoundingClientRect());
  for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) {
    const a = cards[i], b = cards[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0 && h > 0) window.__overlap = Math.max(window.__overlap, (w * h) / (a.width * a.height));
  }
};
new MutationObserver(() => setTimeout(look, 50)).observe(document, { subtree: true, childList: true });
})();
"""


def test_sticheln_trick_at_eight_seats_on_a_phone_is_readable(server: Server, browser: Browser) -> None:
    """Sticheln at 8 seats on the 360 px phone in French: every trick card at least 40 px wide
    (they were drawn 32 px wide: rank and suit unreadable), none under a plate, and no card over
    another beyond its edge (each card's index in view)."""
    page = watched_game(server, browser, "sticheln", 8, TRICK_SIZES + TRICK_OVERLAP, "fr-FR", PHONE, moves=8)
    try:
        screenshot(page, "look-sticheln-eight-seats-phone-fr.png")
        seen = page.evaluate("window.__trick")
        assert seen["narrowest"] >= 40, (seen["narrowest"], seen.get("at"))
        assert seen["cardOnPlate"] <= 3, seen
        assert page.evaluate("window.__overlap") <= 0.02, page.evaluate("window.__overlap")
    finally:
        page.context.close()


#: In the page: the endless animations running now, each as [its name, the properties it moves].
ENDLESS = """() => document.getAnimations()
  .filter((a) => a.playState === 'running' && a.effect && a.effect.getTiming().iterations === Infinity)
  .map((a) => [a.animationName || a.id || '?', [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)
    .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p))))]])"""


def endless_look(page: Page, selector: str) -> list[Any]:
    """The endless animations once ``selector`` is on the board (the glow to check is drawn)."""
    page.wait_for_selector(selector)
    page.wait_for_timeout(200)
    found: list[Any] = page.evaluate(ENDLESS)
    return found


def glow_moment(server: Server, browser: Browser, game: str, motion: str) -> tuple[Page, str]:
    """A page of ``game`` at a moment its endless glow is drawn: Sticheln's empty handicap slots
    (the seats still choosing, at the deal), Le Nain Jaune's box waiting to be claimed (a manual
    claim, the human playing until one of its cards is a board card)."""
    if game == "sticheln":
        urls = tb.new_table(server, game, 1, players=3)
        page = tb.open_table(browser, urls[0], reduced_motion=motion)
        return page, ".st-pains .card.slot"
    urls = tb.new_table(server, game, 1, players=3, options={"manual_claim": True})
    page = tb.open_table(browser, urls[0], reduced_motion=motion)
    tb.give_name(page, "Alice")
    for _ in range(60):
        tb.wait_my_turn_or_end(page, 0)
        if page.locator("#board .nj-claim").count() or tb.board(page)["over"] == "true":
            break
        tb.play_one(page)
    return page, "#board .nj-claim"


@pytest.mark.parametrize("game", ["sticheln", "nain-jaune"])
def test_endless_glows_move_only_what_the_compositor_draws(
    server: Server, browser: Browser, game: str
) -> None:
    """Sticheln's waiting handicap slots and Le Nain Jaune's box to claim glow on and on: only an
    opacity or a transform may move (the compositor's work; a border-color and a drop-shadow that
    moved had the page paint again at every frame), and nothing moves on and on for a player who
    asks for less motion."""
    page, selector = glow_moment(server, browser, game, "no-preference")
    try:
        endless = endless_look(page, selector)
        assert endless, "no glow seen"
        assert [(name, props) for name, props in endless if set(props) - {"opacity", "transform"}] == [], (
            endless
        )
    finally:
        page.context.close()
    page, selector = glow_moment(server, browser, game, "reduce")
    try:
        assert endless_look(page, selector) == []
    finally:
        page.context.close()


#: In the page: how many felts and seat plates the board was given (a felt's own plates are
#: counted with it), how many drawings (move counts) it showed, and each ResizeObserver made with
#: the elements it still watches.
FELT_WORK = """(() => {
window.__felts = { felts: 0, seats: 0, drawings: 0 };
let n = null;
new MutationObserver((records) => {
  for (const r of records) for (const node of r.addedNodes) {
    if (!node.classList) continue;
    if (node.classList.contains('felt') && node.closest('#board')) window.__felts.felts++;
    if (node.classList.contains('seat') && node.closest('#board')) window.__felts.seats++;
  }
  const now = document.getElementById('board')?.dataset.n;
  if (now !== undefined && now !== n) { n = now; window.__felts.drawings++; }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-n'] });
const Observer = window.ResizeObserver;
window.__observers = [];
window.ResizeObserver = class extends Observer {
  constructor(cb) { super(cb); this.targets = []; window.__observers.push(this); }
  observe(target, opts) { this.targets.push(target); super.observe(target, opts); }
  unobserve(target) { this.targets = this.targets.filter((t) => t !== target); super.unobserve(target); }
  disconnect() { this.targets = []; super.disconnect(); }
};
})();
"""
#: In the page: the observers still watching something, and those watching only what left the page.
OBSERVERS = """() => ({ live: window.__observers.filter((o) => o.targets.length).length,
  gone: window.__observers.filter((o) => o.targets.length && o.targets.every((t) => !t.isConnected)).length })"""


def test_the_felt_is_kept_and_only_its_changed_plates_drawn_again(server: Server, browser: Browser) -> None:
    """Wizard at 4 seats, four rounds, a dozen moves: the felt on the page is the one first drawn (it was drawn
    anew at every message: every plate, the board and the trick styled, laid out and fitted
    again), a message replacing the plates that changed (whose turn, a bid, a trick won: two or
    so, all of them at a new deal), and no observer of the felt's size is left watching a felt
    that is gone."""
    urls = tb.new_table(server, "wizard", 1, players=4, options={"rounds": 4})
    page = tb.open_table(browser, urls[0], scripts=[FELT_WORK], reduced_motion="reduce")
    try:
        tb.give_name(page, "Alice")
        tb.play_to_the_end(page, 0, stop_after=12)  # of 14: the game (and its replay's felt) not yet there
        page.wait_for_timeout(300)
        assert tb.board(page)["over"] == "false"
        seen = page.evaluate("window.__felts")
        assert seen["drawings"] >= 30, seen
        assert seen["felts"] == 1, seen
        assert seen["seats"] <= 2.5 * seen["drawings"], seen
        assert page.evaluate(OBSERVERS) == {"live": 1, "gone": 0}
    finally:
        page.context.close()


def test_a_felt_gone_from_the_page_is_no_longer_watched(server: Server, browser: Browser) -> None:
    """The replay draws a felt at each step (and the table's own is kept): the felt of a step gone
    from the page has its size observer disconnected (one was left watching each, never freed)."""
    urls = tb.new_table(server, "wizard", 1, players=3)
    page = tb.open_table(browser, urls[0], scripts=[FELT_WORK], reduced_motion="reduce")
    try:
        tb.give_name(page, "Alice")
        tb.play_to_the_end(page, 0)
        page.wait_for_selector("#replay-board .felt")
        page.locator("#overlay .close").click()
        for step in range(4):
            label = page.inner_text("#step-label")
            page.locator("#prev").click()
            page.wait_for_function("l => document.getElementById('step-label').textContent !== l", arg=label)
            page.wait_for_timeout(100)
            assert page.evaluate(OBSERVERS)["gone"] == 0, (step, page.evaluate(OBSERVERS))
        assert page.evaluate(OBSERVERS)["live"] == 2  # the table's felt and the replay's
    finally:
        page.context.close()


def test_le_nain_jaunes_table_restyles_a_few_times_a_message_not_dozens(
    server: Server, browser: Browser
) -> None:
    """Le Nain Jaune's centre changes at every card, so the felt fits it again at every message
    (felt.js fitCentre): measuring each of its up to 90 trials (size, height, arrangement) had the
    browser recalculate the style at each, 15-25 times a message with the page's other reads
    (about 470 ms of main-thread work a message on the shared machine, bench/page_work.py).  Each
    arrangement is now measured once: Chromium's own count of style recalculations (CDP
    Performance.getMetrics) over a dozen moves, cards not in motion: 24.7 a message before, 12.1
    after (the rest: one read of the hand, the felt, the plates each, and the frames)."""
    urls = tb.new_table(server, "nain-jaune", 1, players=3, options={"max_deals": 2})
    page = tb.open_table(browser, urls[0], reduced_motion="reduce")
    try:
        tb.give_name(page, "Alice")
        tb.play_to_the_end(page, 0, stop_after=2)
        page.wait_for_timeout(300)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")

        def count() -> tuple[float, int]:
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            return metrics["RecalcStyleCount"], int(page.eval_on_selector("#board", "b => b.dataset.n"))

        recalcs0, n0 = count()
        tb.play_to_the_end(page, 0, stop_after=12)
        page.wait_for_timeout(300)
        recalcs1, n1 = count()
        per_message = (recalcs1 - recalcs0) / max(1, n1 - n0)
        assert n1 - n0 >= 10, (n0, n1)
        assert per_message < 16, (recalcs1 - recalcs0, n1 - n0)
        assert not page.js_errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


#: In the page: after each change of the board, once its cards have stopped moving, Le Nain
#: Jaune's run as drawn: its narrowest card (px), how often three cards or more were drawn, how
#: deep (px) a run's card, the card-asked-for line or the board lies under a plate or outside the
#: felt, the line over a card, a card over the board, and the board's narrowest width.
RUN_SIZES = """
window.__run = { narrowest: Infinity, seen: 0, onPlate: 0, outside: 0, lineOnCard: 0, onBoard: 0, board: Infinity };
const depth = (a, b) => Math.max(0, Math.min(Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)));
const out = (a, f) => Math.max(0, f.left - a.left, a.right - f.right, f.top - a.top, a.bottom - f.bottom);
const look = () => {
  if (document.getAnimations().some((a) => a.playState === 'running')) return;
  const board = document.querySelector('#board .nj-board');
  if (!board) return;
  const seen = window.__run;
  const felt = document.querySelector('#board .felt').getBoundingClientRect();
  const plates = [...document.querySelectorAll('#board .felt .seat .plate')].map((p) => p.getBoundingClientRect());
  const cards = [...document.querySelectorAll('#board .nj-run-card .card')].map((c) => c.getBoundingClientRect()).filter((r) => r.width);
  const lines = [...document.querySelectorAll('#board .nj-need, #board .nj-sans')].map((c) => c.getBoundingClientRect()).filter((r) => r.width);
  const b = board.getBoundingClientRect();
  if (cards.length >= 3) seen.seen += 1;
  seen.board = Math.min(seen.board, b.width);
  for (const r of [...cards, ...lines, b]) {
    seen.onPlate = Math.max(seen.onPlate, ...plates.map((p) => depth(r, p)));
    seen.outside = Math.max(seen.outside, out(r, felt));
  }
  for (const c of cards) {
    if (c.width < seen.narrowest) {  // (what the run said then, for the failure's message)
      const piece = document.querySelector('#board .centre-piece');
      seen.at = [document.querySelector('#board .nj-run').innerText, piece.className, piece.style.cssText];
    }
    seen.narrowest = Math.min(seen.narrowest, c.width);
    seen.lineOnCard = Math.max(seen.lineOnCard, ...lines.map((l) => depth(l, c)));
    seen.onBoard = Math.max(seen.onBoard, depth(c, b));
  }
};
new MutationObserver(() => setTimeout(look, 50)).observe(document, { subtree: true, childList: true });
"""


@pytest.mark.parametrize("players", [4, 6])
def test_le_nain_jaunes_run_on_a_phone_is_readable(server: Server, browser: Browser, players: int) -> None:
    """Le Nain Jaune on the 360 px phone in French (four seats: the gallery's table; six): the
    run's cards at least 40 px wide, rank and suit readable (they were drawn 22-29 px wide, in a
    column under the board), under no plate, inside the felt, the card-asked-for line over none
    of them and none over the board, itself as wide as it was (120 px and more)."""
    page = watched_game(server, browser, "nain-jaune", players, RUN_SIZES, "fr-FR", PHONE, moves=8)
    try:
        screenshot(page, f"look-nain-jaune-run-{players}-phone-fr.png")
        seen = page.evaluate("window.__run")
        assert seen["seen"] >= 3, seen  # the run was looked at, three cards and more in it
        assert seen["narrowest"] >= 40, (seen["narrowest"], seen.get("at"))
        assert seen["board"] >= 120, seen
        assert seen["onPlate"] <= 3, seen  # (fitCentre lets a box touch a plate by 2 px)
        assert seen["outside"] <= 1, seen
        assert seen["lineOnCard"] <= 1, seen
        assert seen["onBoard"] <= 1, seen
    finally:
        page.context.close()


#: The phone's settings, typed for a new context of Playwright's (PHONE is a plain dict of objects).
PHONE_KW: dict[str, Any] = dict(PHONE)
#: In the page: each endless animation of the coach's glow (a part pointed at, or its ring).
COACH_GLOWS = """() => document.getAnimations()
  .filter((a) => a.effect && a.effect.target && a.effect.target.closest('.coach-target'))
  .map((a) => [a.animationName || '?', a.effect.pseudoElement, a.playState])"""


@pytest.mark.parametrize("game", ["wizard", "nain-jaune"])
def test_the_lessons_glow_moves_only_what_the_compositor_draws(
    server: Server, browser: Browser, game: str
) -> None:
    """A lesson (/learn/<game>) shows where to click by a glow that goes on and on: only an
    opacity or a transform may move (the outline's colour and offset moved, and the page was
    painted again at every frame while the lesson was open), and nothing moves on and on for a
    player who asks for less motion (the steady ring stays: the part is still shown).  Le Nain
    Jaune's lesson points at its board, a drawing (an SVG, which has no ring of its own)."""
    for motion in ("no-preference", "reduce"):
        page = browser.new_context(locale="en-US", reduced_motion=motion, **PHONE_KW).new_page()
        context = page.context
        try:
            page.goto(f"{server.url}/learn/{game}")
            endless = endless_look(page, ".coach-target")
            assert page.eval_on_selector(".coach-target", "n => getComputedStyle(n).outlineStyle") == "solid"
            if motion == "reduce":
                assert endless == [], endless
                continue
            glows = page.evaluate(COACH_GLOWS)
            assert [g for g in glows if g[2] == "running"], glows  # the glow was seen moving
            assert [
                (name, props) for name, props in endless if set(props) - {"opacity", "transform"}
            ] == [], endless
        finally:
            context.close()


def gallery_script() -> ModuleType:
    """scripts/gallery.py as a module (scripts/ is not a package: it is run as a script)."""
    spec = importlib.util.spec_from_file_location(
        "gallery", Path(__file__).resolve().parents[2] / "scripts" / "gallery.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: A page with a card in flight for 1.5 s (to 200 px on its right) and a glow that never ends.
IN_FLIGHT_PAGE = """<body style="margin: 0"><div id="card" style="width: 40px; height: 56px; background: #222"></div>
<div id="glow" style="width: 10px; height: 10px; background: gold"></div><script>
document.getElementById('card').animate([{ transform: 'none' }, { transform: 'translateX(200px)' }], { duration: 1500, fill: 'forwards' });
document.getElementById('glow').animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: 700, iterations: Infinity });
</script></body>"""
#: In the page: the card's left edge and how many animations that end are still running.
SHOT_AT = """() => [document.getElementById('card').getBoundingClientRect().left, document.getAnimations()
  .filter((a) => a.playState === 'running' && a.effect.getComputedTiming().iterations !== Infinity).length]"""


class ShotWatched:
    """A page whose screenshots note, as they are taken, where the card is and what still moves."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def screenshot(self, **kw: Any) -> bytes:
        self.seen.append(self.page.evaluate(SHOT_AT))
        return self.page.screenshot(**kw)


def test_the_gallery_shoots_a_moment_once_its_cards_have_landed(browser: Browser, tmp_path: Path) -> None:
    """scripts/gallery.py shot each moment after a fixed pause (450 ms, 300 for the third trick):
    on the busy machine its "3-trick" caught the last card still flying, small and off its place.
    It now waits until every animation that ends has ended (one that never ends, a glow, is not
    waited for), so a card flying for 1.5 s is shot where it lands."""
    gallery = gallery_script()
    context = browser.new_context()
    try:
        page = ShotWatched(context.new_page())
        page.set_content(IN_FLIGHT_PAGE)
        gallery.shoot(page, tmp_path, "test", "3-trick", set())
        assert (tmp_path / "test-3-trick.png").exists()
        assert page.seen == [[200, 0]], page.seen
    finally:
        context.close()


#: In the page: the line under the felt, as [its text, whether it is cut, its height / its line's].
WHY_SEEN = """() => { const w = document.querySelector('#board .trick-why');
  return w && [w.textContent, w.scrollWidth > w.clientWidth, w.clientHeight / parseFloat(getComputedStyle(w).lineHeight)]; }"""


def test_a_phone_shows_the_line_under_the_felt_whole_when_tapped(server: Server, browser: Browser) -> None:
    """On the 360 px phone the line saying why the crowned card wins is one line, cut ("…la plus
    fo…") to keep the hand in view, its whole text in a title no finger can hover: a tap shows it
    whole (on two lines or three), and so it stays at the next trick's lines, until tapped again."""
    urls = tb.new_table(server, "wizard", 1, players=4, options={"rounds": 4})
    page = tb.open_table(browser, urls[0], "fr-FR", reduced_motion="reduce", **PHONE_KW)
    try:
        tb.give_name(page, "Alice")
        cut = None
        for _ in range(tb.MAX_MOVES):
            tb.wait_my_turn_or_end(page, 0)
            assert tb.board(page)["over"] == "false", "no line cut in the whole game"
            seen = page.evaluate(WHY_SEEN)
            if seen and seen[1]:
                cut = seen
                break
            tb.play_one(page)
        assert cut is not None
        page.locator("#board .trick-why").click()
        text, still_cut, lines = page.evaluate(WHY_SEEN)
        assert (text, still_cut) == (cut[0], False) and 1.5 < lines < 3.5, (text, still_cut, lines)
        for _ in range(tb.MAX_MOVES):  # the next line drawn is whole too
            tb.play_one(page)
            tb.wait_my_turn_or_end(page, 0)
            assert tb.board(page)["over"] == "false"
            seen = page.evaluate(WHY_SEEN)
            if seen and seen[0] != text:
                assert seen[1] is False, seen
                break
        page.locator("#board .trick-why").click()  # tapped again: one line, cut if long
        assert page.evaluate(WHY_SEEN)[2] < 1.5
    finally:
        page.context.close()


#: Tables whose plates a laptop draws (game, seats, language): the four games, three to six seats,
#: English, French ("ROBOT") and German; the dealer's mark on the last seat, a bot of a long name.
LONG_NAMED = [("wizard", 3, "de"), ("malin", 6, "fr"), ("sticheln", 4, "en"), ("nain-jaune", 5, "fr")]
#: Names of six to eight letters (and the viewer's), as a bot's or a friend's; the dealer is "Clémence".
LONG_NAMES = ["Alice", "Fernando", "Gaëlle", "Benedikt", "Rosalind"]


def test_a_laptop_shows_every_name_of_six_to_eight_letters_whole(server: Server, browser: Browser) -> None:
    """On a laptop a name of six to eight letters is whole on its plate beside the bot's mark
    ("ROBOT" in French), the dealer's mark and the score, in the four games at three to six seats:
    "Clémen…" and "Dmi…" were cut with the felt empty around the plate.  The plates keep their
    width (wider, they met Le Malin's German hint line): the marks go under a name they would cut.
    One context a language, a table after another in its page."""
    contexts: dict[str, Any] = {}
    try:
        for game, players, lang in LONG_NAMED:
            names = [*LONG_NAMES[: players - 1], "Clémence"]
            specs = {s.name for s in game_class(game).option_specs}
            options = {
                **short_options(game),
                **({"first_dealer": players - 1} if "first_dealer" in specs else {}),
            }
            seats = [{"name": names[0]}] + [{"name": name, "bot": "random"} for name in names[1:]]
            r = httpx.post(
                f"{server.url}/api/tables",
                json={"game": game, "players": players, "options": options, "seats": seats},
            )
            assert r.status_code == 200, r.text
            if lang not in contexts:
                contexts[lang] = browser.new_context(
                    locale=f"{lang}-{lang.upper()}", viewport={"width": 1280, "height": 800}
                )
                contexts[lang].new_page().set_default_timeout(20_000)
            page = contexts[lang].pages[0]
            page.goto(r.json()["seats"][0]["url"])
            page.locator("#name-ask button[type=submit]").click()
            page.wait_for_selector("#board .felt .seat .dealer")
            page.wait_for_timeout(200)
            seen = page.evaluate(NAMES_CUT)
            assert sorted(name for name, _ in seen) == sorted(names), (game, seen)
            assert [name for name, cut in seen if cut] == [], (game, players, lang, seen)
        screenshot(page, "look-laptop-long-names.png")
    finally:
        for context in contexts.values():
            context.close()


#: In the page: after each change of the board, once its cards have stopped moving, for each whole
#: trick (as many cards as seats): its narrowest card (px), how far a card lies from its player's
#: plate at most, how deep a card lies over any plate and over another card (px).
WHOLE_TRICKS = """
window.__whole = { tricks: 0, narrowest: Infinity, farthest: 0, onPlate: 0, onCard: 0 };
const depth = (a, b) => Math.max(0, Math.min(Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)));
const apart = (a, b) => Math.max(0, Math.max(a.left, b.left) - Math.min(a.right, b.right), Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom));
const look = () => {
  if (document.getAnimations().some((a) => a.playState === 'running')) return;
  const seats = [...document.querySelectorAll('#board .felt .seat')];
  const played = [...document.querySelectorAll('#board .trick .played')];
  if (!seats.length || played.length < seats.length) return;
  const seen = window.__whole;
  const plate = (s) => document.querySelector(`#board .felt .seat[data-seat="${s}"] .plate`).getBoundingClientRect();
  const plates = seats.map((s) => s.querySelector('.plate').getBoundingClientRect());
  const cards = played.map((p) => [p.dataset.seat, p.querySelector('.card').getBoundingClientRect()]);
  seen.tricks += 1;
  cards.forEach(([s, c], i) => {
    seen.narrowest = Math.min(seen.narrowest, c.width);
    seen.farthest = Math.max(seen.farthest, apart(c, plate(s)));
    seen.onPlate = Math.max(seen.onPlate, ...plates.map((r) => depth(c, r)));
    seen.onCard = Math.max(seen.onCard, ...cards.filter((_, j) => j !== i).map(([, d]) => depth(c, d)));
  });
};
new MutationObserver(() => setTimeout(look, 50)).observe(document, { subtree: true, childList: true });
"""


def test_wizards_trick_on_a_phone_lies_by_its_players(server: Server, browser: Browser) -> None:
    """Wizard at 4 seats on the 360 px phone in French: a whole trick's cards at least 52 px wide
    (41 to 50 before), each within 12 px of its player's plate (21 px before: they sat in a
    cluster in the middle, the felt empty between them and the seats), none over a plate or
    over another card: the trick reads as Board Game Arena's."""
    page = watched_game(server, browser, "wizard", 4, WHOLE_TRICKS, "fr-FR", PHONE, {"rounds": 2}, moves=4)
    try:
        screenshot(page, "look-wizard-trick-phone-fr.png")
        seen = page.evaluate("window.__whole")
        assert seen["tricks"] >= 1, seen
        assert seen["narrowest"] >= 52, seen
        assert seen["farthest"] <= 12, seen
        assert seen["onPlate"] <= 3, seen  # (fitTrick lets a card touch a plate by 2 px)
        assert seen["onCard"] <= 3, seen
    finally:
        page.context.close()


#: In the page: each seat's name as [its text, whether it is cut] and each plate's box as [left,
#: top, right, bottom].
PLATES = """() => ({
  names: [...document.querySelectorAll('#board .felt .seat .name')].map((n) => [n.textContent, n.scrollWidth > n.clientWidth]),
  plates: [...document.querySelectorAll('#board .felt .seat .plate')].map((p) => { const r = p.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }) })"""


def meet(a: list[float], b: list[float]) -> float:
    """The area two boxes ([left, top, right, bottom]) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


#: In the page: each Malheur chip's lines (the card; whose seat; Le Malin's second seat), each as
#: [its text, whether it is cut], and the button's accessible name.
CHIP_LINES = """() => [...document.querySelectorAll('#board .moves .group-malheur button')].map((b) => [b.getAttribute('aria-label'),
  [...b.querySelectorAll('.mal-short > *')].map((p) => [p.textContent, p.scrollWidth > p.clientWidth])])"""


def test_le_malins_chips_at_six_seats_on_a_phone_show_whole_names(server: Server, browser: Browser) -> None:
    """Le Malin at 6 seats on the 360 px phone in French, names of eight to eleven letters: the
    first Malheur window's fifteen chips (Le Malin on one or two of the five others) show each
    name whole ("Alexandri…", "+ Barthol…" were cut, and two names cut alike told no one apart),
    the button's accessible name the whole sentence, every chip and card in the window; and the
    seats' plates show those names whole, clear of one another."""
    names = ["Zoé", "Bernadette", "Bartholomé", "Alexandrine", "Maximilian", "Bertrand"]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "malin",
            "players": 6,
            "options": {**short_options("malin"), "fun": True},
            "seats": [{"name": names[0]}] + [{"name": name, "bot": "random"} for name in names[1:]],
        },
    )
    assert r.status_code == 200, r.text
    page = tb.open_table(browser, r.json()["seats"][0]["url"], "fr-FR", reduced_motion="reduce", **PHONE_KW)
    try:
        tb.give_name(page, names[0])
        page.wait_for_selector("#board .moves .group-malheur button")
        page.wait_for_timeout(300)
        chips = page.evaluate(CHIP_LINES)
        plates = page.evaluate(PLATES)
        screenshot(page, "look-malin-chips-six-seats-phone-fr.png")
        assert len(chips) == 15, chips
        # The plates' names whole at this size too ("Alexandr…", "Bartholo…", "Bernadet…" were
        # cut, 84 to 87 px in 75), the plates clear of one another (the name's smaller step leaves
        # them their size: test_le_malins_trick_at_six_seats_on_a_phone_is_readable keeps the
        # trick's cards off them).
        assert [name for name, cut in plates["names"] if cut] == [], plates
        boxes = plates["plates"]
        assert [(a, b) for a in boxes for b in boxes if a < b and meet(a, b) > 4] == [], plates
        for label, lines in chips:
            shown = [text.replace("+\u2009", "") for text, _ in lines[1:]]
            assert all(name in label for name in shown), (label, lines)  # the whole sentence
            assert [text for text, cut in lines if cut] == [], (label, lines)
        seen = page.evaluate(BOXES)
        assert outside(seen) == [], seen
    finally:
        page.context.close()
