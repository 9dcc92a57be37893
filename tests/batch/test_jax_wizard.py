"""The JAX Wizard batch against the numpy one: the same seeds, the same actions, every step compared.

Why against the numpy batch: it is itself checked against the engine every
step (tests/batch/test_wizard.py), so a JAX batch that equals it step for step
— legal masks, rewards, scores, the seat to act, the ends, and the state
behind them — plays the engine's games.  The actions come from a seeded rule
both sides can compute (the k-th legal action, k from the match and the
step), or from the JAX batch's own random policy, which the numpy batch then
checks for legality.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, WizardBatch
from atout.batch.wizard import _BEATS
from atout.games.wizard import cards as C

from .engine_compare import sample_seeds

jax = pytest.importorskip("jax", reason="jax is an optional extra: pip install 'atout[jax]'")
jnp = pytest.importorskip("jax.numpy")

from atout.batch.jax import JaxWizard, WizardJaxState, hand_counts, slot_words  # noqa: E402

#: XLA's flags for this module's process: its machine code unoptimised (LLVM's level 0, its costly
#: passes off).  The module compiles about a hundred small programs (each table size, option and
#: batch size: init, step, random actions, rollout) and runs each on a few dozen matches, so
#: compiling was most of its CPU: 24.5 -> 18 s for the file (issue 48 item 4).  The programs are the
#: same (the same HLO, integer arithmetic), so every value compared is computed as before; only how
#: fast the machine code runs changes.
QUICK_COMPILES = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"


@pytest.fixture(scope="module", autouse=True)
def quick_compiles() -> Iterator[None]:
    """Start JAX's CPU backend under :data:`QUICK_COMPILES` (XLA reads its flags once, when the
    backend starts; where another module started it earlier, the flags are ignored: slower, not
    different).  The environment is restored at once: the tests' other processes never see them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XLA_FLAGS", f"{os.environ.get('XLA_FLAGS', '')} {QUICK_COMPILES}".strip())
        jax.devices()
    yield


#: The fields both batches hold under the same name and meaning (hands are compared as counts).
SAME_FIELDS = ("phase", "round", "dealer", "current_player", "leader", "trump", "turned")
SAME_SEAT_FIELDS = ("bids", "tricks_won")


def assert_same(batch: WizardBatch, state: WizardJaxState, where: str) -> None:
    assert np.array_equal(np.asarray(state.legal_action_mask), batch.legal_mask()), where
    assert np.array_equal(np.asarray(state.terminal), batch.terminal), where
    assert np.array_equal(np.asarray(state.scores), batch.scores), where
    live = ~batch.terminal  # a finished match's round fields are whatever its last round left
    for name in SAME_FIELDS + SAME_SEAT_FIELDS:
        mine, theirs = np.asarray(getattr(state, name)), getattr(batch, name)
        assert np.array_equal(mine[live], theirs[live]), f"{name} {where}"
    # The same slots: both batches deal the same masks and play a kind's lowest slot.
    assert np.array_equal(np.asarray(state.hands)[live], slot_words(batch.hands)[live]), where


def rule_actions(mask: np.ndarray[Any, Any], step: int) -> np.ndarray[Any, Any]:
    """The k-th legal action of each match, k from the match's index and the step (0 once over)."""
    counts = mask.sum(axis=1)
    g = np.arange(mask.shape[0])
    k = (g * 7 + step * 13 + g * step) % np.maximum(counts, 1)
    ranks = np.cumsum(mask, axis=1) - 1
    chosen = np.argmax(mask & (ranks == k[:, None]), axis=1)
    return np.where(counts > 0, chosen, 0).astype(np.int32)


def play_both(players: int, seeds: list[int], policy: str = "rule", **options: Any) -> int:
    """Play the numpy and JAX batches side by side until every match is over; returns the steps."""
    batch = WizardBatch(players, seeds, **options)
    env = JaxWizard(players, **options)
    state = env.new_matches(seeds)
    key = jax.random.key(sum(seeds) % (1 << 31))
    steps = 0
    while not batch.terminal.all():
        where = f"step {steps}"
        assert_same(batch, state, where)
        if policy == "rule":
            actions = rule_actions(batch.legal_mask(), steps)
        else:
            actions = np.asarray(env.random_actions(state, jax.random.fold_in(key, steps)))
        env.check(state, actions)
        over_before = np.asarray(state.terminal)
        step = batch.step(actions)  # check=True: refuses an illegal action of the JAX policy
        state = env.step(state, jnp.asarray(actions, dtype=jnp.int32))
        assert np.array_equal(np.asarray(state.rewards), step.rewards), where
        ended = np.asarray(state.terminal) & ~over_before  # the JAX flag stays set; numpy's names the step
        assert np.array_equal(ended, step.terminal), where
        assert np.array_equal(np.asarray(state.scores), step.scores), where
        steps += 1
        assert steps < 2000, "the matches should have ended"
    assert_same(batch, state, "at the end")
    return steps


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_matches_equal_numpy_batch(players: int) -> None:
    # 24 matches of every round: the vectorised deal (>= 256 seed rows) for every table size.
    steps = play_both(players, sample_seeds(24, 100 + players))
    assert steps >= sum(players * r + players for r in range(1, 60 // players + 1))


def test_jax_random_policy_plays_legal_whole_matches() -> None:
    play_both(4, sample_seeds(8, 7), policy="random")


@pytest.mark.parametrize(
    "options",
    [
        {"plus_minus_one": True},
        {"clairvoyance": True, "rounds": 3},
        {"start_round": 5, "rounds": 3, "first_dealer": 2},
        {"bids": "hidden_until_end", "rounds": 4},
    ],
    ids=["plus_minus_one", "clairvoyance", "start_round", "hidden_bids"],
)
def test_options_equal_numpy_batch(options: dict[str, Any]) -> None:
    play_both(4, sample_seeds(12, 30), **options)


def test_check_refuses_an_illegal_action_and_ignores_finished_matches() -> None:
    env = JaxWizard(3, rounds=1)
    state = env.new_matches([1, 2])
    mask = np.asarray(state.legal_action_mask)
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(IllegalActions, match=r"first match 1 \(round 1, seat \d\): action \d+; legal: "):
        env.check(state, [int(np.flatnonzero(mask[0])[0]), illegal])
    with pytest.raises(ValueError, match="3 actions for 2 matches"):
        env.check(state, [0, 0, 0])
    while not bool(np.asarray(state.terminal).all()):
        actions = np.argmax(np.asarray(state.legal_action_mask), axis=1)
        env.check(state, actions)
        state = env.step(state, jnp.asarray(actions, dtype=jnp.int32))
    env.check(state, [illegal, illegal])  # over: any action is ignored
    before = np.asarray(state.scores)
    state = env.step(state, jnp.asarray([illegal, illegal], dtype=jnp.int32))
    assert np.array_equal(np.asarray(state.scores), before)
    assert not np.asarray(state.rewards).any()
    assert (np.asarray(state.current_player) == -4).all()


def test_random_policy_reaches_every_legal_action() -> None:
    env = JaxWizard(4)
    state = env.new_matches([5])
    legal = set(np.flatnonzero(np.asarray(state.legal_action_mask)[0]).tolist())
    seen = {int(env.random_actions(state, jax.random.key(i))[0]) for i in range(200)}
    assert seen == legal


def test_rollout_ends_whole_matches() -> None:
    env = JaxWizard(3, rounds=2)
    state = env.rollout(env.new_matches(sample_seeds(5, 3)), jax.random.key(0), steps=2 * (3 + 3 * 2) + 6)
    assert bool(np.asarray(state.terminal).all())
    assert (np.asarray(state.scores) % 10 == 0).all()


def test_step_one_is_the_batched_step_of_one_match() -> None:
    # The batched step deals the next round only in the steps where some match opens one: the same games.
    env = JaxWizard(3, rounds=2)
    state = env.new_matches(sample_seeds(4, 11))
    one = jax.jit(jax.vmap(env.step_one))
    while not bool(np.asarray(state.terminal).all()):
        actions = jnp.asarray(rule_actions(np.asarray(state.legal_action_mask), 3), dtype=jnp.int32)
        batched, single = env.step(state, actions), one(state, actions)
        for name, mine, theirs in zip(WizardJaxState._fields, batched, single, strict=True):
            assert np.array_equal(np.asarray(mine), np.asarray(theirs)), name
        state = batched


def test_a_donating_step_plays_the_same_games() -> None:
    seeds = sample_seeds(3, 12)
    plain, donating = JaxWizard(3, rounds=2), JaxWizard(3, rounds=2, donate=True)
    state, consumed = plain.new_matches(seeds), donating.new_matches(seeds)
    for step in range(12):
        actions = jnp.asarray(rule_actions(np.asarray(state.legal_action_mask), step), dtype=jnp.int32)
        state, consumed = plain.step(state, actions), donating.step(consumed, actions)
        for name, mine, theirs in zip(WizardJaxState._fields, state, consumed, strict=True):
            assert np.array_equal(np.asarray(mine), np.asarray(theirs)), name


def test_trick_rule_equals_the_numpy_batch_table() -> None:
    trump, win, kind = np.meshgrid(
        np.arange(-1, 4), np.arange(-1, C.NUM_KINDS), np.arange(C.NUM_KINDS), indexing="ij"
    )
    takes = JaxWizard._takes(jnp.asarray(kind), jnp.asarray(win), jnp.asarray(trump))
    expected = _BEATS.reshape(5, C.NUM_KINDS + 1, C.NUM_KINDS + 1)[:, :, : C.NUM_KINDS]
    assert np.array_equal(np.asarray(takes), expected)


def test_hand_counts_count_wizards_and_jesters() -> None:
    mask = np.array([C.mask_of([0, 13, C.WIZARD, C.WIZARD, C.JESTER])], dtype=np.uint64)
    counts = hand_counts(mask)[0]
    assert counts.shape == (C.NUM_KINDS,)
    assert {int(k): int(counts[k]) for k in np.flatnonzero(counts)} == {0: 1, 13: 1, C.WIZARD: 2, C.JESTER: 1}
    words = slot_words(mask)[0]
    assert (int(words[1]) << 32) | int(words[0]) == int(mask[0])


def test_new_matches_needs_a_seed() -> None:
    with pytest.raises(ValueError, match="at least one seed"):
        JaxWizard(4).new_matches([])
