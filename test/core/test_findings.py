from __future__ import annotations

import pytest

from physframe_ros.core.findings import CODES, Finding, FindingPolicy, Location, Severity, TimeSpan, sort_findings
from physframe_ros.core.report import exit_status, report_dict, summary_line
from physframe_ros.core.tree import Edge


def test_every_contract_code_has_a_category_and_severity():
    assert len(CODES) >= 27  # the contract's 27, and the project's own (docs/replay.md, docs/monitor.md)
    assert CODES["CYCLE_IN_FRAME_TREE"].severity == Severity.ERROR
    assert CODES["UNEXPECTED_EDGE"].category == "crosscheck"
    with pytest.raises(ValueError):
        Finding("NOT_A_CODE", "x")


def test_json_shape_matches_contract():
    f = Finding("CYCLE_IN_FRAME_TREE", "loop", ("fcu", "fcu_frd"), Location("a.cpp", 42), TimeSpan(12.5, 17.0, 3))
    report = report_dict([f], [Edge("odom", "base_link", sources=(Location("src/odom.cpp", 88),))])
    assert report["tool"]["name"] == "physframe"
    (d,) = report["findings"]
    assert d == {
        "code": "CYCLE_IN_FRAME_TREE",
        "severity": "error",
        "category": "tree",
        "frames": ["fcu", "fcu_frd"],
        "message": "loop",
        "location": {"file": "a.cpp", "line": 42},
        "time": {"first": 12.5, "last": 17.0, "count": 3},
    }
    assert report["tree"] == {
        "frames": ["odom", "base_link"],
        "edges": [
            {"parent": "odom", "child": "base_link", "static": False, "translation": None, "rotation": None, "sources": [{"file": "src/odom.cpp", "line": 88}]}
        ],
    }
    assert Finding.from_dict(d) == f


def test_policy_ignores_and_overrides():
    fs = [Finding("DISCONNECTED_TREE", "x", ("a",)), Finding("CYCLE_IN_FRAME_TREE", "y", ("b", "c")), Finding("SENSOR_NULL", "z", ("d",))]
    policy = FindingPolicy.from_strings(ignore_codes=["SENSOR_NULL"], ignore_frames=["c"], severity=["DISCONNECTED_TREE=error"])
    out = policy.apply(fs)
    assert [(f.code, f.level) for f in out] == [("DISCONNECTED_TREE", Severity.ERROR)]
    with pytest.raises(ValueError, match="unknown finding code"):
        FindingPolicy.from_strings(ignore_codes=["NOPE"])
    with pytest.raises(ValueError, match="CODE=error"):
        FindingPolicy.from_strings(severity=["DISCONNECTED_TREE"])


def test_sorting_exit_status_summary():
    fs = [Finding("REPEATED_DATA", "r"), Finding("DISCONNECTED_TREE", "d"), Finding("CYCLE_IN_FRAME_TREE", "c")]
    assert [f.code for f in sort_findings(fs)] == ["CYCLE_IN_FRAME_TREE", "DISCONNECTED_TREE", "REPEATED_DATA"]
    assert exit_status(fs) == 1 and exit_status(fs[:2]) == 0
    assert summary_line(fs) == "1 error, 1 warning, 1 info"
    assert summary_line([]) == "no findings"
