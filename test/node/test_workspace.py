"""What a ROS 2 user does with this package: `colcon build` it into a workspace, source
install/setup.bash, `ros2 launch` / `ros2 run` it, see a TF fault where rqt looks (/diagnostics and,
once, /rosout), and stop it with Ctrl-C; and `colcon test`. One build serves the whole module.

Needs colcon and the ros2 CLI with launch_ros: `scripts/bootstrap --with-launch` installs them from
../shared/vendor/ros2-kilted (scripts/test does when that is there), or a sourced ROS 2 has them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from colcon_workspace import RosCommand, Workspace, build_workspace, missing_tools, ros_env, tool_path

from physframe_ros.core.expected import ExpectedTree
from physframe_ros.core.tree import Edge
from physframe_ros.demo.robot import TfEdge, TfSource

pytestmark = [pytest.mark.ros, pytest.mark.slow, pytest.mark.workspace]
REPO = Path(__file__).resolve().parents[2]
BAD_ORDER = "INCORRECT_FRAME_ORDER_IN_TREE"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    why = missing_tools()
    if why:
        pytest.skip(why)
    return build_workspace(tmp_path_factory.mktemp("ros2_ws"))


def start(ws: Workspace, command: str, domain_id: int, tmp: Path) -> RosCommand:
    (tmp / "tmp").mkdir(exist_ok=True)
    return RosCommand(ws.root, command, ros_env(domain_id, tmp / "tmp"))


def see_finding_once(probe, cmd: RosCommand, code: str, evaluations: float) -> None:
    """The finding on /diagnostics, then still there ``evaluations`` later, logged to /rosout exactly once."""
    name = f"physframe: {code}"
    probe.wait_for(lambda: name in probe.status_names() or cmd.proc.poll() is not None, timeout=30.0, what=name)
    assert cmd.proc.poll() is None, cmd.output
    with probe._lock:
        start = len(probe.arrays)
    probe.wait_for(lambda: len(probe.arrays) >= start + 3, timeout=evaluations * 5, what="three more evaluations")
    assert name in probe.status_names()
    lines = [m for m in probe.log_lines() if m.startswith(code)]
    assert len(lines) == 1, lines


def stop_cleanly(probe, cmd: RosCommand, late_sigint: float | None = None) -> str:
    """Ctrl-C: status 0, every process gone within 5 s, no traceback, the node gone from the graph."""
    rc, seconds = cmd.ctrl_c(timeout=5.0, late_sigint=late_sigint)
    out = cmd.output
    assert rc == 0, f"exit {rc} after {seconds:.1f} s:\n{out}"
    assert "Traceback" not in out and "KeyboardInterrupt" not in out and "process has died" not in out, out
    # a clean exit announces the departure; on a loaded machine the graph can take a few seconds to show it, still well
    # inside Fast DDS's 20 s lease, after which an unannounced node would vanish too
    probe.wait_for(lambda: "physframe_monitor" not in probe.node_names(), timeout=10.0, what="the monitor to leave the graph")
    return out


def no_temporary_files(tmp: Path) -> None:
    assert sorted(p.name for p in (tmp / "tmp").iterdir() if p.name != "ros_log") == []


def test_colcon_build_is_silent_and_installs_launch_config_and_executables(workspace):
    out = workspace.build.stdout + workspace.build.stderr
    assert workspace.build.returncode == 0, out
    assert "stderr output" not in out and workspace.build.stderr == "", out
    share = workspace.root / "install" / "physframe_ros" / "share" / "physframe_ros"
    assert {p.name for p in (share / "launch").iterdir()} == {"monitor.launch.py"}
    assert {"monitor.yaml", "diagnostic_aggregator.yaml"} <= {p.name for p in (share / "config").iterdir()}
    assert (workspace.root / "install" / "physframe_ros" / "lib" / "physframe_ros" / "monitor").is_file()


def test_ros2_launch_params_file_tf_topics_and_debug_log_level(workspace, ros_probe, ros_domain_id, tmp_path):
    from physframe_ros.demo.sim import TfSourceNode

    params = yaml.safe_load((REPO / "config" / "monitor.yaml").read_text())
    params["physframe_monitor"]["ros__parameters"]["eval_period"] = 0.3
    (tmp_path / "fast.yaml").write_text(yaml.safe_dump(params))
    cmd = start(workspace, f"ros2 launch physframe_ros monitor.launch.py params_file:={tmp_path / 'fast.yaml'} tf_topics:=/robot1/tf log_level:=debug",
                ros_domain_id, tmp_path)
    try:
        started = "watching /tf, /tf_static, /robot1/tf and samples of the stamped topics * every 5 s; evaluating every 0.3 s"
        assert cmd.wait_for_output(started, 30.0), cmd.output
        robot1 = TfSource("robot1_localization", dynamic=(TfEdge("odom", "map"),))
        ros_probe.add_node(TfSourceNode(robot1, dynamic_topic="/robot1/tf", context=ros_probe.context))
        see_finding_once(ros_probe, cmd, BAD_ORDER, 0.3)
    finally:
        out = stop_cleanly(ros_probe, cmd)
    debug = [line for line in out.splitlines() if "[DEBUG]" in line]
    assert any("[physframe_monitor]: evaluated" in line for line in debug), out
    assert all("[physframe_monitor]" in line for line in debug), [line for line in debug if "[physframe_monitor]" not in line][:5]
    no_temporary_files(tmp_path)


def test_ros2_launch_expected_tree_and_absent_aggregator(workspace, ros_probe, ros_domain_id, tmp_path):
    expected = tmp_path / "expected.yaml"
    ExpectedTree([Edge("odom", "base_link"), Edge("base_link", "laser_link", True)]).save(expected)
    cmd = start(workspace, f"ros2 launch physframe_ros monitor.launch.py expected_tree:={expected} aggregator:=true", ros_domain_id, tmp_path)
    try:
        assert cmd.wait_for_output(f"cross-checking against {expected}", 30.0), cmd.output
        assert "aggregator:=true: diagnostic_aggregator is not installed" in cmd.output
        ros_probe.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
        see_finding_once(ros_probe, cmd, "EXPECTED_FRAME_MISSING", 1.0)
    finally:
        # launch's forwarded SIGINT arriving late, while the node shuts down (it died of it with exit -2)
        stop_cleanly(ros_probe, cmd, late_sigint=0.06)
    no_temporary_files(tmp_path)


def test_ros2_launch_refuses_an_unknown_log_level_with_the_choices(workspace, ros_domain_id, tmp_path):
    cmd = start(workspace, "ros2 launch physframe_ros monitor.launch.py log_level:=verbose", ros_domain_id, tmp_path)
    rc = cmd.wait(timeout=60.0)
    assert rc not in (0, None), cmd.output
    assert "verbose" in cmd.output and "debug" in cmd.output and "Traceback" not in cmd.output, cmd.output


def test_ros2_run_monitor_then_ros2_param_set(workspace, ros_probe, ros_domain_id, tmp_path):
    cmd = start(workspace, "ros2 run physframe_ros monitor --ros-args -p eval_period:=0.5", ros_domain_id, tmp_path)
    try:
        assert cmd.wait_for_output("evaluating every 0.5 s", 30.0), cmd.output
        ros_probe.publish(TfSource("bad_localization", dynamic=(TfEdge("odom", "map"),)))
        see_finding_once(ros_probe, cmd, BAD_ORDER, 0.5)
        (result,) = ros_probe.set_parameters(ignore_codes=[BAD_ORDER])
        assert result.successful, result.reason
        ros_probe.wait_for(lambda: ros_probe.status_names() == {"physframe: tree"}, what="the ignored finding to clear")
    finally:
        stop_cleanly(ros_probe, cmd)


def test_ros2_run_physframe_scan(workspace, ros_domain_id, tmp_path):
    cmd = start(workspace, "ros2 run physframe_ros physframe scan src/ --expected-out expected.yaml", ros_domain_id, tmp_path)
    rc = cmd.wait(timeout=120.0)
    assert rc == 1, cmd.output  # the example holds planted errors
    assert re.search(r"CYCLE_IN_FRAME_TREE|MULTIPLE_PARENTS_IN_FRAME_TREE|INCORRECT_TRANSFORM", cmd.output), cmd.output
    assert "Traceback" not in cmd.output


def test_sourced_workspace_imports_the_installed_package(workspace, ros_domain_id, tmp_path):
    cmd = start(workspace, "python -c 'import physframe_ros; print(physframe_ros.__file__)'", ros_domain_id, tmp_path)
    assert cmd.wait(timeout=60.0) == 0, cmd.output
    assert str(workspace.root / "install" / "physframe_ros") in cmd.output


def test_colcon_test_passes_against_the_installed_package(workspace):
    env = dict(os.environ, PATH=tool_path())
    test = subprocess.run(["colcon", "test", "--packages-select", "physframe_ros"], cwd=workspace.root, env=env, capture_output=True, text=True, timeout=1200)
    result = subprocess.run(["colcon", "test-result", "--verbose"], cwd=workspace.root, env=env, capture_output=True, text=True, timeout=60)
    log = workspace.root / "log" / "latest_test" / "physframe_ros" / "stdout_stderr.log"
    detail = log.read_text() if log.is_file() else ""
    assert test.returncode == 0 and result.returncode == 0, test.stdout + result.stdout + detail[-4000:]
    assert re.search(r"\d+ tests, 0 errors, 0 failures", result.stdout), result.stdout
    assert f"physframe_ros from {workspace.root / 'install' / 'physframe_ros'}" in detail, detail[:2000]
