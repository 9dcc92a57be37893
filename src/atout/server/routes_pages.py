"""The web table's pages: home, a table (a seat's or a spectator's), a game's rules, the dictionaries.

Why a module of its own: these routes read no table and change nothing; they serve
what ships in the package (``static/``, ``i18n/<lang>/``) in the reader's language, and
their one risk is a path that leads elsewhere, which :func:`is_dictionary` and the
rules' registry lookup keep closed.

    GET  /                         the home page (games, creation form)
    GET  /table/{id}#key=...       a seat's table page (the key stays in the fragment:
                                   it never reaches a log or a Referer header)
    GET  /table/{id}#watch=...     a spectator's page (the watch token; empty at a public table)
    GET  /rules/{game}             the game's rules page (i18n/<lang>/rules/) rendered to HTML
    GET  /i18n/{lang}/{name}.json  a page's dictionary, i18n/<lang>/<name>.json of a spoken
                                   language, served as the static files are (ETag, 304)
"""

from __future__ import annotations

from html import escape as html_escape

from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.staticfiles import StaticFiles

from .. import i18n
from ..core.errors import UnknownGame
from ..core.registry import game_class
from ..core.rules_pages import rules_text
from .languages import LANGUAGES, chosen_language, language_links, pick_language
from .lessons import learn_link
from .messages import localize
from .messages import said as said_by
from .web import STATIC, error, page


def is_dictionary(name: str) -> bool:
    """A dictionary a page may fetch from a language's folder: a ``.json`` file at its top
    (``table.json``, ``wizard.json``), never a rules page or a sub-folder.

    >>> [is_dictionary(n) for n in ("wizard.json", "rules/wizard.md", "..json", "__init__.py")]
    [True, False, False, False]
    """
    return i18n.is_name(name) and "/" not in name and name.endswith(".json")


async def home(request: Request) -> Response:
    return page("index.html", request)


async def table_page(request: Request) -> Response:
    return page("table.html", request)


async def rules(request: Request) -> Response:
    name = request.path_params["game"]
    try:
        cls = game_class(name)
    except UnknownGame as exc:
        return error("not_found", localize(said_by(exc), pick_language(request)), 404)
    chosen = chosen_language(request)  # its language switch's links
    lang = chosen or pick_language(request)
    text = rules_text(cls.name, lang)
    if text is None:
        return PlainTextResponse(f"The rules of {cls.title} are not written yet.", status_code=404)
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text.text)
    # The pages' shared head (a phone lays the page out at its own width), the site's bar.
    head = (STATIC / "head.html").read_text(encoding="utf-8")
    head = head.replace("<title>atout</title>", f"<title>{html_escape(cls.title)} · atout</title>")
    html = (
        f'<!doctype html><html lang="{text.lang}"><head>{head}</head><body class="rules-page">'
        '<header class="rules-bar"><a class="brand" href="/"><span class="brand-mark" aria-hidden="true">♠</span>atout</a>'
        f'{learn_link(cls.name, lang)}<nav class="langs">{language_links(text.lang)}</nav></header>'
        f'<main class="rules">{body}</main></body></html>'
    )
    response = HTMLResponse(html)
    if chosen:  # remembered as the other pages' buttons do (lib/dom.js setLang)
        response.set_cookie("lang", chosen, max_age=31_536_000, samesite="lax")
    return response


def page_routes() -> list[BaseRoute]:
    """The routes above (each app its own: the dictionaries' files are one StaticFiles app)."""
    # The language folders as the pages read them (lib/dom.js loadStrings): a StaticFiles
    # app gives them the same ETag, Last-Modified and 304 as /static/, and only what
    # ``dictionary`` lets through reaches it (no listing, no path out, no rules page).
    dictionaries = StaticFiles(directory=str(i18n.ROOT))

    async def dictionary(request: Request) -> Response:
        lang, name = request.path_params["lang"], request.path_params["name"]
        if lang not in LANGUAGES or not is_dictionary(name):
            raise HTTPException(404)
        return await dictionaries.get_response(f"{lang}/{name}", request.scope)

    return [
        Route("/", home),
        Route("/table/{table}", table_page),
        Route("/rules/{game}", rules),
        Route("/i18n/{lang}/{name}", dictionary),
    ]
