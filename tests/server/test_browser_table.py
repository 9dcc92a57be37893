"""Whole games in real Chromium, every check on the one game played: every game played to its
end on a 1280×800 laptop and on a 360×740 phone, in French on one and German on the other (an
8-player Sticheln table on the phone).  A whole game costs the suite's budget most, so each one
carries everything a whole game can show: the table as a new player meets it (issue 29), no
English word left in the reader's language (issue 30), the phone's layout (no sideways scroll,
cards large enough to tap, every word inside its button or plate), and at the end the review
of the game (issue 29).  At every turn of the player:

- no seat plate over a trick card (the winning one and its crown included), and the cards of
  a big trick clear of each other (items 2 and 5); none over a card or the board of Le Nain
  Jaune's centre piece, nor outside the window, on the laptop at narrower widths too (900, 800
  and 700 px) and in the replay beside the review, where nothing of the table lies under the
  panel;
- the hand in view without scrolling (item 3);
- a name cut only when its plate is as wide as it may be (item 7);
- the bar on one line, each tool inside the window, the sound button on one line (item 10);
- a round's summary staying until read, Le Nain Jaune's explaining the tokens already staked
  (item 4); the final ranking's buttons inside the window and its box (item 1);
- on the phone a refusal in the prompt's line, not over the felt (item 9);
- the invite link asking the player's name (item 13); the rules one click away and the
  keyboard's help in view on the laptop ("help at the table");
- the words: "Winner:" for one, "Move 50 of 56" in the replay (item 11);
- no English word on the page (the words of the English dictionaries that the reader's do not
  use, computed from the files), the refusal included, then in the final ranking, the score
  sheet, the replay, the review, the home page.

The pages ask for reduced motion (a setting players have, which the table honours): cards do
not fly, so a game takes half the time, and nothing is measured in flight.  The animated table
has its own whole game (test_browser.py, in English).  The deals come from the server's fixed
seed (``--deal-seed``), so a failure replays with the same cards.  A game's two cases (laptop
and phone) are played at once by one test, in turns (conftest.play_together), each on a server of
its own (its deals as before): the games mostly wait for the bots and the holds, and wait together
(the 8 games: 140 s of wall instead of 332 s one after another, on the loaded machine).

Same set-up as test_browser.py (Debian's chromium, ``atout serve`` in a subprocess).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from atout.core.registry import game_class

from .conftest import Server, game_names, play_together, screenshot, short_options
from .test_browser import (
    FAST_CARDS,
    FAST_SUMMARY_MS,
    I18N,
    LAYOUT,
    MAX_MOVES,
    MY_TURN_OR_END,
    TRANSLATIONS,
    TURN_STATE,
    VISIBLE_TEXT,
    assert_text_translated,
    assert_translated,
    board,
    english_only_words,
    play_one,
    refusal_prefix,
    review_on_page,
    wait_then_read,
)

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
// A felt's centre piece (Le Nain Jaune's board and run) clear of the plates, the plates inside
// the window, and beside a panel (the review beside the replay) nothing of the table under it.
window.__clear = (root, panel) => {
  const bad = [];
  const felt = document.querySelector(`${root} .felt`);
  if (!felt) return bad;
  const piece = felt.querySelector('.centre-piece');
  if (piece && piece.getAnimations({ subtree: true }).length) return bad;
  const shown = (r) => r.width > 1 && r.height > 1;
  const plates = [...felt.querySelectorAll('.seat')].map((s) => [s.dataset.seat, s.querySelector('.plate').getBoundingClientRect()]);
  const parts = piece ? [...piece.querySelectorAll('svg:not(svg svg), .card')].map((c) => [c.dataset.card || 'drawing', c.getBoundingClientRect()]).filter(([, r]) => shown(r)) : [];
  for (const [ps, pr] of plates) {
    for (const [what, r] of parts) if (inter(r, pr)) bad.push(`plate ${ps} over the centre's ${what}`);
    if (pr.left < -0.5 || pr.right > innerWidth + 0.5) bad.push(`plate ${ps} outside the window`);
  }
  const box = panel && document.querySelector(panel);
  if (box && !box.hidden) {
    const side = box.getBoundingClientRect();
    const hand = [...document.querySelectorAll(`${root} .hand .card`)].map((c) => [`hand card ${c.dataset.card}`, c.getBoundingClientRect()]);
    for (const [what, r] of [...plates.map(([s, r]) => [`plate ${s}`, r]), ...parts, ...hand]) {
      if (inter(r, side)) bad.push(`${what} under ${panel}`);
      if (r.left < document.querySelector(root).getBoundingClientRect().left - 0.5) bad.push(`${what} out of ${root} on the left`);
    }
  }
  return bad;
};
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
  bad.push(...window.__clear('#board'));
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
  // Checked as painted: two frames on, the felt's refit for a new size (its ResizeObserver,
  // called before a frame is painted) is done.  A loaded machine may run this timer before it.
  timer = setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
    for (const b of window.__check()) if (!window.__bad.includes(b)) window.__bad.push(b);
  })), 450);
  const box = document.getElementById('overlay');
  const open = box && !box.hidden && box.dataset.kind === 'summary';
  const last = window.__summaries[window.__summaries.length - 1];
  if (open && (!last || last.closed)) window.__summaries.push({ since: performance.now(), closed: null });
  if (!open && last && !last.closed) last.closed = performance.now() - last.since;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-kind'] });
"""

#: True once no summary is up, or the last one has been up for its hold (what item 4 promises).
READ_SUMMARY = """() => {
  const o = document.getElementById('overlay');
  if (o.hidden || o.dataset.kind !== 'summary') return true;
  const last = window.__summaries[window.__summaries.length - 1];
  return !!last && performance.now() - last.since > @HOLD@;
}""".replace("@HOLD@", str(FAST_SUMMARY_MS))

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
    check_frame_seen(page.evaluate(FRAME), where)


def check_frame_seen(f: dict[str, Any], where: str) -> None:
    """:func:`check_frame`'s checks of ``f``, the page's :data:`FRAME` (read with other things)."""
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


#: The size the felt's centre piece is drawn at (felt.js fitCentre), 1 without one.
CENTRE_SCALE = "() => { const p = document.querySelector('#board .centre-piece'); return Number(p && p.style.getPropertyValue('--centre-scale') || 1); }"

#: What the hint line covers of the table (none: the line sits where nothing is drawn), as
#: "class@x,y" of every card, plate, fact, move button or centre piece its box meets.
HINT_COVERS = """() => {
  const bar = document.getElementById('hint');
  if (!bar || bar.hidden) return [];
  window.scrollTo(0, 0);  // as a laptop's player first sees the table (a sticky line once sat on the hand)
  const b = bar.getBoundingClientRect();
  const under = '#board .hand .card, #board .plate, #board .felt-info > *, #board button.action, '
    + '#board .played, #board .centre-piece, #board .prompt';
  return [...document.querySelectorAll(under)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left < b.right - 1 && b.left < r.right - 1 && r.top < b.bottom - 1 && b.top < r.bottom - 1;
  }).map((e) => `${e.className}@${Math.round(e.getBoundingClientRect().x)},${Math.round(e.getBoundingClientRect().y)}`);
}"""

#: Narrower windows than a laptop's (a small laptop, a tablet): Le Nain Jaune's run slid under
#: the right seat's plate below about 700 px of felt (issue 29).
NARROWER = (900, 800, 700)


#: In the page: once the window is ``width`` wide (or 100 frames on), two frames more: the felt
#: refitted for it (its ResizeObserver and the page's resize handler run before the frame is
#: painted).  A fixed 300 ms stood for this.
RESIZE_DONE = """width => new Promise((done) => {
  let frames = 0;
  const wait = () => innerWidth === width || ++frames > 100 ? requestAnimationFrame(() => requestAnimationFrame(done)) : requestAnimationFrame(wait);
  wait();
})"""
#: In the page, once RESIZE_DONE: WATCH's checks, HINT_COVERS and FRAME, in that order.
RESIZED = f"""async (width) => {{
  await ({RESIZE_DONE})(width);
  return {{ bad: window.__check(), covers: ({HINT_COVERS})(), frame: ({FRAME})() }};
}}"""


def check_narrower(page: Page, where: str) -> None:
    """The table at each of the NARROWER widths: no plate over a trick card, the centre piece or
    outside the window (the WATCH checks, run once the felt is fitted), the bar on one line with
    its status whole (check_frame), then the laptop again."""
    for width in NARROWER:
        page.set_viewport_size({"width": width, "height": 800})
        seen = page.evaluate(RESIZED, width)
        assert seen["bad"] == [], (where, width)
        assert not (covered := seen["covers"]), (where, width, "the hint line covers", covered)
        check_frame_seen(seen["frame"], f"{where}, {width} px")  # the bar too: "Your turn" was cut at 700 px
    page.set_viewport_size(LAPTOP["viewport"])
    page.evaluate(RESIZE_DONE, LAPTOP["viewport"]["width"])


#: In the page, at each of the player's turns (@PHONE@: on a phone), everything the turn's
#: checks read, in the order they read it one call at a time before (HINT_COVERS scrolls to the
#: top): one round trip instead of a dozen (see test_browser.wait_then_read).
TURN_SEEN = f"""() => {{
  const phone = @PHONE@;
  const frame = ({FRAME})();
  const layout = phone ? ({LAYOUT})() : null;
  const scale = phone ? null : ({CENTRE_SCALE})();
  const text = ({VISIBLE_TEXT})();
  const covers = ({HINT_COVERS})();
  return {{ frame, layout, scale, text, covers, ...({TURN_STATE})() }};
}}"""


def new_table(server: Server, game: str, players: int, options: dict[str, Any]) -> str:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": game,
            "players": players,
            "options": options,
            "seats": [{"name": NAMES[i], "bot": None if i == 0 else "random"} for i in range(players)],
            "hints": True,  # the hint on every game (told to the table, asked once below)
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


def words(lang: str) -> dict[str, str]:
    """The table's dictionary in ``lang`` (i18n/<lang>/table.json)."""
    found: dict[str, str] = json.loads((I18N / lang / "table.json").read_text(encoding="utf-8"))
    return found


def check_phone(page: Page, where: str) -> None:
    """The phone's layout: nothing wider than the screen, the felt and the hand in view, every
    settled card large enough to tap, every word inside its button or plate, the bar one row."""
    check_phone_seen(page.evaluate(LAYOUT), where)


def check_phone_seen(seen: dict[str, Any], where: str) -> None:
    """:func:`check_phone`'s checks of ``seen``, the page's LAYOUT (read with other things)."""
    assert seen["width"] <= 360, (where, seen)
    for part in ("felt", "hand"):
        box = seen[part]
        if box is not None:  # no hand between two deals
            assert box["top"] >= 0 and box["bottom"] <= 740, (where, part, seen)
    assert all(w >= 44 for w in seen["cards"]), (where, seen)
    assert seen["spills"] == [], (where, seen)
    assert seen["bar"] <= 48, (where, seen)


#: Every game on both devices, French on one and German on the other, each language on both
#: devices over the four games; the 8-player trick on the phone, the tighter of the two.
#: (Each case is a whole game in Chromium; the English one is test_browser.py's.)
CASES = [
    ("wizard", 4, "laptop", "fr"),
    ("wizard", 4, "phone", "de"),
    ("malin", 4, "laptop", "de"),
    ("malin", 4, "phone", "fr"),
    ("sticheln", 4, "laptop", "fr"),
    ("sticheln", 8, "phone", "de"),
    ("nain-jaune", 4, "laptop", "de"),
    ("nain-jaune", 4, "phone", "fr"),
]


def test_the_cases_cover_every_game_on_both_devices_in_every_translation() -> None:
    assert {(game, device) for game, _, device, _ in CASES} == {
        (game, device) for game in game_names() for device in ("laptop", "phone")
    }
    assert {(lang, device) for *_, device, lang in CASES} == {
        (lang, device) for lang in TRANSLATIONS for device in ("laptop", "phone")
    }


@pytest.mark.parametrize("game", list(dict.fromkeys(game for game, *_ in CASES)))
def test_a_whole_game_as_a_new_player_meets_it(
    servers: Callable[[], Server], browser: Browser, game: str
) -> None:
    """The game's CASES (a laptop's and a phone's), played at once (each named in a failure),
    each on a server of its own (the deals it has always been played with)."""
    contexts = []
    try:
        walks = {}
        for _, players, device, lang in (case for case in CASES if case[0] == game):
            context = browser.new_context(
                locale=f"{lang}-{lang.upper()}",
                reduced_motion="reduce",
                **(LAPTOP if device == "laptop" else PHONE),
            )
            contexts.append(context)
            walks[f"{game} at {players} on the {device} in {lang}"] = whole_game(
                servers(), context, game, players, device, lang
            )
        play_together(walks)
    finally:
        for context in contexts:
            context.close()


def whole_game(
    server: Server, context: BrowserContext, game: str, players: int, device: str, lang: str
) -> Iterator[None]:
    """A whole game at a seat's page in ``context``, as a new player meets it, every check made
    (the module's); yields at each of the player's moves (the bots' turn)."""
    cls = game_class(game)
    players = max(cls.min_players, min(cls.max_players, players))
    said = words(lang)
    english = english_only_words(lang)
    prefix = refusal_prefix(lang)
    url = new_table(server, game, players, options_for(game))
    context.add_init_script(FAST_CARDS)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#board[data-n]")
    assert page.locator("html").get_attribute("lang") == lang
    # Item 13: the invite link asks the player's name, offering the seat's.
    page.wait_for_selector("#name-ask")
    if device == "laptop":  # the first drawing too (fitted before the game's stylesheet came)
        page.wait_for_timeout(300)
        assert page.evaluate(CENTRE_SCALE) >= 0.8, "the centre piece first drawn small"
    assert page.input_value("#name-ask-input") == "Alice"
    assert_translated(page, english, "the name asked", lang)
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
    if device == "phone":  # laid out at the phone's width, nothing wider (a table scrolls within)
        reading = context.new_page()
        reading.goto(server.url + rules)
        seen = reading.evaluate("() => [innerWidth, document.documentElement.scrollWidth]")
        reading.close()
        assert seen == [360, 360], seen
    assert page.locator("#keys-line").is_visible() == (device == "laptop")
    keys = {"nain-jaune": "keys_help_no_tricks", "sticheln": "keys_help_no_bids"}.get(game, "keys_help")
    assert page.text_content("#keys-line") == said[keys]  # Sticheln's said "digits to bid"
    # The settings, in the reader's language too.
    page.click(".seat-menu summary")
    assert_translated(page, english, "the settings", lang)
    assert page.text_content(".seat-menu .keys") == said[keys]  # its copy of the keys too
    page.click(".seat-menu summary")
    refused = hinted = narrowed = False
    turn_seen = TURN_SEEN.replace("@PHONE@", "true" if device == "phone" else "false")
    for moves in range(MAX_MOVES):
        # The turn (or the end) and everything its checks read, at one moment.
        seen = wait_then_read(page, MY_TURN_OR_END, turn_seen, 0)
        where = f"{game}, move {moves}"
        check_frame_seen(seen["frame"], where)
        if device == "phone":
            check_phone_seen(seen["layout"], where)
        else:  # a laptop has room for the centre piece (it was fitted unstyled: half size)
            scale = seen["scale"]
            assert scale >= 0.8, (where, "the centre piece drawn small", scale)
        assert_text_translated(seen["text"], english, where, lang)
        assert not (covered := seen["covers"]), (where, "the hint line covers", covered)
        if seen["board"]["over"] == "true":
            break
        illegal = page.locator("#board button.card.illegal")
        # A player reads a round's summary before playing on (a click outside it closes it:
        # that is the player's choice, not the table taking it away).
        if seen["summary"]:  # (none up: READ_SUMMARY holds at once)
            page.wait_for_function(READ_SUMMARY)
            seen.update(page.evaluate(TURN_STATE))
        summary_open = seen["summary"]
        choices = seen["choices"]
        target = seen["target"]  # (for play_one, unless the page was worked on meanwhile)
        # (Not while a summary is up: a click outside it is the player closing it, which item 4 allows.)
        if not hinted and choices > 1 and not summary_open:
            # The hint: the search's suggestion, named as the table names moves, in the reader's
            # language; one a decision.
            page.wait_for_selector("#hint:not([hidden]) .hint-on")
            page.click("#hint-button")
            page.wait_for_selector("#hint .hint-says")
            says = page.inner_text("#hint .hint-says")
            assert not any(w in says for w in ("play ", "bid ", "pass")), says
            assert page.locator("#hint-button").is_disabled()
            assert_translated(page, english, f"{game}, hint", lang)
            # The line at its longest (the suggestion said) still covers nothing of the table.
            assert not (covered := page.evaluate(HINT_COVERS)), (where, "the hint line covers", covered)
            screenshot(page, f"whole-{game}-{device}-{lang}-hint.png")
            hinted = True
            target = None
        if device == "laptop" and not narrowed and moves >= 2 and not summary_open:
            narrowed = True
            check_narrower(page, where)
            target = None
        if not refused and seen["illegal"] and not summary_open:
            n = seen["board"]["n"]
            illegal.first.click(position={"x": 8, "y": 24})
            if device == "phone":  # item 9: a refusal on a phone takes the prompt's line, under the felt
                page.wait_for_selector("#prompt.refusal")
                assert page.inner_text("#notice") == ""
                felt = page.locator("#board .felt").bounding_box()
                line = page.locator("#prompt.refusal").bounding_box()
                assert felt and line and line["y"] >= felt["y"] + felt["height"] - 1, (felt, line)
                assert page.inner_text("#prompt").startswith(prefix)
            else:
                page.wait_for_selector("#notice.error")
                assert page.inner_text("#notice").startswith(prefix)
            assert_translated(page, english, f"{game}, refusal", lang)
            assert board(page)["n"] == n
            refused = True
            target = None
        play_one(page, target)
        yield  # (the bots' turn: the other device's game plays meanwhile)
    assert board(page)["over"] == "true"
    assert hinted
    page.wait_for_timeout(500)
    assert page.evaluate("window.__bad") == []
    # Item 4: each round's summary stayed until read (its hold at the card speed, unless closed).
    for summary in page.evaluate("window.__summaries"):
        assert summary["closed"] is None or summary["closed"] >= FAST_SUMMARY_MS - 200, summary
    # Item 1: the final ranking's buttons are inside the window and inside their box.
    page.wait_for_selector("#overlay[data-kind=final]:not([hidden])")
    assert_translated(page, english, f"{game}, final ranking", lang)
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
    if device == "laptop":  # (the phone's status pill ends in an ellipsis)
        word = said["winners_one" if winners == 1 else "winners"].split("{names}")[0].strip()
        assert word in status, status
    assert "(s)" not in status
    page.locator("#overlay .close").click()
    for tool in ("#btn-sheet", "#btn-last"):  # Le Nain Jaune has no tricks, nor that button
        if page.locator(tool).is_visible():
            page.click(tool)
            assert_translated(page, english, f"{game}, {tool}", lang)
            # Negative scores with a true minus sign in every game ("−30", never "-30").
            text = page.inner_text("#overlay")
            assert not re.search(r"(?<![\w-])-\d", text), text
            if page.locator("#overlay:not([hidden]) .close").count():
                page.locator("#overlay .close").click()
    # Item 11: the replay counts moves ("Move 50 of 56").
    page.click("#prev")
    page.wait_for_function("() => document.getElementById('step-label').textContent.length > 0")
    label = page.inner_text("#step-label")
    assert label.startswith(said["step"].split("{step}")[0]), label
    assert_translated(page, english, f"{game}, replay", lang)
    # The review of the game, beside the replay, in the reader's language.
    review_on_page(page, game, f"{game}-{device}-{lang}")
    assert_translated(page, english, f"{game}, review", lang)
    # Beside the review (on the laptop), the replay's felt draws in: its plates clear of the
    # centre piece and of the panel, its hand inside its column (issue 29).
    page.wait_for_timeout(300)
    assert page.evaluate("window.__clear('#replay-board', '#review')") == [], game
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]
    screenshot(page, f"whole-{game}-{device}-{lang}.png")
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    assert_translated(page, english, f"{game}, home page", lang)
    assert errors == []


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
            "#overlay table.summary td.total",
            "ts => ts.map((t) => Number(t.textContent.replace('\u2212', '-')))",
        )
        scores = page.eval_on_selector_all(
            "#board .seat .score", "ss => ss.map((s) => Number(s.textContent.replace('\u2212', '-')))"
        )
        assert [t - stake for t in totals] == scores, (totals, stake, scores, note)
        # The bots play on at the server (0.05 s a move); the summary stays to be read, 5 s of the
        # page's time from its drawing on (WATCH's record).  (Not 5 s of the test's from when it
        # saw the summary: on a loaded machine it saw it late, and its 6 s were over by then.)
        page.wait_for_function(
            "() => { const s = window.__summaries[0]; return !!s && (s.closed !== null || performance.now() - s.since >= 5000); }"
        )
        first = page.evaluate("window.__summaries[0]")
        assert first["closed"] is None or first["closed"] >= 5000, first
    finally:
        context.close()
