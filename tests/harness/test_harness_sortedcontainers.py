"""The sortedcontainers stand-in behaves like a sorted list under random operations."""

from __future__ import annotations

import bisect
import random
import types

import pytest

from cpbot.judge.harness.templates import template


@pytest.fixture(scope="module")
def sc() -> types.ModuleType:
    module = types.ModuleType("sortedcontainers_standin")
    exec(compile(template("sortedcontainers.py.tmpl"), "sortedcontainers", "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("seed", range(6))
def test_sorted_list_matches_a_plain_sorted_list(sc: types.ModuleType, seed: int) -> None:
    rng = random.Random(seed)
    key = (lambda x: -x) if seed % 2 else None
    actual = sc.SortedList(key=key) if key else sc.SortedList()
    model: list[int] = []

    def ordered() -> list[int]:
        return sorted(model, key=key)

    for _ in range(4000):
        v = rng.randint(0, 200)
        op = rng.random()
        if op < 0.45:
            actual.add(v)
            model.append(v)
        elif op < 0.6:
            actual.discard(v)
            if v in model:
                model.remove(v)
        elif op < 0.7 and model:
            i = rng.randrange(-len(model), len(model))
            expected = ordered()[i]
            assert actual.pop(i) == expected
            model.remove(expected)
        elif op < 0.85 and model:
            i = rng.randrange(-len(model), len(model))
            assert actual[i] == ordered()[i]
        else:
            keys = [x if key is None else key(x) for x in ordered()]
            k = v if key is None else key(v)
            assert actual.bisect_left(v) == bisect.bisect_left(keys, k)
            assert actual.bisect_right(v) == bisect.bisect_right(keys, k)
            assert (v in actual) == (v in model)
            assert actual.count(v) == model.count(v)
    assert list(actual) == ordered()
    assert len(actual) == len(model)
    assert list(reversed(actual)) == ordered()[::-1]


def test_sorted_list_irange_islice_and_index(sc: types.ModuleType) -> None:
    s = sc.SortedList([5, 1, 3, 3, 9, 7])
    assert list(s.irange(3, 7)) == [3, 3, 5, 7]
    assert list(s.irange(3, 7, inclusive=(False, False))) == [5]
    assert list(s.irange(minimum=4, reverse=True)) == [9, 7, 5]
    assert list(s.islice(1, 3)) == [3, 3]
    assert s.index(3) == 1
    assert s[1:4] == [3, 3, 5]
    with pytest.raises(ValueError):
        s.remove(4)
    with pytest.raises(IndexError):
        s[6]


def test_sorted_list_with_many_values_keeps_positions_right(sc: types.ModuleType) -> None:
    values = list(range(5000, 0, -1))
    s = sc.SortedList(values)
    for v in range(1, 5001, 7):
        s.add(v)
    model = sorted(values + list(range(1, 5001, 7)))
    assert [s[i] for i in range(0, len(model), 97)] == model[::97]
    assert s.bisect_left(2500) == bisect.bisect_left(model, 2500)


def test_sorted_set_keeps_unique_members_in_order(sc: types.ModuleType) -> None:
    s = sc.SortedSet([5, 1, 3, 3])
    s.add(2)
    s.discard(5)
    assert list(s) == [1, 2, 3]
    assert s[-1] == 3
    assert 2 in s and 5 not in s
    assert s.bisect_left(3) == 2


def test_sorted_dict_iterates_keys_in_order(sc: types.ModuleType) -> None:
    d = sc.SortedDict({3: "c", 1: "a"})
    d[2] = "b"
    assert list(d) == [1, 2, 3]
    assert list(d.items()) == [(1, "a"), (2, "b"), (3, "c")]
    assert d.peekitem(0) == (1, "a")
    assert d.keys()[-1] == 3
    assert d.popitem() == (3, "c")
    del d[1]
    assert list(d.values()) == ["b"]
    assert d.bisect_left(2) == 0
