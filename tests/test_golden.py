"""Golden games (issue 19): seeded play, sampling and cheap bots give exactly what they gave.

Each configuration's file in tests/data/golden is recomputed (a second in all)
and compared part by part; a failure names the seed and the steps that differ.
If the change is intended, regenerate with ``scripts/golden.py`` (read its
docstring first); a refactor must never need to.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import atout
from tests import golden

CONFIGS = list(golden.configurations())


def _load(name: str, players: int) -> dict[str, Any]:
    path = golden.path_for(name, players)
    assert path.exists(), f"{path} is missing: write it with scripts/golden.py"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _history_difference(label: str, want: dict[str, Any], got: dict[str, Any]) -> str:
    """Where two digested histories part: the first chunk of actions that differs."""
    for i, (a, b) in enumerate(zip(want["chunks"], got["chunks"], strict=False)):
        if a != b:
            first = i * golden.CHUNK
            where = f"actions {first}..{first + golden.CHUNK - 1} differ"
            break
    else:
        where = "the histories agree as far as the shorter goes"
    return (
        f"{label}: {where}; length {want['length']} -> {got['length']}, "
        f"scores {want['scores']} -> {got['scores']}"
    )


def test_one_file_per_configuration() -> None:
    expected = {golden.path_for(name, players).name for name, players in CONFIGS}
    present = {path.name for path in golden.GOLDEN_DIR.glob("*.json")}
    assert present == expected, f"missing {sorted(expected - present)}, stale {sorted(present - expected)}"


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_golden(name: str, players: int) -> None:
    want = _load(name, players)
    got = golden.compute(name, players)
    assert (want["game"], want["players"]) == (name, players)
    problems: list[str] = []

    # Random play: the deals of each seed and the rules' outcomes.
    assert [e["seed"] for e in want["random_play"]] == list(golden.SEEDS)
    for a, b in zip(want["random_play"], got["random_play"], strict=True):
        if a != b:
            problems.append(_history_difference(f"random play, seed {a['seed']}", a, b))

    # Whole histories as text: the exact step, in the notation.
    for a, b in zip(want["histories"], got["histories"], strict=True):
        for step, (ta, tb) in enumerate(zip(a["actions"], b["actions"], strict=False)):
            if ta != tb:
                problems.append(f"history of seed {a['seed']}, action {step}: {ta!r} -> {tb!r}")
                break
        else:
            if len(a["actions"]) != len(b["actions"]):
                problems.append(
                    f"history of seed {a['seed']}: {len(a['actions'])} -> {len(b['actions'])} actions"
                )

    # Sampling: the worlds drawn for a few views at fixed generator seeds.
    for a, b in zip(want["samples"], got["samples"], strict=True):
        for key in ("seed", "decision", "seat", "sample_state", "sample_round"):
            if a.get(key) != b.get(key):
                problems.append(
                    f"sample at seed {a['seed']}, decision {a['decision']}: {key} {a.get(key)} -> {b.get(key)}"
                )
                break

    # Cheap bot levels: their choices at fixed seeds.
    for a, b in zip(want["bots"], got["bots"], strict=True):
        if a != b:
            problems.append(_history_difference(f"bots {'/'.join(a['bots'])}, seed {a['seed']}", a, b))

    assert not problems, f"{name} {players}p differs from its golden file:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", atout.names())
def test_golden_texts_replay(name: str) -> None:
    """The stored texts parse back, from an unseeded state, to the seeded match they describe."""
    players = atout.core.registry.game_class(name).min_players
    game = atout.load(name, players=players)
    for history in _load(name, players)["histories"]:
        state = game.new_state()
        for text in history["actions"]:
            state.apply(text)
        assert state.is_terminal
        assert state.history == golden.random_match(game, history["seed"]).history
