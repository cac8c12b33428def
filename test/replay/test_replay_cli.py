"""``physframe replay`` from the command line: formats, exit codes, one-line errors, windows, --expected, progress."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import IDENTITY, START, robot_with, write_bag, write_rosbag2

from physframe_ros.cli import main
from physframe_ros.core import Edge, ExpectedTree


@pytest.fixture(scope="module")
def bags(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("bags")
    out = {}
    for fault in (None, "cycle", "wrong_optical"):
        d = root / str(fault)
        d.mkdir()
        out[str(fault)] = write_bag(robot_with(fault), d, "mcap")
    return out


def test_json_report_follows_the_contract(bags: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(bags["cycle"]), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["tool"]["name"] == "physframe"
    (f,) = report["findings"]
    assert f["code"] == "CYCLE_IN_FRAME_TREE" and f["severity"] == "error" and f["category"] == "tree"
    assert f["frames"] == ["map", "odom"] and f["location"] is None
    assert 12.0 <= f["time"]["first"] - START <= 13.05 and f["time"]["count"] == 1
    assert {"map", "odom", "base_link", "camera_optical_frame"} <= set(report["tree"]["frames"])
    edge = next(e for e in report["tree"]["edges"] if e["child"] == "camera_optical_frame")
    assert edge["static"] is True and edge["rotation"] == [-0.5, 0.5, -0.5, 0.5]
    bag = report["bag"]
    assert bag["path"] == str(bags["cycle"]) and bag["start"] == pytest.approx(START) and bag["duration"] == pytest.approx(39.99, abs=0.02)
    assert bag["messages"] == report["stats"]["messages_received"] > 2000
    assert {t["name"] for t in bag["topics"]} == {"/tf", "/tf_static", "/chatter"} and bag["tf_topics"] == ["/tf", "/tf_static"]
    assert report["stats"]["transforms_received"] > 2400 and report["stats"]["transforms_per_s"] > 0
    assert any(r["pattern"] == "static" for r in report["edges_stats"])


def test_text_report_and_exit_status(bags: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(bags["None"])]) == 0
    out = capsys.readouterr().out
    assert "no findings" in out and "static (latched)" in out and "50.0 Hz" in out
    assert main(["replay", str(bags["wrong_optical"])]) == 1
    out = capsys.readouterr().out
    assert "ERROR INCORRECT_TRANSFORM [t=1.000..39.990" in out and "camera_optical_frame" in out and "RDF" in out


def test_severity_override_and_ignore_change_the_exit_status(bags: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(bags["wrong_optical"]), "--severity", "INCORRECT_TRANSFORM=warning"]) == 0
    assert "WARNING INCORRECT_TRANSFORM" in capsys.readouterr().out
    assert main(["replay", str(bags["wrong_optical"]), "--ignore-frame", "camera_optical_frame"]) == 0


def test_relative_and_absolute_windows(bags: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(bags["cycle"]), "--start", "14"]) == 0
    assert main(["replay", str(bags["cycle"]), "--start", f"@{START + 11}", "--end", f"@{START + 14}"]) == 1
    capsys.readouterr()
    assert main(["replay", str(bags["cycle"]), "--start", "soon"]) == 2
    assert "--start 'soon' is not a number" in capsys.readouterr().err
    assert main(["replay", str(bags["cycle"]), "--start", "20", "--end", "10"]) == 2
    assert "window is empty" in capsys.readouterr().err


def test_expected_tree_crosscheck(bags: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = ExpectedTree(
        [
            Edge("map", "odom"),
            Edge("odom", "base_link"),
            Edge("base_link", "laser", True, (0.2, 0.0, 0.3), IDENTITY),
            Edge("base_link", "camera_link", True, (0.5, 0.0, 0.2), IDENTITY),  # the bag has x = 0.25
            Edge("laser", "imu_link", True),  # the bag has base_link -> imu_link
            Edge("base_link", "gps", True),  # never published
        ]
    )
    path = tmp_path / "expected.yaml"
    tree.save(path)
    assert main(["replay", str(bags["None"]), "--expected", str(path), "--format", "json"]) == 1
    found = {(f["code"], tuple(f["frames"])) for f in json.loads(capsys.readouterr().out)["findings"]}
    assert found == {
        ("STATIC_VALUE_MISMATCH", ("base_link", "camera_link")),
        ("PARENT_MISMATCH", ("imu_link", "laser", "base_link")),
        ("EXPECTED_FRAME_MISSING", ("gps",)),
        ("UNEXPECTED_EDGE", ("camera_link", "camera_optical_frame")),
    }
    bad = tmp_path / "bad.yaml"
    bad.write_text("just: a mapping\n")
    assert main(["replay", str(bags["None"]), "--expected", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "not a physframe expected tree" in err and err.count("\n") == 1


def test_unreadable_input_is_one_line_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.mcap"
    assert main(["replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err
    no_tf = write_rosbag2([], tmp_path / "chatter_only")
    assert main(["replay", str(no_tf)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no TF topics" in err and "/chatter [std_msgs/msg/String]" in err


def test_truncated_bag_prints_the_error_and_the_partial_report(bags: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = next(bags["cycle"].glob("*.mcap")).read_bytes()
    cut = tmp_path / "cut.mcap"
    cut.write_bytes(data[: int(len(data) * 0.6)])
    assert main(["replay", str(cut), "--format", "json"]) == 2
    captured = capsys.readouterr()
    err_lines = captured.err.strip().splitlines()
    assert len(err_lines) == 1 and str(cut) in err_lines[0] and "record at byte" in err_lines[0] and "t=+2" in err_lines[0]
    report = json.loads(captured.out)
    assert [f["code"] for f in report["findings"]] == ["CYCLE_IN_FRAME_TREE"]
    assert report["error"] and "read from the front" in report["bag"]["recovered"]


def test_progress_bar_and_html_file(bags: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    assert main(["replay", str(bags["cycle"]), "--progress", "--format", "html", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "transforms/s" in err and "%" in err
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and 'data-frame="odom"' in html and "CYCLE_IN_FRAME_TREE" in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")  # self-contained: nothing to fetch


def test_ctrl_c_prints_what_was_found_so_far(bags: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from physframe_ros.replay import cli

    class InterruptAt20s:
        def __init__(self, start: float, end: float) -> None:
            pass

        def __call__(self, bag_time: float, transforms: int) -> None:
            if bag_time > START + 20:
                raise KeyboardInterrupt

        def done(self) -> None:
            pass

    monkeypatch.setattr(cli, "ProgressBar", InterruptAt20s)
    assert main(["replay", str(bags["cycle"]), "--progress"]) == 130
    captured = capsys.readouterr()
    assert "CYCLE_IN_FRAME_TREE" in captured.out and "interrupted" in captured.out and "interrupted" in captured.err


def test_console_script_runs_as_a_process(bags: dict[str, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "physframe_ros.cli", "replay", str(bags["cycle"]), "--format", "json", "--no-progress"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["findings"][0]["code"] == "CYCLE_IN_FRAME_TREE"


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = capsys.readouterr().out
    assert "--period" in out and "@" in out and "exit status" in out and "examples" in out


def test_conventions_file_changes_what_is_expected(bags: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conventions = tmp_path / "conventions.yaml"
    # this robot's camera driver really does publish an FLU "optical" frame: declare it a sensor body frame
    conventions.write_text("frames:\n  camera_optical_frame: sensor\n")
    assert main(["replay", str(bags["wrong_optical"]), "--conventions", str(conventions)]) == 0
    conventions.write_text("frames: [not, a, mapping\n")
    assert main(["replay", str(bags["wrong_optical"]), "--conventions", str(conventions)]) == 2
    assert str(conventions) in capsys.readouterr().err
