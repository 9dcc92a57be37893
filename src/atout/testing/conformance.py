"""Checks of the shared game interface, written once for every game.

They only use the public interface, so a game that passes them works with the
command line, records, bots and (later) the server and research adapters.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator

from ..core.errors import IllegalAction, NotationError
from ..core.game import CHANCE, TERMINAL, Game, State, View
from ..records import Record, parse_record
from .tensors import check_tensors

MAX_STEPS = 200_000


def _snapshot(state: State, views: Iterable[dict[str, object]] | None = None) -> tuple[object, ...]:
    """Everything observable of a state through the interface (its views' dicts, given or made).

    The dicts compare as they are (equal dicts of equal values, stricter than their JSON:
    a list become a tuple differs), not re-serialised: a probe takes three snapshots.
    """
    if views is None:
        views = (state.view(s).to_dict() for s in range(state.game.players))
    return (tuple(state.history), state.current_player, tuple(state.scores()), tuple(views))


def _where(game: Game, seed: int, step: int) -> str:
    return f"{game!r}, seed {seed}, step {step}"


def _random_play(
    game: Game, seed: int, rng: random.Random, every: int, *, end: bool = False
) -> Iterator[tuple[int, State]]:
    """Match ``seed`` played with random legal actions from ``rng``: ``(step, state)`` every ``every`` steps.

    With ``end``, the finished state too.  The caller may draw from ``rng``
    before asking for the next position (the checks sample worlds with it).
    """
    state = game.new_state(seed)
    step = 0
    while not state.is_terminal:
        if step % every == 0:
            yield step, state
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    if end:
        yield step, state


def _both(view: View, other: View) -> str:
    """Two views' dicts, a line each: what a message shows when they should be equal."""
    return f"{json.dumps(view.to_dict(), sort_keys=True)}\n{json.dumps(other.to_dict(), sort_keys=True)}"


def check_random_play(game: Game, seed: int, probe_every: int = 7) -> State:
    """Random legal play to the end, checking the interface's promises at each step.

    One actor at a time; legal actions sorted, unique, in range and agreeing with
    the mask; every listed action text parses back to its id; an action that is
    not legal is refused with :class:`IllegalAction` and changes nothing; views
    are JSON-ready and carry ``legal_actions`` only for the seat to act; final
    scores lie within ``score_bounds()`` when the game states them.
    """
    rng = random.Random(seed)
    state = game.new_state(seed)
    for step in range(MAX_STEPS):
        where = _where(game, seed, step)
        actor = state.current_player
        if state.is_terminal:
            assert actor == TERMINAL, where
            assert state.legal_actions() == [], f"{where}: legal actions after the end"
            assert state.winners(), f"{where}: no winner at the end"
            bounds = game.score_bounds()
            if bounds is not None:
                low, high = bounds
                assert all(low <= x <= high for x in state.scores()), (
                    f"{where}: final scores {state.scores()} outside score_bounds() {bounds}"
                )
            return state
        assert actor != CHANCE, f"{where}: a seeded state stopped at chance"
        assert 0 <= actor < game.players, f"{where}: current_player {actor}"
        legal = state.legal_actions()
        assert legal, f"{where}: no legal action for seat {actor}"
        assert legal == sorted(set(legal)), f"{where}: legal actions not sorted/unique"
        assert all(0 <= a < game.num_actions for a in legal), f"{where}: action id out of range"
        mask = state.legal_mask()
        assert len(mask) == game.num_actions, f"{where}: mask size"
        assert [a for a, m in enumerate(mask) if m] == legal, f"{where}: mask disagrees with legal_actions"
        if step % probe_every == 0:
            for a in legal:
                text = state.action_to_text(a)
                assert state.parse(text) == a, f"{where}: {text!r} parses to {state.parse(text)}, not {a}"
            views = [state.view(s) for s in range(game.players)]
            dicts = [v.to_dict() for v in views]
            for s, v in enumerate(views):
                json.dumps(dicts[s])
                expected = tuple(legal) if s == actor else ()
                assert tuple(v.legal_actions) == expected, f"{where}: view {s} legal_actions"
            illegal = [a for a in range(game.num_actions) if not mask[a]]
            if illegal:
                before = _snapshot(state, dicts)
                bad = rng.choice(illegal)
                try:
                    state.apply(bad)
                except IllegalAction as exc:
                    assert str(exc), f"{where}: refusal without a reason"
                else:
                    raise AssertionError(f"{where}: illegal action {bad} was accepted")
                assert _snapshot(state) == before, f"{where}: a refused action changed the state"
                try:
                    state.apply("this is not an action")
                except NotationError:
                    pass
                else:
                    raise AssertionError(f"{where}: nonsense text accepted")
                assert _snapshot(state) == before, f"{where}: a refused text changed the state"
        state.apply(rng.choice(legal))
    raise AssertionError(f"{game!r}, seed {seed}: no end after {MAX_STEPS} steps")


def check_chance_explicit(game: Game, seed: int) -> State:
    """A seedless state stops at every chance node with a proper distribution."""
    rng = random.Random(seed)
    state = game.new_state(None)
    chance_nodes = 0
    for step in range(MAX_STEPS):
        if state.is_terminal:
            assert chance_nodes > 0, f"{game!r}: no chance node in a whole match"
            return state
        if state.is_chance:
            chance_nodes += 1
            outcomes = state.chance_outcomes()
            assert outcomes, f"{_where(game, seed, step)}: chance node without outcomes"
            total = sum(p for _, p in outcomes)
            assert abs(total - 1.0) < 1e-9, f"{_where(game, seed, step)}: probabilities sum to {total}"
            assert [a for a, _ in outcomes] == state.legal_actions(), (
                f"{_where(game, seed, step)}: chance legal"
            )
            assert all(0 <= a < game.num_chance_outcomes for a, _ in outcomes)
            actions = [a for a, _ in outcomes]
            state.apply(rng.choices(actions, [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"{game!r}: no end after {MAX_STEPS} steps")


def _chance_by_round(state: State) -> dict[int, list[int]]:
    replay = state.game.new_state(None)
    out: dict[int, list[int]] = {}
    for a in state.history:
        if replay.is_chance:
            out.setdefault(replay.round, []).append(a)
        replay.apply(a)
    return out


def check_determinism(game: Game, seed: int) -> None:
    """The same seed and the same choices give the same match; the same seed deals
    the same cards in every round whatever the players do."""
    first = check_random_play(game, seed)
    again = check_random_play(game, seed)
    assert first.history == again.history, f"{game!r}, seed {seed}: not deterministic"
    other = game.new_state(seed)
    rng = random.Random(seed + 1)
    while not other.is_terminal:
        other.apply(rng.choice(other.legal_actions()))
    a, b = _chance_by_round(first), _chance_by_round(other)
    # The first round's deal is always played; later rounds compare when both
    # matches reached them (a game may end earlier with other choices).
    # Mid-round chance (a random steal, say) may depend on play: compare the
    # prefix that precedes any player action, i.e. the deal.
    for rnd in sorted(set(a) & set(b)):
        deal_a, deal_b = _deal_prefix(first, rnd), _deal_prefix(other, rnd)
        assert deal_a == deal_b, f"{game!r}, seed {seed}: round {rnd} dealt differently with other play"


def _deal_prefix(state: State, rnd: int) -> list[int]:
    replay = state.game.new_state(None)
    out: list[int] = []
    started = False
    for a in state.history:
        if replay.round == rnd:
            if replay.is_chance:
                out.append(a)
                started = True
            elif started:
                return out
        replay.apply(a)
    return out


def check_record_round_trip(game: Game, seed: int) -> None:
    """Records of a match read back losslessly (text and JSON) and replay exactly;
    per-seat exports hide what the seat may not know and refuse to replay."""
    state = check_random_play(game, seed)
    record = Record.from_state(
        state, seats=[f"P{i}" for i in range(game.players)], tags={"Event": "conformance"}
    )
    text = record.to_text()
    parsed = parse_record(text)
    assert parsed.to_text() == text, f"{game!r}, seed {seed}: text record not lossless"
    assert parse_record(parsed.to_json()).to_text() == text, f"{game!r}, seed {seed}: JSON twin not lossless"
    replayed = parsed.replay()
    assert replayed.history == state.history, f"{game!r}, seed {seed}: replay differs"
    assert replayed.scores() == state.scores()
    for seat in range(game.players):
        export = Record.from_state(state, view=seat)
        assert export.seed is None, "a seat export must not carry the seed"
        redacted = state.redacted_history(seat)
        assert len(redacted) == len(state.history)
        hidden = sum(1 for m in export.moves if m.text is None or m.text.split()[-1] == "?")
        assert hidden == redacted.count(None), (
            f"{game!r}: export hides {hidden}, redaction {redacted.count(None)}"
        )
        try:
            parse_record(export.to_text()).replay()
        except Exception as exc:
            assert "export" in str(exc)
        else:
            raise AssertionError("a per-seat export replayed as if complete")


def check_no_leak(game: Game, seed: int, samples: int = 3, every: int = 5) -> None:
    """A seat's view is the same in every world consistent with it.

    At decision points, worlds are sampled from the acting seat's view; each
    deals the cards that seat cannot see anew.  Were anything hidden to leak
    into the view, the view of some world would differ.  Samples are also
    checked to be playable states with the same seat to act.
    """
    rng = random.Random(seed)
    for step, state in _random_play(game, seed, rng, every):
        actor = state.current_player
        view = state.view(actor)
        for _ in range(samples):
            world = game.sample_state(view, rng)
            assert world.current_player == actor, f"{_where(game, seed, step)}: sample changes who acts"
            other = world.view(actor)
            assert other.to_dict() == view.to_dict(), (
                f"{_where(game, seed, step)}: seat {actor}'s view differs in a world consistent with it:\n"
                f"{_both(view, other)}"
            )
            # The sample is a real state: it can be played on.
            probe = world.clone()
            probe.apply(rng.choice(probe.legal_actions()))


def check_sample_round(game: Game, seed: int, samples: int = 2, every: int = 3) -> int:
    """Replaying a ``sample_round`` world's actions reaches the viewer's own view.

    Games that do not offer ``sample_round`` pass trivially.  A world that
    replays to a different view would make inference weigh the wrong history;
    one that cannot be replayed at all (an illegal action) fails here with the
    step.  Returns how many worlds were checked.
    """
    rng = random.Random(seed)
    checked = 0
    for step, state in _random_play(game, seed, rng, every):
        actor = state.current_player
        view = state.view(actor)
        for _ in range(samples):
            got = game.sample_round(view, rng)
            if got is None:
                break
            world, actions = got
            assert not world.is_terminal, f"{_where(game, seed, step)}: a round world is over"
            for i, action in enumerate(actions):
                reason = world.illegal_reason(action) if world.current_player >= 0 else None
                assert reason is None, (
                    f"{_where(game, seed, step)}: replaying round action {i} "
                    f"({world.action_to_text(action)}) is refused: {reason}"
                )
                world.apply(action)
            other = world.view(actor)
            assert other.to_dict() == view.to_dict(), (
                f"{_where(game, seed, step)}: a replayed round world gives seat {actor} another view:\n"
                f"{_both(view, other)}"
            )
            checked += 1
    return checked


def check_view_dict(game: Game, seed: int, every: int = 5) -> int:
    """``View.from_dict`` rebuilds views exactly: fields, legal actions, ``to_dict()``, through JSON.

    Every seat's view is checked every ``every`` steps and at the end.  A game
    whose view class has no ``read_dict`` (``from_dict`` not offered) passes
    trivially.  Returns how many views were checked.
    """
    import dataclasses

    from ..core.viewdict import view_class

    if getattr(view_class(game), "read_dict", None) is None:
        return 0
    checked = 0
    for step, state in _random_play(game, seed, random.Random(seed), every, end=True):
        for seat in range(game.players):
            view = state.view(seat)
            data = json.loads(json.dumps(view.to_dict()))
            rebuilt = View.from_dict(data, game)
            where = f"{_where(game, seed, step)}, seat {seat}"
            assert rebuilt.to_dict() == view.to_dict(), f"{where}: from_dict gives another view"
            assert rebuilt.legal_actions == view.legal_actions, f"{where}: from_dict changes legal actions"
            if dataclasses.is_dataclass(view):
                for f in dataclasses.fields(view):
                    assert getattr(rebuilt, f.name) == getattr(view, f.name), (
                        f"{where}: from_dict changes the field {f.name}"
                    )
            checked += 1
    return checked


def check_clone_independence(game: Game, seed: int) -> None:
    """A clone evolves on its own: playing on it leaves the original untouched."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(rng.randrange(1, 40)):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = _snapshot(state)
    copy = state.clone()
    assert _snapshot(copy) == before, f"{game!r}: a clone differs from its original"
    while not copy.is_terminal:
        copy.apply(rng.choice(copy.legal_actions()))
    assert _snapshot(state) == before, f"{game!r}: playing on a clone changed the original"


def check_game(game: Game, seeds: Iterable[int] = (0, 1)) -> None:
    """Run every check on ``game`` for each seed."""
    for seed in seeds:
        check_random_play(game, seed)
        check_chance_explicit(game, seed)
        check_determinism(game, seed)
        check_record_round_trip(game, seed)
        check_no_leak(game, seed)
        check_sample_round(game, seed)
        check_view_dict(game, seed)
        check_clone_independence(game, seed)
        check_tensors(game, seed)
