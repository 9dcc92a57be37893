"""Positions (issue 20): every game's notation round-trips exactly, refuses what is wrong, seeds
the future as a match would, starts records, and single-round games score like that round."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import atout
from atout.cli.main import app
from atout.core.errors import PositionError, RecordError
from atout.core.game import State, sample_chance
from atout.records import Record, load_record, save_record

#: Every game and player count, with options that exercise the variants the positions must carry.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("wizard", 3, {"clairvoyance": True}),
    ("wizard", 4, {"bids": "hidden_until_play"}),
    ("wizard", 5, {"plus_minus_one": True}),
    ("wizard", 6, {"start_round": 4, "rounds": 3, "first_dealer": 1}),
    ("sticheln", 3, {}),
    ("sticheln", 4, {"first_lead": "dealer", "zero_lead_colour": "first_nonzero"}),
    ("sticheln", 5, {"two_pain_colours": True, "hidden_pain": True}),
    ("sticheln", 6, {"all_zero_trick": "void"}),
    ("sticheln", 7, {"start_round": 2, "hands": 2}),
    ("sticheln", 8, {"gentle": True}),
    ("malin", 3, {}),
    ("malin", 4, {"fun": True}),
    ("malin", 5, {"fun": True, "malin_steal": "one_total", "first_dealer": 2}),
    ("malin", 6, {"fun": True, "wish_forbidden_scope": "hand", "start_score": 6}),
    ("nain-jaune", 2, {}),
    ("nain-jaune", 3, {"first_card": "lowest", "grand_opera": "take_all_boxes"}),
    ("nain-jaune", 4, {"manual_claim": True}),
    ("nain-jaune", 5, {"direction": "counterclockwise", "voluntary_stop": True}),
    ("nain-jaune", 6, {"sequence_bonus": True, "stuck_rule": "free_restart"}),
    ("nain-jaune", 7, {"max_deals": 2}),
    ("nain-jaune", 8, {"start_round": 3, "max_deals": 1}),
]


def step(state: State, rng: random.Random) -> None:
    state.apply(sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions()))


def walk(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal:
            return
        step(state, rng)


def assert_same(a: State, b: State) -> None:
    assert a.current_player == b.current_player
    assert a.legal_actions() == b.legal_actions()
    assert a.chance_outcomes() == b.chance_outcomes()
    for seat in range(a.game.players):
        assert a.view(seat) == b.view(seat), seat
    assert a.scores() == b.scores()


@pytest.mark.parametrize(
    ("name", "players", "options"), TABLES, ids=lambda x: str(x) if not isinstance(x, dict) else ""
)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 600), seeded=st.booleans(), data=st.data())
def test_round_trip(
    name: str, players: int, options: dict[str, Any], seed: int, steps: int, seeded: bool, data: st.DataObject
) -> None:
    game = atout.load(name, players=players, **options)
    state = game.new_state(seed if seeded else None)
    rng = random.Random(seed)
    walk(state, rng, steps)
    text = state.position()
    copy = game.new_state(position=text)
    assert copy.position() == text
    assert copy.history == []
    assert_same(state, copy)
    # The same actions from here give the same futures (the seed, when there is one, is in the position).
    for _ in range(data.draw(st.integers(0, 300), label="future")):
        if state.is_terminal:
            break
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action)
        assert copy.current_player == state.current_player
    assert_same(state, copy)
    assert copy.position() == state.position()


def fields(text: str) -> dict[str, str]:
    return dict(word.split("=", 1) for word in text.split())


def joined(f: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in f.items())


def decision(name: str, players: int, seed: int = 3, steps: int = 0, **options: Any) -> State:
    state = atout.load(name, players=players, **options).new_state(seed)
    walk(state, random.Random(seed), steps)
    return state


# -- Wizard: a worked example and refusals -------------------------------------------------

WIZARD_EXAMPLE = (
    "round=2 dealer=2 scores=30,-10,20 hands=R1/B2,G3/G5,Y7 turned=Y1 trump=yellow bids=1,0,1 trick=B9"
)


def test_wizard_worked_example() -> None:
    game = atout.load("wizard", players=3)
    state: Any = game.new_state(position=WIZARD_EXAMPLE)
    assert state.current_player == 1  # seat 0 (the dealer's left) led B9
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["play B2"]  # must follow blue
    state.apply("play B2")
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["play G5", "play Y7"]
    state.apply("play Y7")  # trump wins
    ((cards, winner),) = state.view(0).tricks
    assert [(seat, state.game.action_to_text(kind)) for seat, kind in cards] == [
        (0, "play B9"),
        (1, "play B2"),
        (2, "play Y7"),
    ]
    assert winner == 2 and state.current_player == 2 and state.view(0).tricks_won == (0, 0, 1)
    assert state.scores() == [30, -10, 20]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"hands": "R1/B2/G5,Y7"}, "hands", "5 cards dealt"),
        ({"trick": "B9,G3", "hands": "R1/B2/G5,Y7"}, "trick", "must follow blue: you hold B2"),
        ({"hands": "R1,B2/B2,G3/G5,Y7"}, "hands", "B2 appears twice"),
        ({"hands": "R1,R2/B2/G5,Y7"}, "hands", "seat 0 holds 2 cards and has played 1: round 2 deals 2"),
        ({"bids": "3,0,1"}, "bids", "a bid is 0 to 2 in round 2"),
        ({"bids": "-,0,1"}, "bids", "in turn"),
        ({"trump": "blue"}, "trump", "trump is yellow"),
        ({"hands": "R1/Q2,G3/G5,Y7"}, "hands", "not a Wizard card"),
        ({"round": "21"}, "round", "out of range"),
        ({"dealer": "3"}, "dealer", "out of range"),
        ({"scores": "1,2"}, "scores", "2 entries for 3 seats"),
        ({"colour": "red"}, None, "unknown field"),
        ({"seed": "x"}, "seed", "not an integer"),
    ],
)
def test_wizard_refusals(change: dict[str, str], field: str | None, words: str) -> None:
    game = atout.load("wizard", players=3)
    f = fields(WIZARD_EXAMPLE) | change
    with pytest.raises(PositionError, match=words) as info:
        game.new_state(position=joined(f))
    assert info.value.field == field


def test_wizard_refuses_a_position_without_a_mandatory_field() -> None:
    game = atout.load("wizard", players=3)
    for name in ("round", "dealer", "scores", "hands"):
        f = fields(WIZARD_EXAMPLE)
        del f[name]
        with pytest.raises(PositionError, match="missing") as info:
            game.new_state(position=joined(f))
        assert info.value.field == name


def test_refuses_text_that_is_not_a_position() -> None:
    game = atout.load("wizard", players=3)
    for bad, words in [
        ("round", "not a field"),
        ("round=1 round=1", "twice"),
        ("a\nb", "one line"),
        ("", "missing"),
    ]:
        with pytest.raises(PositionError, match=words):
            game.new_state(position=bad)


def test_a_whole_round_dealt_at_once_and_the_seed_after() -> None:
    """The position deals a whole round (hands and turned card); the seed deals the rounds after,
    exactly as in a match with that seed."""
    game = atout.load("wizard", players=3, first_dealer=0)
    match: Any = game.new_state(seed=11)
    # Play the match to round 3's first decision.
    rng = random.Random(1)
    while match.round < 3:
        step(match, rng)
    blank = f"round=3 dealer={match.dealer} scores={','.join(map(str, match.scores()))} hands=-/-/-"
    dealt: Any = game.new_state(position=blank, seed=11)
    assert dealt.view(0).hand == match.view(0).hand and dealt.view(1).turned == match.view(1).turned
    with pytest.raises(PositionError, match="seed=11 but seed=12"):
        game.new_state(position=blank + " seed=11", seed=12)
    partial = "round=2 dealer=2 scores=0,0,0 hands=B1,B2/-/-"
    assert game.new_state(position=partial).is_chance
    with pytest.raises(PositionError, match="a seed deals whole rounds"):
        game.new_state(position=partial, seed=1)
    with pytest.raises(PositionError, match="in turn"):
        game.new_state(position="round=2 dealer=2 scores=0,0,0 hands=B1/B2/-")


# -- the other games' refusals -----------------------------------------------------------


def test_sticheln_refusals() -> None:
    state = decision("sticheln", 4, steps=30)
    game = state.game
    f = fields(state.position())
    seat0 = f["hands"].split("/")[0].split(",")
    hands = f["hands"].split("/")
    with pytest.raises(PositionError, match="appears twice") as info:
        game.new_state(
            position=joined(f | {"hands": "/".join([hands[0], hands[1] + "," + seat0[0], *hands[2:]])})
        )
    assert info.value.field == "hands"
    with pytest.raises(PositionError, match="cards dealt, but each of the 4 seats is dealt"):
        game.new_state(position=joined(f | {"hands": "/".join([",".join(seat0[1:]), *hands[1:]])}))
    with pytest.raises(PositionError, match="not a card of this deck"):
        game.new_state(position=joined(f | {"trick": "X1"}))
    pains = f["pains"].split("/")
    first = (int(f["dealer"]) + 1) % 4  # lays first: give its handicap card back to its hand
    pains[first], hands[first] = "-", hands[first] + "," + pains[first]
    with pytest.raises(PositionError, match="in turn from the dealer's left") as info:
        game.new_state(position=joined(f | {"pains": "/".join(pains), "hands": "/".join(hands)}))
    assert info.value.field == "pains"


def test_malin_refusals() -> None:
    state = decision("malin", 4, fun=True)
    game = state.game
    f = fields(state.position())
    with pytest.raises(PositionError, match="Wish is never put aside"):
        game.new_state(position=joined(f | {"removed": "WISH"}))
    with pytest.raises(PositionError, match="Malheur deck has 4") as info:
        game.new_state(position=joined(f | {"pile": "9,0,0,0,0"}))
    assert info.value.field == "malheurs"
    with pytest.raises(PositionError, match=r"move 1 'bid_9'"):
        game.new_state(
            position=joined(
                f | {"moves": "pass,pass,pass,pass,bid_9"} if "moves" in f else f | {"moves": "bid_9"}
            )
        )
    with pytest.raises(PositionError, match="at most start_score"):
        game.new_state(position=joined(f | {"scores": "11,10,10,10"}))
    with pytest.raises(PositionError, match="only in jeu fun"):
        atout.load("malin", players=4).new_state(position=joined(f))


def test_nain_jaune_refusals() -> None:
    state = decision("nain-jaune", 3, steps=5)
    game = state.game
    f = fields(state.position())
    with pytest.raises(PositionError, match="never made nor lost"):
        game.new_state(position=joined(f | {"tokens": "0,0,0"}))
    with pytest.raises(PositionError, match="left undealt are"):
        game.new_state(position=joined(f | {"talon": "AC"}))
    with pytest.raises(PositionError, match="move 1 'claim'"):
        game.new_state(position=joined(f | {"moves": "claim"}))
    hands = f["hands"].split("/")
    card = hands[0].split(",")[0]
    with pytest.raises(PositionError, match=f"{card} appears twice"):
        game.new_state(position=joined(f | {"hands": "/".join([hands[0], hands[1] + "," + card, hands[2]])}))


def test_a_sampled_world_has_no_moves_to_write() -> None:
    state = decision("malin", 4, steps=6)
    world = state.game.sample_state(state.view(state.current_player), random.Random(0))
    with pytest.raises(PositionError, match="history does not lead to it"):
        world.position()
    # Games written as a table alone write any state, sampled or not.
    wizard = decision("wizard", 4, steps=3)
    sampled = wizard.game.sample_state(wizard.view(wizard.current_player), random.Random(0))
    assert wizard.game.new_state(position=sampled.position()).view(wizard.current_player) == sampled.view(
        wizard.current_player
    )


# -- records ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["wizard", "sticheln", "malin", "nain-jaune"])
def test_record_from_a_position(name: str, tmp_path: Path) -> None:
    start = decision(name, 4, seed=5, steps=25)
    game = start.game
    state = game.new_state(position=start.position())  # seed included
    walk(state, random.Random(2), 40)
    record = Record.from_state(state)
    assert record.position is not None and "seed=" not in record.position and record.seed == 5
    text = record.to_text()
    assert f'[Position "{record.position}"]' in text
    assert Record.parse(text) == record
    assert Record.from_json(record.to_json()) == record
    replayed = Record.parse(text).replay()
    for seat in range(4):
        assert replayed.view(seat) == state.view(seat)
    path = tmp_path / "game.atout"
    save_record(path, record)
    assert load_record(path).replay().scores() == state.scores()
    ok = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert ok.exit_code == 0, ok.output
    # The digest covers the position: an edited one is caught.
    tampered = Record.parse(text.replace('[Position "round=', '[Position "round=1'))
    assert tampered.position != record.position
    assert tampered.integrity_error() is not None
    with pytest.raises(ValueError, match="per-seat"):
        Record.from_state(state, view=0)


def test_record_refuses_a_bad_position_tag() -> None:
    text = Record.from_state(atout.load("wizard", players=3).new_state(position=WIZARD_EXAMPLE)).to_text()
    bad = text.replace("trump=yellow", "trump=blue")
    with pytest.raises(RecordError, match="Position: position, trump") as info:
        Record.parse(bad).replay()
    assert info.value.line == 4
    with pytest.raises(RecordError, match="no seed= field"):
        Record.parse(text.replace("trick=B9", "trick=B9 seed=3"))


# -- single rounds and starts anywhere -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "first", "rounds"),
    [
        ("wizard", 4, {"first_dealer": 1}, "rounds"),
        ("sticheln", 4, {"first_dealer": 1}, "hands"),
        ("malin", 4, {"first_dealer": 1, "start_score": 30}, "rounds"),
        ("nain-jaune", 4, {"first_dealer": 1}, "max_deals"),
    ],
)
def test_a_single_round_is_that_round_of_a_match(
    name: str, players: int, first: dict[str, Any], rounds: str
) -> None:
    """start_round=R with one round deals (same seed) and rotates exactly as round R of a match,
    and the match ends with that round scored."""
    match: Any = atout.load(name, players=players, **first).new_state(seed=9)
    rng = random.Random(4)
    while match.round < 3 and not match.is_terminal:
        step(match, rng)
    assert match.round == 3
    single: Any = atout.load(name, players=players, start_round=3, **{rounds: 1}, **first).new_state(seed=9)
    while match.is_chance:
        step(match, rng)
    assert single.round == 3 and single.view(0).dealer == match.view(0).dealer
    assert single.view(0).hand == match.view(0).hand
    walk(single, rng, 100_000)
    assert single.is_terminal and single.round == 3


def test_openspiel_returns_of_a_single_round_are_that_rounds_score() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import atout.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_atout_wizard", {"players": 4, "start_round": 7, "rounds": 1})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    inner = state.atout_state
    assert inner.round == 7 and len(inner.sheet) == 1
    assert state.returns() == [float(d) for d in inner.sheet[0][2]]
    assert len(state.history()) <= game.max_game_length()


def test_pettingzoo_rewards_of_a_single_round_sum_to_its_score() -> None:
    pytest.importorskip("pettingzoo")
    from atout.envs import pettingzoo_env

    env = pettingzoo_env("sticheln", 4, start_round=2, hands=1)
    env.reset(seed=5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += float(reward)
        env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
    state = env.unwrapped.state
    assert state.round == 2 and len(state.sheet) == 1
    assert list(total.values()) == [float(d) for d in state.sheet[0][1]]


def test_start_round_options_are_checked() -> None:
    with pytest.raises(atout.OptionError, match=r"start_round must be 1\.\.15"):
        atout.load("wizard", players=4, start_round=16)
    with pytest.raises(atout.OptionError, match=r"rounds must be 1\.\.3"):
        atout.load("wizard", players=4, start_round=13, rounds=4)
    with pytest.raises(atout.OptionError, match="give hands="):
        atout.load("sticheln", players=4, start_round=5)
    short = atout.load("wizard", players=4, start_round=13).max_history_length()
    whole = atout.load("wizard", players=4).max_history_length()
    assert short is not None and whole is not None and short < whole


FUZZ_TABLES = [("wizard", 4, {}), ("sticheln", 4, {}), ("malin", 4, {"fun": True}), ("nain-jaune", 3, {})]
JUNK = "0123456789,/;:-=|._ABGRYZNOVTWISHCDKx"


@settings(max_examples=40, deadline=None)
@given(
    table=st.sampled_from(FUZZ_TABLES),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 200),
    pick=st.integers(0, 100),
    junk=st.text(JUNK, max_size=6),
    at=st.integers(0, 1000),
    mode=st.sampled_from(["replace", "insert", "delete", "drop"]),
)
def test_a_damaged_position_is_refused_or_playable(
    table: tuple[str, int, dict[str, Any]], seed: int, steps: int, pick: int, junk: str, at: int, mode: str
) -> None:
    """Whatever is done to a position's text, reading it either refuses it with a PositionError or
    gives a state that writes itself back and plays on by the rules."""
    name, players, options = table
    state = decision(name, players, seed=seed, steps=steps, **options)
    f = fields(state.position())
    key = list(f)[pick % len(f)]
    value = f[key]
    i = at % (len(value) + 1)
    if mode == "replace":
        f[key] = junk
    elif mode == "insert":
        f[key] = value[:i] + junk + value[i:]
    elif mode == "delete":
        f[key] = value[:i] + value[i + len(junk) :]
    else:
        del f[key]
    try:
        copy = state.game.new_state(position=joined(f))
    except PositionError:
        return
    assert state.game.new_state(position=copy.position()).view(0) == copy.view(0)
    walk(copy, random.Random(seed), 2_000)
    assert state.game.new_state(position=copy.position()).view(1) == copy.view(1)


def test_a_record_from_a_round_start_position_with_a_seed() -> None:
    """The seed deals the position's round at once: the deal is in the history, and the record
    (seedless position, then the deal's chance events) replays it."""
    game = atout.load("sticheln", players=3)
    state = game.new_state(position="round=2 dealer=1 scores=3,-2,0 hands=-/-/-", seed=4)
    assert state.history and state.current_player == 2  # dealt: the dealer's left lays a handicap card
    walk(state, random.Random(0), 30)
    record = Record.from_state(state)
    assert record.position == "round=2 dealer=1 scores=3,-2,0 hands=-/-/-" and record.seed == 4
    replayed = Record.parse(record.to_text()).replay()
    assert all(replayed.view(s) == state.view(s) for s in range(3))


@pytest.mark.parametrize(("name", "seed", "steps"), [("wizard", 0, 9), ("sticheln", 3, 60)])
def test_a_match_started_without_its_sheet_reads_back_when_over(name: str, seed: int, steps: int) -> None:
    """A position without its sheet (the sheet is optional) played to the end writes a partial
    sheet of as many lines as a whole sheet before the last round: the final position reads
    back (it was refused, "the sheet adds up to scores ..."; found by the fuzz test above)."""
    state = decision(name, 4, seed=seed, steps=steps)
    f = fields(state.position())
    del f["sheet"]
    copy = state.game.new_state(position=joined(f))
    walk(copy, random.Random(seed), 5_000)
    assert copy.is_terminal
    final = state.game.new_state(position=copy.position())
    assert all(final.view(s) == copy.view(s) for s in range(4))
