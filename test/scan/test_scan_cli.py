"""The scan end to end: discovery, robustness, parallel parsing, output formats and exit codes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from physframe_ros.cli import main
from physframe_ros.core.expected import ExpectedTree
from physframe_ros.scan import scanner
from physframe_ros.scan.discovery import discover
from physframe_ros.scan.scanner import scan

FIXTURES = Path(__file__).parent / "fixtures"


def test_discovery_finds_ros1_and_ros2_packages_and_skips_build_outputs(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "ros1_reversed", ws / "src/mower")
    shutil.copytree(FIXTURES / "ros2_flags", ws / "src/scout")
    (ws / "build/scout_bringup/launch").mkdir(parents=True)
    (ws / "build/scout_bringup/launch/copy.launch.py").write_text("x = 1\n")
    (ws / "src/vendor").mkdir()
    (ws / "src/vendor/COLCON_IGNORE").write_text("")
    (ws / "src/vendor/v.launch").write_text("<launch/>")
    os.symlink(ws / "src", ws / "src/scout/loop")  # a symlink loop must not recurse forever
    found = discover([ws])
    assert {n: (p.path, p.ros_version) for n, p in found.packages.items()} == {
        "mower_bringup": ("src/mower/mower_bringup", 1),
        "scout_bringup": ("src/scout/scout_bringup", 2),
    }
    assert [f.path for f in found.files] == ["src/mower/mower_bringup/launch/frames.launch", "src/scout/scout_bringup/launch/sensor_mounts.launch.py"]
    excluded = discover([ws], exclude=["*/mower/*"])
    assert [f.path for f in excluded.files] == ["src/scout/scout_bringup/launch/sensor_mounts.launch.py"]


def test_a_file_inside_a_package_is_scanned_with_its_package_as_root() -> None:
    launch = FIXTURES / "two_parents/rover_description/launch/description.launch.py"
    result = scan([launch], jobs=1)
    assert result.root == launch.parent.parent
    assert {(e.parent, e.child, e.sources[0].file) for e in result.expected.edges} == {
        ("base_footprint", "base_link", "urdf/rover.urdf"), ("base_link", "laser", "urdf/rover.urdf")}


def test_malformed_files_become_parse_errors_and_the_scan_goes_on(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "ros1_reversed", tmp_path / "ws")
    launch = tmp_path / "ws/mower_bringup/launch"
    (launch / "broken.launch").write_text("<launch>\n  <node pkg='tf' type='static_transform_publisher'\n</launch>\n")
    (launch / "broken.launch.py").write_text("def generate_launch_description(:\n    pass\n")
    (launch / "broken.launch.yaml").write_text("launch:\n- node: {pkg: a\n")
    result = scan([tmp_path / "ws"], jobs=1)
    got = [(f.code, f.location and f.location.file, f.location and f.location.line) for f in result.findings]
    assert ("INCORRECT_FRAME_ORDER_IN_TREE", "mower_bringup/launch/frames.launch", 13) in got
    parse_errors = sorted((file, line) for code, file, line in got if code == "PARSE_ERROR")
    assert parse_errors == [
        ("mower_bringup/launch/broken.launch", 3),
        ("mower_bringup/launch/broken.launch.py", 1),
        ("mower_bringup/launch/broken.launch.yaml", 3),
    ]
    assert all(f.level.value == "info" for f in result.findings if f.code == "PARSE_ERROR")


def test_a_file_that_takes_too_long_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker parsing it is killed (a parser stuck in C code cannot be interrupted from inside);
    only that file is lost: the files after it in the same batch are still checked."""
    (tmp_path / "a_slow.urdf").write_text("<robot name='r'/>\n")
    (tmp_path / "b_ok.urdf").write_text("<robot name='r'><link name='a'/><link name='b'/>"
                                        "<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint></robot>\n")
    dispatch = scanner._dispatch

    def hang(text: str, rel: str, *args: object) -> object:
        if rel == "a_slow.urdf":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT, signal.SIGTERM})
            time.sleep(30)  # stands in for C code that never returns
        return dispatch(text, rel, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(scanner, "_dispatch", hang)  # forked workers inherit it
    t0 = time.perf_counter()
    result = scan([tmp_path], timeout=0.5)
    assert time.perf_counter() - t0 < 10
    slow = [f for f in result.findings if f.code == "PARSE_ERROR"]
    assert [f.location.file for f in slow if f.location] == ["a_slow.urdf"]
    assert "longer than 0.5 s" in slow[0].message
    assert [(e.parent, e.child) for e in result.expected.edges] == [("a", "b")]


def test_parallel_scan_matches_serial_scan(tmp_path: Path) -> None:
    for name in ("clean_bringup", "two_parents", "ros1_reversed", "realsense_bad", "sdf_self"):
        shutil.copytree(FIXTURES / name, tmp_path / name)
    for i in range(40):  # enough files for the pool to be used
        (tmp_path / f"extra/p{i}.urdf").parent.mkdir(exist_ok=True)
        (tmp_path / f"extra/p{i}.urdf").write_text(f"<robot name='r{i}'><link name='a{i}'/><link name='b{i}'/>"
                                                   f"<joint name='j' type='fixed'><parent link='a{i}'/><child link='b{i}'/></joint></robot>")
    serial = scan([tmp_path], jobs=1)
    parallel = scan([tmp_path], jobs=2)
    assert [f.to_dict() for f in parallel.findings] == [f.to_dict() for f in serial.findings]
    assert sorted(e.to_dict()["child"] for e in parallel.expected.edges) == sorted(e.to_dict()["child"] for e in serial.expected.edges)
    assert parallel.lines == serial.lines


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["scan", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_text_report_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, str(FIXTURES / "ros1_reversed"), "--no-progress")
    assert code == 1
    assert "mower_bringup/launch/frames.launch\n  13: ERROR INCORRECT_FRAME_ORDER_IN_TREE" in out
    assert 'args="0 0 0 0 0 0 odom map 100"/>' in out and "^" in out
    code, out, _ = _run(capsys, str(FIXTURES / "realsense_ok"))
    assert code == 0 and out.startswith("no findings")
    code, _, err = _run(capsys, str(FIXTURES / "ros1_reversed"), "--ignore", "INCORRECT_FRAME_ORDER_IN_TREE")
    assert code == 0
    code, _, err = _run(capsys, "/nonexistent/ws")
    assert code == 2 and "/nonexistent/ws" in err
    code, out, err = _run(capsys, str(FIXTURES / "realsense_ok/rs_description/package.xml"))
    assert code == 0 and "no URDF, xacro, SDF, launch, C++ or Python files" in err
    code, _, err = _run(capsys, str(FIXTURES), "--ignore", "NO_SUCH_CODE")
    assert code == 2 and "NO_SUCH_CODE" in err


def test_cli_json_follows_the_contract(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    expected = tmp_path / "expected.yaml"
    code, out, _ = _run(capsys, str(FIXTURES / "two_parents"), "--format", "json", "--expected-out", str(expected))
    assert code == 1
    data = json.loads(out)
    assert data["tool"]["name"] == "physframe"
    [finding] = data["findings"]
    assert set(finding) >= {"code", "severity", "category", "frames", "message", "location", "time"}
    assert finding["code"] == "MULTIPLE_PARENTS_IN_FRAME_TREE" and finding["severity"] == "error" and finding["time"] is None
    assert finding["location"]["file"] == "rover_localization/launch/localization.launch.py"
    edge = next(e for e in data["tree"]["edges"] if e["child"] == "laser")
    assert edge["sources"] == [{"file": "rover_description/urdf/rover.urdf", "line": 13}]
    assert edge["translation"] == [0.15, 0.0, 0.2] and edge["rotation"] == [0.0, 0.0, 0.0, 1.0]
    assert "base_link" in data["tree"]["frames"]
    tree = ExpectedTree.load(expected)
    assert {(e.parent, e.child) for e in tree.edges} == {("base_footprint", "base_link"), ("base_link", "laser"), ("odom", "base_link")}


def test_cli_sarif_structure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "r.sarif"
    code, _, _ = _run(capsys, str(FIXTURES / "realsense_bad"), "--format", "sarif", "-o", str(out_file))
    assert code == 1
    sarif = json.loads(out_file.read_text())
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-2.1.0.json")
    [run] = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["INCORRECT_TRANSFORM"]
    [res] = run["results"]
    assert res["ruleId"] == "INCORRECT_TRANSFORM" and rules[res["ruleIndex"]]["id"] == res["ruleId"]
    assert res["level"] == "error" and res["message"]["text"]
    phys = res["locations"][0]["physicalLocation"]
    assert phys["artifactLocation"] == {"uri": "rs_description/urdf/_depth_camera.urdf.xacro", "uriBaseId": "%SRCROOT%"}
    assert phys["region"]["startLine"] == 42
    assert "%SRCROOT%" in run["originalUriBaseIds"]
    assert len(res["partialFingerprints"]["physframe/v1"]) == 32


def test_cli_example_workspace_is_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--example", "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert {f["code"] for f in data["findings"]} >= {"INCORRECT_FRAME_ORDER_IN_TREE", "INCORRECT_TRANSFORM", "MULTIPLE_PARENTS_IN_FRAME_TREE"}


def test_cli_severity_conventions_and_exclude(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, _ = _run(capsys, str(FIXTURES / "ros1_reversed"), "--severity", "INCORRECT_FRAME_ORDER_IN_TREE=warning")
    assert code == 0
    code, out, _ = _run(capsys, str(FIXTURES / "ros1_reversed"), "--exclude", "*.launch")
    assert code == 0 and out.startswith("no findings")
    # a conventions file that declares the optical frame's axes as FLU silences the axis finding
    conv = tmp_path / "conventions.yaml"
    conv.write_text("frames:\n  front_camera_optical_frame: other\nclasses:\n  other:\n    patterns: []\n    axes: FLU\n")
    code, out, err = _run(capsys, str(FIXTURES / "ros2_flags"), "--conventions", str(conv))
    assert code == 0 and "INCORRECT_TRANSFORM" not in out, out + err
    bad = tmp_path / "bad.yaml"
    bad.write_text("classes: {x: {patterns: ['(']}}\n")
    code, _, err = _run(capsys, str(FIXTURES / "ros2_flags"), "--conventions", str(bad))
    assert code == 2 and "bad.yaml" in err


def test_progress_bar_appears_only_on_long_scans() -> None:
    import io

    quick, slow = io.StringIO(), io.StringIO()
    bar = scanner._Progress(quick, 10, time.perf_counter())
    bar.step(5, 100)
    bar.done()
    assert quick.getvalue() == ""
    bar = scanner._Progress(slow, 10, time.perf_counter() - 3.0)
    bar.step(5, 1000)
    bar.done()
    assert "scanning 5/10 files  50%" in slow.getvalue() and slow.getvalue().endswith("\r")
