"""The web table: an ASGI app (Starlette + uvicorn), its storage and its pages.

``atout serve`` runs it; :func:`create_app` builds it for tests and for other
ASGI servers.  Needs the ``web`` extra (starlette, uvicorn, sqlalchemy).
"""

from .app import create_app

__all__ = ["create_app"]
