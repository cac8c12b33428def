"""Test-wide setup. DDS must never leave this machine, and parallel tests must not hear each other:
every test process gets LOCALHOST discovery before anything imports rclpy, and ROS tests take a
fresh domain id from the ``ros_domain_id`` fixture."""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# `colcon test` runs `python -m pytest` in the package's source folder, which puts that folder first on
# sys.path; the suite is to test what colcon installed (on PYTHONPATH from the workspace's setup) instead.
UNDER_COLCON_TEST = "--junit-prefix=physframe_ros" in os.environ.get("PYTEST_ADDOPTS", "")
if UNDER_COLCON_TEST:
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO]

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
if os.environ.get("ROS_DISTRO") == "humble":
    os.environ["ROS_LOCALHOST_ONLY"] = "1"

# Domain ids 1..100 per pytest process, offset by pid so two concurrent runs rarely collide
# (ids above 101 would exceed Fast DDS's port range on Linux).
_domains = itertools.cycle(range(1, 101))
_offset = os.getpid() % 100


@pytest.fixture
def ros_domain_id(monkeypatch: pytest.MonkeyPatch) -> int:
    """A domain id for this test alone, also exported for subprocesses the test starts."""
    domain = (next(_domains) + _offset) % 100 + 1
    monkeypatch.setenv("ROS_DOMAIN_ID", str(domain))
    return domain


def pytest_report_header() -> str:
    import physframe_ros

    return f"physframe_ros from {Path(physframe_ros.__file__).parent.parent}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if not UNDER_COLCON_TEST:
        return
    # they build this package with colcon and run `colcon test` themselves: under colcon test they would recurse
    skip = pytest.mark.skip(reason="workspace tests run from scripts/test, not inside colcon test (they call colcon build and colcon test)")
    for item in items:
        if "workspace" in item.keywords:
            item.add_marker(skip)
