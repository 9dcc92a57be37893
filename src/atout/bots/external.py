"""External bots: any program speaking JSON lines on stdin/stdout (docs/bots.md).

In the spirit of chess's UCI: atout writes one JSON object per line, the bot
answers one line per decision.  atout → bot::

    {"type": "start", "protocol": 1, "game": "wizard", "players": 4, "options": {...}, "seat": 2, "seed": 81}
    {"type": "act", "view": {...}, "legal": [{"id": 54, "text": "bid 0"}, ...]}

bot → atout, after each ``act``: ``{"action": "bid 1"}`` (the notation) or
``{"action": 55}`` (the id); a bare line ``bid 1`` is accepted too.  A bot that
cannot go on may answer ``{"error": "why"}``: the match stops with that reason.
``seed`` (drawn from this bot's own generator at each start, so a seeded
tournament gives the process the same seeds every run) lets a program be
reproducible; programs may ignore it.  :func:`atout.bots.serve_jsonlines` is the
other end, for a bot written in Python.

A bot that crashes, hangs past ``timeout`` seconds or answers an illegal action
raises :class:`~atout.match.BotError` naming the fault; the engine never plays
another action in its place (the match is aborted and reported).
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time
from typing import Any

from ..core.bot import Bot
from ..core.errors import AtoutError, NotationError
from ..core.game import Game, View

PROTOCOL = 1


class ExternalBotError(AtoutError):
    """The external program failed: crashed, hung, or answered nonsense."""


class ExternalBot(Bot):
    """A bot run as a separate process (started lazily, once per bot)."""

    def __init__(self, command: str, seed: int | None = None, timeout: float = 10.0) -> None:
        super().__init__(seed)
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._buffer = ""

    def _start_process(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._proc = subprocess.Popen(
                    shlex.split(self.command),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    bufsize=1,
                )
            except OSError as exc:
                raise ExternalBotError(f"cannot start {self.command!r}: {exc.strerror}") from None
            self._buffer = ""
        return self._proc

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._start_process()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ExternalBotError(f"{self.command!r} exited (code {proc.poll()})") from None

    def _read_line(self) -> str:
        proc = self._start_process()
        assert proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while "\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.close()
                    raise ExternalBotError(f"{self.command!r} did not answer within {self.timeout:g} s")
                chunk = os.read(fd, 65536).decode("utf-8", errors="replace")
                if not chunk:
                    code = proc.wait()
                    raise ExternalBotError(f"{self.command!r} exited (code {code}) without answering")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition("\n")
        return line.strip()

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": game.name,
                "players": game.players,
                "options": dict(game.options),
                "seat": seat,
                "seed": self.rng.getrandbits(63),
            }
        )

    def choose(self, view: View) -> int:
        legal = [{"id": a, "text": view.text(a)} for a in view.legal_actions]
        self._send({"type": "act", "view": view.to_dict(), "legal": legal})
        line = self._read_line()
        answer: Any = line
        if line.startswith("{"):
            try:
                message = json.loads(line)
                answer = message.get("action")
            except (json.JSONDecodeError, AttributeError):
                raise ExternalBotError(f"{self.command!r} answered malformed JSON: {line[:80]!r}") from None
            if answer is None and isinstance(message.get("error"), str):
                raise ExternalBotError(f"{self.command!r} gave up: {message['error'][:300]}")
        if isinstance(answer, bool) or not isinstance(answer, int | str):
            raise ExternalBotError(f"{self.command!r} answered {line[:80]!r}: expected an action")
        if isinstance(answer, str):
            try:
                return view.parse(answer)
            except NotationError as exc:
                raise ExternalBotError(f"{self.command!r} answered {answer!r}: {exc}") from None
        return answer

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._proc = None
