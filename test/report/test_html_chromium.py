"""The HTML report of a faulty bag, opened in headless Debian chromium: every frame drawn, faults marked, no console errors."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import inject_wrong_optical, robot_with, write_bag

from physframe_ros.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian chromium: bash scripts/bootstrap --with-chromium")


class _Dom(HTMLParser):
    """Collects the frame groups of the SVG tree and the finding rows from the rendered DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: dict[str, set[str]] = {}
        self.rows: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        if tag == "svg":
            self.svgs += 1
        if tag == "g" and "frame" in classes and a.get("data-frame"):
            self.frames[a["data-frame"] or ""] = classes
        if tag == "tr" and "finding" in classes:
            self.rows.append(a.get("data-code") or "")


def render_in_chromium(page: Path, profile: Path) -> tuple[str, list[str]]:
    """The DOM after scripts ran, and every console message chromium logged for the page."""
    assert CHROMIUM is not None
    proc = subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    return proc.stdout, console


def test_console_errors_are_seen_by_this_harness(tmp_path: Path) -> None:
    """Guards the check below: a page with a script error must show up in the console lines."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><script>missingFunction();</script></body></html>")
    _, console = render_in_chromium(page, tmp_path / "profile")
    assert any("missingFunction" in line for line in console)


def test_faulty_bag_report_renders_every_frame_marks_the_faulty_ones_and_logs_nothing(tmp_path: Path) -> None:
    robot = robot_with("cycle")
    inject_wrong_optical(robot)
    bag = write_bag(robot, tmp_path, "mcap")
    page = tmp_path / "report.html"
    assert main(["replay", str(bag), "--format", "html", "-o", str(page)]) == 1
    dom_text, console = render_in_chromium(page, tmp_path / "profile")
    assert console == []
    dom = _Dom()
    dom.feed(dom_text)
    assert dom.svgs >= 2  # the tree and the timeline
    assert set(dom.frames) == {"map", "odom", "base_link", "laser", "imu_link", "camera_link", "camera_optical_frame"}
    faulty = {name for name, classes in dom.frames.items() if "faulty" in classes}
    assert faulty == {"map", "odom", "camera_link", "camera_optical_frame"}
    assert all("error" in dom.frames[name] for name in faulty)
    assert sorted(dom.rows) == ["CYCLE_IN_FRAME_TREE", "INCORRECT_TRANSFORM"]
