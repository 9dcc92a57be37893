"""The match log the benchmarks resume from: read back exactly, whole deals only, bad lines named."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import atout
from atout.tournament import run_local, schedule, summarize
from atout.tournament.matchlog import LogError, append_outcomes, complete_deals, log_path, read_outcomes


def played(deals: int = 2) -> list[atout.tournament.MatchOutcome]:
    game = atout.load("wizard", 3, rounds=2)
    return run_local(schedule(game, ["heuristic", "random"], deals, seed=5), jobs=1)


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_a_log_reads_back_the_matches_it_was_written_with(tmp_path: Path, name: str) -> None:
    outcomes = played()
    log = tmp_path / "logs" / name  # the folder is made
    append_outcomes(log, outcomes[:4])
    append_outcomes(log, outcomes[4:])  # a resumed run appends
    back = read_outcomes(log)
    assert back == outcomes  # seats as a tuple, contracts as pairs: equal field by field
    assert back[0].contracts is not None and isinstance(back[0].contracts[0], tuple)
    # ...so the statistics of a resumed run are those of the run in one go.
    assert summarize(back) == summarize(outcomes)
    assert read_outcomes(tmp_path / "none.jsonl") == []  # no log yet: nothing played
    if name.endswith(".gz"):  # gzipped indeed, members appended (what bench/logs/ keeps)
        assert gzip.decompress(log.read_bytes()).decode().count("\n") == len(outcomes)


def test_only_deals_played_in_every_rotation_count(tmp_path: Path) -> None:
    outcomes = played(deals=3)  # deals 0, 1, 2 in 3 rotations each
    partial = [o for o in outcomes if not (o.deal == 1 and o.rotation == 2)]  # deal 1 cut short
    whole = complete_deals(partial, players=3)
    assert sorted({o.deal for o in whole}) == [0, 2] and len(whole) == 6
    # A prefix stops at the first missing or partial deal: a resumed schedule replays from there.
    assert {o.deal for o in complete_deals(partial, players=3, prefix=3)} == {0}
    assert len(complete_deals(outcomes, players=3, prefix=2)) == 6


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("not json", "Expecting value"),
        ("[1, 2]", "not a JSON object"),
        ('{"deal": 0, "rotation": 0}', "missing seats"),
        ('{"deal": 0, "rotation": 0, "seats": ["a"], "score": [1]}', "unknown field score"),
    ],
)
def test_a_line_that_is_not_a_match_is_named_by_file_and_line(tmp_path: Path, line: str, why: str) -> None:
    log = tmp_path / "bad.jsonl"
    good = json.dumps({"deal": 0, "rotation": 0, "seats": ["a", "b"], "scores": [1, 0]})
    log.write_text(f"{good}\n\n{line}\n")
    with pytest.raises(LogError, match=rf"bad.jsonl:3: not a match record \(.*{why}"):
        read_outcomes(log)


def test_a_gzipped_log_kept_in_the_repository_is_the_one_resumed(tmp_path: Path) -> None:
    plain = log_path(tmp_path, "sticheln-batch:500:net=/a/model.npz-vs-hard-4p-seed4")
    assert plain == tmp_path / "sticheln-batch_500_net=_a_model.npz-vs-hard-4p-seed4.jsonl"  # a file name
    append_outcomes(plain.with_name(plain.name + ".gz"), played(deals=1))
    assert log_path(tmp_path, "sticheln-batch:500:net=/a/model.npz-vs-hard-4p-seed4").suffix == ".gz"
