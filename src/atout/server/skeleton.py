"""Look-alike names: the skeleton of Unicode TR39 (UTS #39, section 4), from the confusables data.

Two account names whose skeletons are equal look alike ("Alice" and "Аlice" with a
Cyrillic А, "Ａｌｉｃｅ" in full width, "AIice" with a capital I): the second is refused
(:mod:`.accounts` keeps each account's skeleton under a unique index).

The data is Unicode's ``confusables.txt`` as the ``confusable-homoglyphs`` package ships
it (``confusables.json``): a small, maintained pure-Python package whose data file is
the whole table, so no copy of the table is kept here and an upgrade of the package
brings Unicode's next one.  Its JSON lists, for each character, the characters it is
confusable with, in both directions: a *source* character lists its one prototype (a
string), a *prototype* lists its sources.  :func:`_table` turns that back into
TR39's mapping source → prototype: a character listing exactly one string which
does not list it alone back is a source; a prototype maps to itself.  The one
ambiguous shape, a pair each listing only the other, is mapped to one of the two
(the longer string, then the smaller code points): any fixed choice gives both the
same skeleton, which is all equality needs.

``skeleton(X)`` = NFD(X), each character replaced by its prototype, NFD again
(TR39), repeated until nothing changes (a prototype chosen in an ambiguous pair can
contain a character that itself has another).  :func:`name_key` is what names are
compared by: the skeleton of the case-folded NFKC skeleton, so that case differences
("ALICE"), width forms and homoglyphs all meet.  Folding comes after the first skeleton
so that a capital I (whose prototype is ``l``) still reads as ``l``; the one case this
order misses, a homoglyph of an existing name's other-case spelling containing a
capital I, is left to the case-folded uniqueness of the name itself.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

#: Marks the JSON wraps right-to-left characters in (not part of any character).
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _table() -> dict[str, str]:
    """Character → its prototype (only the characters that are not their own)."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    listed: dict[str, list[str]] = {}
    for key, entries in raw.items():
        listed[key.translate(_MARKS)] = [e["c"].translate(_MARKS) for e in entries]
    table: dict[str, str] = {}
    for char, others in listed.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (several sources, or a string of several characters)
        target = others[0]
        if listed.get(target) == [char]:  # a pair listing each other: a fixed choice
            target = max((char, target), key=lambda s: (len(s), [-ord(c) for c in s]))
        if target != char:
            table[char] = target
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: equal skeletons, confusable strings."""
    table = _table()
    current = unicodedata.normalize("NFD", text)
    for _ in range(4):
        mapped = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current


def name_key(name: str) -> str:
    """What two names are compared by: equal keys, names that look alike (see the module)."""
    first = skeleton(unicodedata.normalize("NFKC", name))
    return skeleton(" ".join(first.casefold().split()))
