"""Records: lossless round trips, replay, exports, and every kind of bad record."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import atout
from atout.core.errors import RecordError
from atout.core.registry import game_class
from atout.records import Move, Record, ReplayError, load_record, parse_record, save_record


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


# -- damaged records: every fault is a RecordError naming what and where -------------------

LEGACY = Path(__file__).parent / "data" / "legacy"


def wizard_text() -> str:
    return Record.from_state(finished(), seats=["Ann", "Bob", "Cid"]).to_text()


def wizard_json() -> str:
    return Record.from_state(finished(), seats=["Ann", "Bob", "Cid"]).to_json()


def _fault(data: str | bytes) -> RecordError:
    with pytest.raises(RecordError) as info:
        parse_record(data).replay()
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "message", "line"),
    [
        ("round 1", "round ²", "the round number must be an integer, not '²'", True),
        ("round 1", "round ٣", "the round number must be an integer", True),
        ("round 1", "round 0", "the round number must be at least 1", True),
        ("round 1", "round one", "the round number must be an integer", True),
        ("round 1", "round 1 2", "malformed round line", True),
        ("0: bid", "²: bid", "the seat number (digits 0-9) must be an integer, not '²'", True),
        ('[Players "3"]', '[Players "³"]', "Players must be an integer", True),
        ('[Seed "3"]', '[Seed "1²"]', "Seed must be an integer", True),
    ],
)
def test_numbers_are_ascii_digits(old: str, new: str, message: str, line: bool) -> None:
    """str.isdigit accepts '²' (and int() accepts '٣'): the format's numbers are ASCII digits."""
    text = wizard_text()
    assert old in text
    error = _fault(text.replace(old, new, 1))
    assert message in str(error)
    assert error.line == text.splitlines().index(next(x for x in text.splitlines() if x.startswith(old))) + 1


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("round 1", "round {n}", "the round number"),
        ("0: bid", "{n}: bid", "the seat number"),
        ('[Players "3"]', '[Players "{n}"]', "Players"),
        ('[Seed "3"]', '[Seed "{n}"]', "Seed"),
        ('[Result "', '[Result "{n} ', "Result"),
    ],
)
def test_numbers_past_pythons_int_limit(old: str, new: str, what: str) -> None:
    """int() of more than 4,300 digits raises a bare ValueError: here a RecordError with the line."""
    text = wizard_text()
    error = _fault(text.replace(old, new.format(n="9" * 5000), 1))
    assert f"{what}" in error.message and "5000 digits: too large" in error.message
    assert error.line is not None
    data = json.loads(wizard_json())
    raw = json.dumps(data).replace('"players": 3', '"players": ' + "7" * 5000)
    assert "players must be an integer, not a number of 5000 digits" in str(_fault(raw))


@pytest.mark.parametrize("name", ["players", "name", "self", "game"])
def test_options_named_like_arguments_of_load(name: str) -> None:
    """load(game, players, **options) would take these for its own arguments (a TypeError)."""
    text = wizard_text().replace('[Options "rounds=3"]', f'[Options "rounds=3 {name}=4"]')
    assert f"wizard has no option '{name}'" in str(_fault(text))
    data = json.loads(wizard_json())
    data["options"][name] = "4"
    data.pop("digest")
    assert f"wizard has no option '{name}'" in str(_fault(json.dumps(data)))


@pytest.mark.parametrize("options", [[], ["rounds=3"], "rounds=3", 3, True])
def test_json_options_must_be_an_object(options: object) -> None:
    data = json.loads(wizard_json())
    data["options"] = options
    assert "options must be an object" in str(_fault(json.dumps(data)))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_nan_and_infinity_are_refused_with_their_line(constant: str) -> None:
    text = wizard_json().replace('"seed": 3', f'"seed": {constant}')
    error = _fault(text)
    assert f"{constant.lstrip('-')} is not a JSON number" in error.message
    assert error.line == next(i for i, x in enumerate(text.splitlines(), 1) if '"seed"' in x)


@pytest.mark.parametrize("empty", ["", "   "])
def test_empty_move_text(empty: str) -> None:
    data = json.loads(wizard_json())
    data["moves"][5][1] = empty
    assert "moves[5][1] is an empty move" in str(_fault(json.dumps(data)))
    # A record built in memory is checked at replay.
    record = parse_record(wizard_text())
    record.moves[5] = Move(record.moves[5].actor, empty, record.moves[5].round)
    record.declared = None
    with pytest.raises(ReplayError, match="an empty move"):
        record.replay()
    assert "nothing after the colon" in str(
        _fault(wizard_text().replace("0: bid 0", "0:", 1).replace("0: bid 1", "0:", 1))
    )


def test_deeply_nested_json() -> None:
    """json.loads raises RecursionError past ~1,000 levels: a RecordError with a line here."""
    text = '{"atout": 1, "game": "wizard", "players": 3,\n "moves": ' + "[" * 100_000 + "]" * 100_000 + "}"
    error = _fault(text)
    assert "nested too deeply" in error.message and error.line == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(players=True), "players must be an integer, not true"),
        (lambda d: d.update(players=3.0), "players must be an integer, not the number 3.0"),
        (lambda d: d.update(game=["wizard"]), "game must be a text, not a list of 1"),
        (lambda d: d.update(seats="Ann"), "seats must be a list"),
        (lambda d: d.update(seats=["A\nB", "C", "D"]), "seats[0] must be one line"),
        (lambda d: d.update(tags={"Date": 2026}), "tags.Date must be a text"),
        (lambda d: d.update(tags={"Game": "chess"}), "'Game' cannot be a free tag's name"),
        (lambda d: d.update(tags={"a b": "x"}), "'a b' cannot be a free tag's name"),
        (lambda d: d.update(result=[1, "2", 3]), "result[1] must be an integer"),
        (lambda d: d.update(player=3), "unknown key 'player'"),
        (lambda d: d.update(move_count=-1), "move_count must be an integer from 0"),
        (lambda d: d.update(digest="md5:abc"), "digest must be sha256:"),
        (lambda d: d["moves"].__setitem__(0, [-1, "dealer 1"]), "moves[0] must be [actor, text, round]"),
        (lambda d: d["moves"].__setitem__(0, ["-1", "dealer 1", 1]), "moves[0][0] (the actor"),
        (lambda d: d["moves"].__setitem__(0, [-2, "dealer 1", 1]), "an integer from -1"),
        (
            lambda d: d["moves"].__setitem__(0, [-1, "dealer 1", 0]),
            "moves[0][2] (the round) must be an integer from 1",
        ),
        (lambda d: d["moves"].__setitem__(0, [-1, {"x": 1}, 1]), "moves[0][1] (the move) must be a text"),
        (lambda d: d.update(atout=True), "record format version true is not supported"),
        (lambda d: d.pop("atout"), "not an atout record"),
    ],
)
def test_json_values_are_checked_by_type(change: Any, message: str) -> None:
    data = json.loads(wizard_json())
    change(data)
    assert message in str(_fault(json.dumps(data)))


def test_json_duplicate_keys_and_lone_surrogates() -> None:
    text = wizard_json().replace('"players": 3', '"players": 3, "players": 4')
    assert "key 'players' appears twice" in str(_fault(text))
    text = wizard_json().replace('"Ann"', '"\\ud800"')
    assert "seats[0] is not valid Unicode" in str(_fault(text))


def test_seat_tags_are_consecutive() -> None:
    text = wizard_text().replace('[Seat1 "Bob"]\n', "")
    error = _fault(text)
    assert "tag Seat2 but no Seat1" in error.message and error.line == 7


def test_malformed_tag_value_and_line_quoting() -> None:
    assert "closing quote is escaped" in str(
        _fault(wizard_text().replace('[Seat0 "Ann"]', '[Seat0 "Ann\\"]'))
    )
    long = wizard_text().replace('[Seed "3"]', '[Seed "3" ' + "x" * 10_000)
    message = str(_fault(long))
    assert "malformed tag" in message and len(message) < 200  # the 10,000 characters are not echoed


def test_a_byte_order_mark_is_accepted() -> None:
    data = "\ufeff" + wizard_text()
    assert parse_record(data.encode("utf-8")).replay().is_terminal
    assert parse_record(data).replay().is_terminal


# -- integrity: MoveCount and Digest ------------------------------------------------------------


def test_written_records_carry_move_count_and_digest() -> None:
    record = Record.from_state(finished())
    text = record.to_text()
    assert f'[MoveCount "{len(record.moves)}"]' in text
    assert f'[Digest "{record.digest()}"]' in text
    data = json.loads(record.to_json())
    assert data["move_count"] == len(record.moves) and data["digest"] == record.digest()
    # Both forms declare the same digest, and a record read back is what was written.
    for form in (text, record.to_json()):
        again = parse_record(form)
        assert again.declared is not None and again.declared.digest == record.digest()
        assert again.integrity_error() is None
        assert again.replay().scores() == record.result
    # The tags are standard ones: not kept among the free tags, and rewritten identically.
    assert parse_record(text).tags == {} and parse_record(text).to_text() == text


def test_digest_is_the_documented_canonical_form() -> None:
    record = Record.from_state(finished(), seats=["Ann", "Bob", "Cid"], tags={"Event": "x"})
    lines = [
        "atout 1",
        f"game {record.game}",
        f"players {record.players}",
        " ".join(["options", *(f"{k}={v}" for k, v in sorted(record.options.items()))]),
        " ".join(["result", *map(str, record.result or [])]),
        *(f"{m.actor} {m.round} {m.text}" for m in record.moves),
    ]
    expected = hashlib.sha256("".join(x + "\n" for x in lines).encode()).hexdigest()
    assert record.digest() == f"sha256:{expected}"
    # Names, free tags and the seed are not covered: people edit them by hand.
    edited = Record.from_state(finished(), seats=["X", "Y", "Z"], tags={"Event": "y"})
    edited.seed = None
    assert edited.digest() == record.digest()


def nain_jaune_deletion_that_stays_legal() -> tuple[list[str], int]:
    """A saved Le Nain Jaune game and a move line whose deletion leaves a legal game.

    The first play of a deal may be any card, so dropping a leader's first card
    of a run (his next one opens instead) changes nothing the rules can see:
    the case of issue 17 (``sed -i 235d`` on a saved game).
    """
    for seed in (1, 4, 5):
        game = atout.load("nain-jaune", 3)
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        lines = Record.from_state(state).to_text().splitlines()
        kept = [j for j, x in enumerate(lines) if not x.startswith(("[MoveCount", "[Digest"))]
        plain = [lines[j] for j in kept]
        for i in range(1, len(plain)):
            if plain[i - 1].startswith("deal ") and plain[i][:1].isdigit():
                try:
                    parse_record("\n".join(plain[:i] + plain[i + 1 :])).replay()
                except RecordError:
                    continue
                return lines, kept[i]
    raise AssertionError("no Nain Jaune game found whose first play can be deleted legally")


def test_deleted_move_that_stays_legal_is_caught_by_the_digest(tmp_path: Path) -> None:
    lines, i = nain_jaune_deletion_that_stays_legal()
    damaged = "\n".join(lines[:i] + lines[i + 1 :]) + "\n"
    error = _fault(damaged)
    assert not isinstance(error, ReplayError)  # exit 2: the record is damaged, its moves are legal
    assert "altered after it was written" in error.message and "1 missing" in error.message
    assert error.line == next(n for n, x in enumerate(lines, 1) if x.startswith("[MoveCount"))
    # The same record without the tags (saved before them, or by hand) still replays:
    # the check is only as good as what the record carries.
    legacy = "\n".join(x for x in damaged.splitlines() if not x.startswith(("[MoveCount", "[Digest")))
    assert parse_record(legacy).replay().is_terminal
    # The JSON twin of the damaged record is refused too.
    record = parse_record("\n".join(lines))
    data = json.loads(record.to_json())
    del data["moves"][len([x for x in lines[:i] if x[:1].isdigit() or x.startswith(("deal", "dealer"))]) - 1]
    assert "altered after it was written" in str(_fault(json.dumps(data)))


def test_altered_move_count_or_digest_is_refused() -> None:
    text = wizard_text()
    record = parse_record(text)
    count = f'[MoveCount "{len(record.moves)}"]'
    error = _fault(text.replace(count, f'[MoveCount "{len(record.moves) + 1}"]'))
    n = len(record.moves)
    assert f"it has {n} moves but its MoveCount tag says {n + 1} (1 missing)" in error.message
    assert error.line == text.splitlines().index(count) + 1 and not isinstance(error, ReplayError)
    digest = record.digest()
    flipped = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    error = _fault(text.replace(digest, flipped))
    assert (
        "do not match its Digest tag" in error.message
        and "delete the MoveCount and Digest tags" in error.message
    )
    assert not isinstance(error, ReplayError)
    assert "Digest must be sha256:" in str(_fault(text.replace(digest, "sha256:xyz")))
    assert "MoveCount must be at least 0" in str(_fault(text.replace(count, '[MoveCount "-1"]')))


def test_every_deleted_or_altered_move_is_an_error_when_the_digest_is_there() -> None:
    for name in ("wizard", "malin", "sticheln", "nain-jaune"):
        text = Record.from_state(short_game(name)).to_text()
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("[") or not line.strip():
                continue
            # Without its 'round N' line the moves cannot be read at all.
            expected = (
                "before any 'round N'|altered after it was written" if line.startswith("round") else "altered"
            )
            with pytest.raises(RecordError, match=expected):
                parse_record("\n".join(lines[:i] + lines[i + 1 :])).replay()
            # An illegal move is still located (exit 3), with the note that explains it.
            if ": " in line and not line.startswith("deal"):
                seat, _, move = line.partition(": ")
                other = "\n".join([*lines[:i], f"{seat}: {move} x", *lines[i + 1 :]])
                with pytest.raises(RecordError, match="altered after it was written"):
                    parse_record(other).replay()


def short_game(name: str, seed: int = 2) -> atout.State:
    specs = {s.name for s in game_class(name).option_specs}
    short = {
        k: v for k, v in {"rounds": 2, "hands": 1, "max_deals": 1, "start_score": 6}.items() if k in specs
    }
    state = atout.load(name, 3, **short).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("path", sorted(LEGACY.iterdir()), ids=lambda p: p.name)
def test_records_saved_before_the_digest_still_replay(path: Path) -> None:
    """Golden records written by atout before MoveCount and Digest existed."""
    data = path.read_bytes()
    assert b"MoveCount" not in data and b"move_count" not in data
    record = load_record(path)
    assert record.declared is None and record.integrity_error() is None
    state = record.replay()
    assert state.is_terminal and state.scores() == record.result
    # Written again, they gain the tags, and read back identically.
    again = parse_record(record.to_text())
    assert again == record and again.declared is not None and again.replay().scores() == record.result
