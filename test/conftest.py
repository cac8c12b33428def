"""Test-wide setup. DDS must never leave this machine, and parallel tests must not hear each other:
every test process gets LOCALHOST discovery before anything imports rclpy, and ROS tests take a
fresh domain id from the ``ros_domain_id`` fixture."""

from __future__ import annotations

import itertools
import os

import pytest

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
