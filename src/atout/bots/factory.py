"""Bots by name: ``make_bot("heuristic", game, seed=1)``.

Names, the same for every game:

* ``random`` — uniform over the legal actions;
* a game's own bots (``game.bots``, e.g. ``heuristic``);
* the difficulty levels players pick from, mapped onto those
  (:data:`LEVELS`): ``easy``, ``normal``, ``hard``, ``expert``;
* ``policy`` — the learned policy network shipped for the game and player
  count, alone (one forward pass a decision, no search; :mod:`.learned`);
  ``net:path/to/model.npz`` — a network trained with ``atout train``;
* ``batch:N`` or ``batch:N:model:infer`` — the search whose playouts run together
  in the batch engine (:mod:`.batched`), N playouts a decision, played by the
  heuristic or (``model``) by the learned network shipped for the game
  (``net=PATH``: by a network trained with ``atout train``), over worlds
  weighed by the other seats' actions this round (``infer``);
* ``search`` or ``search:N`` — the generic search bot with N playouts per decision
  (flags, e.g. ``search:N:infer:model``: ``infer`` weighs worlds by the other
  seats' actions, ``model`` plays the playouts with the game's model of strong
  play; ``expert`` is ``search:400:model`` with a time cap, or
  ``search:800:model`` when the game has a model of strong play);
* ``cmd:<command line>`` — an external program speaking the JSON-lines
  protocol of docs/bots.md;
* ``py:MODULE:NAME`` or ``py:path/to/file.py:NAME`` — a Python bot class or
  ``view -> action`` callable by import path (:mod:`.loader`).

Levels are defined once here, over the interface: no game is special-cased.
"""

from __future__ import annotations

from ..core.bot import Bot
from ..core.errors import OptionError
from ..core.game import Game
from .path import bot_from_path
from .random import RandomBot

#: Playouts per decision of the search levels (bench/RESULTS.md has their measured
#: decision times: hard ≤ 0.3 s median, expert ≤ 1 s median on a 2-core machine).
HARD_PLAYOUTS = 40
EXPERT_PLAYOUTS = 400
#: Expert's playouts when the game offers a model of strong play (``game.playout_model``).
#: With the heuristic as the model of the other seats, budget past a few hundred
#: playouts buys little; with a model of strong play it pays again (Wizard, against
#: three hards, same deals: 65% of bids and +5.9 a round at 400, 71% and +11.7 at 800,
#: no better at 1,200; bench/RESULTS.md).
EXPERT_MODEL_PLAYOUTS = 800
#: Wall-clock safety caps of the search levels (seconds): players never wait longer.
#: They rarely bind (only on the biggest decisions of a loaded machine), and a
#: decision they cut short is no longer exactly reproducible from the seed.
HARD_CAP = 1.0
EXPERT_CAP = 2.5
#: master's cap is checked between its halving rounds (the playouts of a round run together).
MASTER_CAP = 2.5
#: Flags of ``search:N:<flag>...`` (see :class:`~atout.bots.search.SearchBot`): inference,
#: playouts with the game's model of strong play.  (``flat``, an even split of the budget,
#: and ``own``, playing for the seat's own score, were measured worse and removed: issue 19.)
SEARCH_FLAGS = ("infer", "model")
#: Playouts of a ``master`` decision: the batch-engine search (bots/batched.py), whose playouts run
#: together, with the learned network as the model of every seat where one is shipped for the game
#: and player count (a forward pass per step: MASTER_MODEL_PLAYOUTS), else the heuristic
#: (MASTER_PLAYOUTS).  bench/RESULTS.md has their measurements.
MASTER_PLAYOUTS = 2000
MASTER_MODEL_PLAYOUTS = 500
#: Where the game has a model of strong play (``game.playout_model``, Wizard) ``master``'s playouts
#: are played by it, expert's model, vectorised (``batch:N:strong``): about 7.5 times expert's worlds
#: for about expert's CPU time per decision, and more than either of the above scored against
#: ``hard`` (bench/RESULTS.md, stop 28).
MASTER_STRONG_PLAYOUTS = 6000
#: Most playouts a ``batch:N`` decision may ask for (its rows are bounded anyway: see bots.batched).
MAX_BATCH_PLAYOUTS = 100_000
#: Bounds of a ``batch:…:sample:temp=T`` temperature (the draws' sharpness; finite, never zero).
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.05, 20.0
#: Share of the "easy" level's decisions taken at random instead of by the heuristic.
EASY_NOISE = 0.4

#: The game's own bot the "normal" level plays (every game's rule-based heuristic).
NORMAL_BOT = "heuristic"

#: Difficulty levels for players, and what each one is.
LEVELS: dict[str, str] = {
    "easy": f"the game's heuristic, playing at random {EASY_NOISE:.0%} of the time",
    "normal": "the game's heuristic",
    "hard": f"search: {HARD_PLAYOUTS} heuristic playouts per decision over sampled worlds (≤ {HARD_CAP:g} s)",
    "expert": (
        f"search: {EXPERT_PLAYOUTS} heuristic playouts per decision over sampled worlds, or "
        f"{EXPERT_MODEL_PLAYOUTS} played with the game's model of strong play where it has one "
        f"(≤ {EXPERT_CAP:g} s)"
    ),
    "master": (
        f"search with the batch engine: {MASTER_STRONG_PLAYOUTS} playouts per decision over sampled worlds "
        "played with the game's model of strong play where it has one (Wizard), else "
        f"{MASTER_MODEL_PLAYOUTS} drawn from a network distilled from a stronger search where one is shipped "
        "for the player count (Sticheln, Le Malin, Le Nain Jaune), else played by the learned policy network where one is shipped, "
        f"else {MASTER_PLAYOUTS} played by the heuristic"
    ),
    "policy": "the learned policy network alone, no search (where a model is shipped for the player count)",
}


def level_name(name: str) -> str:
    """The name players know a bot by: its level when it plays one, else ``name`` itself.

    ``heuristic`` plays exactly as ``normal``; the web table offers the levels, so
    the terminal shows ``normal`` too (the old name is still accepted as input).
    """
    return "normal" if name == NORMAL_BOT else name


def available(game: Game) -> list[str]:
    """Bot names usable with ``game`` (besides ``cmd:...``, ``py:...`` and ``search:N``)."""
    return ["random", *game.bots, *LEVELS, "search"]


def _game_bot(name: str, game: Game, seed: int | None) -> Bot | None:
    path = game.bots.get(name)
    return None if path is None else bot_from_path(path, seed)


def _batch_search(spec: str, name: str, game: Game, seed: int | None) -> Bot:
    """``batch:N[:model]``: the batch-engine search (refused for a game without a batch simulator)."""
    from ..batch import batch_class_for
    from .batched import BatchSearchBot
    from .learned import shipped_model

    number, *flags = name[6:].split(":")
    try:
        playouts = int(number)
    except ValueError:
        raise OptionError(f"{spec!r}: write batch:N[:model][:infer] with N playouts") from None
    if not 1 <= playouts <= MAX_BATCH_PLAYOUTS:
        raise OptionError(f"{spec!r}: the number of playouts must be 1..{MAX_BATCH_PLAYOUTS}")
    paths = [flag[4:] for flag in flags if flag.startswith("net=")]
    temperatures = [flag[5:] for flag in flags if flag.startswith("temp=")]
    flags = [flag for flag in flags if not flag.startswith(("net=", "temp="))]
    temperature = _temperature(spec, temperatures)
    if (
        set(flags) - {"model", "infer", "sample", "strong"}
        or len(paths) > 1
        or (paths and "model" in flags)
        or ("strong" in flags and (paths or "model" in flags))
        or ("sample" in flags and not paths and "model" not in flags)
        or (temperatures and "sample" not in flags)
    ):
        raise OptionError(
            f"{spec!r}: the flags are 'model' (playouts by the learned network shipped for the game), "
            "'net=PATH' (by a network trained with atout train or atout distill), 'sample' (the "
            "network's actions drawn from its policy, not its most probable one), 'strong' (by the "
            "game's model of strong play, expert's, instead of a network), 'temp=T' (with 'sample': the "
            "draws at temperature T) and 'infer' (worlds weighed by the other seats' actions)"
        )
    try:
        batch_class_for(game)
    except ValueError as error:
        raise OptionError(str(error)) from None
    model = shipped_model(game) if "model" in flags else None
    if paths:
        from .learned import PolicyModel

        model = PolicyModel.load(paths[0])
        model.check(game)
    bot = BatchSearchBot(
        seed,
        playouts=playouts,
        model=model,
        inference="infer" in flags,
        sample="sample" in flags,
        strong="strong" in flags,
        temperature=temperature,
    )
    bot.name = name
    return bot


def _temperature(spec: str, written: list[str]) -> float:
    """The ``temp=T`` flag's temperature (1 without one), refused outside ``MIN..MAX_TEMPERATURE``."""
    if not written:
        return 1.0
    try:
        (temperature,) = (float(text) for text in written)
    except ValueError:
        raise OptionError(f"{spec!r}: write one temp=T with T a number") from None
    if not MIN_TEMPERATURE <= temperature <= MAX_TEMPERATURE:
        raise OptionError(f"{spec!r}: the temperature must be {MIN_TEMPERATURE:g}..{MAX_TEMPERATURE:g}")
    return temperature


def _master(game: Game, seed: int | None, caps: bool) -> Bot:
    """The top level: the batch-engine search, its playouts by the game's model of strong play where
    it has one, else drawn from the playout network where one is shipped (distilled from a strong
    search), else by the learned policy network where one is shipped, else by the heuristic.

    A game without a batch simulator (a user's own game) gets ``expert``'s search.
    """
    from ..batch import batch_class_for
    from .batched import BatchSearchBot
    from .learned import ModelMismatch, shipped_model, shipped_playout_model

    try:
        cls = batch_class_for(game)
    except ValueError:
        bot = make_bot("expert", game, seed, caps=caps)
        bot.name = "master"
        return bot
    cap = MASTER_CAP if caps else None
    if cls.has_playout_model():
        master = BatchSearchBot(seed, playouts=MASTER_STRONG_PLAYOUTS, strong=True, time_limit=cap)
        master.name = "master"
        return master
    playout = shipped_playout_model(game)
    if playout is not None:
        master = BatchSearchBot(
            seed, playouts=MASTER_MODEL_PLAYOUTS, model=playout, sample=True, time_limit=cap
        )
        master.name = "master"
        return master
    try:
        model = shipped_model(game)
    except ModelMismatch:
        model = None
    budget = MASTER_PLAYOUTS if model is None else MASTER_MODEL_PLAYOUTS
    master = BatchSearchBot(seed, playouts=budget, model=model, time_limit=cap)
    master.name = "master"
    return master


def make_bot(spec: str, game: Game, seed: int | None = None, *, caps: bool = True) -> Bot:
    """A fresh bot for ``game`` from its name; unknown names list the known ones.

    ``caps``: the search levels keep their wall-clock safety caps (live play: nobody waits
    longer); without them a level is its budget in playouts only, the same on a busy
    machine as on an idle one (measurements: tournaments, bench/).
    """
    from .noisy import NoisyBot
    from .search import SearchBot

    name = spec.strip()
    if name == "random":
        return RandomBot(seed)
    if name.startswith("cmd:"):
        from .external import ExternalBot

        return ExternalBot(name[4:], seed=seed)
    if name.startswith("py:"):
        from .loader import load_py_bot

        return load_py_bot(name, seed)
    if name == "policy" or name.startswith("net:"):
        from .learned import PolicyBot, PolicyModel, shipped_model

        network = shipped_model(game) if name == "policy" else PolicyModel.load(name[4:])
        network.check(game)
        learned = PolicyBot(seed, network)
        learned.name = name
        return learned
    bot = _game_bot(name, game, seed)
    if bot is not None:
        return bot
    if name == "normal":
        normal = _game_bot(NORMAL_BOT, game, seed) or RandomBot(seed)
        normal.name = name
        return normal
    if name == "easy":
        return NoisyBot(make_bot("normal", game, seed), EASY_NOISE, seed, name="easy")
    if name.startswith("batch:"):
        return _batch_search(spec, name, game, seed)
    if name == "master":
        return _master(game, seed, caps)
    if name in ("hard", "expert", "search") or name.startswith("search:"):
        expert = EXPERT_MODEL_PLAYOUTS if game.playout_model else EXPERT_PLAYOUTS
        playouts = {"hard": HARD_PLAYOUTS, "expert": expert}.get(name, HARD_PLAYOUTS)
        cap = {"hard": HARD_CAP, "expert": EXPERT_CAP}.get(name) if caps else None
        inference, model = False, name == "expert"
        if name.startswith("search:"):
            number, *flags = name[7:].split(":")
            try:
                playouts = int(number)
            except ValueError:
                raise OptionError(f"{spec!r}: write search:N[:infer][:model] with N playouts") from None
            if playouts < 1:
                raise OptionError(f"{spec!r}: the number of playouts must be at least 1")
            unknown = set(flags) - set(SEARCH_FLAGS)
            if unknown:
                raise OptionError(
                    f"{spec!r}: unknown flag {sorted(unknown)[0]!r} (flags: {', '.join(SEARCH_FLAGS)})"
                )
            inference, model = (flag in flags for flag in SEARCH_FLAGS)
        bot = SearchBot(
            seed,
            playouts=playouts,
            time_limit=cap,
            inference=inference,
            model=model,
        )
        bot.name = name
        return bot
    known = ", ".join([*available(game), "search:N", "cmd:<program>", "py:MODULE:NAME"])
    raise OptionError(f"no bot {spec!r} for {game.name}; choose from: {known}")
