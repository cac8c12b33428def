"""A short run of the scanner fuzzer (benchmarks/fuzz_scan.py runs it long): hypothesis picks the
seed and the edits, so a failing case shrinks to a small one."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from fuzz_scan import TARGETS, TOKENS, Runner, mutate, seeds


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_mutated_files_give_no_traceback_and_no_hang(tmp_path_factory: pytest.TempPathFactory, target: str) -> None:
    runner = Runner(target, tmp_path_factory.mktemp(target), hang_seconds=10)
    pool = seeds(target)
    assert pool, f"no seed files for {target}"

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(seed=st.sampled_from(pool), edits=st.randoms(use_true_random=False), token=st.sampled_from(TOKENS))
    def run(seed: bytes, edits: random.Random, token: bytes) -> None:
        case = mutate(seed + token, pool, edits)
        assert runner.run(case) in (None, "limit")

    run()
