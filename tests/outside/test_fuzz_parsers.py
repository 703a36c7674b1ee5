"""Every parser of outside bytes, fuzzed (tests/outside/fuzz_targets.py): a valid result or a CpbotError,
never another exception. A few derandomized examples each here; `scripts/fuzz.py -n 5000` runs many and
prints the counts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.outside.fuzz_targets import check, targets

EXAMPLES = 20


@pytest.mark.parametrize("target", targets(), ids=lambda t: t.name.replace(" ", "-"))
def test_a_parser_of_outside_bytes_gives_a_result_or_a_cpbot_error(target):
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(target.inputs)
    def one(data: bytes) -> None:
        check(target, data)

    one()
