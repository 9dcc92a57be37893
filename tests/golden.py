"""Golden games: what seeded play gives today, computed the same way by the test and the script.

Perft for card games (issue 19): for every game and player count, with the
default options, a fixed set of seeds is played at random with a generator
seeded by the same number, and the whole history (every action id, chance
outcomes included) and the final scores are reduced to a digest.  A change to
the dealing, the rules, the sampling or the bots that alters a seeded game then
fails :mod:`tests.test_golden` loudly, naming the seed and where it differs,
instead of silently changing every record and tournament seed.

Four kinds of data per configuration (``tests/data/golden/<game>-<players>p.json``):

* ``random_play``: seed → length, scores, digest, and one digest per chunk of
  :data:`CHUNK` actions (so a failure says which steps differ);
* ``histories``: a few whole matches as action texts (replayed from an unseeded
  state, so chance is written in its own notation), to read and to pin the
  notation itself;
* ``samples``: worlds drawn by ``game.sample_state`` (and ``sample_round``) for
  a few views at fixed generator seeds, each digested through a seeded random
  match played on from it (which plays, and so pins, every hidden card);
* ``bots``: whole matches played by the ``random``, ``easy`` and ``normal``
  levels at fixed seeds (the search levels are too slow to pin here).

``scripts/golden.py`` writes the files; its docstring says when that is legitimate.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import atout
from atout.bots.factory import make_bot
from atout.core.game import Game, State, sample_chance
from atout.core.registry import game_class
from atout.match import play_match

#: Where the golden files live.
GOLDEN_DIR = Path(__file__).resolve().parent / "data" / "golden"
#: Seeds played at random per configuration.
SEEDS = range(20)
#: Seeds whose whole history is also kept as text.
TEXT_SEEDS = (0, 1)
#: Actions per chunk digest of a random-play history.
CHUNK = 100
#: Decision numbers (the n-th player decision of a random match) at which views are sampled.
SAMPLE_DECISIONS = (3, 17, 60)
#: Seeds of the random matches the sampled views come from.
SAMPLE_SEEDS = (0, 1)
#: Seeds of the bot matches, and the levels seated in turn around the table.
BOT_SEEDS = (0, 1)
BOT_LEVELS = ("random", "easy", "normal")


def configurations() -> Iterator[tuple[str, int]]:
    """Every registered game with every player count it allows."""
    for name in atout.names():
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            yield name, players


def path_for(name: str, players: int) -> Path:
    return GOLDEN_DIR / f"{name}-{players}p.json"


def digest(value: Any) -> str:
    """A short stable digest of a JSON-ready value (sorted keys, no whitespace)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def random_match(game: Game, seed: int) -> State:
    """The match ``seed`` deals, every decision drawn from ``random.Random(seed)``."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def history_entry(state: State) -> dict[str, Any]:
    history = list(state.history)
    scores = state.scores()
    return {
        "length": len(history),
        "scores": scores,
        "digest": digest([history, scores]),
        "chunks": [digest(history[i : i + CHUNK]) for i in range(0, len(history), CHUNK)],
    }


def history_texts(game: Game, history: list[int]) -> list[str]:
    """The texts of ``history`` replayed from an unseeded state (chance in its own notation)."""
    state = game.new_state()
    texts = []
    for action in history:
        texts.append(state.action_to_text(action))
        state.apply(action)
    return texts


def world_digest(world: State, seed: int) -> str:
    """A sampled world, pinned by a random match played on from it to the end.

    Every card a seat holds is played in the end (or decides what it may play),
    so the digest of that match pins the hidden cards the sampler dealt, while
    depending on nothing but the action ids: a change of a view's fields does
    not touch it.
    """
    state = world.clone()
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal:
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state.apply(action)
        actions.append(action)
    return digest([actions, state.scores()])


def sampled_views(game: Game) -> Iterator[tuple[int, int, State]]:
    """``(seed, decision, state)`` at the chosen decisions of a few random matches."""
    for seed in SAMPLE_SEEDS:
        state = game.new_state(seed)
        rng = random.Random(seed)
        decision = 0
        wanted = set(SAMPLE_DECISIONS)
        while not state.is_terminal and wanted:
            if decision in wanted:
                wanted.discard(decision)
                yield seed, decision, state.clone()
            state.apply(rng.choice(state.legal_actions()))
            decision += 1


def sample_entries(game: Game) -> list[dict[str, Any]]:
    out = []
    for seed, decision, state in sampled_views(game):
        seat = state.current_player
        view = state.view(seat)
        entry: dict[str, Any] = {
            "seed": seed,
            "decision": decision,
            "seat": seat,
            "sample_state": world_digest(game.sample_state(view, random.Random(seed)), seed),
        }
        found = game.sample_round(view, random.Random(seed))
        if found is not None:
            world, actions = found
            entry["sample_round"] = digest([world_digest(world, seed), actions])
        out.append(entry)
    return out


def bot_lineup(players: int) -> list[str]:
    return [BOT_LEVELS[seat % len(BOT_LEVELS)] for seat in range(players)]


def bot_entries(game: Game) -> list[dict[str, Any]]:
    out = []
    for seed in BOT_SEEDS:
        names = bot_lineup(game.players)
        bots = [make_bot(name, game, seed=1000 * seed + seat) for seat, name in enumerate(names)]
        state = play_match(game, bots, seed).state
        out.append({"seed": seed, "bots": names, **history_entry(state)})
    return out


def compute(name: str, players: int) -> dict[str, Any]:
    """Everything the golden file of one configuration holds."""
    game = atout.load(name, players=players)
    matches = {seed: random_match(game, seed) for seed in SEEDS}
    return {
        "about": "golden games (issue 19): regenerate only on purpose, see scripts/golden.py",
        "game": name,
        "players": players,
        "random_play": [{"seed": seed, **history_entry(state)} for seed, state in matches.items()],
        "histories": [
            {"seed": seed, "actions": history_texts(game, matches[seed].history)} for seed in TEXT_SEEDS
        ],
        "samples": sample_entries(game),
        "bots": bot_entries(game),
    }


def dump(data: dict[str, Any]) -> str:
    """The file text: one entry (or one action text) a line, so a regeneration diffs readably."""

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    parts = ["{"]
    for key, value in data.items():
        comma = "," if key != next(reversed(data)) else ""
        if key == "histories":
            parts.append(f'  "{key}": [')
            for i, history in enumerate(value):
                parts.append(f'    {{"seed": {history["seed"]}, "actions": [')
                parts.append(",\n".join(f"      {line(text)}" for text in history["actions"]))
                parts.append("    ]}" + ("," if i < len(value) - 1 else ""))
            parts.append("  ]" + comma)
        elif isinstance(value, list):
            parts.append(f'  "{key}": [')
            parts.append(",\n".join(f"    {line(entry)}" for entry in value))
            parts.append("  ]" + comma)
        else:
            parts.append(f"  {line(key)}: {line(value)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"


def write_all() -> list[Path]:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for name, players in configurations():
        path = path_for(name, players)
        path.write_text(dump(compute(name, players)), encoding="utf-8")
        written.append(path)
    return written
