"""A language is one folder (issue 30): ``src/atout/i18n/<lang>/``, English's files translated.

What docs/translating.md promises, checked:

* every language folder has exactly English's files (read through ``importlib.resources``,
  as an installed program reads them), and the old places of these files stay empty (a
  branch that still adds ``static/i18n/wizard.de.json`` would be read by nobody);
* the wheel's package data covers every file of every folder;
* a new folder is a new language for every reader: a copy of French under a code no
  language has (``zz``), put beside the others in a copy of the package, is offered by the
  web table (the language switch, Accept-Language, ``/api/games``, the pages' dictionaries,
  the rules pages), speaks the engines' messages, and plays a short game at the terminal
  (``atout play --lang zz``) with no English word left, as French does.  Nothing but the
  folder was added, so no list in the code names the languages.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

from atout import i18n

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "atout"
#: Where a language's files were before they became one folder.
OLD_PLACES = ("server/static/i18n", "core/reasons", "rules")


def files(folder: Traversable, prefix: str = "") -> set[str]:
    """Every file under ``folder``, as paths relative to it (``rules/wizard.md``); caches left out."""
    out: set[str] = set()
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            out |= files(entry, f"{prefix}{entry.name}/")
        elif entry.is_file():
            out.add(prefix + entry.name)
    return out


def folders() -> list[str]:
    """The language folders of the installed package (each named by a language code)."""
    return sorted(entry.name for entry in i18n.ROOT.iterdir() if entry.is_dir() and i18n.is_code(entry.name))


def test_english_french_and_german_are_folders() -> None:
    assert {"en", "fr", "de"} <= set(folders())
    english = files(i18n.ROOT / "en")
    expected = {"table.json", "games.json", "terminal.json", "review.json", "account.json", "reasons.json"}
    assert expected <= english
    assert {"wizard.json", "malin.json", "sticheln.json", "nain-jaune.json"} <= english
    assert {f"rules/{page}.md" for page in ("wizard", "le-malin", "sticheln", "nain-jaune")} <= english


@pytest.mark.parametrize("lang", [lang for lang in folders() if lang != i18n.ENGLISH])
def test_every_folder_has_english_s_files(lang: str) -> None:
    english, other = files(i18n.ROOT / i18n.ENGLISH), files(i18n.ROOT / lang)
    assert other == english, {
        f"missing in i18n/{lang}/": sorted(english - other),
        f"only in i18n/{lang}/": sorted(other - english),
    }


def test_the_package_holds_only_language_folders() -> None:
    """Beside the folders, only the loader: no dictionary at the top, no folder not named by a code."""
    top = {entry.name for entry in i18n.ROOT.iterdir() if entry.name != "__pycache__"}
    assert top == {"__init__.py", *folders()}


@pytest.mark.parametrize("old", OLD_PLACES)
def test_the_old_places_are_empty(old: str) -> None:
    place = PACKAGE / old
    left = sorted(p.name for p in place.iterdir()) if place.is_dir() else []
    assert not left, f"src/atout/{old}/ is read by nobody now: move {left} into src/atout/i18n/<lang>/"


def test_the_wheel_ships_every_folder() -> None:
    """The build backend's package data covers every file of every language folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["atout"]
    shipped = {p for pattern in patterns for p in PACKAGE.glob(pattern)}
    wanted = {PACKAGE / "i18n" / lang / name for lang in folders() for name in files(i18n.ROOT / lang)}
    assert len(wanted) >= 3 * len(files(i18n.ROOT / "en"))
    assert wanted <= shipped, sorted(str(p.relative_to(PACKAGE)) for p in wanted - shipped)


@pytest.mark.parametrize(
    ("lang", "name"),
    [("..", "table.json"), ("FR", "table.json"), ("fr", "../en/table.json"), ("fr", "/etc/passwd"),
     ("fr", "rules/../../core/game.py"), ("fr", ".table.json"), ("fr", "table.py"), ("fr", "a/b/c.json")],
)  # fmt: skip
def test_no_path_is_made_from_a_bad_code_or_name(lang: str, name: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        i18n.path(lang, name)


# -- a new language is a new folder ------------------------------------------------------------

#: What a copy of the package with an extra folder ``zz`` (French under another code) tells,
#: run in a process of its own (the languages are read once, at import).
PROBE = r"""
import json, sys, tempfile
from pathlib import Path

import atout
assert Path(atout.__file__).parent == Path(sys.argv[1]), atout.__file__

from starlette.testclient import TestClient

from atout.cli.review import LANGS
from atout.core import reason as R
from atout.core.rules_pages import rules_text
from atout.core.words import languages as terminal_languages
from atout.server import create_app
from atout.server.languages import LANGUAGES
from atout.server.messages import localize
from tests.test_cli_languages import english_words, left_english, play

game = atout.load("wizard", 3)
state = game.new_state(1)
while state.current_player < 0:
    state.apply(state.legal_actions()[0])
refused = next(a for a in range(game.num_actions) if a not in set(state.legal_actions()))
why = state.refusal(refused)
assert why is not None
out = {
    "site": list(LANGUAGES), "reasons": list(R.languages()), "terminal": list(terminal_languages()),
    "review": list(LANGS),
    "refusal": {lang: localize(why, lang) for lang in ("en", "fr", "zz")},
    "rules": {lang: [p.lang, p.text] for lang in ("fr", "zz") for p in [rules_text("wizard", lang)]},
}
with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(str(Path(tmp) / "t.sqlite3"))) as client:
    out["dictionary"] = {lang: client.get(f"/i18n/{lang}/table.json").json() for lang in ("fr", "zz")}
    out["api"] = {lang: client.get(f"/api/games?lang={lang}").json()["games"] for lang in ("fr", "zz")}
    out["home"] = client.get("/", headers={"Accept-Language": "zz-ZZ, en;q=0.5"}).text
    client.cookies.set("lang", "zz")
    out["rules_page"] = client.get("/rules/wizard").text
    output, played = play("wizard", "zz", Path(tmp))
    out["terminal_left_english"] = left_english(output, played, "zz")
    out["terminal_same_checks_as_french"] = english_words("zz") == english_words("fr")
    out["terminal_output"] = output
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def with_zz(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Run :data:`PROBE` over a copy of the package whose i18n/ has one more folder, ``zz``.

    The copy links every part of the package but ``i18n/``, which is copied, with ``fr/``
    copied again as ``zz/``: the source tree itself is never touched (the other tests would
    meet a language that repeats French word for word).
    """
    tmp = tmp_path_factory.mktemp("zz")
    copy = tmp / "atout"
    copy.mkdir()
    for entry in PACKAGE.iterdir():
        if entry.name == "i18n":
            shutil.copytree(entry, copy / "i18n", ignore=shutil.ignore_patterns("__pycache__"))
        elif entry.name != "__pycache__":
            (copy / entry.name).symlink_to(entry)
    assert not (copy / "i18n" / "zz").exists()
    shutil.copytree(copy / "i18n" / "fr", copy / "i18n" / "zz")
    env = {**os.environ, "PYTHONPATH": f"{tmp}{os.pathsep}{ROOT}", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("ATOUT_LANG", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(copy)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_a_new_folder_is_offered_everywhere(with_zz: dict[str, object]) -> None:
    for reader in ("site", "reasons", "terminal", "review"):
        spoken = with_zz[reader]
        assert isinstance(spoken, list) and spoken[0] == "en" and {"fr", "de", "zz"} <= set(spoken), reader


def test_a_new_folder_speaks_its_messages_and_rules(with_zz: dict[str, object]) -> None:
    refusal = with_zz["refusal"]
    assert isinstance(refusal, dict)
    assert refusal["zz"] == refusal["fr"] != refusal["en"]
    rules = with_zz["rules"]
    assert isinstance(rules, dict)
    assert rules["zz"][0] == "zz" and rules["zz"][1] == rules["fr"][1]


def test_the_web_table_offers_a_new_folder(with_zz: dict[str, object]) -> None:
    dictionary = with_zz["dictionary"]
    assert isinstance(dictionary, dict) and dictionary["zz"] == dictionary["fr"]
    api = with_zz["api"]
    assert isinstance(api, dict) and api["zz"] == api["fr"]
    home, rules_page = with_zz["home"], with_zz["rules_page"]
    assert isinstance(home, str) and isinstance(rules_page, str)
    assert '<html lang="zz"' in home and 'data-lang="zz"' in home and ">ZZ</button>" in home
    assert '<html lang="zz">' in rules_page


def test_the_terminal_plays_in_a_new_folder(with_zz: dict[str, object]) -> None:
    assert with_zz["terminal_same_checks_as_french"] is True
    assert with_zz["terminal_left_english"] == []
    output = with_zz["terminal_output"]
    french = i18n.read_json("fr", "terminal.json")
    assert isinstance(output, str) and french["term_game_over"] in output
