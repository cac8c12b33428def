"""Cartographer's Lua configuration, from the real files: roverrobotics_ros2's openrover_demo (published_frame the base
while reading odometry) and turtlebot3_cartographer's turtlebot3_lds_2d.lua (published_frame the odometry's frame)."""

from __future__ import annotations

from pathlib import Path

from physframe_ros.scan.launch.cartographer import parse_cartographer_lua
from physframe_ros.scan.scanner import scan

OPENROVER = """\
-- /* Author: Darby Lim */

include "map_builder.lua"
include "trajectory_builder.lua"

options = {
    map_builder = MAP_BUILDER,
    trajectory_builder = TRAJECTORY_BUILDER,
    map_frame = "map",
    tracking_frame = "imu_link",
    published_frame = "base_footprint",
    odom_frame = "odom",
    provide_odom_frame = false,
    publish_frame_projected_to_2d = false,
    use_odometry = true,
    use_nav_sat = false,
}

MAP_BUILDER.use_trajectory_builder_2d = true
return options
"""


def test_published_frame_the_base_while_reading_odometry_gives_it_two_parents() -> None:
    (found,) = parse_cartographer_lua(OPENROVER, "config/cartographer.lua").findings
    assert (found.code, found.location and found.location.line) == ("MULTIPLE_PARENTS_IN_FRAME_TREE", 11)
    assert found.frames == ("base_footprint", "map", "odom") and 'published_frame = "odom"' in found.message


def test_the_configurations_cartographer_documents_give_nothing() -> None:
    with_odometry = OPENROVER.replace('"base_footprint"', '"odom"')  # turtlebot3_lds_2d.lua, taurob_tracker.lua
    own_odom = OPENROVER.replace("provide_odom_frame = false", "provide_odom_frame = true").replace("use_odometry = true", "use_odometry = false")
    without = OPENROVER.replace("use_odometry = true", "use_odometry = false")  # backpack_2d.lua: map -> base_link alone
    for text in (with_odometry, own_odom, without, "-- a game's script\nplayer = { frame = 1 }\n"):
        assert parse_cartographer_lua(text, "x.lua").findings == []


def test_a_leading_slash_in_a_frame_option_and_the_file_found_by_the_scan(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "slam.lua").write_text(OPENROVER.replace('"imu_link"', '"/imu_link"'))
    found = sorted((f.code, f.location.line if f.location else 0) for f in scan([tmp_path], jobs=1).findings)
    assert found == [("INVALID_FRAME_ID", 10), ("MULTIPLE_PARENTS_IN_FRAME_TREE", 11)]
