"""Table chat: what a line may be, and how often one may be said.

A line is plain text: at most :data:`MAX_CHAT` characters once its whitespace is
collapsed, no control characters, and nothing that looks like markup (``<b>``,
``</script``, ``<!--``): the pages insert every text as text, but a message that
reads as HTML in a copied record or a notification is refused rather than
silently altered, with the reason.  The same rule holds for names.  Quick emotes
are ordinary lines (an emoji), so nothing else needs a separate path.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from ..core.reason import reason
from .tables import TableError

MAX_CHAT = 300
#: A chat line allowance: CHAT_BURST lines at once, one more every CHAT_EVERY seconds.
CHAT_BURST = 5
CHAT_EVERY = 2.0
#: The quick emotes the table offers (plain text, sent like any line).
EMOTES = ("😄", "😉", "😮", "😢", "♥", "GG")

_MARKUP = re.compile(r"<\s*[/!?]?\s*[A-Za-z!]|&#?\w+;")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")  # and lone surrogates (no text)
#: Bidirectional embeddings, overrides and isolates (U+202A-E, U+2066-9): "Ann\u202egnp.exe"
#: shows as another text than it is, in a name or a line, and leaks onto what follows it.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def check_plain(text: str, name: bool = False) -> None:
    """Refuse markup, control and direction-changing characters in a chat line (or, ``name``, a name)."""
    if _BIDI.search(text):
        if name:
            raise TableError(
                "markup",
                reason("server.name_bidi"),
            )
        raise TableError(
            "markup",
            reason("server.chat_bidi"),
        )
    if _MARKUP.search(text) or _CONTROL.search(text):
        if name:
            raise TableError("markup", reason("server.name_markup"))
        raise TableError("markup", reason("server.chat_markup"))


def clean_line(text: object) -> str:
    """The chat line to store, or :class:`TableError` saying what is wrong with it."""
    if not isinstance(text, str) or not text.strip():
        raise TableError("bad_request", reason("server.chat_empty"))
    line = " ".join(text.split())
    if len(line) > MAX_CHAT:
        raise TableError("too_long", reason("server.chat_too_long", n=MAX_CHAT))
    check_plain(line)
    return line


class ChatLimiter:
    """A token bucket per speaker: a burst, then one line every CHAT_EVERY seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tokens = float(CHAT_BURST)
        self.last = clock()

    def take(self) -> None:
        now = self.clock()
        self.tokens = min(float(CHAT_BURST), self.tokens + (now - self.last) / CHAT_EVERY)
        self.last = now
        if self.tokens < 1:
            raise TableError("chat_flood", reason("server.chat_flood"))
        self.tokens -= 1
