"""docs/architecture.svg is current: drawn from the imports as they are (tests/archmap.py)."""

from __future__ import annotations

import pytest

from tests import archmap


def test_every_room_is_described() -> None:
    rooms = set(archmap.room_imports())
    assert rooms <= set(archmap.ROOMS), (
        f"describe the new rooms in tests/archmap.py ROOMS: {rooms - set(archmap.ROOMS)}"
    )
    assert set(archmap.ROOMS) <= rooms, f"rooms gone, drop them from ROOMS: {set(archmap.ROOMS) - rooms}"


def test_every_arrow_points_down() -> None:
    graph = archmap.room_imports()
    floor = archmap.floors(graph)
    assert all(floor[a] > floor[b] for a, targets in graph.items() for b in targets)
    assert archmap.floors({"a": {"b"}, "b": set()}) == {"a": 1, "b": 0}


def test_a_circle_of_rooms_has_no_floor() -> None:
    with pytest.raises(ValueError, match="circle"):
        archmap.floors({"a": {"b"}, "b": {"a"}})


def test_the_picture_is_current() -> None:
    text = archmap.dot()
    redraw = "redraw it: PYTHONPATH=src python scripts/architecture_map.py (needs Graphviz)"
    assert archmap.DOT.read_text(encoding="utf-8") == text, f"docs/architecture.dot is out of date; {redraw}"
    assert archmap.stamp(text) in archmap.SVG.read_text(encoding="utf-8"), (
        f"docs/architecture.svg was not drawn from docs/architecture.dot; {redraw}"
    )
