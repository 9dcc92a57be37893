"""Le Nain Jaune's tensor layout (src/atout/i18n/en/rules/nain-jaune.md, "Tensors")."""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.games.nain_jaune import cards as C
from atout.games.nain_jaune.game import CLAIM, PASS, NainJauneGame, NainJauneState
from atout.games.nain_jaune.tensor import PHASES, blocks
from atout.games.nain_jaune.view import NainJauneView
from atout.testing import check_tensors

OPTIONS: list[dict[str, Any]] = [
    {},
    {"voluntary_stop": True},
    {"manual_claim": True},
    {"direction": "counterclockwise"},
    {"first_card": "lowest", "sequence_bonus": True},
    {"stuck_rule": "free_restart", "payment": "per_card", "grand_opera": "take_all_boxes"},
    {"max_deals": 3, "first_dealer": 1, "stake_unit": 2, "start_tokens": 60},
]


def _block(game: NainJauneGame, tensor: list[float], name: str) -> list[float]:
    at = 0
    for block, size in blocks(game, information_state=True):
        if block == name:
            return tensor[at : at + size]
        at += size
    raise KeyError(name)


def _play_until(game: NainJauneGame, seed: int, stop: Any, limit: int = 5000) -> NainJauneState:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal or stop(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such state within the step limit")


@pytest.mark.parametrize("players", range(2, 9))
def test_sizes_for_every_player_count_and_option(players: int) -> None:
    obs = 137 + 20 * players
    info = obs + 52 * players + 52
    for options in OPTIONS:
        game = NainJauneGame(players, **options)
        assert game.observation_tensor_size() == obs
        assert game.information_state_tensor_size() == info
        assert sum(size for _, size in blocks(game, information_state=False)) == obs
        assert blocks(game, True)[: len(blocks(game, False))] == blocks(game, False)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_tensors_along_matches(players: int) -> None:
    check_tensors(NainJauneGame(players, max_deals=2), seed=players, every=4, samples=2)


@pytest.mark.parametrize("options", OPTIONS[1:], ids=lambda o: ",".join(o))
def test_tensors_with_options(options: dict[str, Any]) -> None:
    opts = {"max_deals": 2, **options}
    check_tensors(NainJauneGame(4, **opts), seed=11, every=3, samples=2)


def _read_back(view: NainJauneView) -> None:
    """Every block of ``view``'s information-state tensor says what the view says."""
    game = view.game
    n, me, step = game.players, view.seat, game.step
    tensor = game.information_state_tensor(view)
    assert game.observation_tensor(view) == tensor[: game.observation_tensor_size()]

    def rel(seat: int) -> int:
        return ((seat - me) * step) % n

    def one_hot(name: str) -> int:
        block = _block(game, tensor, name)
        assert sorted(block) == [0.0] * (len(block) - 1) + [1.0], name
        return block.index(1.0)

    assert PHASES[one_hot("phase")] == view.phase
    assert _block(game, tensor, "deal")[0] == pytest.approx(1 - 1 / view.deal)
    assert one_hot("dealer") == rel(view.dealer)
    assert one_hot("opener") == rel(view.opener)
    to_act = _block(game, tensor, "to_act")
    if 0 <= view.current_player < n:
        assert to_act.index(1.0) == rel(view.current_player)
    else:
        assert set(to_act) == {0.0}
    hand = _block(game, tensor, "hand")
    assert [c for c in range(52) if hand[c]] == list(view.hand)
    assert set(hand) <= {0.0, 1.0}
    sizes = _block(game, tensor, "hand_sizes")
    for seat, size in enumerate(view.hand_sizes):
        assert sizes[rel(seat)] * game.hand_size == pytest.approx(size)
    assert sizes[0] * game.hand_size == pytest.approx(len(view.hand))
    need = _block(game, tensor, "need")
    if view.need is not None:
        assert one_hot("need") == view.need - 1
    elif view.phase == "play":
        assert one_hot("need") == 13
    else:
        assert set(need) == {0.0}
    assert one_hot("last") == rel(view.last)
    assert one_hot("asked") == view.asked
    pile = _block(game, tensor, "pile")
    assert [c for c in range(52) if pile[c]] == sorted(c for _, c in view.played)
    lacks = _block(game, tensor, "lacks")
    for seat, mask in enumerate(view.lacks):
        row = lacks[rel(seat) * 13 : (rel(seat) + 1) * 13]
        assert sum(int(x) << r for r, x in enumerate(row)) == mask
    claim = _block(game, tensor, "claim_box")
    if view.claim_box is None:
        assert set(claim) == {0.0}
    else:
        assert one_hot("claim_box") == view.claim_box
    assert _block(game, tensor, "decision") == [
        float(PASS in view.legal_actions),
        float(CLAIM in view.legal_actions),
    ]
    assert _block(game, tensor, "bonus_due") == [float(view.bonus_due)]
    total = n * game.options["start_tokens"]
    boxes = _block(game, tensor, "boxes")
    assert [round(x * total) for x in boxes] == list(view.boxes)
    tokens = _block(game, tensor, "tokens")
    assert [round(tokens[rel(s)] * total) for s in range(n)] == list(view.tokens)
    assert sum(boxes) + sum(tokens) == pytest.approx(1.0)  # the tokens in play never change
    played_by = _block(game, tensor, "played_by")
    for seat in range(n):
        row = played_by[rel(seat) * 52 : (rel(seat) + 1) * 52]
        assert [c for c in range(52) if row[c]] == sorted(c for s, c in view.played if s == seat)
    order = _block(game, tensor, "pile_order")
    assert sorted((x, c) for c, x in enumerate(order) if x) == [
        ((i + 1) / 52, c) for i, (_, c) in enumerate(view.played)
    ]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_layout_reads_back(options: dict[str, Any]) -> None:
    game = NainJauneGame(4, **{"max_deals": 2, **options})
    state = game.new_state(seed=21)
    rng = random.Random(21)
    checked = 0
    while not state.is_terminal:
        for seat in range(4):
            _read_back(state.view(seat))
        checked += 1
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(4):
        _read_back(state.view(seat))
    assert checked > 20


def test_relative_seats_follow_the_direction_of_play() -> None:
    for direction, after in (("clockwise", 1), ("counterclockwise", -1)):
        game = NainJauneGame(5, direction=direction, first_dealer=0)
        state = game.new_state(seed=4)
        assert state.phase_name == "play"
        view = state.view(2)
        # The opener is the seat after the dealer; seen from the dealer's own seat
        # it is relative seat 1 in both directions.
        assert view.opener == after % 5
        dealer_view = state.view(0)
        assert _block(game, game.observation_tensor(dealer_view), "opener").index(1.0) == 1
        assert _block(game, game.observation_tensor(dealer_view), "dealer").index(1.0) == 0


def test_pending_claim_and_voluntary_stop_are_shown() -> None:
    game = NainJauneGame(4, manual_claim=True, max_deals=3)
    state = _play_until(game, 3, lambda s: s.claim_box >= 0)
    view = state.view(state.current_player)
    tensor = game.observation_tensor(view)
    assert _block(game, tensor, "claim_box")[state.claim_box] == 1.0
    assert _block(game, tensor, "decision")[1] == 1.0
    other = state.view((state.current_player + 1) % 4)
    tensor = game.observation_tensor(other)
    assert _block(game, tensor, "claim_box")[state.claim_box] == 1.0  # public
    assert _block(game, tensor, "decision") == [0.0, 0.0]  # not its decision

    game = NainJauneGame(4, voluntary_stop=True, max_deals=3)
    state = _play_until(
        game, 5, lambda s: s.phase_name == "play" and s.need and s.hands[s.to_act] & C.RANK_MASK[s.need]
    )
    view = state.view(state.current_player)
    assert PASS in view.legal_actions
    assert _block(game, game.observation_tensor(view), "decision") == [1.0, 0.0]


def test_deal_number_is_bounded() -> None:
    game = NainJauneGame(3, max_deals=4)
    state = _play_until(game, 2, lambda s: s.round == 3 and s.phase_name == "play")
    deal = _block(game, game.observation_tensor(state.view(0)), "deal")
    assert deal == pytest.approx([1 - 1 / 3, 3 / 4])
    unlimited = NainJauneGame(3)
    state = _play_until(unlimited, 2, lambda s: s.round == 3 and s.phase_name == "play")
    deal = _block(unlimited, unlimited.observation_tensor(state.view(0)), "deal")
    assert deal == pytest.approx([1 - 1 / 3, 0.0])


def test_same_tensor_in_sampled_worlds_and_deterministic() -> None:
    game = NainJauneGame(4, voluntary_stop=True)
    state = _play_until(game, 9, lambda s: s.phase_name == "play" and len(s.played) >= 10)
    rng = random.Random(9)
    me = state.current_player
    view = state.view(me)
    obs, info = game.observation_tensor(view), game.information_state_tensor(view)
    assert obs == game.observation_tensor(state.clone().view(me))
    for _ in range(10):
        world = game.sample_state(view, rng)
        assert game.observation_tensor(world.view(me)) == obs
        assert game.information_state_tensor(world.view(me)) == info


def test_tensor_refuses_a_foreign_view() -> None:
    view = atout.load("nain-jaune", 4).new_state(seed=1).view(0)
    with pytest.raises(ValueError, match="Nain Jaune"):
        atout.load("nain-jaune", 3).observation_tensor(view)
