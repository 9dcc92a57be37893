"""Every refusal the rules engines can give has its words in every language (issue 30).

A refusal is data (:class:`atout.core.reason.Reason`: a key and parameters) rendered
by the templates of i18n/<lang>/reasons.json.  The proof that every key has its
templates is by *producing* each one: random matches of the four games, every player
count and the variants that have refusals of their own, are walked with chance
applied by hand, and at each node every action id (and a few that are no id) is
tried; the keys met must be exactly the keys the English file declares, and each
reason met must render in every language, in the engine's English and for a table.

The other messages are reasons too, produced the same way: the notation errors by
typing malformed texts at the walked states (tests/server/test_messages.py's
walk), the option errors by loading each game with wrong options, the action
ranges' own refusals by calling them out of range, and the server's by reading each
``reason(...)`` call of the server's source (tests/server/test_messages.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import atout
from atout import i18n
from atout.core import reason as R
from atout.core.game import Game, State
from atout.core.reason import Reader, Reason
from atout.core.registry import game_class

#: Per game, option sets that unlock the variants' own refusals.
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "wizard": [{}, {"plus_minus_one": True}, {"clairvoyance": True, "bids": "hidden_until_play"}],
    "malin": [
        {"fun": True},
        {"fun": True, "sum_rule": "running", "wish_forbidden_scope": "hand", "twin_value": "avoid_taken"},
    ],
    "sticheln": [{}, {"two_pain_colours": True}],
    "nain-jaune": [
        {},
        {"first_card": "lowest", "voluntary_stop": True, "manual_claim": True},
        {"manual_claim": True},
    ],
}
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
#: Seeds walked per configuration at most: the walk stops as soon as every key is met
#: (five seeds today, 231 matches, 9 s of CPU: the rarest, Le Malin's ``redeclare_first``
#: and ``wish_in_the_trick``, first come at seed 4 with six players).
MAX_SEEDS = 12
#: The share of decision nodes, and of chance nodes (a deal is a node a card), where every id is tried.
TRIED = 0.2
TRIED_CHANCE = 0.05


def _declared() -> set[str]:
    return set(R.catalogue("en")["templates"])


def _with_nested(why: Reason) -> list[Reason]:
    """``why`` and the reasons its parameters nest (``'bid 9': a bid is 0..3`` is two)."""
    out = [why]
    for value in why.params.values():
        if isinstance(value, Reason):
            out += _with_nested(value)
    return out


def _messages(name: str) -> list[tuple[Reason, Game]]:
    """The notation and option errors of game ``name`` (every player count, its variants)."""
    from atout.core.errors import AtoutError, Explained
    from atout.core.registry import _PATHS

    from .server.test_messages import option_errors, reasons_of

    cls = game_class(name)
    out: list[tuple[Reason, Game]] = []
    for players in range(cls.min_players, cls.max_players + 1):
        for i, options in enumerate(CONFIGS[name]):
            game = atout.load(name, players, **options)
            for why in reasons_of(game, seed=1000 * players + i):
                assert isinstance(why, Reason), why  # a notation error without a reason
                out += [(w, game) for w in _with_nested(why)]
            for text in ("bid \u0661", "dealer \u0662"):  # Arabic-Indic digits
                try:
                    game.new_state(None).parse(text)
                except AtoutError as exc:
                    assert exc.why is not None
                    out += [(w, game) for w in _with_nested(exc.why)]
    game = atout.load(name, cls.min_players)
    for why in option_errors(name):
        assert isinstance(why, Reason), why  # an option error without a reason
        out += [(w, game) for w in _with_nested(why)]
    # The action ranges refuse a value out of range, or none where they take one.
    for r in game.space:
        with pytest.raises(Explained) as high:
            r(r.high + 1)
        out.append((high.value.why, game))
        if r.size > 1:
            with pytest.raises(Explained) as none:
                r()
            out.append((none.value.why, game))
    # An unknown game, a game its installation cannot import.
    with pytest.raises(AtoutError) as unknown:
        game_class("chess")
    _PATHS["broken-test"] = "atout.no_such_module:Game"
    try:
        with pytest.raises(AtoutError) as broken:
            game_class("broken-test")
    finally:
        del _PATHS["broken-test"]
    for error in (unknown.value, broken.value):
        assert error.why is not None
        out.append((error.why, game))
    return out


def _server_messages() -> list[Reason]:
    from http import HTTPStatus

    from atout.server.messages import http_said

    from .server.test_messages import server_messages

    out = server_messages()
    for status in (400, 404, 405):  # Starlette's own errors, in the reader's words
        said = http_said(status, HTTPStatus(status).phrase)
        assert isinstance(said, Reason)
        out.append(said)
    return out


def _caught(call: Any) -> list[Reason]:
    """The reason (and those it nests) of the error ``call()`` raises."""
    from atout.core.errors import AtoutError, Explained

    with pytest.raises((AtoutError, Explained)) as caught:
        call()
    why = getattr(caught.value, "why", None)
    assert isinstance(why, Reason), caught.value
    return _with_nested(why)


def _other_messages() -> list[tuple[Reason, Game]]:
    """The messages no walk meets: a text that is no text, an id out of the space, too many
    copies of a card (a position's fault), the options no game declares today, a chance
    text where no chance event is expected, the option combinations each game refuses."""
    from atout.core.actions import read_chance
    from atout.core.options import OptionSpec
    from atout.games.wizard import cards as wizard_cards

    wizard = atout.load("wizard", 4)
    state = wizard.new_state(None)
    calls: list[Any] = [
        lambda: state.parse(5),  # not a text: refused as such
        lambda: wizard.action_to_text(10**6),
        lambda: wizard_cards.mask_of([wizard_cards.WIZARD] * 5),
        lambda: read_chance("deal 1 B7", "play", None),
        lambda: atout.load("wizard", 6, start_round=2, rounds=20),
        lambda: atout.load("sticheln", 3, start_round=5),
        lambda: atout.load("sticheln", 3, start_round=60, hands=10),
    ]
    for spec in (
        OptionSpec("x", int, 1, "", minimum=1),
        OptionSpec("x", int, 1, "", maximum=9),
        OptionSpec("x", int, 1, ""),
        OptionSpec("x", str, "a", "", none_ok=True),
    ):
        calls.append(lambda spec=spec: spec.coerce([]))
    return [(why, wizard) for call in calls for why in _caught(call)]


def _refusals(state: State, space: int) -> list[Reason]:
    out = [state.refusal(a) for a in range(-1, space + 2)]
    out.append(state.refusal("play B7"))  # not an id: refused as such
    return [w for w in out if w is not None]


def _walk(game: Game, seed: int) -> list[Reason]:
    """The refusals met on one random match of ``game`` (chance by hand): every id is tried
    at the first few nodes of each phase met (a rare phase, such as Le Malin's new Wish value,
    is tried whenever it comes), at a share of the others (:data:`TRIED`, :data:`TRIED_CHANCE`),
    and at the end."""
    rng = random.Random(seed)
    state = game.new_state(None)
    met: list[Reason] = []
    tried: dict[int, int] = {}
    while not state.is_terminal:
        chance = state.is_chance
        first = tried.get(state.phase, 0) < 3
        if first or rng.random() < (TRIED_CHANCE if chance else TRIED):
            tried[state.phase] = tried.get(state.phase, 0) + 1
            met += _refusals(state, game.num_chance_outcomes if chance else game.num_actions)
        if chance:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    met += _refusals(state, game.num_actions)
    return met


@pytest.fixture(scope="module")
def met() -> dict[str, tuple[Reason, Game]]:
    """One reason met per key (with its game), walking until every declared key is met."""
    declared = _declared()
    found: dict[str, tuple[Reason, Game]] = {}
    for seed in range(MAX_SEEDS):
        for name, configs in CONFIGS.items():
            cls = game_class(name)
            for players in range(cls.min_players, cls.max_players + 1):
                for options in configs:
                    game = atout.load(name, players, **options)
                    for why in _walk(game, seed * 100 + players):
                        found.setdefault(why.key, (why, game))
                    if set(found) >= declared:
                        return found
        if seed == 0:
            for name in CONFIGS:
                for why, game in _messages(name):
                    found.setdefault(why.key, (why, game))
            wizard = atout.load("wizard", 4)
            for why, game in _other_messages():
                found.setdefault(why.key, (why, game))
            for why in _server_messages():
                found.setdefault(why.key, (why, wizard))
            if set(found) >= declared:
                return found
    return found


def test_every_declared_reason_is_produced_and_no_other(met: dict[str, tuple[Reason, Game]]) -> None:
    declared = _declared()
    assert set(met) - declared == set(), "reasons the engines give with no English template"
    assert declared - set(met) == set(), "templates no walk produced (dead, or a walk too short)"


@pytest.mark.parametrize("lang", R.languages())
def test_every_reason_renders_in_every_language(met: dict[str, tuple[Reason, Game]], lang: str) -> None:
    for key, (why, game) in sorted(met.items()):
        reader = Reader(lang, game.name, NAMES[: game.players], type(game).card_name)
        text = R.render(why, reader)
        assert text and "{" not in text and "}" not in text, (key, text)
        # The template itself, not the English fallback.
        assert key in R.catalogue(lang)["templates"], (lang, key)


def test_the_engine_s_english_is_the_english_template(met: dict[str, tuple[Reason, Game]]) -> None:
    for why, _ in met.values():
        assert str(why) == R.render(why, Reader()) and str(why)


@pytest.mark.parametrize("lang", R.languages())
def test_same_placeholders_in_every_language(lang: str) -> None:
    english = R.catalogue("en")["templates"]
    own = R.catalogue(lang)["templates"]
    assert set(own) == set(english)
    for key, template in english.items():
        assert R.placeholders(own[key]) == R.placeholders(template), (lang, key)
    for template in R.catalogue(lang)["words"].get("actions", {}).values():
        R.pieces(template)  # well formed


@pytest.mark.parametrize("lang", [lang for lang in R.languages() if lang != "en"])
def test_no_template_is_copied_from_english(lang: str) -> None:
    english = R.catalogue("en")["templates"]
    own = R.catalogue(lang)["templates"]
    copied = [key for key, text in own.items() if text == english[key]]
    assert copied == []
    others = [other for other in R.languages() if other not in ("en", lang)]
    for other in others:  # nor from another language
        theirs = R.catalogue(other)["templates"]
        assert [key for key, text in own.items() if text == theirs[key]] == []


@pytest.mark.parametrize("lang", R.languages())
def test_every_game_names_its_actions_and_cards(lang: str) -> None:
    """Each action range of each game has its words (a table says "not to play the blue 7")."""
    words = R.catalogue(lang)["words"]
    for name in atout.names():
        cls = game_class(name)
        for options in CONFIGS[name]:
            game = atout.load(name, cls.max_players, **options)
            for r in game.space:
                assert f"{name}.{r.name}" in words["actions"], (lang, name, r.name)
    assert "unknown" in words["actions"]


def test_languages_are_the_files() -> None:
    """The languages are the folders holding a reasons.json (i18n/<lang>/reasons.json)."""
    folders = sorted(p.name for p in i18n.ROOT.iterdir() if p.joinpath(R.REASONS_FILE).is_file())
    assert sorted(R.languages()) == folders
    assert R.languages()[0] == "en" and {"fr", "de"} <= set(R.languages())
    for lang in R.languages():
        path = i18n.ROOT.joinpath(lang, R.REASONS_FILE)
        assert isinstance(json.loads(path.read_text(encoding="utf-8"))["language"], str)


def test_a_reason_is_data() -> None:
    why = R.reason("wizard.follow_suit", colour=R.Word("colour", "blue"), held=R.Cards(("B3", "B11")))
    assert why == Reason(why.key, dict(why.params)) and hash(why) == hash(Reason(why.key, dict(why.params)))
    assert why.to_dict() == {
        "key": "wizard.follow_suit",
        "params": {
            "colour": {"kind": "word", "table": "colour", "key": "blue"},
            "held": {"kind": "cards", "texts": ["B3", "B11"], "sep": ", "},
        },
    }
    german = R.render(why, Reader("de", "wizard", (), game_class("wizard").card_name))
    assert german == "du musst Blau bedienen: du hast Blau 3 und Blau 11"


def test_german_names_the_cards() -> None:
    wizard = Reader("de", "wizard", ("Anna", "Ben", "Carl"), game_class("wizard").card_name)
    assert R.render(R.reason("not_held", card=R.Card("Z")), wizard) == "du hast keinen Zauberer"
    assert R.render(R.reason("not_held", card=R.Card("N")), wizard) == "du hast keinen Narren"
    assert R.render(R.reason("not_held", card=R.Card("G12")), wizard) == "du hast Grün 12 nicht"
    bid = R.reason("time_to_bid", seat=R.Seat(1), action=R.Act("trump red", "trump"))
    assert R.render(bid, wizard) == "jetzt wird angesagt (Ben) – nicht Rot als Trumpf wählen"
    nain = Reader("de", "nain-jaune", (), game_class("nain-jaune").card_name)
    needs = R.reason("nain_jaune.run_needs", rank=R.Rank("K"), card=R.Card("QH"))
    assert R.render(needs, nain) == "die Folge braucht einen König (beliebige Farbe), nicht Herz-Dame"
