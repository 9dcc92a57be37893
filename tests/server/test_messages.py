"""Refusals and errors in French: no English string left (src/atout/server/messages.py).

Every reason the rules engines give (``state.refusal``, data rendered by
i18n/<lang>/reasons.json: tests/test_reasons.py proves each key is met and has its
templates) renders in French with no placeholder left; every notation and option
error, and every error the server itself raises is a reason too (no English text to
read back) with its French template: random states of every game and player count
are walked (seeded), every illegal action id is tried there, and malformed texts go
through ``state.parse``.  A message without a reason would reach a French player in
English.
"""

from __future__ import annotations

import ast
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.core import reason as R
from atout.core.errors import AtoutError, NotationError, OptionError
from atout.core.game import Game, State
from atout.core.reason import Act, Card, Cards, Num, Rank, Reason, Seat, Word, reason
from atout.core.registry import game_class, load, names
from atout.server import create_app, messages
from atout.server.messages import ReasonContext, localize, render_refusal

from .conftest import create_table, join, send

SERVER = Path(messages.__file__).parent
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")

#: Per game, option sets that unlock the variants' own refusals.
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "wizard": [{}, {"plus_minus_one": True}, {"clairvoyance": True, "bids": "hidden_until_play"}],
    "malin": [
        {"fun": True},
        {"fun": True, "sum_rule": "running", "wish_forbidden_scope": "hand", "twin_value": "avoid_taken"},
    ],
    "sticheln": [{}, {"two_pain_colours": True}],
    "nain-jaune": [{}, {"first_card": "lowest", "voluntary_stop": True, "manual_claim": True}],
}
#: Texts that are not actions (or not here), tried at every visited decision.
MALFORMED = [
    "dance", "play", "play Q99", "play ZZ", "play 99", "bid x", "bid 99", "bid -1", "trump purple",
    "pain X1", "pain B99", "malheur zorro on 1", "malheur fennec on 9", "malheur fennec on x",
    "malheur malin on 0 0", "malheur fennec on 1 2", "play TWIN", "play TWIN 3", "play WISH",
    "play WISH 500", "wish 999", "wish x", "play 17 2", "malheur 666 on 9:3", "malheur 666 on 1:99",
    "play 10X", "1 2 3", "play blind",
]  # fmt: skip
#: Chance texts (records and tools type them), tried at chance nodes.
MALFORMED_CHANCE = [
    "dealer 99", "dealer x", "deal 7 B7", "deal 0 Q99", "turn X", "remove 99", "draw 7 fennec",
    "draw 0 zorro", "steal 7 malin", "deal", "shuffle",
]  # fmt: skip


def context(game: Game) -> ReasonContext:
    return ReasonContext(game=game.name, names=NAMES[: game.players])


def reasons_of(
    game: Game, seed: int, decisions: int = 40, every: int = 3, refusals: set[Reason] | None = None
) -> dict[Reason | str, ReasonContext]:
    """Notation errors met on a random walk of ``game`` (chance explicit: its nodes are tried
    too); the refusals met on the way are added to ``refusals``."""
    rng = random.Random(seed)
    state: State = game.new_state(None)
    ctx = context(game)
    found: dict[Reason | str, ReasonContext] = {}
    seen = 0
    while not state.is_terminal and seen < decisions:
        chance = state.is_chance
        space = game.num_chance_outcomes if chance else game.num_actions
        if chance or seen % every == 0:
            for action in range(space + 2):
                why = state.refusal(action)
                if why is not None and refusals is not None:
                    refusals.add(why)
            for text in MALFORMED_CHANCE if chance else MALFORMED:
                try:
                    state.parse(text)
                except NotationError as exc:
                    found[exc.why or str(exc)] = ctx
        if chance:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            seen += 1
            state.apply(rng.choice(state.legal_actions()))
    return found


def option_errors(name: str) -> list[Reason | str]:
    """Every option refusal of game ``name``: each option with wrong values, impossible combinations."""
    cls = game_class(name)
    tries: list[tuple[int, dict[str, Any]]] = [(cls.min_players - 1, {}), (cls.max_players + 1, {})]
    for spec in cls.option_specs:
        tries += [(cls.min_players, {spec.name: "nonsense"}), (cls.min_players, {spec.name: 10**6})]
        tries.append((cls.min_players, {spec.name: None}))
    tries += [
        (cls.min_players, {"no_such_option": 1}),
        (cls.min_players, {"first_dealer": cls.max_players - 1}),
        (cls.min_players, {"plus_minus_one": True, "bids": "hidden_until_end"}),
        (6, {"rounds": 20}),
        (cls.min_players, {"start_tokens": 2, "stake_unit": 5}),
    ]
    out: list[Reason | str] = []
    for players, options in tries:
        try:
            load(name, players, **options)
        except AtoutError as exc:
            out.append(exc.why or str(exc))
    try:
        cls("four")
    except OptionError as exc:
        out.append(exc.why or str(exc))
    return out


def translate(message: Reason | str, lang: str, ctx: ReasonContext) -> str | None:
    """``message`` in ``lang`` from its own template, or ``None``: a text that is no reason, or
    a reason (or one it nests) whose key ``lang`` lacks, would reach its reader in English."""
    if not isinstance(message, Reason):
        return None
    nested = [v for v in message.params.values() if isinstance(v, Reason)]
    if message.key not in R.catalogue(lang)["templates"] or any(
        translate(n, lang, ctx) is None for n in nested
    ):
        return None
    return localize(message, lang, ctx)


def untranslated(found: dict[Reason | str, ReasonContext]) -> list[str]:
    return sorted(str(m) for m, ctx in found.items() if translate(m, "fr", ctx) is None)


@pytest.mark.parametrize("game_name", names())
def test_every_refusal_of_every_game_is_in_french(game_name: str) -> None:
    cls = game_class(game_name)
    found: dict[Reason | str, ReasonContext] = {}
    refusals: set[Reason] = set()
    for players in range(cls.min_players, cls.max_players + 1):
        for i, options in enumerate(CONFIGS[game_name]):
            game = load(game_name, players, **options)
            found |= reasons_of(game, seed=1000 * players + i, refusals=refusals)
    ctx = ReasonContext(game=game_name, names=NAMES)
    found |= dict.fromkeys(option_errors(game_name), ctx)
    assert len(found) > 10 and len(refusals) > 30
    missing = untranslated(found)
    assert missing == [], f"{len(missing)} messages have no French template: {missing[:20]}"
    # And English renders every one of them too (seats by name, cards as drawn).
    assert [m for m, c in found.items() if translate(m, "en", c) is None] == []
    # The refusals are data: each renders in French, with no placeholder or notation left
    # in place of a seat's name.
    for why in refusals:
        french = render_refusal(why, "fr", ctx)
        assert french != str(why) and "{" not in french and "seat " not in french, (why, french)


def server_messages() -> list[Reason]:
    """Every reason the server says (app, socket, tables, living, chat, hints, reviews, limits,
    accounts), read from its source: each ``reason("key", name=...)`` call, its parameters
    given a sample text.  A message still written as a text (a string or an f-string given
    to TableError, ``refuse`` or ``error``) fails here: it would reach every reader in English."""
    out = []
    # Every module of the server: routes and table parts moved out of app.py and
    # tables.py are read as well as those two.
    for path in sorted(SERVER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            callee = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if callee in ("TableError", "refuse", "error") and len(node.args) == 2:
                text = node.args[1]
                assert not isinstance(text, (ast.Constant, ast.JoinedStr)), (
                    f"{path.name}:{node.lineno}: a message as text; make it a reason"
                )
            if callee == "reason" and node.args and isinstance(node.args[0], ast.Constant):
                key = node.args[0].value
                assert isinstance(key, str)
                params: dict[str, R.Param] = {k.arg: "x" for k in node.keywords if k.arg is not None}
                out.append(Reason(key, params))
    return out


def test_every_server_error_is_in_french() -> None:
    found = server_messages()
    keys = {why.key for why in found}
    assert len(keys) > 25 and "server.no_such_table" in keys
    ctx = ReasonContext(game="wizard", names=NAMES[:4])
    english = R.catalogue("en")["templates"]
    for why in found:
        # The call names exactly the placeholders of its template.
        assert set(why.params) == R.placeholders(english[why.key]), why
    assert [str(m) for m in found if translate(m, "fr", ctx) is None] == []


def _wizard_bid_error(text: str) -> Reason | str:
    """The error of ``text`` typed at a Wizard table's first bid."""
    state = load("wizard", 4).new_state(None)
    while state.is_chance:
        state.apply(state.chance_outcomes()[0][0])
    with pytest.raises(NotationError) as caught:
        state.parse(text)
    return caught.value.why or str(caught.value)


def _option_error(game: str, players: int, **options: Any) -> Reason | str:
    with pytest.raises(OptionError) as caught:
        load(game, players, **options)
    return caught.value.why or str(caught.value)


@pytest.mark.parametrize(
    ("game", "produce", "english", "french"),
    [
        (
            "wizard",
            lambda: reason("server.not_your_turn", name="Bob"),
            "it is not your turn: Bob is to play",
            "ce n'est pas votre tour : c'est à Bob de jouer",
        ),
        (
            "wizard",
            lambda: _wizard_bid_error("bid x"),
            "'bid x': invalid literal for int() with base 10: 'x'",
            "« bid x » : « x » n'est pas un nombre entier",
        ),
        (
            "wizard",
            lambda: _option_error("wizard", 4, first_dealer=5),
            "first_dealer must be a seat 0..3",
            "« Premier donneur » doit être une place de 1 à 4",
        ),
    ],
)
def test_french_names_colours_cards_and_seats(game: str, produce: Any, english: str, french: str) -> None:
    message = produce()
    assert str(message) == english
    assert localize(message, "fr", ReasonContext(game=game, names=NAMES[:4])) == french


#: Refusals as the engines give them: the engine's English, and the French a table shows.
REFUSALS = [
    (
        "wizard",
        reason("wizard.follow_suit", colour=Word("colour", "blue"), held=Cards(("B3", "B11"))),
        "you must follow blue: you hold B3, B11",
        "vous devez fournir la couleur demandée (bleu) : vous avez 3 bleu et 11 bleu",
    ),
    (
        "wizard",
        reason("wizard.bid_above_round", r=3),
        "a bid is 0 to 3 in round 3: there are only 3 tricks",
        "à la manche 3, une annonce va de 0 à 3 : il n'y a que 3 plis",
    ),
    (
        "wizard",
        reason("time_to_bid", seat=Seat(2), action=Act("play Z", "play")),
        "it is time to bid (seat 2), not to play Z",
        "c'est le moment des annonces (Cid), pas de jouer un Sorcier",
    ),
    (
        "wizard",
        reason("time_to_bid", seat=Seat(1), action=Act("bid 4", "bid")),
        "it is time to bid (seat 1), not to bid 4",
        "c'est le moment des annonces (Bob), pas d'annoncer 4",
    ),
    ("wizard", reason("not_held", card=Card("N")), "you do not hold N", "vous n'avez pas de Bouffon"),
    (
        "nain-jaune",
        reason("nain_jaune.run_needs", rank=Rank("7"), card=Card("AC")),
        "the run needs a 7 (any suit), not AC",
        "la suite demande un 7 (de n'importe quelle couleur), pas l'as de trèfle",
    ),
    (
        "nain-jaune",
        reason("nain_jaune.must_play_rank", rank=Rank("Q"), held=Cards(("QS", "QH"), " ")),
        "you hold the Q (QS QH): you must play it",
        "vous devez jouer la dame : vous l'avez (dame de pique et dame de cœur)",
    ),
    (
        "malin",
        reason("malin.six_whole", seat=Seat(3), v=Num("17.5")),
        "666 only reverses a whole number; seat 3's card is worth 17.5",
        "666 n'inverse qu'un nombre entier ; la carte de Dee vaut 17,5",
    ),
    (
        "malin",
        reason("malin.bid_taken", bid=12, seat=Seat(0)),
        "12 is already bid by seat 0: every contract must be different",
        "Ann a déjà pris le contrat 12 : tous les contrats doivent être différents",
    ),
    (
        "sticheln",
        reason("sticheln.second_pain_colour", card=Card("V3"), colour=Word("colour", "violet")),
        "Sticheln méchant: your second handicap card must be of another colour than your first, V3 (violet)",
        "Sticheln méchant : votre deuxième carte de handicap doit être d'une autre couleur que la première, le 3 violet (violet)",
    ),
]


@pytest.mark.parametrize(("game", "why", "english", "french"), REFUSALS)
def test_a_refusal_names_colours_cards_and_seats(game: str, why: Reason, english: str, french: str) -> None:
    assert str(why) == english
    assert render_refusal(why, "fr", ReasonContext(game=game, names=NAMES[:4])) == french


def test_english_numbers_seats_from_one_and_names_cards_as_drawn() -> None:
    why = reason("time_to_bid", seat=Seat(2), action=Act("play B7", "play"))
    assert str(why) == "it is time to bid (seat 2), not to play B7"
    wizard = ReasonContext(game="wizard", names=("Ann", "Bob", "Cid"))
    assert render_refusal(why, "en", wizard) == "it is time to bid (Cid), not to play blue 7"
    unnamed = ReasonContext(game="wizard")
    assert render_refusal(why, "en", unnamed) == "it is time to bid (seat 3), not to play blue 7"
    assert (
        render_refusal(why, "fr", unnamed)
        == "c'est le moment des annonces (la place 3), pas de jouer le 7 bleu"
    )
    nain = ReasonContext(game="nain-jaune")
    needs = reason("nain_jaune.run_needs", rank=Rank("7"), card=Card("AC"))
    assert render_refusal(needs, "en", nain) == "the run needs a 7 (any suit), not A♣"


def test_an_unknown_message_stays_english_and_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="atout.server")
    text = "a brand new refusal nobody translated (test)"
    assert localize(text, "fr") == text
    assert localize(text, "fr") == text
    assert [r.levelname for r in caplog.records if text in r.getMessage()] == ["WARNING"]


def test_a_card_the_game_does_not_have_is_not_named() -> None:
    # "Q99" is no Wizard card: it stays as written, nothing is invented.
    why = reason("not_held", card=Card("Q99"))
    assert render_refusal(why, "fr", ReasonContext(game="wizard")) == "vous n'avez pas Q99"


def test_every_french_template_is_well_formed() -> None:
    english = R.catalogue("en")["templates"]
    french = R.catalogue("fr")["templates"]
    messages_ = [k for k in english if k.startswith(("server.", "notation.", "option."))]
    assert len(messages_) > 80
    for key in english:
        # Every placeholder of the English is used by the French, none invented.
        assert R.placeholders(french[key]) == R.placeholders(english[key]), key
        assert french[key] != english[key], key


# -- through the server -------------------------------------------------------------------


def socket_error(
    client: TestClient, table: str, key: str, join_msg: dict[str, Any], act: str
) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{table}") as ws:
        send(ws, {**join_msg, "key": key})
        msg = ws.receive_json()
        send(ws, {"type": "act", "action": act, "n": msg["n"]})
        reply: dict[str, Any] = ws.receive_json()
        return reply


def test_a_socket_s_errors_are_in_its_join_message_s_language(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    state = client.app.state.manager.tables[table].state  # type: ignore[attr-defined]
    idle = (state.current_player + 1) % 3
    french = socket_error(client, table, keys[idle], {"type": "join", "lang": "fr"}, "bid 0")
    assert french["code"] == "not_your_turn"
    assert french["message"] == f"ce n'est pas votre tour : c'est à P{state.current_player} de jouer"
    english = socket_error(client, table, keys[idle], {"type": "join", "lang": "en"}, "bid 0")
    assert english["message"] == f"it is not your turn: P{state.current_player} is to play"
    # An unknown language is ignored: the page's language (here none: English) is kept.
    other = socket_error(client, table, keys[idle], {"type": "join", "lang": "xx"}, "bid 0")
    assert other["message"] == english["message"]


def test_without_lang_a_socket_speaks_the_page_s_language(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    seat = client.app.state.manager.tables[table].state.current_player  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{table}", headers={"Accept-Language": "fr-FR,fr;q=0.9"}) as ws:
        send(ws, {"type": "act", "action": "bid 0"})
        assert ws.receive_json()["message"] == "rejoignez d'abord une place avec sa clé"
        msg = join(ws, keys[seat])
        send(ws, {"type": "act", "action": "bid 99", "n": msg["n"]})
        reply = ws.receive_json()
        assert reply["code"] == "notation" and "une annonce va de 0 à" in reply["message"]
        send(ws, {"type": "act", "action": "dance", "n": msg["n"]})
        assert "n'est pas une carte du Wizard" in ws.receive_json()["message"]


def test_a_refused_card_is_explained_in_french(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """Le Nain Jaune: the seat to play tries cards it may not play; every refusal is French
    and names the cards in words ("l'as de trèfle"), never in notation ("AC")."""
    caplog.set_level(logging.WARNING, logger="atout.server")
    table, keys = create_table(client, "nain-jaune", 3)
    live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
    refusals = []
    for _ in range(6):
        seat = live.state.current_player
        with client.websocket_connect(f"/ws/{table}") as ws:
            send(ws, {"type": "join", "key": keys[seat], "lang": "fr"})
            msg = ws.receive_json()
            illegal = [a for a in range(52) if a not in live.state.legal_actions()][:8]
            for a in illegal:
                send(ws, {"type": "act", "action": live.game.action_to_text(a), "n": msg["n"]})
                reply = ws.receive_json()
                assert reply["code"] == "illegal"
                refusals.append(reply["message"])
            send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
            assert ws.receive_json()["n"] == msg["n"] + 1
    assert refusals and all(r.startswith(("vous ", "la ")) for r in refusals), refusals
    assert not any(re.search(r"\b(?:[2-9]|10|[AJQK])[CDHS]\b", r) for r in refusals), refusals
    assert not [r for r in caplog.records if "translation" in r.getMessage()]


@pytest.mark.parametrize(
    ("body", "french"),
    [
        ({"game": "chess", "players": 4, "seats": []}, "jeu inconnu : « chess »"),
        ({"game": "wizard", "players": 9, "seats": []}, "Wizard se joue de 3 à 6 joueurs, pas à 9"),
        ({"game": "wizard", "players": 3, "seats": [{}, {}]}, "indiquez 3 places, pas 2"),
        (
            {"game": "wizard", "players": 6, "options": {"rounds": 20}, "seats": [{}] * 6},
            "« Manches » va de 1 à 10 avec 6 joueurs",
        ),
        (
            {"game": "wizard", "players": 3, "seats": [{}] * 3, "bot_pace": "warp"},
            "bot_pace vaut l'une de ces valeurs : slow, normal, fast",
        ),
    ],
)
def test_api_errors_are_in_the_reader_s_language(client: TestClient, body: Any, french: str) -> None:
    r = client.post("/api/tables", json=body, headers={"Accept-Language": "fr"})
    assert r.status_code == 400
    assert r.json()["message"].startswith(french), r.json()
    client.cookies.set("lang", "fr")
    assert client.post("/api/tables", json=body).json()["message"].startswith(french)


def test_seat_endpoint_errors_are_in_french(client: TestClient) -> None:
    table, keys = create_table(client)
    client.cookies.set("lang", "fr")
    r = client.post(f"/api/tables/{table}/seat", json={"key": "forged"})
    assert (
        r.status_code == 403 and r.json()["message"] == "la clé de ce lien n'est pas valable pour cette table"
    )
    r = client.post("/api/tables/nosuchtable/seat", json={"key": keys[0]})
    assert r.json()["message"] == "cette table n'existe pas"
    r = client.post(f"/api/tables/{table}/replay", json={"key": keys[0], "step": 999})
    assert r.json()["message"] == "step va de 0 à 0"
    assert client.get("/api/nothing").json()["message"] == "introuvable"


def test_a_socket_refusal_carries_its_reason_as_data(db_path: str) -> None:
    """The refusal reaches the socket in its language and as data: its key and parameters.

    The deal is seeded: a Wizard turned up makes the dealer choose trump, and
    "trump red" would then be legal (the test once failed so, one deal in 15).
    """
    with TestClient(create_app(db_path, bot_delay=0, rate=1000.0, burst=1000, deal_seed=5)) as client:
        table, keys = create_table(client, "wizard", 3)
        state = client.app.state.manager.tables[table].state  # type: ignore[attr-defined]
        seat = state.current_player
        why = state.refusal(state.game.text_to_action("trump red"))
        assert why is not None and why.key == "time_to_bid"
        for lang, start in (("fr", "c'est le moment des annonces (P"), ("de", "jetzt wird angesagt (P")):
            reply = socket_error(client, table, keys[seat], {"type": "join", "lang": lang}, "trump red")
            assert reply["code"] == "illegal"
            assert reply["message"].startswith(start), reply
            assert reply["reason"] == why.to_dict()
            assert reply["reason"]["params"]["seat"] == {"kind": "seat", "index": seat}
