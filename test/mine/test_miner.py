"""The miner on the real shared table of static transforms, and on small hand-made tables."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from physframe_ros.cli import main
from physframe_ros.core.findings import Location
from physframe_ros.core.mined import MinedConventionsError, MinedRule, check_mined, load_rules, z_score
from physframe_ros.core.tree import Edge
from physframe_ros.mine import MineError, Observation, mine, read_csv

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "static_transforms.csv"
COLUMNS = ["repo", "file", "parent", "child", "x", "y", "z", "qx", "qy", "qz", "qw"]


def write_table(path, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        w.writerows(rows)
    return path


def test_z_score_matches_the_paper_formula():
    assert z_score(13, 13, 0.9) == pytest.approx(0.1 / math.sqrt(0.09 / 13))
    assert z_score(10, 9, 0.9) == pytest.approx(0.0)
    assert z_score(10, 5, 0.9) < 0


@pytest.mark.skipif(not SHARED.exists(), reason="shared/ data set is beside the repo in CI and on developer machines")
def test_real_table_map_to_odom_has_no_rotation():
    obs = read_csv(SHARED)
    assert len(obs) == 710
    assert len({o.project for o in obs}) == 127
    rules = mine(obs, p0=0.9, threshold=1.0)
    top = rules[0]
    assert (top.kind, top.parent, top.child, top.n, top.e) == ("null_rotation", "map", "odom", 13, 13)
    # a lower threshold admits the weaker conventions the README's table shows
    weaker = {(r.kind, r.parent, r.child) for r in mine(obs, p0=0.9, threshold=0.0)}
    assert ("null_rotation", "base_footprint", "base_link") in weaker
    assert ("null_displacement", "world", "panda_link0") in weaker


def test_counts_projects_not_rows(tmp_path):
    rows = [["r1", f"launch/{i}.launch", "base_link", "laser", 0, 0, 0, 0, 0, 0, 1] for i in range(18)]
    rows += [[f"r{k}", "a.launch", "base_link", "laser", 0, 0, 0, 0, 0, 0.7071, 0.7071] for k in range(2, 4)]
    obs = read_csv(write_table(tmp_path / "t.csv", rows))
    assert mine(obs, threshold=-10.0, min_support=1)[0].n == 3  # 20 rows, 3 projects


def test_co_occurrence_rule_and_check():
    obs = []
    for k in range(12):
        obs += [Observation(f"r{k}", "base_link", "left_wheel", False, True), Observation(f"r{k}", "base_link", "right_wheel", False, True)]
    rules = [r for r in mine(obs, threshold=1.0) if r.kind == "co_occurrence"]
    assert {(r.child, r.other_child) for r in rules} == {("left_wheel", "right_wheel"), ("right_wheel", "left_wheel")}
    edges = [Edge("base_link", "left_wheel", True, (0, 0.2, 0), (0, 0, 0, 1), (Location("urdf/r.urdf", 7),))]
    (f,) = check_mined(edges, rules)
    assert f.code == "CO_OCCURRENCE_MISSING" and f.location == Location("urdf/r.urdf", 7)
    assert "base_link -> right_wheel" in f.message


def test_null_rotation_and_displacement_checks():
    rules = [MinedRule("null_rotation", "map", "odom", 13, 13, 1.2), MinedRule("null_displacement", "kinect_link", "kinect_depth_frame", 9, 9, 1.0)]
    edges = [Edge("map", "odom", True, (0, 0, 0), (0, 0, 0.7071, 0.7071)), Edge("kinect_link", "kinect_depth_frame", True, (0, 0.02, 0), (0, 0, 0, 1))]
    assert sorted(f.code for f in check_mined(edges, rules)) == ["NULL_DISPLACEMENT_EXPECTED", "NULL_ROTATION_EXPECTED"]
    clean = [Edge("map", "odom", True, (0, 0, 0), (0, 0, 0, 1))]
    assert check_mined(clean, rules) == []


def test_cli_writes_rules_that_load_back(tmp_path, capsys):
    rows = [[f"r{k}", "x.launch", "world", "map", 0, 0, 0, 0, 0, 0, 1] for k in range(15)]
    table = write_table(tmp_path / "t.csv", rows)
    out = tmp_path / "conv.yaml"
    assert main(["mine", str(table), "-o", str(out)]) == 0
    assert "15 transforms from 15 projects" in capsys.readouterr().out
    rules = load_rules(out)
    assert {(r.kind, r.parent, r.child) for r in rules} == {("null_rotation", "world", "map"), ("null_displacement", "world", "map")}


def test_bad_tables_give_one_line_errors(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("repo,parent\nx,y\n")
    with pytest.raises(MineError, match="missing columns"):
        read_csv(bad)
    write_table(bad, [["r", "f", "a", "b", "zero", 0, 0, 0, 0, 0, 1]])
    with pytest.raises(MineError, match=r"bad\.csv:2: non-numeric"):
        read_csv(bad)
    assert main(["mine", str(bad), "-o", str(tmp_path / "c.yaml")]) == 2
    assert "bad.csv:2" in capsys.readouterr().err
    (tmp_path / "r.yaml").write_text("format: nope\n")
    with pytest.raises(MinedConventionsError, match="not a mined-conventions file"):
        load_rules(tmp_path / "r.yaml")


def test_scan_reports_departures_from_mined_rules(tmp_path):
    import json

    from physframe_ros.core.mined import save_rules

    rules = [MinedRule("co_occurrence", "odom", "base_link", 20, 20, 1.5, "map", "odom")]
    save_rules(rules, tmp_path / "conv.yaml", 0.9, 1.0, ["test"])
    out = tmp_path / "report.json"
    main(["scan", "--example", "--mined", str(tmp_path / "conv.yaml"), "--format", "json", "-o", str(out), "--no-progress"])
    found = [(f["code"], f["frames"]) for f in json.loads(out.read_text())["findings"] if f["category"] == "convention"]
    assert found == [("CO_OCCURRENCE_MISSING", ["odom", "base_link", "map", "odom"])]
    assert main(["scan", "--example", "--mined", str(tmp_path / "missing.yaml")]) == 2
