"""Rewrite the golden games of tests/data/golden (issue 19).

    PYTHONPATH=src python scripts/golden.py            # rewrite every file
    PYTHONPATH=src python scripts/golden.py --check    # say which files would change

The golden files pin what seeded play gives: the deals a seed draws, the rules'
outcomes, the worlds the sampling modules draw and the choices of the cheap bot
levels.  ``tests/test_golden.py`` fails when any of it changes.

Regenerate them **only** when the change is intended and understood, and say so
in the commit message: a rule fixed on purpose, a new option default, a new
deal or sampling algorithm, a bot improved on purpose.  Saved records still
replay after such a change (they hold every chance outcome), but the same seed
no longer deals the same cards or a bot no longer plays the same, so tournament
seeds and bug reports quoting a seed change meaning.  Never regenerate to make
a refactor pass: a refactor (the point of the golden games) must leave every
file unchanged.  Adding a game or a player count adds a file; that is fine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import golden


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the files that would change")
    args = parser.parse_args()
    changed = []
    for name, players in golden.configurations():
        path = golden.path_for(name, players)
        text = golden.dump(golden.compute(name, players))
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            changed.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "rewritten"
    for path in changed:
        print(f"{verb}: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    if not changed:
        print("golden files up to date")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
