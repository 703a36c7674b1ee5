"""scripts/lab/make_mutants.py: where its operators apply and what each one writes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[3]
_spec = importlib.util.spec_from_file_location("make_mutants", ROOT / "scripts/lab/make_mutants.py")
assert _spec is not None and _spec.loader is not None
make_mutants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_mutants)

SOURCE = """const int MOD = 998244353;
const long long INF = 1LL << 60;
long long f(long long a, long long b) { return a * b % MOD; }
int main() {
    for (int i = 0; i < n; i++) {
        x += i;
    }
    for (int j = 1; j <= n; ++j) y += j;
}
"""


def mutants(kind: str) -> set[str]:
    found = make_mutants.sites(SOURCE)[kind]
    return {make_mutants.mutate(SOURCE, site) for site in found}


def line(source: str, number: int) -> str:
    return source.splitlines()[number - 1].strip()


def test_a_reduction_modulo_the_modulus_can_be_forgotten():
    assert any(line(m, 3) == "long long f(long long a, long long b) { return a * b; }" for m in mutants("overflow"))


def test_the_modulus_can_be_the_other_usual_one():
    assert {line(m, 1) for m in mutants("modulus")} == {"const int MOD = 1000000007;"}


def test_an_infinity_can_be_too_small():
    assert any(line(m, 2) == "const long long INF = 1LL << 30;" for m in mutants("edge"))


def test_a_loop_can_stop_one_short():
    assert any(line(m, 5) == "for (int i = 0; i < n - 1; i++) {" for m in mutants("off_by_one"))


def test_a_loop_braced_or_not_can_be_made_quadratic_without_changing_what_it_computes():
    quadratic = mutants("tle")
    braced = "for (int i = 0; i < n; i++) { for (volatile int q_ = 0; q_ < i; q_ = q_ + 1) {}"
    assert any(line(m, 5) == braced for m in quadratic)
    unbraced = [line(m, 8) for m in quadratic if line(m, 8) != line(SOURCE, 8)]
    inner = "[&] { for (volatile long long q_ = 0; q_ < j; q_ = q_ + 1) {} }()"
    assert unbraced == [f"for (int j = 1; j <= n; ++j, {inner}) y += j;"]
    # the braced loop is not also made quadratic the second way
    assert all("[&]" not in line(m, 5) for m in quadratic)
