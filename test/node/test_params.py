"""The monitor's parameters without ROS: defaults, bad values, the shipped config file, launch overrides."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from physframe_ros.core.findings import Severity
from physframe_ros.node.params import PARAMETER_DEFAULTS, PARAMETERS, launch_overrides, log_level_arguments, parameter_table, settings_from

REPO = Path(__file__).resolve().parents[2]


def test_defaults_give_tf_and_tf_static_and_no_errors():
    s = settings_from({})
    assert s.errors == []
    assert s.tf_topics == (("/tf", False), ("/tf_static", True))
    assert s.eval_period == 1.0
    assert s.expected is None


def test_extra_topics_static_by_suffix_and_no_duplicates():
    s = settings_from({"tf_topics": ["/robot1/tf", "robot1/tf_static", "/tf"]})
    assert s.tf_topics[2:] == (("/robot1/tf", False), ("/robot1/tf_static", True))


def test_integers_accepted_for_seconds_and_bad_values_named_and_replaced():
    s = settings_from({"eval_period": 2, "stale_timeout": -1.0, "future_tolerance": "soon", "ignore_frames": 5})
    assert s.eval_period == 2.0
    assert s.config.stale_timeout == 1.0 and s.config.future_tolerance == 0.5
    assert len(s.errors) == 3
    assert "parameter stale_timeout: -1.0 is not a number >= 0; using 1.0" in map(str, s.errors)
    assert {e.name for e in s.errors} == {"stale_timeout", "future_tolerance", "ignore_frames"}


def test_zero_eval_period_is_rejected():
    s = settings_from({"eval_period": 0.0})
    assert s.eval_period == 1.0 and s.errors[0].name == "eval_period"
    assert s.errors[0].reason == "eval_period: must be > 0"  # what `ros2 param set` answers


def test_policy_from_string_arrays():
    s = settings_from({"ignore_codes": ["REPEATED_DATA"], "severity_overrides": ["DISCONNECTED_TREE=info"]})
    assert s.errors == []
    assert s.policy.ignore_codes == frozenset({"REPEATED_DATA"})
    assert s.policy.severity_overrides == {"DISCONNECTED_TREE": Severity.INFO}


def test_bad_severity_override_is_reported_not_fatal():
    s = settings_from({"severity_overrides": ["NOT_A_CODE=error"]})
    assert "NOT_A_CODE" in str(s.errors[0])
    assert s.policy.severity_overrides == {}


def test_missing_expected_tree_and_bad_conventions_file_name_the_file(tmp_path):
    bad = tmp_path / "conv.yaml"
    bad.write_text("classes: {optical: {patterns: ['(']}}\n")
    s = settings_from({"expected_tree": str(tmp_path / "nope.yaml"), "conventions_file": str(bad)})
    assert len(s.errors) == 2
    assert any("nope.yaml" in str(e) and "cannot read" in str(e) for e in s.errors)
    assert any(str(bad) in str(e) and e.name == "conventions_file" for e in s.errors)
    assert s.expected is None


def test_conventions_file_extends_classes(tmp_path):
    conv = tmp_path / "conv.yaml"
    conv.write_text("frames: {cam_opt: optical}\n")
    s = settings_from({"conventions_file": str(conv)})
    assert s.errors == []
    assert s.conventions.classify("cam_opt").cls.name == "optical"


def test_shipped_config_lists_every_parameter_with_its_default():
    data = yaml.safe_load((REPO / "config" / "monitor.yaml").read_text())
    params = data["physframe_monitor"]["ros__parameters"]
    assert set(params) == set(PARAMETER_DEFAULTS)
    for name, default in PARAMETER_DEFAULTS.items():
        assert params[name] == default, name


def test_launch_file_declares_the_contract_arguments():
    tree = ast.parse((REPO / "launch" / "monitor.launch.py").read_text())
    declared = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DeclareLaunchArgument" and isinstance(node.args[0], ast.Constant)
    }
    assert {"params_file", "expected_tree", "tf_topics", "log_level"} <= declared


def test_launch_overrides_keep_params_file_values_when_empty():
    assert launch_overrides("", "") == {}
    assert launch_overrides(" exp.yaml ", "/r1/tf, /r1/tf_static") == {"expected_tree": "exp.yaml", "tf_topics": ["/r1/tf", "/r1/tf_static"]}
    assert launch_overrides("", "['/r1/tf']") == {"tf_topics": ["/r1/tf"]}


def test_parameter_table_names_every_parameter():
    table = parameter_table()
    assert all(p.name in table for p in PARAMETERS)


def test_log_level_applies_to_the_node_logger_only():
    assert log_level_arguments("debug") == ["--log-level", "physframe_monitor:=debug"]
