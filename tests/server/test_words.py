"""The table's words (issue 29, item 11), through the pages' own translation function.

static/lib/dom.js is run by Node (no browser needed): ``t()`` fills placeholders and, in
French, elides "de" before a vowel ("la carte d'Amélie"); ``tn()`` picks the ``<key>_one``
wording for a count of one ("the only trick", never "the 1 tricks").
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from atout.server.app import STATIC

from .test_i18n_table import TABLE_FILES, dictionary

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to run the pages' module")
DOM = (Path(str(STATIC)) / "lib" / "dom.js").resolve().as_uri()


def run(lang: str, expr: str) -> Any:
    """The value of the JavaScript expression ``expr`` (t, tn, num and signed in scope) with every table
    dictionary of ``lang`` loaded, as the page has it."""
    words: dict[str, str] = {}
    for name in TABLE_FILES:
        words.update(dictionary(name, lang))
    script = (
        f"globalThis.document = {{ documentElement: {{ lang: {json.dumps(lang)} }} }};\n"
        f"const {{ t, tn, i18n, num, signed }} = await import({json.dumps(DOM)});\n"
        f"Object.assign(i18n.dict, {json.dumps(words)});\n"
        f"console.log(JSON.stringify({expr}));\n"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_french_elides_de_before_a_vowel_and_only_there() -> None:
    out = run(
        "fr",
        """[t("mal_w_after_card", { name: "Amélie" }), t("mal_w_after_card", { name: "Bruno" }),
            t("event_away", { name: "Eve" }), t("mal_card_of", { name: "Ugo" }),
            t("nj_card", { rank: "As", suit: "trèfle" }), t("mal_w_after_card", { name: "Hugo" })]""",
    )
    assert out == [
        "après la carte d'Amélie",
        "après la carte de Bruno",
        "Le temps d'Eve est écoulé : un robot joue pour lui",
        "la carte d'Ugo",
        "As de trèfle",
        "après la carte de Hugo",
    ]
    # English has no elision: the same call leaves the name as it is.
    assert run("en", 't("mal_w_after_card", { name: "Amélie" })') == "after Amélie's card"


def test_winners_and_moves_are_worded_for_their_count() -> None:
    out = run(
        "en",
        """[tn("winners", 1, { names: "Ann" }), tn("winners", 2, { names: "Ann, Bob" }),
            t("step", { step: 50, steps: 56 })]""",
    )
    assert out == ["Winner: Ann", "Winners: Ann, Bob", "Move 50 of 56"]
    out = run("fr", """[tn("winners", 1, { names: "Ann" }), t("step", { step: 50, steps: 56 })]""")
    assert out == ["Vainqueur : Ann", "Coup 50 sur 56"]


def test_scores_are_written_with_a_true_minus_sign() -> None:
    # Every game's plates, sheets, ranking and chart write scores through num/signed: Wizard's
    # sheet wrote "-30" (a hyphen) where Le Malin and Le Nain Jaune wrote "−100".
    out = run("en", "[num(-30), num(0), num(120), signed(-10), signed(0), signed(20)]")
    assert out == ["\u221230", "0", "120", "\u221210", "0", "+20"]


#: A count of one followed by a plural noun: what no string may say.
ONE_PLURAL = re.compile(r"\b1 (tricks|plis|cards|cartes|tokens|jetons|moves|coups)\b")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_string_says_one_with_a_plural(lang: str) -> None:
    """Every string of the table, each placeholder given 1 and asked through tn() as the pages
    do for counts: "how many of the 1 tricks" (the first round) must not come back."""
    keys: dict[str, list[str]] = {}
    for name in TABLE_FILES:
        for key, text in dictionary(name, lang).items():
            if not key.endswith("_one"):
                keys[key] = sorted(set(re.findall(r"\{(\w+)\}", text)))
    out = run(
        lang,
        f"Object.fromEntries(Object.entries({json.dumps(keys)})"
        ".map(([k, ps]) => [k, tn(k, 1, Object.fromEntries(ps.map((p) => [p, 1])))]))",
    )
    said = {k: v for k, v in out.items() if ONE_PLURAL.search(v)}
    assert not said, said
    # The bid prompts of a one-card round, in full.
    assert "1 trick" not in out["wiz_bid_prompt"] and "tricks" not in out["wiz_bid_prompt"]


def test_german_names_a_deal_runde_never_spiel() -> None:
    """German says "Spielende" for the game's end: a deal numbered "Spiel 1" beside it read as a
    second game (issue 50, item 9).  A deal is a "Runde" in every German dictionary."""
    i18n = Path(str(STATIC)).parent.parent / "i18n" / "de"
    said = {
        f"{path.name}:{key}": text
        for path in sorted(i18n.glob("*.json"))
        for key, text in _strings(json.loads(path.read_text(encoding="utf-8")))
        if re.search(r"\bSpiel \{(deal|n)\}|\bSpiels \{deal\}", text)
        # A word whose key names a deal (the sheet's column, Le Nain Jaune's options): no "Spiel"
        # either (the terminal's sheet had a "Spiel" column, the options "Spiele", "Beginnen mit Spiel").
        or (re.search(r"deal|start_round", key) and re.search(r"\bSpiel(e|en|s)?\b", text))
    }
    assert not said, said


def test_french_names_le_malins_wish_one_way() -> None:
    """French calls Le Malin's Wish "Wish", as its rules page and its buttons do ("Jouer le Wish"):
    its refusals, options and prompts said "le Souhait" (issue 50's last look)."""
    i18n = Path(str(STATIC)).parent.parent / "i18n" / "fr"
    said = {
        f"{path.name}:{key}": text
        for path in sorted(i18n.glob("*.json"))
        for key, text in _strings(json.loads(path.read_text(encoding="utf-8")))
        if "Souhait" in text
    }
    said.update(
        {path.name: "Souhait" for path in (i18n / "rules").glob("*.md") if "Souhait" in path.read_text()}
    )
    assert not said, said


#: The formal address ("Sie", "Ihr Konto", "Wählen Sie"): a word of it that does not open a sentence.
FORMAL = re.compile(r"\b(Sie|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres|Ihnen)\b")


def test_german_speaks_to_the_player_one_way() -> None:
    """The table says "du" ("Du bist dran", "Deine Malheur-Karten"): the account's words at its
    end said "Ihre Wertung" beside them (issue 50's last look), and the account page "Sie".  No
    German dictionary addresses the player formally (a capital "Sie"/"Ihre" opening a sentence,
    "they"/"its", is not the address)."""
    i18n = Path(str(STATIC)).parent.parent / "i18n" / "de"
    said = {
        f"{path.name}:{key}": text
        for path in sorted(i18n.glob("*.json"))
        for key, text in _strings(json.loads(path.read_text(encoding="utf-8")))
        if any(
            m.start() > 1 and text[m.start() - 2 : m.start()] not in (": ", ". ", "! ", "? ")
            for m in FORMAL.finditer(text)
        )
    }
    assert not said, said


def _strings(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every string of a dictionary (nested ones too, as reasons.json's), by dotted key."""
    if isinstance(data, str):
        return [(prefix, data)]
    if isinstance(data, dict):
        return [pair for k, v in data.items() for pair in _strings(v, f"{prefix}.{k}" if prefix else k)]
    return []


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_leaderboards_level_names_are_written_alike(lang: str) -> None:
    """The leaderboard's bot rows ("Computer: Experte" beside "Computer: schwer") name their
    levels alike: all capitalised or none (issue 50, item 9)."""
    path = Path(str(STATIC)).parent.parent / "i18n" / lang / "account.json"
    levels = {
        k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if k.startswith("acc_level_")
    }
    assert len({v[0].isupper() for v in levels.values()}) == 1, levels
