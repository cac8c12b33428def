"""This package in a colcon workspace, built and run as a ROS 2 user does: a copy of the source in
``src/``, ``colcon build``, then ``source install/setup.bash && ros2 ...`` in its own process group,
stopped with the SIGINT a terminal's Ctrl-C sends to that group. Used by test_workspace.py and
benchmarks/ctrl_c.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# what a clone holds (no venv, caches or earlier builds)
NOT_IN_A_CLONE = {".venv", ".git", "build", "install", "log", "out", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}


def tool_path() -> str:
    """PATH with this interpreter's bin first: the venv's colcon and ros2 (a sourced ROS's come after)."""
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def missing_tools() -> str | None:
    """Why this machine cannot run a workspace (scripts/bootstrap --with-launch installs the tools), or None."""
    missing = [t for t in ("colcon", "ros2") if shutil.which(t, path=tool_path()) is None]
    if missing:
        return f"no {' or '.join(missing)} here: run scripts/bootstrap --with-launch (it needs ../shared/vendor/ros2-kilted) or source a ROS 2 installation"
    return None


def ros_env(domain_id: int, tmp: Path) -> dict[str, str]:
    """DDS on loopback in its own domain; temporary files and ROS logs in ``tmp`` (so leftovers can be seen)."""
    env = dict(os.environ)
    env.update(
        PATH=tool_path(),
        ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST",
        ROS_DOMAIN_ID=str(domain_id),
        TMPDIR=str(tmp),
        ROS_LOG_DIR=str(tmp / "ros_log"),
        PYTHONUNBUFFERED="1",
        RCUTILS_COLORIZED_OUTPUT="0",
    )
    return env


@dataclass
class Workspace:
    root: Path
    build: subprocess.CompletedProcess[str]
    build_seconds: float


def build_workspace(root: Path) -> Workspace:
    """``colcon build --packages-select physframe_ros`` of a copy of this repository in ``root/src``."""
    src = root / "src" / "physframe_ros"
    shutil.copytree(REPO, src, ignore=lambda d, names: NOT_IN_A_CLONE & set(names) if Path(d) == REPO else {"__pycache__"} & set(names))
    env = dict(os.environ, PATH=tool_path())
    # a developer's shell setting, not a user's: with it setuptools warns "byte-compiling is disabled" on stderr
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.monotonic()
    build = subprocess.run(["colcon", "build", "--packages-select", "physframe_ros"], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    return Workspace(root, build, time.monotonic() - t0)


class RosCommand:
    """``source install/setup.bash && exec COMMAND`` in the workspace, in a process group of its own."""

    def __init__(self, ws: Path, command: str, env: dict[str, str]) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            ["bash", "-c", f"source install/setup.bash && exec {command}"],
            cwd=ws,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # setsid: the group a terminal would signal, and no inherited SIGINT-ignore
        )
        self._lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self._lines)

    def wait_for_output(self, text: str, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if text in self.output:
                return True
            time.sleep(0.05)
        return text in self.output

    def group_alive(self) -> bool:
        try:
            os.killpg(self.proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def ctrl_c(self, timeout: float = 5.0, late_sigint: float | None = None) -> tuple[int | None, float]:
        """SIGINT to the whole group, as a terminal's Ctrl-C; (exit status or None, seconds until every
        process of the group was gone). After ``timeout`` the group is killed and the status is None.
        ``late_sigint``: seconds after which the processes the command started (the node under launch)
        get a second SIGINT, as when launch's forwarded one arrives while they shut down."""
        children = []
        if late_sigint is not None:
            import psutil  # a dependency of ros2cli

            children = [p.pid for p in psutil.Process(self.proc.pid).children(recursive=True)]
        t0 = time.monotonic()
        os.killpg(self.proc.pid, signal.SIGINT)
        if late_sigint is not None:
            time.sleep(late_sigint)
            for pid in children:
                try:
                    os.kill(pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
        end = t0 + timeout
        while time.monotonic() < end and (self.proc.poll() is None or self.group_alive()):
            time.sleep(0.02)
        gone = time.monotonic() - t0
        if self.proc.poll() is None or self.group_alive():
            self.kill()
            return None, gone
        self._reader.join(timeout=2.0)
        return self.proc.returncode, gone

    def wait(self, timeout: float) -> int | None:
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        self._reader.join(timeout=2.0)
        return rc

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
