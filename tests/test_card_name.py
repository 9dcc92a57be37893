"""``Game.card_name``: each game reads its own card notation into name parts (for words, not notation)."""

from __future__ import annotations

import pytest

import atout
from atout.core.cardname import CardName


@pytest.mark.parametrize(
    ("game", "text", "parts"),
    [
        ("wizard", "Z", CardName(special="Z")),
        ("wizard", "N", CardName(special="N")),
        ("wizard", "G13", CardName(rank="13", colour="green")),
        ("sticheln", "V12", CardName(rank="12", colour="violet")),
        ("malin", "TWIN", CardName(special="TWIN")),
        ("malin", "WISH", CardName(special="WISH")),
        ("malin", "17", CardName(rank="17")),
        ("nain-jaune", "QH", CardName(rank="Q", suit="H")),
        ("nain-jaune", "10S", CardName(rank="10", suit="S")),
    ],
)
def test_each_game_names_its_cards(game: str, text: str, parts: CardName) -> None:
    assert atout.load(game, 4).card_name(text) == parts


@pytest.mark.parametrize("game", ["wizard", "sticheln", "malin", "nain-jaune"])
def test_what_is_not_a_card_is_refused(game: str) -> None:
    with pytest.raises(ValueError):
        atout.load(game, 4).card_name("bid 3")


def test_every_card_of_a_deal_has_a_name() -> None:
    for game in ("wizard", "sticheln", "malin", "nain-jaune"):
        g = atout.load(game, 4)
        view = g.new_state(seed=1).view(0)
        for card in view.to_dict()["hand"]:
            parts = g.card_name(card)
            assert parts.special or parts.rank, (game, card)
