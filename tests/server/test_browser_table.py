"""The table as a new player meets it (issue 29), in real Chromium: every game played to its
end on a 1280×800 laptop in French and a 360×740 phone in English (an 8-player Sticheln table
on both), checking what the issue found wrong, at every turn of the player:

- no seat plate over a trick card (the winning one and its crown included), and the cards of
  a big trick clear of each other (items 2 and 5);
- the hand in view without scrolling (item 3);
- a name cut only when its plate is as wide as it may be (item 7);
- the bar on one line, each tool inside the window, the sound button on one line (item 10);
- a round's summary staying until read, Le Nain Jaune's explaining the tokens already staked
  (item 4); the final ranking's buttons inside the window and its box (item 1);
- on the phone a refusal in the prompt's line, not over the felt (item 9);
- the invite link asking the player's name (item 13); the rules one click away and the
  keyboard's help in view on the laptop ("help at the table");
- the words: "Winner:" for one, "Move 50 of 56" in the replay (item 11).

Same set-up as test_browser.py (Debian's chromium, ``atout serve`` in a subprocess).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from atout.core.registry import game_class

from .conftest import Server, game_names, short_options
from .test_browser import FAST_CARDS, MAX_MOVES, board, play_one, wait_my_turn_or_end
from .test_browser import browser as browser  # the fixture, re-exported

LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NAMES = ["Alice", "Robotine", "Amélie", "Bartholomé", "Eve", "Farid", "Gaëlle", "Hugo"]

#: In the page: whatever the issue found wrong with the table as it is drawn now.  Collected
#: after every change of the board once its cards have stopped moving (a card in flight, or a
#: trick being gathered, passes over plates on purpose).
WATCH = """
window.__bad = [];
window.__summaries = [];
const inter = (a, b, m = 2) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > m && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > m;
const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
window.__check = () => {
  const bad = [];
  const played = [...document.querySelectorAll('#board .trick .played')];
  if (played.some((p) => p.getAnimations({ subtree: true }).length)) return bad;
  const plates = [...document.querySelectorAll('#board .felt .seat')].map((s) => [s.dataset.seat, s.querySelector('.plate').getBoundingClientRect()]);
  const cards = played.map((p) => [p.dataset.seat, p.querySelector('.card').getBoundingClientRect(), p.querySelector('.crown')]);
  for (const [seat, r, crown] of cards) {
    for (const [ps, pr] of plates) if (inter(r, pr)) bad.push(`plate ${ps} over the card of seat ${seat}`);
    if (crown) for (const [ps, pr] of plates) if (inter(crown.getBoundingClientRect(), pr)) bad.push(`plate ${ps} over the crown of seat ${seat}`);
  }
  for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) {
    const a = cards[i][1], b = cards[j][1];
    if (area(a, b) > 0.25 * a.width * a.height) bad.push(`cards of seats ${cards[i][0]} and ${cards[j][0]} overlap`);
  }
  for (const n of document.querySelectorAll('#board .seat .name')) {
    const plate = n.closest('.plate');
    const max = parseFloat(getComputedStyle(plate).maxWidth);
    if (n.scrollWidth > n.clientWidth + 1 && plate.getBoundingClientRect().width < max - 2) bad.push(`name ${n.textContent} cut in a plate with room`);
  }
  return bad;
};
let timer = null;
new MutationObserver(() => {
  clearTimeout(timer);
  timer = setTimeout(() => { for (const b of window.__check()) if (!window.__bad.includes(b)) window.__bad.push(b); }, 450);
  const box = document.getElementById('overlay');
  const open = box && !box.hidden && box.dataset.kind === 'summary';
  const last = window.__summaries[window.__summaries.length - 1];
  if (open && (!last || last.closed)) window.__summaries.push({ since: performance.now(), closed: null });
  if (!open && last && !last.closed) last.closed = performance.now() - last.since;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-kind'] });
"""

#: True once no summary is up, or the last one has been up for 3 s (what item 4 promises).
READ_SUMMARY = """() => {
  const o = document.getElementById('overlay');
  if (o.hidden || o.dataset.kind !== 'summary') return true;
  const last = window.__summaries[window.__summaries.length - 1];
  return !!last && performance.now() - last.since > 3000;
}"""

#: The bar and the hand, measured as the player sees them (the window's coordinates).
FRAME = """() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, height: b.height }; };
  const shown = (e) => e.offsetParent !== null;
  const hand = document.querySelector('#board .hand');
  return {
    vw: innerWidth, vh: innerHeight, scroll: scrollY,
    bar: r(document.querySelector('header.bar')),
    tools: [...document.querySelectorAll('header.bar .tool, header.bar .langs button, header.bar .status')].filter(shown).map((e) => ({ id: e.id || e.className, ...r(e) })),
    last: r(document.getElementById('btn-last')), sound: r(document.getElementById('btn-sound')),
    status: (({ scrollWidth, clientWidth, textContent }) => ({ scrollWidth, clientWidth, text: textContent }))(document.getElementById('status')),
    hand: hand && hand.children.length ? { bottom: hand.getBoundingClientRect().bottom + scrollY } : null,
  };
}"""


def check_frame(page: Page, where: str) -> None:
    f = page.evaluate(FRAME)
    for tool in f["tools"]:
        assert tool["left"] >= 0 and tool["right"] <= f["vw"] + 0.5, (where, "outside the window", tool)
        assert tool["top"] >= f["bar"]["top"] - 0.5 and tool["bottom"] <= f["bar"]["bottom"] + 0.5, (
            where,
            tool,
        )
    assert f["bar"]["height"] <= 56, (where, "the bar wraps", f["bar"])
    assert f["sound"]["height"] <= f["last"]["height"] + 1 or f["last"]["height"] == 0, (
        where,
        "sound on two lines",
        f,
    )
    status = f["status"]
    if len(status["text"]) <= 16:  # "On attend Dmitri", "Partie terminée": whole, even on a phone
        assert status["scrollWidth"] <= status["clientWidth"] + 1, (where, "the status is cut", status)
    if f["hand"] is not None:
        assert f["hand"]["bottom"] <= f["vh"] + 1, (where, "the hand is below the fold", f)


def new_table(server: Server, game: str, players: int, options: dict[str, Any]) -> str:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": game,
            "players": players,
            "options": options,
            "seats": [{"name": NAMES[i], "bot": None if i == 0 else "random"} for i in range(players)],
        },
    )
    assert r.status_code == 200, r.text
    url: str = r.json()["seats"][0]["url"]
    return url


def options_for(game: str) -> dict[str, Any]:
    """Short games, Le Malin with its Malheur cards, two deals of Le Nain Jaune (for a summary)."""
    specs = {s.name for s in game_class(game).option_specs}
    extra = {"fun": True, "max_deals": 2}
    return {**short_options(game), **{k: v for k, v in extra.items() if k in specs}}


#: Every game on one device at least, both devices where the issue found a defect on each
#: (Wizard's header, Le Malin's hand and plates); the 8-player trick on the phone, the tighter
#: of the two.  (Each case is a whole game in Chromium: about a minute; the suite's budget.)
CASES = [
    ("wizard", 4, "laptop", "fr"),
    ("wizard", 4, "phone", "en"),
    ("malin", 4, "laptop", "fr"),
    ("malin", 4, "phone", "en"),
    ("sticheln", 4, "laptop", "fr"),
    ("nain-jaune", 4, "phone", "en"),
    ("sticheln", 8, "phone", "fr"),
]


def test_the_cases_cover_every_game() -> None:
    assert {game for game, *_ in CASES} == set(game_names())


@pytest.mark.parametrize(("game", "players", "device", "lang"), CASES)
def test_a_new_player_meets_no_defect_of_issue_29(
    server: Server, browser: Browser, game: str, players: int, device: str, lang: str
) -> None:
    cls = game_class(game)
    players = max(cls.min_players, min(cls.max_players, players))
    url = new_table(server, game, players, options_for(game))
    context = browser.new_context(
        locale="fr-FR" if lang == "fr" else "en-US", **(LAPTOP if device == "laptop" else PHONE)
    )
    context.add_init_script(FAST_CARDS)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(url)
        page.wait_for_selector("#board[data-n]")
        # Item 13: the invite link asks the player's name, offering the seat's.
        page.wait_for_selector("#name-ask")
        assert page.input_value("#name-ask-input") == "Alice"
        page.fill("#name-ask-input", "Zoé")
        page.click("#name-ask button[type=submit]")
        page.wait_for_function(
            "() => document.querySelector(\".seat[data-seat='0'] .name\").textContent === 'Zoé'"
        )
        assert page.locator("#name-ask").count() == 0
        # Help at the table: the rules one click away, the keyboard's help in view on a laptop.
        rules = page.get_attribute("#btn-rules", "href")
        assert rules == f"/rules/{game}" and page.get_attribute("#btn-rules", "target") == "_blank"
        assert page.locator("#btn-rules").is_visible()
        page_rules = httpx.get(server.url + rules, headers={"Accept-Language": lang})
        assert page_rules.status_code == 200 and f'lang="{lang}"' in page_rules.text
        assert page.locator("#keys-line").is_visible() == (device == "laptop")
        keys = page.text_content("#keys-line") or ""
        assert keys.startswith("Clavier" if lang == "fr" else "Keyboard")
        assert ("dernier pli" in keys or "last trick" in keys) == (game != "nain-jaune"), (
            keys
        )  # no tricks there
        refused = False
        for moves in range(MAX_MOVES):
            wait_my_turn_or_end(page, 0)
            check_frame(page, f"move {moves}")
            if board(page)["over"] == "true":
                break
            illegal = page.locator("#board button.card.illegal")
            # A player reads a round's summary before playing on (a click outside it closes it:
            # that is the player's choice, not the table taking it away).
            page.wait_for_function(READ_SUMMARY)
            summary_open = page.evaluate(
                "() => { const o = document.getElementById('overlay'); return !o.hidden && o.dataset.kind === 'summary'; }"
            )
            # (Not while a summary is up: a click outside it is the player closing it, which item 4 allows.)
            if device == "phone" and not refused and illegal.count() and not summary_open:
                # Item 9: a refusal on a phone takes the prompt's line, under the felt.
                n = board(page)["n"]
                illegal.first.click(position={"x": 8, "y": 24})
                page.wait_for_selector("#prompt.refusal")
                assert page.inner_text("#notice") == ""
                felt = page.locator("#board .felt").bounding_box()
                said = page.locator("#prompt.refusal").bounding_box()
                assert felt and said and said["y"] >= felt["y"] + felt["height"] - 1, (felt, said)
                assert page.inner_text("#prompt").startswith("Refused")
                assert board(page)["n"] == n
                refused = True
            play_one(page)
        assert board(page)["over"] == "true"
        page.wait_for_timeout(500)
        assert page.evaluate("window.__bad") == []
        # Item 4: each round's summary stayed until read (3 s at the fast card speed, unless closed).
        for summary in page.evaluate("window.__summaries"):
            assert summary["closed"] is None or summary["closed"] >= 2800, summary
        # Item 1: the final ranking's buttons are inside the window and inside their box.
        page.wait_for_selector("#overlay[data-kind=final]:not([hidden])")
        frame = page.evaluate(FRAME)
        card = page.locator("#overlay .overlay-card").bounding_box()
        assert card is not None
        buttons = page.locator("#overlay .final-actions button")
        assert buttons.count() == 3
        for i in range(buttons.count()):
            b = buttons.nth(i).bounding_box()
            assert b is not None
            assert b["x"] >= 0 and b["x"] + b["width"] <= frame["vw"], b
            assert b["y"] >= 0 and b["y"] + b["height"] <= frame["vh"], b
            assert card["y"] <= b["y"] and b["y"] + b["height"] <= card["y"] + card["height"], (b, card)
        check_frame(page, "game over")
        status = page.inner_text("#status")
        winners = len(page.evaluate("() => [...document.querySelectorAll('ol.ranking li.winner')]"))
        if device == "laptop":
            word = {
                ("fr", 1): "Vainqueur :",
                ("fr", 2): "Vainqueurs :",
                ("en", 1): "Winner:",
                ("en", 2): "Winners:",
            }
            assert word[(lang, min(winners, 2))] in status, status
        assert "(s)" not in status
        # Item 11: the replay counts moves ("Move 50 of 56").
        page.locator("#overlay .close").click()
        page.click("#prev")
        page.wait_for_function("() => document.getElementById('step-label').textContent.length > 0")
        label = page.inner_text("#step-label")
        assert label.startswith("Coup " if lang == "fr" else "Move "), label
        assert errors == []
    finally:
        context.close()


def test_le_nain_jaune_s_summary_stays_and_agrees_with_the_seats(server: Server, browser: Browser) -> None:
    """Item 4: the end-of-deal summary vanished at the next bot card (under 1 s), and its totals
    disagreed with the seats' tokens (the next deal's stakes already paid): it now holds the
    table for a while, and says what was staked, so that total − stake = the seat's tokens."""
    url = new_table(server, "nain-jaune", 3, {"max_deals": 3})
    context = browser.new_context(locale="en-US", **LAPTOP)  # the normal card speed: 6 s
    context.add_init_script(WATCH)
    context.add_init_script(
        "try { localStorage.setItem('atout.named.' + location.pathname.split('/').pop() + '.0', '1'); } catch (e) {}"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(url)
        page.wait_for_selector("#board[data-n]")
        for _ in range(MAX_MOVES):
            page.wait_for_function(
                "() => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === '0' || !document.getElementById('overlay').hidden; }"
            )
            if page.locator("#overlay[data-kind=summary]:not([hidden])").count():
                break
            if board(page)["over"] == "true":
                pytest.fail("the game ended before a deal's summary")
            if board(page)["toAct"] == "0":
                play_one(page)
        page.wait_for_selector("#overlay[data-kind=summary]:not([hidden])")
        note = page.inner_text("#overlay .summary-note")
        stake = int(re.search(r"already put (\d+) tokens?", note).group(1))  # type: ignore[union-attr]
        totals = page.eval_on_selector_all(
            "#overlay table.summary td.total", "ts => ts.map((t) => Number(t.textContent))"
        )
        scores = page.eval_on_selector_all(
            "#board .seat .score", "ss => ss.map((s) => Number(s.textContent))"
        )
        assert [t - stake for t in totals] == scores, (totals, stake, scores, note)
        # The bots play on at the server (0.05 s a move); the summary stays to be read.
        page.wait_for_timeout(5000)
        assert page.locator("#overlay[data-kind=summary]:not([hidden])").count() == 1
    finally:
        context.close()
