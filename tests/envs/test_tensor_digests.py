"""Every float of the shipped games' tensors, pinned: a digest of whole seeded matches.

The research adapters' encoders are rewritten for speed now and then (issue 48: the
AEC env's cycles), and the other tensor tests compare two roads through the *same*
encoder (list and float32 buffer) or check a few cells: a change of one float in
one block, at one seat, in a state those tests do not reach, would pass them.  Here
each configuration plays one seeded random match, and every seat's observation and
information-state tensor at every decision (chance nodes skipped) goes, as the
exact Python floats of the list encoder, into one SHA-256; the digests below were
taken before the encoders' rewrite.  A layout change that is meant must update them
(and the rules pages' "Tensors" sections, and any stored model's layout).
"""

from __future__ import annotations

import hashlib
import random
import struct
from typing import Any

import pytest

import atout
from atout.core.game import CHANCE

#: (game, players, options, SHA-256 of every tensor of the seeded match).
DIGESTS: list[tuple[str, int, dict[str, Any], str]] = [
    ("wizard", 3, {}, "7012e5eef6b7f7ed32d1ca0fcd2eac6654e287a77bf19ceadfe86926ff48bab5"),
    ("wizard", 4, {}, "d4c10a2253c4cd0ac7b6c200c3b26e5dfd22d05abce6e23a94796b5a3c3671a2"),
    ("wizard", 6, {}, "6de2434d113cb1765e84500b34cbe2c3d8276bd14834a0dedff2bf3c11aa8952"),
    (
        "wizard",
        4,
        {"clairvoyance": True, "rounds": 3},
        "a7798599016e9b070e7268995da2a6359a01f20b4b4537a3bf6ae31fc7a9ca2f",
    ),
    (
        "wizard",
        5,
        {"bids": "hidden_until_end", "rounds": 4},
        "eb2c4954c4e265f90a8814311b41a817431981fa3c641944d72433fc768bbef5",
    ),
    ("malin", 3, {}, "49b90fd9917db98bdc81423644d6907187fe4992bb2e8fc5628d7cf5675ff9cf"),
    ("malin", 4, {}, "e396f5202675c25310c4eccd1de416fcae4ff399d4130cd4dce508f8e6da5bfd"),
    ("malin", 5, {}, "30b0bcbde701d331c17d4f0e061d2ea1dd7d187088199dc55b3a2ef115a14574"),
    ("malin", 4, {"fun": True}, "9f557574e8da93e48cff1b1b606b70349a39b3ddcd493f99cd801931167df4da"),
    (
        "malin",
        5,
        {"fun": True, "copies_666": 2, "fennec_copies": 0},
        "1d87e8956387751a319177092c524a4c8d1a670f95edabbbd551522c680aa0dd",
    ),
    ("sticheln", 3, {}, "49ef53eb6c7b261b1f6165efd485f504eee0271b58b4f729113e8c4f1c63b8a4"),
    ("sticheln", 4, {}, "965ac00732f37408019e761735de01efbdcfe85b04339d533a49923ccbfc069a"),
    ("sticheln", 6, {}, "c4315e8ff0b4f2492245fe4ad1f9113b48e4f4127f769373ce6443b265cb55bd"),
    (
        "sticheln",
        4,
        {"two_pain_colours": True, "zero_lead_colour": "first_nonzero", "all_zero_trick": "void"},
        "079410c5cae52361a546fd7706dfda0888e003a2a3a7060ada02d36c2f6a1519",
    ),
    (
        "sticheln",
        5,
        {"hidden_pain": True, "gentle": True},
        "a7d971af0b8d1dc3a0c8f8f75d73584e482e3f5977a688f4ab6de2c0df951503",
    ),
    ("nain-jaune", 3, {}, "6948b953b708e4e05c96ce0eba3c8ba0a07e4de1bf7db6c887fba3e4caa3c928"),
    ("nain-jaune", 4, {}, "dcabd187f93d26905d47e68cd5ec0226de48d85ea53035c0f6d719f68498eb3c"),
    ("nain-jaune", 8, {}, "eb46d2dcf5bde200f660a29efac0cf847fcfa77c1dd31ea52a714719d8caa34c"),
    (
        "nain-jaune",
        4,
        {"direction": "counterclockwise", "max_deals": 3, "start_tokens": 40},
        "9b55e9f1a37ec861d638112cedfd67a37dde2947536825b7333514e598fba603",
    ),
    (
        "nain-jaune",
        5,
        {"manual_claim": True, "voluntary_stop": True},
        "15e9cf70cebab5a56a569ff9b5812c2a3413724655fba3cc0f8eafdca1255cd4",
    ),
]


def tensors_digest(game: atout.Game, seed: int) -> str:
    """SHA-256 of both tensors of every seat at every decision of one seeded random match."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    digest = hashlib.sha256()
    while True:
        if state.current_player != CHANCE or state.is_terminal:
            for seat in range(game.players):
                view = state.view(seat)
                for tensor in (game.observation_tensor(view), game.information_state_tensor(view)):
                    digest.update(struct.pack(f"<{len(tensor)}d", *tensor))
        if state.is_terminal:
            return digest.hexdigest()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("name", "players", "options", "expected"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}-{'-'.join(case[2]) or 'default'}") for case in DIGESTS],
)
def test_tensors_unchanged(name: str, players: int, options: dict[str, Any], expected: str) -> None:
    assert tensors_digest(atout.load(name, players, **options), seed=players) == expected
