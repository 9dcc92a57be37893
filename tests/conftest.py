"""The suite's schedule: its longest tests first, shared between the workers.

``./run test`` runs ``pytest -n 3 --dist worksteal`` (pyproject's addopts; ``ATOUT_TEST_WORKERS=N``
for another count), the rules' tests on the pure engine before it, on as many workers: xdist
hands each worker one contiguous share of the collection (the first third to one, and so on)
and an idle worker then steals tests from the end of another's queue.  In pytest's own order
the long tests (whole games in Chromium, training runs, servers on PostgreSQL) fell where their
files are, several on one worker, some near the end: one worker ran them alone while the others
idled.  Here each worker's share starts with long tests of about the same total length, the
longest first, and the short tests follow, in pytest's order, to fill and balance the end.

Only the order changes: every test runs, with its own fixtures, as before.  The order is the
same in every worker (xdist checks that the collections agree).
"""

from __future__ import annotations

import gc
import itertools
import os
from collections.abc import Iterator

import pytest

#: The long tests: node id prefix, its length in seconds per test, and whether the tests under it
#: must stay together in one worker (a module-scoped fixture worth computing once).  The first
#: prefix that matches a test counts: the narrower ones come first.  The lengths are the
#: ``--durations`` of the whole suite on the 2-core machine (the compiled engine, 2 workers,
#: 10 min 55 s; tests under 11 s there are not listed, an estimate is given), less what the
#: work on issue 48 item 4 took off (the BLAS threads, test_repr's replays); the CPU-bound ones
#: (the rules' walks, the training runs) as measured in CPU seconds after the garbage collector's
#: thresholds (pytest_configure below) halved test_reasons': only the proportions matter, and a
#: test missing here runs among the short ones, maybe last.
LONG: tuple[tuple[str, float, bool], ...] = (
    ("tests/test_reasons.py", 8.0, True),  # its module fixture walks every game
    ("tests/test_cli_review.py", 10.0, True),  # a module fixture reviews a whole game
    ("tests/learn/test_distill.py", 12.0, True),  # a module fixture records decisions
    # (the lessons but Wizard's without flights, issue 48 item 4 round 2: about half as long)
    # (round 3: one test a game plays its lesson in every language and size at once; the
    # browser helper's lengths measured alone at load 11-20, times 0.6 as the rest of the table)
    ("tests/server/test_browser_lesson.py::test_a_lesson_from_the_home_page[wizard", 27.0, False),
    ("tests/server/test_browser_lesson.py::test_a_lesson_from_the_home_page[malin", 25.0, False),
    ("tests/server/test_browser_lesson.py::test_a_lesson_from_the_home_page[sticheln", 22.0, False),
    ("tests/server/test_browser_lesson.py::test_a_lesson_from_the_home_page[nain-jaune", 21.0, False),
    ("tests/server/test_browser_lesson.py", 7.0, False),
    ("tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it[malin", 35.0, False),
    ("tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it[sticheln", 26.0, False),
    (
        "tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it[nain-jaune",
        21.0,
        False,
    ),
    ("tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it", 20.0, False),
    ("tests/server/test_browser_table.py", 6.0, False),
    # (round 2 of the browser tests, one round trip a turn: the whole games and the Wizard lesson
    # about 0.7 of their lengths above at load 27-36; the files below were missing: CI's
    # --durations of stop 57 times 0.6, as the rest of the table)
    ("tests/server/test_browser_malheur.py::test_a_malheur_choice_of_eight_moves", 17.0, False),
    ("tests/server/test_browser_malheur.py", 6.0, False),
    ("tests/server/test_browser_look.py::test_le_malin_says_a_winning_cards_value_once", 12.0, False),
    ("tests/server/test_browser_look.py::test_the_felt_is_kept", 10.0, False),
    ("tests/server/test_browser_look.py::test_a_laptop_shows_every_name", 12.0, False),
    ("tests/server/test_browser_look.py", 5.0, False),
    ("tests/server/test_browser_issue50.py::test_le_malin_never_offers", 25.0, False),
    ("tests/server/test_browser_issue50.py::test_the_review_and_the_replay_number", 23.0, False),
    ("tests/server/test_browser_issue50.py", 6.0, False),
    ("tests/learn/test_train.py::test_the_command_line_trains", 12.0, False),
    # (the tiny runs a little over half as long since their imitation shrank, issue 48 item 4 round 4)
    ("tests/learn/test_train.py::test_a_tiny_run_lowers_its_loss", 5.0, False),
    ("tests/learn/test_train.py::test_self_play_and_evaluation_run_on_ray_actors", 16.0, False),
    ("tests/server/test_browser_living.py::test_two_humans", 18.0, False),
    ("tests/server/test_browser_living.py", 6.0, False),
    (
        "tests/server/test_review.py::test_a_finished_game_is_reviewed_with_the_bots_figures_and_cached",
        14.0,
        False,
    ),
    ("tests/bots/test_learned.py::test_shipped_playout_networks_load", 4.0, False),
    (
        "tests/test_conformance.py::test_determinism_records_clones[nain-jaune-voluntary_stop=True]",
        6.0,
        False,
    ),
    ("tests/test_conformance.py::test_determinism_records_clones[nain-jaune", 2.0, False),
    ("tests/test_conformance.py::test_round_worlds_replay_to_the_view[nain-jaune", 2.0, False),
    ("tests/test_conformance.py::test_views_do_not_leak[nain-jaune", 0.5, False),
    ("tests/test_conformance.py::test_random_play_and_refusals[nain-jaune", 0.5, False),
    ("tests/test_repr.py::test_a_state_repr_rebuilds_the_state[nain-jaune-3]", 2.0, False),
    ("tests/server/test_browser.py::test_a_human_plays_a_whole_short_game_against_bots", 40.0, False),
    ("tests/server/test_browser.py::test_a_killed_server_resumes_the_game", 16.0, False),
    ("tests/server/test_browser.py::test_two_browsers_share_a_table", 13.0, False),
    ("tests/server/test_browser.py::test_keyboard_only_play_finishes_a_wizard_round", 12.0, False),
    ("tests/server/test_browser.py", 5.0, False),
    ("tests/server/test_browser_hint.py", 10.0, False),
    ("tests/server/test_browser_accounts.py", 10.0, False),
    ("tests/server/test_cluster.py", 14.0, False),
    ("tests/server/test_one_room.py", 6.0, False),
    ("tests/tournament/test_report_cli.py::test_ray_gives", 10.0, False),
    ("tests/nain_jaune/test_properties.py::test_invariants_hold_through_random_matches", 8.0, False),
    ("tests/wizard/test_properties.py::test_random_matches_follow_the_rules", 3.0, False),
    ("tests/sticheln/test_properties.py::test_card_conservation_and_score_totals", 5.0, False),
    ("tests/nain_jaune/test_sample_round.py::test_round_worlds_replay_to_the_view_at_every", 1.5, False),
    ("tests/test_replay_fuzz.py::test_replay_never_crashes_on_a_damaged_record", 3.0, False),
)


def long_entry(item: pytest.Item) -> int | None:
    """The index in LONG of the first prefix ``item`` matches, None for a short test."""
    for i, (prefix, _, _) in enumerate(LONG):
        if item.nodeid.startswith(prefix):
            return i
    return None


def shares(count: int, workers: int) -> list[int]:
    """How many tests xdist's worksteal scheduler first sends each worker (its check_schedule)."""
    out = []
    for i in range(workers):
        out.append(count // (workers - i))
        count -= out[-1]
    return out


def schedule(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` as ``workers`` contiguous shares, each its long tests first (see the module)."""
    units: dict[str, list[pytest.Item]] = {}  # a unit: tests that go to one worker together
    cost: dict[str, float] = {}
    short: list[pytest.Item] = []
    for item in items:
        entry = long_entry(item)
        if entry is None:
            short.append(item)
            continue
        prefix, seconds, together = LONG[entry]
        key = prefix if together else item.nodeid
        units.setdefault(key, []).append(item)
        cost[key] = seconds if together else cost.get(key, 0.0) + seconds
    queues: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for key in sorted(units, key=lambda k: -cost[k]):  # longest first, to the least loaded worker
        w = load.index(min(load))
        queues[w] += units[key]
        load[w] += cost[key]
    position = {item.nodeid: i for i, item in enumerate(items)}
    out: list[pytest.Item] = []
    rest = iter(short)
    for w, (queue, size) in enumerate(zip(queues, shares(len(items), workers), strict=True)):
        # Same-module tests side by side (their module-scoped fixtures, such as the browser, start
        # once); the modules in opposite orders on two workers, so that one plays the browser's
        # whole games (mostly waiting) while the other computes, not both at once.
        queue.sort(key=lambda it: position[it.nodeid])
        modules = list(dict.fromkeys(sorted(it.nodeid.split("::")[0] for it in queue)))
        order = {m: i for i, m in enumerate(modules if w % 2 == 0 else reversed(modules))}
        queue.sort(key=lambda it: order[it.nodeid.split("::")[0]])  # stable: pytest's order within
        out += queue
        out += itertools.islice(rest, max(0, size - len(queue)))  # rest may run out first
    out += list(rest)
    return out


#: The collector's first threshold (CPython's default is 700 allocations): see pytest_configure.
GC_THRESHOLD = 100_000


def pytest_configure(config: pytest.Config) -> None:
    """Fewer garbage collections (issue 48 item 4): a test process holds millions of objects
    (PyTorch, NumPy, SQLAlchemy, Starlette, Playwright and the suite's own), and the rules' tests
    allocate views and dicts by the million, so CPython's default thresholds ran a collection
    every 700 allocations and a full one, over the whole heap, often: about a fifth of the CPU of
    the engine-heavy tests (tests/test_conformance.py, test_reasons.py, the games' own tests).
    Only when unreachable cycles are freed changes; what a test computes does not."""
    gc.set_threshold(GC_THRESHOLD, 50, 100)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything alive once the tests are collected (the modules imported, their tables, the
    parametrizations) lives to the end: frozen out of the collector's reach, a full collection
    no longer walks it each time (see pytest_configure)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput else 1
    items[:] = schedule(items, workers)


@pytest.fixture(autouse=True, scope="session")
def _sb3_log_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Stable-Baselines3 makes a log folder at every ``learn()`` (its ``configure``), by default a new
    ``SB3-<date and time>`` in the system's temporary directory, left there: every run of the suite
    left half a dozen in /tmp.  Its ``SB3_LOGDIR`` points it under the run's own temporary directory
    (pytest's, cleaned with the rest); the examples' processes inherit it."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if before is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = before
