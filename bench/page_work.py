"""The table page's work per message, in real Chromium: A/B of two source trees' static files.

Each tree is served by its own ``atout serve`` (same deal seed, bots at a small delay); the same
game (the human at seat 0 clicks the first legal move, reduced motion so the pace is the
server's) is played against each in turn, in one Chromium, and CDP's Performance.getMetrics
says how much CPU the page's renderer spent (script, layout, style) over the game, divided
by the state messages it received.  Usage:

    PYTHONPATH=src python bench/page_work.py --a /work/main/src --b src --game wizard --runs 2

``--replays N`` then records one game's messages and says them again, the same ones, to a page of
each tree in turn (a fake socket, one message every 100 ms), with ``--motion`` as a player sees it.
2026-12-07, Wizard 3 players 4 rounds, 43 states, ``--runs 0 --replays 3 --motion`` on the shared
2-core machine: main thread 79-84 ms/msg before, 36-40 after (style recalculations 44.7/msg -> 16.1;
the seat to act's box-shadow pulse had the page restyle and repaint at every frame).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.conftest import ARGS, CHROMIUM, Server, short_options

from atout.core.registry import game_class

COUNT = """{
const Base = window.WebSocket;
window.__states = 0;
window.WebSocket = class extends Base {
  constructor(...a) { super(...a); window.__log = window.__log || []; this.addEventListener('message', (e) => { window.__log.push(e.data); if (e.data.startsWith('{"type":"state"') || e.data.includes('"type": "state"') || e.data.includes('"type":"state"')) window.__states++; }); }
};
try { localStorage.setItem('atout.speed', 'fast'); } catch (e) {}
}"""
METRICS = (
    "TaskDuration",
    "ScriptDuration",
    "LayoutDuration",
    "RecalcStyleDuration",
    "LayoutCount",
    "RecalcStyleCount",
)


def open_page(browser: Any, script: str, motion: bool) -> tuple[Any, Any, Any]:
    """A fresh context's page running ``script`` first (seat 0 named: no question), its CDP session measuring."""
    ctx = browser.new_context(locale="en-US", reduced_motion="no-preference" if motion else "reduce")
    ctx.add_init_script(script)
    ctx.add_init_script(
        "try { localStorage.setItem('atout.named.' + location.pathname.split('/').pop() + '.0', '1'); } catch (e) {}"
    )
    page = ctx.new_page()
    page.set_default_timeout(300_000)
    cdp = ctx.new_cdp_session(page)
    cdp.send("Performance.enable")
    return ctx, page, cdp


def play(
    browser: Any, server: Server, game: str, players: int, profile: bool, options: dict[str, Any]
) -> dict[str, Any]:
    seats = [
        {"name": "Human" if i == 0 else f"Bot {i}", "bot": None if i == 0 else "random"}
        for i in range(players)
    ]
    answer = server.create_table(
        game=game, players=players, options={**short_options(game), **options}, seats=seats
    )
    ctx, page, cdp = open_page(browser, COUNT, False)
    if profile:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    page.goto(answer["seats"][0]["url"])
    page.wait_for_selector("#board[data-n]")
    base = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    if profile:
        cdp.send("Profiler.start")
    t0 = time.monotonic()
    for _ in range(600):
        page.wait_for_function(
            "() => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === '0'; }"
        )
        if page.eval_on_selector("#board", "b => b.dataset.over") == "true":
            break
        n = int(page.eval_on_selector("#board", "b => b.dataset.n"))
        page.locator("#board button.card.legal, #board button.action").first.click(position=None)
        page.wait_for_function(
            "n => Number(document.getElementById('board').dataset.n) > n || !document.getElementById('chooser').hidden",
            arg=n,
        )
        chooser = page.locator("#chooser:not([hidden]) button.action")
        if chooser.count():
            chooser.first.click()
    wall = time.monotonic() - t0
    end = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    states = page.evaluate("() => window.__states")
    out: dict[str, Any] = {k: end[k] - base.get(k, 0) for k in METRICS}
    out["states"] = states
    out["wall"] = wall
    out["log"] = page.evaluate("() => window.__log")
    out["url"] = answer["seats"][0]["url"]
    if profile:
        prof = cdp.send("Profiler.stop")["profile"]
        top(prof)
    ctx.close()
    return out


#: The page's functions whose time is summed with what they call (the sampling profile's stacks).
INCLUSIVE = (
    "show",
    "drawBoard",
    "keepUnchanged",
    "signature",
    "fitBoard",
    "fitHand",
    "fitHeight",
    "fitFelt",
    "fitSeats",
    "separateSeats",
    "fitCentre",
    "fitTrick",
    "snapshot",
    "drawFelt",
    "drawHand",
    "drawInfo",
    "model",
    "status",
    "roomFacts",
    "hintTurn",
    "placeOverlay",
    "onmessage",
)


#: A socket that says the recorded messages again, one every 100 ms once the page says go.
FAKE = """{
window.__go = null;
window.WebSocket = class {
  static OPEN = 1;
  constructor() {
    this.readyState = 0;
    setTimeout(() => {
      this.readyState = 1;
      if (this.onopen) this.onopen();
      const log = @LOG@;
      window.__go = () => { log.forEach((d, i) => setTimeout(() => this.onmessage({ data: d }), 100 * i)); };
    }, 0);
  }
  send() {}
  close() {}
};
try { localStorage.setItem('atout.speed', 'fast'); } catch (e) {}
}"""


def replay(browser: Any, url: str, log: list[str], motion: bool) -> dict[str, float]:
    """The recorded game's messages said again to a page of ``url``'s server: its CPU over them."""
    last = max(json.loads(d).get("n", 0) for d in log if '"state"' in d)
    ctx, page, cdp = open_page(browser, FAKE.replace("@LOG@", json.dumps(log)), motion)
    page.goto(url)
    page.wait_for_function("() => window.__go !== null")
    page.wait_for_timeout(500)
    base = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    page.evaluate("() => window.__go()")
    page.wait_for_function(
        "n => Number(document.getElementById('board').dataset.n) >= n", arg=last, polling=1000
    )
    page.wait_for_timeout(500)
    end = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    ctx.close()
    return {k: end[k] - base.get(k, 0) for k in METRICS}


def top(prof: dict[str, Any], k: int = 15) -> None:
    """Self time by function, and the time under each of the page's INCLUSIVE functions."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    self_ms: dict[str, float] = {}
    incl_ms: dict[str, float] = {}
    for sid, d in zip(prof["samples"], prof["timeDeltas"], strict=False):
        cf = nodes[sid]["callFrame"]
        name = f"{cf['functionName'] or '(anon)'} {cf['url'].rsplit('/', 1)[-1]}:{cf['lineNumber'] + 1}"
        self_ms[name] = self_ms.get(name, 0) + d / 1000
        seen = set()
        node: int | None = sid
        while node is not None:
            fn = nodes[node]["callFrame"]["functionName"]
            if fn in INCLUSIVE and fn not in seen:
                seen.add(fn)
                incl_ms[fn] = incl_ms.get(fn, 0) + d / 1000
            node = parent.get(node)
    for name, ms in sorted(self_ms.items(), key=lambda x: -x[1])[:k]:
        print(f"  self {ms:8.1f} ms  {name}")
    print("  " + ", ".join(f"{fn} {ms:.0f}" for fn, ms in sorted(incl_ms.items(), key=lambda x: -x[1])))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--a", required=True, help="the src directory of tree A")
    p.add_argument("--b", required=True, help="the src directory of tree B")
    p.add_argument("--game", default="wizard")
    p.add_argument("--players", type=int, default=0)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--motion", action="store_true", help="replay with the cards in motion (and the pulse)")
    p.add_argument(
        "--replays",
        type=int,
        default=0,
        help="then say the first game's messages again this many times to each",
    )
    p.add_argument("--options", default="{}", help="the game's options over the short ones, as JSON")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    players = args.players or game_class(args.game).min_players
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        servers = {}
        for name, src in (("A", args.a), ("B", args.b)):
            os.environ["PYTHONPATH"] = str(Path(src).resolve())
            srv = Server(
                str(Path(tmp) / f"{name}.sqlite3"), bot_delay=0.02, deal_seed=2026, log_level="warning"
            )
            srv.start()
            servers[name] = srv
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for run in range(args.runs):
                for name, srv in servers.items():
                    r = play(
                        browser, srv, args.game, players, args.profile and run == 0, json.loads(args.options)
                    )
                    per = {k: r[k] / max(1, r["states"]) for k in METRICS}
                    print(
                        f"{name} run {run}: {int(r['states'])} states, wall {r['wall']:.1f}s, "
                        f"task {r['TaskDuration'] * 1000:.0f} ms = {per['TaskDuration'] * 1000:.2f} ms/msg "
                        f"(script {per['ScriptDuration'] * 1000:.2f}, layout {per['LayoutDuration'] * 1000:.2f} "
                        f"x{per['LayoutCount']:.1f}, style {per['RecalcStyleDuration'] * 1000:.2f} x{per['RecalcStyleCount']:.1f})",
                        flush=True,
                    )
            if args.replays:
                r = play(browser, servers["A"], args.game, players, False, json.loads(args.options))
                path = r["url"].split("/table/", 1)[1]
                states = sum('"state"' in d for d in r["log"])
                cpu: dict[str, list[float]] = {"A": [], "B": []}
                for run in range(args.replays):
                    for name, srv in servers.items():
                        m = replay(browser, f"{srv.url}/table/{path}", r["log"], args.motion)
                        work = m["ScriptDuration"] + m["LayoutDuration"] + m["RecalcStyleDuration"]
                        cpu[name].append(work * 1000 / states)
                        print(
                            f"{name} replay {run}: {states} states: script+layout+style {work * 1000 / states:.2f} ms/msg "
                            f"(script {m['ScriptDuration'] * 1000 / states:.2f}, layout {m['LayoutDuration'] * 1000 / states:.2f} "
                            f"x{m['LayoutCount'] / states:.1f}, style {m['RecalcStyleDuration'] * 1000 / states:.2f} "
                            f"x{m['RecalcStyleCount'] / states:.1f}; task {m['TaskDuration'] * 1000 / states:.2f})",
                            flush=True,
                        )
                for name, xs in cpu.items():
                    print(f"{name}: median {sorted(xs)[len(xs) // 2]:.2f} ms/msg, min {min(xs):.2f}")
        finally:
            browser.close()
            for srv in servers.values():
                srv.stop()


if __name__ == "__main__":
    main()
