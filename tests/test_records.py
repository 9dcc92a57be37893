"""Records: lossless round trips, replay, exports, and every kind of bad record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import atout
from atout.core.errors import RecordError
from atout.records import Record, ReplayError, load_record, parse_record, save_record


def finished(seed: int = 3, players: int = 3, **options: object) -> atout.State:
    game = atout.load("wizard", players, rounds=3, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_text_and_json_round_trip_and_replay() -> None:
    state = finished()
    record = Record.from_state(state, seats=["Ann", 'B"o\\b', "Cid"], tags={"Event": "club night"})
    text = record.to_text()
    again = parse_record(text)
    assert again.to_text() == text
    assert parse_record(again.to_json()) == again
    assert again.seats == ["Ann", 'B"o\\b', "Cid"]
    assert again.tags == {"Event": "club night"}
    replayed = again.replay()
    assert replayed.history == state.history
    assert replayed.scores() == state.scores() == again.result


def test_deals_are_one_line_per_seat() -> None:
    text = Record.from_state(finished()).to_text()
    body = text.split("round 3\n", 1)[1]
    deal_lines = [line for line in body.splitlines() if line.startswith("deal ")]
    assert len(deal_lines) == 3
    assert all(len(line.split(": ")[1].split()) == 3 for line in deal_lines)


def test_seat_export_hides_other_hands_and_seed() -> None:
    state = finished()
    export = Record.from_state(state, view=1)
    assert export.seed is None and export.view == 1
    text = export.to_text()
    assert "[Seed" not in text and '[View "1"]' in text
    for move in export.moves:
        if move.text and move.text.startswith("deal "):
            seat = int(move.text.split()[1])
            assert (move.text.endswith("?")) == (seat != 1)
    with pytest.raises(RecordError, match="export"):
        parse_record(text).replay()


def test_hidden_bids_stay_hidden_in_an_export_mid_round() -> None:
    game = atout.load("wizard", 3, bids="hidden_until_end", first_dealer=0)
    state = game.new_state(5)
    state.apply(state.legal_actions()[0])  # seat 1 bids
    export = Record.from_state(state, view=2)
    bids = [m for m in export.moves if m.actor >= 0]
    assert bids and all(m.text == "bid ?" for m in bids)
    own = Record.from_state(state, view=1)
    assert [m.text for m in own.moves if m.actor >= 0] == ["bid 0"]


def test_unfinished_game_replays_without_result() -> None:
    game = atout.load("wizard", 4)
    state = game.new_state(9)
    for _ in range(10):
        state.apply(state.legal_actions()[0])
    record = Record.from_state(state)
    assert record.result is None
    assert parse_record(record.to_text()).replay().history == state.history


def _body_lines(text: str) -> list[str]:
    return text.splitlines()


def test_illegal_move_names_index_line_and_rule() -> None:
    text = Record.from_state(finished()).to_text()
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if ": play " in line)
    seat, _, card = lines[i].partition(": play ")
    lines[i] = f"{seat}: play {'Y13' if card != 'Y13' else 'Y12'}"
    with pytest.raises(ReplayError) as info:
        parse_record("\n".join(lines)).replay()
    assert f"line {i + 1}" in str(info.value)
    assert "you do not hold" in str(info.value) or "must follow" in str(info.value)


def test_out_of_turn() -> None:
    text = Record.from_state(finished()).to_text()
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if ": bid " in line)
    seat = int(lines[i].split(":")[0])
    lines[i] = f"{(seat + 1) % 3}:" + lines[i].split(":", 1)[1]
    with pytest.raises(ReplayError, match="out of turn"):
        parse_record("\n".join(lines)).replay()


def test_truncated_record() -> None:
    text = Record.from_state(finished()).to_text()
    cut = text[: len(text) * 2 // 3]
    cut = cut[: cut.rfind("\n")]  # cut at a line end
    with pytest.raises(ReplayError, match="truncated"):
        parse_record(cut).replay()
    half_line = text[: len(text) - 4]  # the last move cut in the middle
    with pytest.raises(ReplayError):
        parse_record(half_line).replay()


def test_wrong_result() -> None:
    record = Record.from_state(finished())
    assert record.result is not None
    record.result = [s + 10 for s in record.result]
    with pytest.raises(ReplayError, match="Result"):
        parse_record(record.to_text()).replay()


def test_deal_that_does_not_match_the_game() -> None:
    text = Record.from_state(finished()).to_text()
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("deal ") and ": " in line)
    head, cards = lines[i].split(": ")
    first = cards.split()[0]
    lines[i] = f"{head}: {first} {first} {first}"  # the same card three times
    with pytest.raises(ReplayError, match="cannot be dealt"):
        parse_record("\n".join(lines)).replay()
    lines = text.splitlines()
    j = next(i for i, line in enumerate(lines) if line.startswith("deal "))
    seat = int(lines[j].split()[1].rstrip(":"))
    lines[j] = lines[j].replace(f"deal {seat}", f"deal {(seat + 1) % 3}", 1)
    with pytest.raises(ReplayError, match="goes to seat"):
        parse_record("\n".join(lines)).replay()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\xff\xfe[Atout", "not UTF-8"),
        (b'[Atout "2"]\n[Game "wizard"]\n[Players "4"]\n', "version '2' is not supported"),
        (b'[Game "wizard"]\n', "must start with"),
        (b'[Atout "1"]\n[Players "4"]\n', "no \\[Game"),
        (b'[Atout "1"]\n[Game "chess"]\n[Players "4"]\n', "unknown game"),
        (b'[Atout "1"]\n[Game "wizard"]\n[Players "9"]\n', "3 to 6 players"),
        (b'[Atout "1"]\n[Game "wizard"]\n[Players "4"]\n[Options "colour=red"]\n', "no option"),
        (b'[Atout "1"]\n[Game "wizard"]\n[Players "4"]\n[Seed x]\n', "malformed tag"),
        (b'[Atout "1"]\n[Game "wizard"]\n[Players "4"]\n\n0: bid 1\n', "before any 'round N'"),
        (b'{"atout": 1, "game": "wizard"', "invalid JSON"),
        (b'{"atout": 1, "players": 4}', "malformed JSON record"),
    ],
)
def test_bad_records_get_one_clear_message(data: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(data).replay()


def test_save_is_atomic_and_never_damages_an_existing_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.atout"
    record = Record.from_state(finished())
    save_record(path, record)
    before = path.read_bytes()

    def boom(self: Record) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Record, "to_text", boom)
    with pytest.raises(RuntimeError):
        save_record(path, record)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.atout"]
    monkeypatch.undo()
    assert load_record(path).to_text() == record.to_text()
    save_record(tmp_path / "game.json", record)
    assert (tmp_path / "game.json").read_text().startswith("{")
    assert load_record(tmp_path / "game.json").to_text() == record.to_text()


def test_load_record_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.atout")
    bad = tmp_path / "bad.atout"
    bad.write_bytes(b"\xff")
    with pytest.raises(RecordError, match=str(bad)):
        load_record(bad)
