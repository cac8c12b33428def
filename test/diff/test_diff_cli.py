"""``physframe diff``: the cross-check alone against a real bag, a table per variant, CI exit statuses."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import robot_with, write_bag

from physframe_ros.bag import open_bag
from physframe_ros.cli import main
from physframe_ros.core import Edge, ExpectedTree, Location, Variant
from physframe_ros.replay import replay


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A bag of the clean test robot and an expected tree of two models: the one recorded, and one with a GPS."""
    d = tmp_path_factory.mktemp("diff")
    bag = write_bag(robot_with(None), d, "mcap")
    with open_bag(str(bag)) as b:
        seen = replay(b).edges
    declared = [replace(e, publishers=(), sources=(Location("robot_description/urdf/robot.urdf.xacro", 10 + i),)) for i, e in enumerate(seen)]
    gps = Edge("base_link", "gps", True, (0.0, 0.0, 0.5), (0.0, 0.0, 0.0, 1.0), (Location("robot_description/urdf/gps.xacro", 7),))
    tree = ExpectedTree([*declared, gps], [], [], [
        Variant("bringup.launch.py model:=plain", declared, "bringup.launch.py", {"model": "plain"}),
        Variant("bringup.launch.py model:=gps", [*declared, gps], "bringup.launch.py", {"model": "gps"}),
    ])
    path = d / "expected.yaml"
    tree.save(path)
    return bag, path


def test_the_recorded_model_agrees(recorded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bag, expected = recorded
    assert main(["diff", str(expected), str(bag)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[2].split() == ["variant", "agree", "missing", "parent", "value", "unexpected"]
    first, second = lines[3], lines[4]
    assert first.startswith("*  variant 'bringup.launch.py model:=plain'") and first.split()[-5:] == [first.split()[-5], "0", "0", "0", "0"]
    agree = first.split()[-5]
    assert agree.split("/")[0] == agree.split("/")[1]  # every declared edge agrees
    assert second.startswith("   variant 'bringup.launch.py model:=gps'") and second.split()[-4] == "1"  # the GPS is missing
    assert "agrees with variant 'bringup.launch.py model:=plain'" in out


def test_a_chosen_variant_that_differs_fails_with_the_declaring_line(recorded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bag, expected = recorded
    assert main(["diff", str(expected), str(bag), "--variant", "bringup.launch.py model:=gps", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    chosen = [v for v in data["variants"] if v["chosen"]]
    assert [v["name"] for v in chosen] == ["bringup.launch.py model:=gps"]
    (f,) = chosen[0]["findings"]
    assert (f["code"], f["frames"], f["location"]) == ("EXPECTED_FRAME_MISSING", ["gps"], {"file": "robot_description/urdf/gps.xacro", "line": 7})


def test_bad_usage_is_one_line_and_status_2(recorded: tuple[Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bag, expected = recorded
    assert main(["diff", str(expected)]) == 2
    assert "give either BAG or --live" in capsys.readouterr().err
    assert main(["diff", str(expected), str(bag), "--variant", "nope"]) == 2
    err = capsys.readouterr().err
    assert "has no variant 'nope'" in err and "'bringup.launch.py model:=gps'" in err and err.count("\n") == 1
    assert main(["diff", str(expected), str(tmp_path / "missing.mcap")]) == 2
    err = capsys.readouterr().err
    assert "missing.mcap" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as done:
        main(["diff", "--help"])
    assert done.value.code == 0
    assert "exit status: 0 the chosen variant agrees" in capsys.readouterr().out


def test_replay_names_the_variant_and_waits_the_grace(recorded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    bag, expected = recorded
    tree = ExpectedTree.load(expected)
    only_gps = tree.variants[1]
    single = expected.with_name("gps_only.yaml")
    ExpectedTree(only_gps.edges, variants=[only_gps]).save(single)
    assert main(["replay", str(bag), "--expected", str(single), "--format", "json"]) == 0  # a missing frame is a warning
    report = json.loads(capsys.readouterr().out)
    assert report["expected_variant"] == "variant 'bringup.launch.py model:=gps'"
    assert [(f["code"], f["frames"]) for f in report["findings"]] == [("EXPECTED_FRAME_MISSING", ["gps"])]
    assert main(["replay", str(bag), "--expected", str(single), "--format", "json", "--expected-grace", "1e6"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
