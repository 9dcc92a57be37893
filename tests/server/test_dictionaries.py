"""``GET /i18n/<lang>/<name>.json``: the pages' dictionaries, served from the language folders.

The pages fetch their strings there (static/lib/dom.js ``loadStrings``).  Served as the
static files are (an ETag and Last-Modified, a 304 for a page that has it already), and
nothing else: only the top-level JSON files of a spoken language's folder, never its rules
pages (``/rules/<game>`` renders them), the loader's source, a listing or a path out.
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from atout import i18n
from atout.server.languages import LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["table", "wizard", "nain-jaune", "review", "account", "games"])
def test_a_dictionary_is_its_file(client: TestClient, lang: str, name: str) -> None:
    r = client.get(f"/i18n/{lang}/{name}.json")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == i18n.read_json(lang, f"{name}.json")


def test_cached_as_the_static_files(client: TestClient) -> None:
    """The same validators as /static/ (StaticFiles), and a 304 when the page has the file."""
    first = client.get("/i18n/fr/table.json")
    static = client.get("/static/app.css")
    for header in ("etag", "last-modified"):
        assert header in first.headers and header in static.headers, header
    assert client.get("/i18n/fr/table.json").headers["etag"] == first.headers["etag"]
    assert client.get("/i18n/de/table.json").headers["etag"] != first.headers["etag"]
    again = client.get("/i18n/fr/table.json", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    stale = client.get("/i18n/fr/table.json", headers={"If-None-Match": '"not-it"'})
    assert stale.status_code == 200 and stale.json() == first.json()


@pytest.mark.parametrize(
    "path",
    [
        "/i18n/xx/table.json",  # no such language
        "/i18n/EN/table.json",  # not a code
        "/i18n/fr/nothing.json",  # no such file
        "/i18n/fr/rules/wizard.md",  # a rules page: /rules/<game> renders it
        "/i18n/fr/rules",
        "/i18n/fr/",  # no listing
        "/i18n/fr",
        "/i18n/",
        "/i18n/__init__.py",
        "/i18n/fr/table.md",
        "/i18n/fr/.table.json",
        "/i18n/fr/..%2F..%2Fserver%2Fapp.py",  # an encoded way out
        "/i18n/fr/%2e%2e",
        "/i18n/..%2F..%2Fpyproject.toml/table.json",
        "/i18n/fr/..%2Fen%2Ftable.json",  # even into another language
    ],
)
def test_nothing_else_is_served(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text[:200])
    assert "tagline" not in r.text and "import" not in r.text


def test_only_reading(client: TestClient) -> None:
    assert client.post("/i18n/fr/table.json").status_code == 405
    assert client.head("/i18n/fr/table.json").status_code == 200
