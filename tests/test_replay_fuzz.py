"""Fuzzing ``atout replay``: a damaged record gets exit 0, 2 or 3 and one clear line, never a traceback.

Issue 17 found 395 crashes in 2,200 mutated records.  The corpus here is made in
the test, from real games of every game (text and JSON forms) and from the
golden records saved before the digest existed: seeded random line deletions,
duplications, swaps and character edits, plus the damage issue 17 listed by
name.  Every record is replayed through the command line in-process (typer's
CliRunner), with and without ``--json``; a larger corpus goes through
``parse_record(...).replay()`` directly, which is 20 times cheaper than a CLI
call, and hypothesis feeds the reader arbitrary text and JSON values.

What is asserted is only the contract (README, docs/records.md): exit codes 0,
2 or 3; a failure is one ``error:`` line (or, with ``--json``, one JSON object
whose ``error.code`` is the exit code); a record that still carries its
original Digest replays only if its moves are the ones written.
"""

from __future__ import annotations

import json
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

import atout
from atout.cli.main import app
from atout.core.errors import RecordError
from atout.core.registry import game_class, names
from atout.records import Record, parse_record

runner = CliRunner()
LEGACY = Path(__file__).parent / "data" / "legacy"
SHORT = {"rounds": 2, "hands": 1, "max_deals": 1, "start_score": 6}
#: Random mutated records per base record through the CLI (x2: text and --json output),
#: and through the library alone.
CLI_MUTANTS = 10
LIBRARY_MUTANTS = 1000

#: Pieces of damage: markup, emoji codes, non-ASCII digits, control and line-break
#: characters, quotes and the format's own punctuation, a number past int()'s limit.
NASTY = [
    "[/b]", "[bold]", ":smile:", "²", "٣", "½", "\x00", "\x1b[2J", "\ufeff", "\u2028", "\r", "\t",
    '"', "\\", ":", "?", "#", "[", "]", "{", "}", ",", "-", "0", "-1", "9" * 5000, "NaN", "Infinity",
    "round", "é", "\ud800", " ", "",
]  # fmt: skip


def played(name: str, seed: int) -> atout.State:
    specs = {s.name for s in game_class(name).option_specs}
    state = atout.load(name, 3, **{k: v for k, v in SHORT.items() if k in specs}).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def bases() -> dict[str, str]:
    """Real records: a short game of every game in both forms, and the golden legacy records."""
    out: dict[str, str] = {}
    for name in names():
        record = Record.from_state(played(name, 7), seats=["Ann", "Bob", "Cid"], tags={"Human": "0"})
        out[f"{name}.atout"] = record.to_text()
        out[f"{name}.json"] = record.to_json()
    for path in sorted(LEGACY.iterdir()):
        out[f"legacy-{path.name}"] = path.read_text(encoding="utf-8")
    return out


BASES = bases()


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of lines or characters."""
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2, 3))):
        i = rng.randrange(len(lines))
        kind = rng.randrange(7)
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            line = lines[i]
            k = rng.randrange(len(line) + 1)
            piece = rng.choice(NASTY) if kind != 6 else ""
            keep = k + (1 if kind in (3, 6) else 0)  # 3, 6: replace / delete a character; 4, 5: insert
            lines[i] = line[:k] + piece + line[keep:]
    return "\n".join(lines)


def _sub(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        return text.replace(old, new, 1)

    return edit


def _json(change: Callable[[dict[str, Any]], object]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data, ensure_ascii=False)

    return edit


def _json_literal(path: tuple[Any, ...], literal: str) -> Callable[[str], str]:
    """Put a literal json.dumps cannot write (-Infinity, a 5,000-digit number) at ``path``."""

    def edit(text: str) -> str:
        data = json.loads(text)
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = "@@literal@@"
        return json.dumps(data, ensure_ascii=False).replace('"@@literal@@"', literal, 1)

    return edit


def _first_move_deleted(text: str) -> str:
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if line[:1].isdigit() and ": " in line)
    return "\n".join(lines[:i] + lines[i + 1 :])


BIG = "9" * 5000

#: The damage issue 17 names, for the text form.
TEXT_CASES: dict[str, Callable[[str], str]] = {
    "markup in Game": _sub('[Game "', '[Game "[/b]'),
    "markup in a seat": _sub('[Seat0 "', '[Seat0 "[/b]\\\\[b] :smile:'),
    "markup in a move": _sub("\n0: ", "\n0: [/b] "),
    "option players": _sub("[Players", '[Options "players=4"]\n[Players'),
    "option name": _sub("[Players", '[Options "name=x"]\n[Players'),
    "option self": _sub("[Players", '[Options "self=x"]\n[Players'),
    "superscript round": _sub("round 1", "round ²"),
    "superscript seat": _sub("\n0: ", "\n²: "),
    "huge round": _sub("round 1", f"round {BIG}"),
    "huge seat": _sub("\n0: ", f"\n{BIG}: "),
    "huge Players": _sub('[Players "3"]', f'[Players "{BIG}"]'),
    "huge Seed": _sub('[Seed "7"]', f'[Seed "{BIG}"]'),
    "huge Result": _sub('[Result "', f'[Result "{BIG} '),
    "huge MoveCount": _sub('[MoveCount "', f'[MoveCount "{BIG}'),
    "empty move": _sub("\n0: ", "\n0:\n"),
    "deleted move": _first_move_deleted,
    "byte-order mark": lambda t: "\ufeff" + t,
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "NUL": _sub("\n0: ", "\n0: \x00"),
}
#: ... and for the JSON twin.
JSON_CASES: dict[str, Callable[[str], str]] = {
    "options list": _json(lambda d: d.update(options=["rounds=2"])),
    "options text": _json(lambda d: d.update(options="rounds=2")),
    "options number": _json(lambda d: d.update(options=2)),
    "option players": _json(lambda d: d.update(options={"players": "4"})),
    "option self": _json(lambda d: d.update(options={"self": "4"})),
    "NaN": _sub('"seed": 7', '"seed": NaN'),
    "Infinity": _sub('"players": 3', '"players": Infinity'),
    "-Infinity round": _json_literal(("moves", 0, 2), "-Infinity"),
    "huge players": _sub('"players": 3', f'"players": {BIG}'),
    "huge actor": _json_literal(("moves", 0, 0), BIG),
    "empty move": _json(lambda d: d["moves"][1].__setitem__(1, "")),
    "blank move": _json(lambda d: d["moves"][1].__setitem__(1, " \t")),
    "move not a list": _json(lambda d: d["moves"].__setitem__(1, {"actor": 0})),
    "markup in a seat": _json(lambda d: d["seats"].__setitem__(0, "[/b]")),
    "deeply nested": lambda t: t.replace('"moves": [', '"moves": [' + "[" * 50_000 + "]" * 50_000 + ",", 1),
    "deleted move": _json(lambda d: d["moves"].pop(len(d["moves"]) // 2)),
    "surrogate": _sub('"Ann"', '"\\udc00"'),
    "duplicate key": _sub('"players": 3', '"players": 3, "players": 4'),
}


def corpus(base: str) -> list[tuple[str, str]]:
    """(id, record) pairs for one base record: the named cases, then seeded random mutants."""
    text = BASES[base]
    cases = JSON_CASES if base.endswith(".json") else TEXT_CASES
    out = [(f"{base} {name}", edit(text)) for name, edit in cases.items()] if "legacy" not in base else []
    rng = random.Random(f"cli {base}")
    out += [(f"{base} #{n}", mutate(text, rng)) for n in range(CLI_MUTANTS)]
    return out


def check(result: Result, as_json: bool, case: str, record: str) -> None:
    where = f"{case}: exit {result.exit_code}\n{result.output[:2000]}\nrecord:\n{record[:3000]!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stack = "".join(traceback.format_exception(result.exception))
        pytest.fail(f"{where}\n{stack}")
    assert result.exit_code in (0, 2, 3), where
    assert "Traceback" not in result.output, where
    if as_json:
        payload = json.loads(result.stdout)
        assert isinstance(payload, dict) and payload["ok"] is (result.exit_code == 0), where
        if result.exit_code:
            error = payload["error"]
            assert error["code"] == result.exit_code and error["message"], where
            assert error["line"] is None or isinstance(error["line"], int), where
    elif result.exit_code:
        assert result.stdout == "", where
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, where
    else:
        assert result.stdout.startswith("ok: "), where


@pytest.mark.parametrize("base", sorted(BASES))
def test_replay_never_crashes_on_a_damaged_record(base: str, tmp_path: Path) -> None:
    cases = corpus(base)
    suffix = ".json" if base.endswith(".json") else ".atout"
    original = parse_record(BASES[base])
    for n, (case, record) in enumerate(cases):
        path = tmp_path / f"{n}{suffix}"
        # surrogatepass: a lone surrogate becomes bytes that are not UTF-8, a damage of its own.
        path.write_bytes(record.encode("utf-8", "surrogatepass"))
        for as_json in (False, True):
            result = runner.invoke(app, ["replay", str(path), *(["--json"] if as_json else [])])
            check(result, as_json, case, record)
        if result.exit_code == 0 and original.declared is not None:
            # Still carrying the digest it was written with: then its moves are the written ones.
            assert original.declared.digest is not None
            if original.declared.digest in record:
                assert parse_record(record).digest() == original.declared.digest, case
    assert len(cases) >= CLI_MUTANTS


@pytest.mark.parametrize("base", sorted(BASES))
def test_reading_a_damaged_record_raises_only_record_errors(base: str) -> None:
    """The larger corpus, through the library: any fault is a RecordError with a message."""
    text = BASES[base]
    digest = parse_record(text).declared
    rng = random.Random(f"library {base}")
    replayed = 0
    for _ in range(LIBRARY_MUTANTS):
        record = mutate(text, rng)
        try:
            read = parse_record(record.encode("utf-8", "surrogatepass"))
            read.replay()
        except RecordError as exc:
            assert str(exc), record
            continue
        replayed += 1
        if digest is not None and digest.digest is not None and digest.digest in record:
            assert read.digest() == digest.digest, record
    assert replayed < LIBRARY_MUTANTS // 2  # most damage is noticed


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(key=st.sampled_from(["game", "players", "options", "seed", "view", "seats", "tags", "result",
                            "move_count", "digest", "moves", "atout", "other"]),
       value=JSON_VALUES, index=st.integers(0, 40), part=st.integers(0, 2))  # fmt: skip
def test_any_json_value_anywhere_is_refused_cleanly(key: str, value: Any, index: int, part: int) -> None:
    data = json.loads(BASES["wizard.json"])
    if key == "moves" and index < len(data["moves"]):
        data["moves"][index][part] = value  # inside a move
    else:
        data[key] = value
    text = json.dumps(data)  # NaN and Infinity are written as such: JSON's own non-numbers
    try:
        parse_record(text).replay()
    except RecordError as exc:
        assert str(exc)


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_are_refused_cleanly(data: bytes) -> None:
    for blob in (data, b'[Atout "1"]\n[Game "wizard"]\n[Players "3"]\n\n' + data, b'{"atout": 1, ' + data):
        try:
            parse_record(blob).replay()
        except RecordError as exc:
            assert str(exc)
