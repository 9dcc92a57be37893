"""The games' texts in every language: summaries, option labels, helps, choice labels
and bot levels.

The program's values stay the source of truth (the Game classes' ``summary`` and
``option_specs``, ``atout.bots.factory.LEVELS``); i18n/<lang>/games.json holds each
translation (French, German...), keyed by game and option name, and
i18n/en/games.json what the interface says in English of each option (label, help
naming the choices by their labels, choice labels); GET /api/games serves them to the
reader.  Adding an option to a game without its texts in every language fails here, and
so does a language whose games.json is missing or incomplete.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser
from starlette.testclient import TestClient

from atout import i18n
from atout.bots.factory import LEVELS
from atout.core.options import OptionSpec
from atout.core.registry import game_class, names
from atout.server.languages import LANGUAGES
from atout.server.lessons import LESSONS
from atout.server.tables import game_catalogue

from .conftest import Server, game_names

#: i18n/<lang>/games.json of every language the table speaks ({} when the file is missing: caught).
TEXTS: dict[str, dict[str, Any]] = {
    lang: json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    for lang in LANGUAGES
    for path in [i18n.path(lang, "games.json")]
}
ENGLISH = TEXTS["en"]
#: The languages other than English, each held to what French is.
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]
#: What GET /api/games adds to an option for the interface (the rest is the program's).
INTERFACE_KEYS = ("help", "label", "choice_labels", "none_label")
#: The bot levels the creation form offers.
FORM_LEVELS = ["random", "easy", "normal", "hard", "expert", "master"]
#: Ways a reader asks for a language: query parameter, Accept-Language, cookie.
REQUESTS = [
    (lang, *request)
    for lang in TRANSLATIONS
    for request in [
        ({"lang": lang}, {}, None),
        ({}, {"Accept-Language": f"{lang}-{lang.upper()},{lang};q=0.9,en;q=0.8"}, None),
        ({}, {"Accept-Language": "en-US,en;q=0.9"}, lang),
    ]
]


def numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def game_texts(game: str, lang: str = "fr") -> dict[str, Any]:
    texts: dict[str, Any] = TEXTS[lang].get("games", {}).get(game, {})
    return texts


def french_game(game: str) -> dict[str, Any]:
    return game_texts(game, "fr")


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_registered_games_are_the_translated_ones(lang: str) -> None:
    assert set(TEXTS[lang].get("games", {})) == set(names()), (
        f"games.{lang}.json must describe exactly the registered games"
    )


def missing_translation(lang: str, game: str, specs: tuple[OptionSpec, ...] | None = None) -> list[str]:
    """What i18n/<lang>/games.json lacks (or describes wrongly) for ``game``'s summary and options."""
    cls = game_class(game)
    texts = game_texts(game, lang)
    problems = []
    summary = texts.get("summary", "")
    if not summary.strip() or summary == cls.summary:
        problems.append(f"no {lang} summary for {game}")
    elif not numbers(cls.summary) <= numbers(summary):
        problems.append(f"{game}: the {lang} summary lost a number")
    options = texts.get("options", {})
    specs = cls.option_specs if specs is None else specs
    for spec in specs:
        entry = options.get(spec.name, {})
        help_text = entry.get("help", "")
        if not help_text.strip() or help_text == spec.help:
            problems.append(f"no {lang} help for {game} option {spec.name}")
        elif not numbers(spec.help) <= numbers(help_text):
            problems.append(f"{game} option {spec.name}: the {lang} help lost a number")
        labels = entry.get("choices", {})
        values = [str(c) for c in spec.choices or ()]
        problems += [
            f"no {lang} label for choice {v} of {game} option {spec.name}"
            for v in values
            if not labels.get(v)
        ]
        problems += [f"{game} option {spec.name} has no choice {v}" for v in labels if v not in values]
    problems += [f"{game} has no option {name}" for name in options if name not in {s.name for s in specs}]
    return problems


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game", game_names())
def test_every_option_of_every_game_has_translated_texts(game: str, lang: str) -> None:
    assert missing_translation(lang, game) == [], f"complete src/atout/i18n/{lang}/games.json"


def missing_labels(lang: str, game: str, specs: tuple[OptionSpec, ...] | None = None) -> list[str]:
    """What i18n/<lang>/games.json lacks for the form: a label and a help per option, a label
    per choice, a label for "not set" where an option may be unset."""
    options = TEXTS[lang]["games"].get(game, {}).get("options", {})
    problems = []
    for spec in game_class(game).option_specs if specs is None else specs:
        entry = options.get(spec.name, {})
        for key in ("label", "help"):
            if not str(entry.get(key, "")).strip() or entry.get(key) == spec.name:
                problems.append(f"no {lang} {key} for {game} option {spec.name}")
        labels = entry.get("choices", {})
        problems += [
            f"no {lang} label for choice {c} of {game} option {spec.name}"
            for c in map(str, spec.choices or ())
            if not str(labels.get(c, "")).strip()
        ]
        if spec.none_ok and not str(entry.get("none", "")).strip():
            problems.append(f"no {lang} label for {game} option {spec.name} left unset")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", game_names())
def test_every_option_has_a_label_and_a_help_in_every_language(lang: str, game: str) -> None:
    assert missing_labels(lang, game) == [], f"complete src/atout/i18n/{lang}/games.json"
    assert set(TEXTS[lang]["games"][game]["options"]) == {s.name for s in game_class(game).option_specs}


def test_a_new_option_without_labels_is_caught() -> None:
    extra = OptionSpec("new_rule", int, None, "A rule added later.", none_ok=True)
    for lang in LANGUAGES:
        assert missing_labels(lang, "wizard", (*game_class("wizard").option_specs, extra)) == [
            f"no {lang} label for wizard option new_rule",
            f"no {lang} help for wizard option new_rule",
            f"no {lang} label for wizard option new_rule left unset",
        ]


def test_the_form_s_texts_name_no_choice_by_its_code() -> None:
    """A help names the choices by their labels ("Secret until scoring"), never by the
    value the program takes (hidden_until_end)."""
    for lang, texts in TEXTS.items():
        for game in names():
            for spec in game_class(game).option_specs:
                entry = texts["games"][game]["options"][spec.name]
                # Codes that are plain words ("open", "rounds") may be said in English.
                codes = [c for c in (*map(str, spec.choices or ()), spec.name) if "_" in c]
                for code in codes:
                    assert code not in entry["help"], f"{lang} help of {game} {spec.name} says {code}"
                    assert code not in entry["label"], f"{lang} label of {game} {spec.name} says {code}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_level_the_form_offers_has_a_label_and_a_help(lang: str) -> None:
    levels = TEXTS[lang]["levels"]
    assert set(levels) == set(FORM_LEVELS)
    for level in FORM_LEVELS:
        assert levels[level]["label"].strip() and levels[level]["help"].strip()


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_new_option_without_translated_text_is_caught(lang: str) -> None:
    specs = game_class("wizard").option_specs
    extra = OptionSpec("new_rule", str, "a", "A rule added later.", choices=("a", "b"))
    assert missing_translation(lang, "wizard", (*specs, extra)) == [
        f"no {lang} help for wizard option new_rule",
        f"no {lang} label for choice a of wizard option new_rule",
        f"no {lang} label for choice b of wizard option new_rule",
    ]
    assert missing_translation(lang, "wizard", specs[1:]) == [f"wizard has no option {specs[0].name}"]


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_bot_level_has_a_translated_help(lang: str) -> None:
    bots = TEXTS[lang].get("bots", {})
    assert set(bots) == set(LEVELS)
    for level, english in LEVELS.items():
        help_text = bots[level]
        assert help_text.strip() and help_text != english, f"no {lang} help for the {level} bot"
        assert numbers(english) <= numbers(help_text), f"the {level} bot's {lang} help lost a number"


@pytest.mark.parametrize(("lang", "params", "headers", "cookie"), REQUESTS)
def test_a_translated_catalogue_shows_its_texts(
    client: TestClient, lang: str, params: dict[str, str], headers: dict[str, str], cookie: str | None
) -> None:
    translation = TEXTS[lang]
    if cookie:
        client.cookies.set("lang", cookie)
    r = client.get("/api/games", params=params, headers=headers)
    assert r.status_code == 200
    assert "Accept-Language" in r.headers["vary"]
    english = {g["name"]: g for g in game_catalogue()}
    for g in r.json()["games"]:
        en = english[g["name"]]
        texts = game_texts(g["name"], lang)
        assert g["summary"] == texts["summary"]
        assert g["title"] == en["title"]
        assert set(g["bot_help"]) == set(en["bot_help"]) and set(g["bot_help"]) >= {"easy", "normal"}
        for level, help_text in g["bot_help"].items():
            assert help_text == translation["bots"][level]
        assert g["levels"] == [
            {"name": b, "label": translation["levels"][b]["label"], "help": translation["levels"][b]["help"]}
            for b in FORM_LEVELS
        ]
        assert [o["name"] for o in g["options"]] == [o["name"] for o in en["options"]]
        for o, o_en in zip(g["options"], en["options"], strict=True):
            entry = texts["options"][o["name"]]
            assert o["help"] == entry["help"]
            assert o["label"] == entry["label"]
            # What the program accepts is untouched; only the descriptions change.
            assert {k: v for k, v in o.items() if k not in INTERFACE_KEYS} == {
                k: v for k, v in o_en.items() if k != "help"
            }
            if o["choices"] is None:
                assert "choice_labels" not in o
            else:
                assert o["choice_labels"] == {str(c): entry["choices"][str(c)] for c in o["choices"]}
            if o["none_ok"]:
                assert o["none_label"] == entry["none"]
            else:
                assert "none_label" not in o


@pytest.mark.parametrize(
    ("params", "headers"),
    [({}, {}), ({"lang": "en"}, {"Accept-Language": "fr"}), ({}, {"Accept-Language": "en-US,en;q=0.9"})],
)
def test_the_english_catalogue_keeps_the_program_s_values_and_adds_the_form_s_texts(
    client: TestClient, params: dict[str, str], headers: dict[str, str]
) -> None:
    games = client.get("/api/games", params=params, headers=headers).json()["games"]
    for g in games:
        g.pop("renderer")
        assert g.pop("lesson") is (g["name"] in LESSONS)  # the page's own field: a first game that teaches
        texts = ENGLISH["games"][g["name"]]["options"]
        levels = g.pop("levels")
        assert levels == [
            {"name": b, "label": ENGLISH["levels"][b]["label"], "help": ENGLISH["levels"][b]["help"]}
            for b in FORM_LEVELS
        ]
        for o in g["options"]:
            entry = texts[o["name"]]
            assert o.pop("label") == entry["label"]
            assert o["help"] == entry["help"]
            o["help"] = next(s.help for s in game_class(g["name"]).option_specs if s.name == o["name"])
            if o["choices"] is not None:
                assert o.pop("choice_labels") == {str(c): entry["choices"][str(c)] for c in o["choices"]}
            if o["none_ok"]:
                assert o.pop("none_label") == entry["none"]
    # Everything else is exactly the program's catalogue.
    assert games == game_catalogue()
    for g in games:
        assert g["summary"] == game_class(g["name"]).summary
        assert all(g["bot_help"][b] == LEVELS[b] for b in g["bot_help"])


def test_an_unknown_lang_parameter_falls_back_to_the_reader_s_language(client: TestClient) -> None:
    r = client.get("/api/games", params={"lang": "../fr"}, headers={"Accept-Language": "fr"})
    assert r.json()["games"][0]["summary"] == french_game(r.json()["games"][0]["name"])["summary"]
    r = client.get("/api/games", params={"lang": "it"})  # a language atout does not speak
    assert r.json()["games"][0]["summary"] == game_class(r.json()["games"][0]["name"]).summary


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translated_home_page_shows_its_texts(server: Server, browser: Browser, lang: str) -> None:
    wizard = game_texts("wizard", lang)
    context = browser.new_context(locale=f"{lang}-{lang.upper()}")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        page.wait_for_selector("#options .option", state="attached")
        assert page.inner_text(".game-card[data-game=wizard] p >> nth=0") == wizard["summary"]
        page.select_option("#game", "wizard")
        helps = page.locator("#options small").all_inner_texts()
        assert helps == [wizard["options"][s.name]["help"] for s in game_class("wizard").option_specs]
        bids = page.locator("select[name=opt_bids] option")
        assert bids.evaluate_all("os => os.map(o => o.value)") == [
            "open",
            "hidden_until_play",
            "hidden_until_end",
        ]
        # Choices by their labels only: the form shows no code name.
        assert bids.first.inner_text() == wizard["options"]["bids"]["choices"]["open"]
        assert page.locator("#options").get_by_text("plus_minus_one").count() == 0
        labels = page.locator("#options .option-label").all_inner_texts()
        assert labels == [wizard["options"][s.name]["label"] for s in game_class("wizard").option_specs]
        title = page.locator("select[name=kind1] option[value=normal]").get_attribute("title")
        assert title == TEXTS[lang]["bots"]["normal"]
        assert errors == []
    finally:
        context.close()
