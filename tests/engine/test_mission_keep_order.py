"""A changed mission keeps its source's spelling: only what changed differs."""

from __future__ import annotations

from engine.mission.keep_order import carry_changes


def test_unchanged_values_keep_the_source_order_and_the_defaults_it_left_out() -> None:
    source = {"b": 1, "a": {"y": 2, "x": 1}, "rows": [{"id": "r1"}, {"id": "r2", "n": 1}]}
    before = {"a": {"x": 1, "y": 2, "z": 0}, "b": 1, "rows": [{"id": "r1", "n": 0}, {"id": "r2", "n": 1}]}
    after = {"a": {"x": 1, "y": 3, "z": 0}, "b": 1, "rows": [{"id": "r1", "n": 0}, {"id": "r2", "n": 4}],
             "new": True}
    out = carry_changes(source, before, after)
    assert out == {"b": 1, "a": {"y": 3, "x": 1}, "rows": [{"id": "r1"}, {"id": "r2", "n": 4}], "new": True}
    assert list(out) == ["b", "a", "rows", "new"] and list(out["a"]) == ["y", "x"]


def test_a_shorter_or_longer_list_keeps_the_items_in_common() -> None:
    source = {"squad": [{"id": "m1"}, {"id": "m2"}, {"id": "m3"}]}
    before = {"squad": [{"id": "m1", "r": "s"}, {"id": "m2", "r": "s"}, {"id": "m3", "r": "s"}]}
    assert carry_changes(source, before, {"squad": before["squad"][:2]}) == {"squad": [{"id": "m1"}, {"id": "m2"}]}
    longer = {"squad": [*before["squad"], {"id": "m4", "r": "s"}]}
    assert carry_changes(source, before, longer)["squad"][2:] == [{"id": "m3"}, {"id": "m4", "r": "s"}]


def test_a_key_the_change_removed_is_removed() -> None:
    assert carry_changes({"limited": {"total": 3}, "a": 1}, {"limited": {"total": 3}, "a": 1}, {"a": 1}) == {"a": 1}
