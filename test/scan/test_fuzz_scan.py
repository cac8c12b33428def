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


def test_infinite_angles_found_by_the_fuzzer_are_no_internal_error(tmp_path: Path) -> None:
    from physframe_ros.scan.scanner import scan

    (tmp_path / "a.launch").write_text("<launch><node pkg='tf' type='static_transform_publisher' name='s' "
                                       "args='0 0 0 inf 0 0 map odom 100'/></launch>\n")
    (tmp_path / "b.launch.xml").write_text("<launch><node pkg='tf2_ros' exec='static_transform_publisher' "
                                           "args='--yaw -inf --frame-id map --child-frame-id base'/></launch>\n")
    result = scan([tmp_path])
    assert [f.message for f in result.findings if "internal error" in f.message] == []
    assert {(e.parent, e.child, e.rotation) for e in result.expected.edges} == {("map", "odom", None), ("map", "base", None)}
