"""Redraw docs/architecture.svg, the rooms and floors of atout, from the imports.

    PYTHONPATH=src python scripts/architecture_map.py            # rewrite the .dot and the .svg
    PYTHONPATH=src python scripts/architecture_map.py --check    # say whether they are current

The picture is drawn from what tests/test_architecture.py reads of the imports
(tests/archmap.py: rooms, floors, arrows), written as Graphviz text to
docs/architecture.dot and rendered to docs/architecture.svg by Graphviz's ``dot``
(Debian: ``apt-get install graphviz``).  tests/test_architecture_map.py fails when a
room or an import between rooms changes and the picture was not redrawn: run this
then, and commit both files.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import archmap


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the picture is current")
    args = parser.parse_args()
    text = archmap.dot()
    current = archmap.DOT.exists() and archmap.DOT.read_text(encoding="utf-8") == text
    drawn = archmap.SVG.exists() and archmap.stamp(text) in archmap.SVG.read_text(encoding="utf-8")
    if args.check:
        print("architecture picture up to date" if current and drawn else "architecture picture out of date")
        return 0 if current and drawn else 1
    dot = shutil.which("dot")
    if dot is None:
        print("Graphviz's dot is not installed (Debian: apt-get install graphviz)", file=sys.stderr)
        return 2
    archmap.DOT.write_text(text, encoding="utf-8")
    svg = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True, check=True).stdout
    # Graphviz writes its version and a comment naming the graph: the stamp goes after the XML prolog.
    head, _, body = svg.partition("\n")
    archmap.SVG.write_text(f"{head}\n{archmap.stamp(text)}\n{body}", encoding="utf-8")
    print(f"written: {archmap.DOT.relative_to(archmap.ROOT)}, {archmap.SVG.relative_to(archmap.ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
