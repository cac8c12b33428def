"""Subsystems: launch files -> nodes -> sources, per-subsystem tree checks, LOOKUP_UNREACHABLE."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from scan.trees import write_tree

from physframe_ros.core.expected import Lookup
from physframe_ros.core.findings import Location
from physframe_ros.core.tree import Edge
from physframe_ros.scan.context import ScanContext
from physframe_ros.scan.discovery import discover
from physframe_ros.scan.executables import executable_sources
from physframe_ros.scan.model import FileFacts, LaunchedNode
from physframe_ros.scan.scanner import parse_file, scan
from physframe_ros.scan.subsystems import build_subsystems, check_subsystems, merge_edges

CMAKE = textwrap.dedent("""\
    cmake_minimum_required(VERSION 3.8)
    project(perception)
    set(COMMON_SRCS src/common.cpp  # shared by every node
        src/geometry.cpp)
    add_library(detector_component SHARED src/detector.cpp ${COMMON_SRCS})
    rclcpp_components_register_node(detector_component PLUGIN "perception::Detector" EXECUTABLE detector_node)
    add_library(tracker_core src/tracker_core.cpp)
    add_executable(${PROJECT_NAME}_tracker src/tracker_main.cpp)
    target_link_libraries(${PROJECT_NAME}_tracker tracker_core)
    """)

SETUP = textwrap.dedent("""\
    from setuptools import setup
    setup(name="tools", entry_points={"console_scripts": [
        "relay = tools.relay:main",
        'calib=tools.calibration.run:main',
    ]})
    """)


def _ws(tmp_path: Path) -> Path:
    files = {
        "perception/package.xml": "<package><name>perception</name></package>",
        "perception/CMakeLists.txt": CMAKE,
        "tools/package.xml": "<package><name>tools</name></package>",
        "tools/setup.py": SETUP,
        "legacy/package.xml": "<package><name>legacy</name><buildtool_depend>catkin</buildtool_depend></package>",
        "legacy/scripts/odom_relay.py": "# relays odometry\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_executables_from_cmake_and_setup_py(tmp_path: Path) -> None:
    exes = executable_sources(discover([_ws(tmp_path)]))
    assert sorted(exes[("perception", "detector_node")]) == ["perception/src/common.cpp", "perception/src/detector.cpp", "perception/src/geometry.cpp"]
    assert exes[("perception", "perception::Detector")] == exes[("perception", "detector_node")]  # what a ComposableNode names
    assert sorted(exes[("perception", "perception_tracker")]) == ["perception/src/tracker_core.cpp", "perception/src/tracker_main.cpp"]
    assert exes[("tools", "relay")] == ["tools/tools/relay.py"]
    assert exes[("tools", "calib")] == ["tools/tools/calibration/run.py"]


def _loc(path: str, line: int) -> Location:
    return Location(path, line)


def test_launch_subsystem_reaches_node_sources_and_reports_unreachable_lookups(tmp_path: Path) -> None:
    ws = discover([_ws(tmp_path)])
    launch = "perception/launch/perception.launch.py"
    facts = {
        # the launch file brings the robot up (its description gives base_link -> camera_link)
        launch: FileFacts(launch, edges=[Edge("base_link", "camera_link", True, (0.1, 0, 0.2), (0, 0, 0, 1), (_loc(launch, 9),))],
                          uses=["perception/urdf/robot.urdf"],
                          nodes=[LaunchedNode("perception", "detector_node", _loc(launch, 12)),
                                 LaunchedNode("legacy", "odom_relay.py", _loc(launch, 14))]),
        "perception/src/detector.cpp": FileFacts("perception/src/detector.cpp", lookups=[
            Lookup("base_link", "camera_link", _loc("perception/src/detector.cpp", 40)),
            Lookup("map", "camera_link", _loc("perception/src/detector.cpp", 41)),
        ]),
        "legacy/scripts/odom_relay.py": FileFacts("legacy/scripts/odom_relay.py", edges=[
            Edge("odom", "base_link", False, sources=(_loc("legacy/scripts/odom_relay.py", 20),))]),
        "tools/tools/relay.py": FileFacts("tools/tools/relay.py", lookups=[Lookup("map", "gps", _loc("tools/tools/relay.py", 5))]),
    }
    kinds = {launch: "launch_py", "perception/src/detector.cpp": "cpp", "legacy/scripts/odom_relay.py": "python", "tools/tools/relay.py": "python"}
    subs = build_subsystems(ws, facts, kinds, executable_sources(ws))
    assert [(s.name, s.launched) for s in subs] == [(launch, True), ("package tools", False)]
    assert subs[0].files == ["legacy/scripts/odom_relay.py", launch, "perception/src/detector.cpp"]
    findings = check_subsystems(subs, __import__("physframe_ros.core.conventions", fromlist=["Conventions"]).Conventions())
    # map is published by nobody in what the launch file runs; the package alone stays quiet about map <- gps
    assert [(f.code, f.frames, f.location) for f in findings] == [
        ("LOOKUP_UNREACHABLE", ("map", "camera_link"), _loc("perception/src/detector.cpp", 41))
    ]
    assert "no scanned source publishes 'map'" in findings[0].message


def test_merge_keeps_every_source_of_the_same_edge() -> None:
    a = Edge("base_link", "laser", True, (0.1, 0.0, 0.2), (0.0, 0.0, 0.0, 1.0), (_loc("a.launch", 3),))
    b = Edge("base_link", "laser", True, (0.1, 0.0, 0.2), (0.0, 0.0, 0.0, 1.0), (_loc("b.launch", 7),))
    c = Edge("base_link", "laser", True, (0.3, 0.0, 0.2), (0.0, 0.0, 0.0, 1.0), (_loc("c.launch", 1),))
    merged = merge_edges([a, b, c])
    assert [m.sources for m in merged] == [(_loc("a.launch", 3), _loc("b.launch", 7)), (_loc("c.launch", 1),)]


def test_composable_nodes_bring_their_plugin_sources_into_the_subsystem(tmp_path: Path) -> None:
    from physframe_ros.scan.scanner import scan

    files = {
        "perception/package.xml": "<package><name>perception</name></package>",
        "perception/CMakeLists.txt": CMAKE,
        "perception/src/detector.cpp": textwrap.dedent("""\
            #include <tf2_ros/buffer.h>
            void Detector::on_image()
            {
              auto t = buffer_->lookupTransform("map", "camera_link", tf2::TimePointZero);
            }
            """),
        "perception/launch/perception.launch.py": textwrap.dedent("""\
            from launch import LaunchDescription
            from launch_ros.actions import ComposableNodeContainer, Node
            from launch_ros.descriptions import ComposableNode

            def generate_launch_description():
                return LaunchDescription([
                    Node(package="tf2_ros", executable="static_transform_publisher",
                         arguments=["--x", "0.2", "--frame-id", "base_link", "--child-frame-id", "camera_link"]),
                    ComposableNodeContainer(name="vision", namespace="", package="rclcpp_components", executable="component_container",
                                            composable_node_descriptions=[ComposableNode(package="perception", plugin="perception::Detector")]),
                ])
            """),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = scan([tmp_path], jobs=1)
    [sub] = result.subsystems
    assert "perception/src/detector.cpp" in sub.files
    assert [(lk.target, lk.source, lk.location) for lk in sub.lookups] == [("map", "camera_link", Location("perception/src/detector.cpp", 4))]
    assert sub.complete and not sub.has_body
    # no robot description runs here: 'map' may come from the robot's bringup, so the lookup is no finding
    assert result.findings == []


def test_one_edge_static_in_the_launch_file_and_dynamic_in_a_node_is_a_conflict(tmp_path: Path) -> None:
    ws = discover([_ws(tmp_path)])
    launch = "perception/launch/perception.launch.py"
    node = "legacy/scripts/odom_relay.py"
    facts = {
        launch: FileFacts(launch, edges=[Edge("base_link", "imu_link", True, (0, 0, 0.1), (0, 0, 0, 1), (_loc(launch, 9),))],
                          nodes=[LaunchedNode("legacy", "odom_relay.py", _loc(launch, 14))]),
        node: FileFacts(node, edges=[Edge("base_link", "imu_link", False, sources=(_loc(node, 20),)),
                                     Edge("odom", "base_link", False, sources=(_loc(node, 30),))]),
    }
    subs = build_subsystems(ws, facts, {launch: "launch_py", node: "python"}, executable_sources(ws))
    findings = [f for f in check_subsystems(subs, __import__("physframe_ros.core.conventions", fromlist=["Conventions"]).Conventions())
                if f.code == "STATIC_DYNAMIC_CONFLICT"]
    # reported at the launch file's static publisher, the one added beside the node's broadcast (qcar_gazebo's fix
    # removed it); a static edge of the robot description would leave the finding at the node
    assert [(f.frames, f.location) for f in findings] == [(("base_link", "imu_link"), _loc(launch, 9))]
    assert f"dynamic at {node}:20" in findings[0].message
    # a node re-sending the very value the static publisher gives (RunAwayRobot's wall follower broadcasting its
    # launch file's base_link -> laser mount at rate): that broadcast is the one to drop, and is the one reported
    facts[node] = FileFacts(node, edges=[Edge("base_link", "imu_link", False, (0, 0, 0.1), (0, 0, 0, -1), (_loc(node, 20),))])
    subs = build_subsystems(ws, facts, {launch: "launch_py", node: "python"}, executable_sources(ws))
    [same] = [f for f in check_subsystems(subs, __import__("physframe_ros.core.conventions", fromlist=["Conventions"]).Conventions())
              if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert same.location == _loc(node, 20) and f"static at {launch}:9" in same.message and "drop it" in same.message


def test_installed_names_reach_their_sources(tmp_path: Path) -> None:
    # the names a launch file uses are the installed ones: OUTPUT_NAME, install(PROGRAMS ... [RENAME]),
    # catkin_install_python(PROGRAMS ...)
    files = {
        "driver/package.xml": "<package><name>driver</name></package>",
        "driver/CMakeLists.txt": textwrap.dedent("""\
            project(driver)
            add_executable(${PROJECT_NAME}_node src/node.cpp)
            set_target_properties(${PROJECT_NAME}_node PROPERTIES OUTPUT_NAME driver_node PREFIX "")
            install(PROGRAMS scripts/odom_relay.py scripts/imu_fix.py DESTINATION lib/${PROJECT_NAME})
            install(PROGRAMS scripts/calibrate.py DESTINATION lib/${PROJECT_NAME} RENAME calibrate)
            catkin_install_python(PROGRAMS nodes/tf_relay DESTINATION ${CATKIN_PACKAGE_BIN_DESTINATION})
            """),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    exes = executable_sources(discover([tmp_path]))
    assert exes[("driver", "driver_node")] == ["driver/src/node.cpp"]
    assert exes[("driver", "odom_relay.py")] == ["driver/scripts/odom_relay.py"]
    assert exes[("driver", "imu_fix.py")] == ["driver/scripts/imu_fix.py"]
    assert exes[("driver", "calibrate")] == ["driver/scripts/calibrate.py"]
    assert exes[("driver", "tf_relay")] == ["driver/nodes/tf_relay"]


def test_a_launch_including_a_file_outside_the_tree_is_not_the_whole_tree(tmp_path: Path) -> None:
    """RAS-2016's kobuki_maze.launch: the robot's odom -> base_link comes from an included simulation
    launch file of another package, so a lookup from map to a sensor is no LOOKUP_UNREACHABLE."""
    from physframe_ros.scan.scanner import scan

    files = {
        "maze/package.xml": "<package><name>maze</name><buildtool_depend>catkin</buildtool_depend></package>",
        "maze/CMakeLists.txt": "cmake_minimum_required(VERSION 2.8.3)\nproject(maze)\nadd_executable(distance_node src/distance_node.cpp)\n",
        "maze/src/distance_node.cpp": textwrap.dedent("""\
            #include <tf/transform_listener.h>
            void getMarker(tf::TransformListener& transform_listener_)
            {
              tf::StampedTransform sensor_transform;
              transform_listener_.lookupTransform("map", "distance_sensor_link", ros::Time(0), sensor_transform);
            }
            """),
        "maze/launch/maze.launch": textwrap.dedent("""\
            <launch>
              <include file="$(find kobuki_softnode)/launch/full.launch" />
              <node pkg="maze" type="distance_node" name="distance" />
              <node pkg="tf" type="static_transform_publisher" name="sensor" args="0.1 0 0.1 0 0 0 base_link distance_sensor_link 100" />
              <node pkg="tf" type="static_transform_publisher" name="map_odom" args="0 0 0 0 0 0 map odom 100" />
            </launch>
            """),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert [f for f in scan([tmp_path], jobs=1).findings if f.code == "LOOKUP_UNREACHABLE"] == []
    # without the include the launch is the whole tree, and map and the sensor sit in separate trees
    include = '  <include file="$(find kobuki_softnode)/launch/full.launch" />\n'
    (tmp_path / "maze/launch/maze.launch").write_text(files["maze/launch/maze.launch"].replace(include, ""))
    assert [f.frames for f in scan([tmp_path], jobs=1).findings if f.code == "LOOKUP_UNREACHABLE"] == [("map", "distance_sensor_link")]


_MOUNT_CHAIN = """\
#include <tf2_ros/static_transform_broadcaster.h>
#include <geometry_msgs/msg/transform_stamped.hpp>
#include <tf2/LinearMath/Quaternion.h>

void publish_mounts(tf2_ros::StaticTransformBroadcaster & broadcaster)
{
  geometry_msgs::msg::TransformStamped body;
  body.header.frame_id = "base_link";
  body.child_frame_id = "camera_link";
  body.transform.rotation.w = 1.0;
  broadcaster.sendTransform(body);

  // the optical turn split over two edges: yaw -90 deg into the bracket...
  geometry_msgs::msg::TransformStamped bracket;
  bracket.header.frame_id = "camera_link";
  bracket.child_frame_id = "tilt_bracket";
  tf2::Quaternion q1;
  q1.setRPY(0.0, 0.0, -M_PI / 2);
  bracket.transform.rotation = tf2::toMsg(q1);
  broadcaster.sendTransform(bracket);

  // ...and roll -90 deg about the bracket's own x into the optical frame
  geometry_msgs::msg::TransformStamped optical;
  optical.header.frame_id = "tilt_bracket";
  optical.child_frame_id = "camera_optical_frame";
  tf2::Quaternion q2;
  q2.setRPY(-M_PI / 2, 0.0, 0.0);
  optical.transform.rotation = tf2::toMsg(q2);
  broadcaster.sendTransform(optical);
}
"""


def test_mount_chain_axis_verdict_is_the_trees(tmp_path: Path) -> None:
    """base_link -> camera_link -> tilt_bracket -> camera_optical_frame with the optical rotation split over
    the last two edges: right as a whole. The per-file check used to judge tilt_bracket -> camera_optical_frame
    alone (an error) while the tree accumulated the chain (no error); the file now records only the edges."""
    from physframe_ros.core.checks import check_tree
    from physframe_ros.core.conventions import Conventions
    from physframe_ros.scan.code import analyze_cpp
    from physframe_ros.scan.scanner import scan

    assert analyze_cpp is not None
    facts = analyze_cpp(_MOUNT_CHAIN, "mounts.cpp")
    assert facts.findings == []
    assert [(e.parent, e.child, e.static, e.rotation is not None) for e in facts.edges] == [
        ("base_link", "camera_link", True, True), ("camera_link", "tilt_bracket", True, True),
        ("tilt_bracket", "camera_optical_frame", True, True)]
    assert check_tree(facts.edges, Conventions()) == []
    write_tree(tmp_path, {"cam/src/mounts.cpp": _MOUNT_CHAIN})
    assert [f for f in scan([tmp_path], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"] == []
    # without the bracket's yaw the chain ends in the wrong axes: the tree reports it once, through the chain
    wrong = _MOUNT_CHAIN.replace("q1.setRPY(0.0, 0.0, -M_PI / 2);", "q1.setRPY(0.0, 0.0, 0.0);")
    write_tree(tmp_path, {"cam/src/mounts.cpp": wrong})
    [finding] = [f for f in scan([tmp_path], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert finding.frames == ("camera_link", "tilt_bracket", "camera_optical_frame")
    assert "relative to camera_link (through tilt_bracket)" in finding.message


def test_a_fixed_transform_beside_a_node_broadcasting_the_same_child_is_a_conflict(tmp_path: Path) -> None:
    """rvc_commander's localisation launch (before its fix): tf's static_transform_publisher map -> odom_link, and the
    Monte Carlo localisation node it starts broadcasting the map correction to odom_link from the map frame a
    service gives at run time. The fix commented the placeholder out."""
    from physframe_ros.scan.scanner import scan

    launch = textwrap.dedent("""\
        <launch>
            <node pkg="tf" type="static_transform_publisher" name="map_to_odom" args="0 0 0 0 0 0 map odom_link 30" />
            <node pkg="rvc_commander" name="mcl" type="mcl.py" output="screen"/>
        </launch>
        """)
    node = textwrap.dedent("""\
        #!/usr/bin/env python
        import rospy
        import tf
        from tf.transformations import quaternion_from_euler

        class MCL:
            def __init__(self, map_parameter):
                self.map_frame_id = map_parameter.header.frame_id
                self.odom_frame_id = rospy.get_param("~odom_frame_id", "odom_link")
                self.tf_broadcaster = tf.TransformBroadcaster()

            def publish_map_to_odom(self, x, y, theta):
                q = quaternion_from_euler(0.0, 0.0, theta)
                self.tf_broadcaster.sendTransform((x, y, 0.0), q, rospy.Time.now(), self.odom_frame_id, self.map_frame_id)
        """)
    files = {
        "rvc_commander/package.xml": "<package><name>rvc_commander</name><buildtool_depend>catkin</buildtool_depend></package>",
        "rvc_commander/CMakeLists.txt": "cmake_minimum_required(VERSION 2.8.3)\nproject(rvc_commander)\n",
        "rvc_commander/launch/mcl.launch": launch,
        "rvc_commander/scripts/mcl.py": node,
    }
    root = write_tree(tmp_path / "ws", files)
    found = [f for f in scan([root], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert [(f.frames, f.location.file if f.location else None, f.location.line if f.location else None) for f in found] == [
        (("map", "odom_link"), "rvc_commander/launch/mcl.launch", 2)]
    assert "broadcast by a node this launch starts at rvc_commander/scripts/mcl.py:14" in found[0].message
    assert "its parent is known only at run time" in found[0].message
    placeholder = '<node pkg="tf" type="static_transform_publisher" name="map_to_odom" args="0 0 0 0 0 0 map odom_link 30" />'
    fixed = write_tree(tmp_path / "fixed", {**files, "rvc_commander/launch/mcl.launch": launch.replace(placeholder, f"<!-- {placeholder} -->")})
    assert [f for f in scan([fixed], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"] == []
    # ar_pose's `reverse_transform`: a node that broadcasts the frame either as child or as parent (of a frame known
    # at run time) chooses at run time; its launch's world -> marker is the reversed choice's parent
    both = node + textwrap.indent(textwrap.dedent("""
        def reversed(self, x, y):
            self.tf_broadcaster.sendTransform((x, y, 0.0), (0, 0, 0, 1), rospy.Time.now(), self.map_frame_id, self.odom_frame_id)
        """), "    ")
    either = write_tree(tmp_path / "either", {**files, "rvc_commander/scripts/mcl.py": both})
    assert [f for f in scan([either], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"] == []


_DETECTOR = """\
#include <opencv2/aruco.hpp>
#include <geometry_msgs/msg/pose_stamped.hpp>
Detector::Detector() : Node("aruco_detector") {
  camera_frame_ = this->declare_parameter<std::string>("camera_frame", "camera_color_optical_frame");
  pose_pub_ = create_publisher<geometry_msgs::msg::PoseStamped>("marker_pose", 10);
}
void Detector::onImage(const cv::Mat& image) {
  cv::aruco::estimatePoseSingleMarkers(corners, 0.1, K, D, rvecs, tvecs);
  geometry_msgs::msg::PoseStamped pose;
  pose.header.frame_id = camera_frame_;
  pose_pub_->publish(pose);
}
"""


def test_each_launched_instance_is_read_with_its_own_parameters(tmp_path: Path) -> None:
    """perseus_vision: the detector's code defaults to an optical frame, and its launch file's YAML gives it
    `camera_frame: camera_link`, so the poses it estimates in the optical axes go out under a body frame. Reported
    at the YAML line that gives the value, the code's line named; the node's code alone is not reported."""
    write_tree(tmp_path, {
        "det/package.xml": '<package format="3"><name>det</name><version>0.0.0</version><description>d</description>'
                           '<maintainer email="a@b.c">m</maintainer><license>MIT</license></package>\n',
        "det/CMakeLists.txt": "project(det)\nadd_executable(detector_node src/detector.cpp)\n",
        "det/src/detector.cpp": _DETECTOR,
        "det/config/det.yaml": "aruco_detector:\n  ros__parameters:\n    marker_length: 0.1\n    camera_frame: camera_link\n",
        "det/launch/det.launch.py": textwrap.dedent("""\
            import os
            from ament_index_python.packages import get_package_share_directory
            from launch import LaunchDescription
            from launch_ros.actions import Node

            def generate_launch_description():
                config = os.path.join(get_package_share_directory('det'), 'config', 'det.yaml')
                return LaunchDescription([Node(package='det', executable='detector_node', name='aruco_detector',
                                               parameters=[config])])
            """),
    })
    found = [(f.code, f.location, f.message) for f in scan([tmp_path], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(code, loc) for code, loc, _ in found] == [("INCORRECT_TRANSFORM", Location("det/config/det.yaml", 4))]
    assert found[0][2].startswith("aruco_detector (det/launch/det.launch.py:8) is given camera_frame: 'camera_link' here; in its code:")
    assert found[0][2].endswith("(det/src/detector.cpp:10)")  # where the frame is stamped


_MAPPER = """\
#include <tf/transform_broadcaster.h>
Mapper::Mapper() {
  pnh.param("map_frame", map_frame_, std::string("map"));
  pnh.param("odom_frame", odom_frame_, std::string("odom"));
  pnh.param("pub_map_odom_transform", pub_map_odom_, true);
}
void Mapper::publish(const tf::Transform& t, const ros::Time& stamp) {
  if (pub_map_odom_) {
    tfB_->sendTransform(tf::StampedTransform(t, stamp, map_frame_, odom_frame_));
  }
}
"""


def test_a_broadcast_a_launch_file_switches_off_is_left_out(tmp_path: Path) -> None:
    """hector_slam's mapping_box.launch gives hector_mapping `odom_frame: nav` and, in a group, the global parameter
    `hector_mapping/pub_map_odom_transform: false` beside its own static map -> nav: the node's map -> nav under
    `if (p_pub_map_odom_transform_)` is off, so the two do not meet. Without the switch they do."""
    def launch(switch: str) -> str:
        return textwrap.dedent(f"""\
            <launch>
              <node pkg="mapper" type="mapper_node" name="hector_mapping">
                <param name="odom_frame" value="nav"/>
              </node>
              {switch}
              <node pkg="tf" type="static_transform_publisher" name="map_nav" args="0 0 0 0 0 0 map nav 100"/>
            </launch>
            """)

    def conflicts(switch: str, root: Path) -> list[str]:
        write_tree(root, {
            "mapper/package.xml": '<package format="2"><name>mapper</name><version>0.0.0</version><description>d</description>'
                                  '<maintainer email="a@b.c">m</maintainer><license>MIT</license></package>\n',
            "mapper/CMakeLists.txt": "project(mapper)\nadd_executable(mapper_node src/mapper.cpp)\n",
            "mapper/src/mapper.cpp": _MAPPER,
            "mapper/launch/box.launch": launch(switch),
        })
        return [f.code for f in scan([root], jobs=1).findings if f.code in ("STATIC_DYNAMIC_CONFLICT", "MULTIPLE_PARENTS_IN_FRAME_TREE")]

    assert conflicts('<param name="hector_mapping/pub_map_odom_transform" value="false"/>', tmp_path / "off") == []
    assert conflicts("", tmp_path / "on") == ["STATIC_DYNAMIC_CONFLICT"]


_ODOMETRY = """\
#include <tf2_ros/transform_broadcaster.h>
Odometry::Odometry() {
  odom_frame_ = declare_parameter("odom_frame_id", std::string("odom"));
  base_frame_ = declare_parameter("frame_id", std::string("base_link"));
  guess_frame_ = declare_parameter("guess_frame_id", std::string(""));
}
void Odometry::publish(const geometry_msgs::msg::Transform& t) {
  geometry_msgs::msg::TransformStamped msg;
  msg.transform = t;
  msg.header.frame_id = odom_frame_;
  if (!guess_frame_.empty()) {
    msg.child_frame_id = guess_frame_;
    tf_->sendTransform(msg);
  } else {
    msg.child_frame_id = base_frame_;
    tf_->sendTransform(msg);
  }
}
"""


def _odometry_edges(tmp_path: Path, params: str) -> list[tuple[str, str]]:
    write_tree(tmp_path, {
        "odo/package.xml": '<package format="3"><name>odo</name><version>0.0.0</version><description>d</description>'
                           '<maintainer email="a@b.c">m</maintainer><license>MIT</license></package>\n',
        "odo/CMakeLists.txt": "project(odo)\nadd_executable(icp_odometry src/odometry.cpp)\n",
        "odo/src/odometry.cpp": _ODOMETRY,
        "odo/launch/odo.launch.py": textwrap.dedent(f"""\
            from launch import LaunchDescription
            from launch.substitutions import LaunchConfiguration
            from launch_ros.actions import Node

            def generate_launch_description():
                return LaunchDescription([Node(package='odo', executable='icp_odometry', parameters=[{params}])])
            """),
    })
    (launched,) = [s for s in scan([tmp_path], jobs=1).subsystems if s.launched]
    return sorted((e.parent, e.child) for e in launched.edges)


def test_a_branch_the_launched_frames_rule_out_is_left_out(tmp_path: Path) -> None:
    """rtabmap's odometry publishes odom -> guess frame when one is given, else odom -> base: given
    `guess_frame_id: odom_guess`, only the first runs (flow-insensitive reading would give the base two parents)."""
    given = "{'odom_frame_id': 'icp_odom', 'frame_id': 'velodyne', 'guess_frame_id': 'odom_guess'}"
    assert _odometry_edges(tmp_path / "a", given) == [("icp_odom", "odom_guess")]
    # without it the code's default, empty, leaves the other branch
    assert _odometry_edges(tmp_path / "b", "{'odom_frame_id': 'icp_odom', 'frame_id': 'velodyne'}") == [("icp_odom", "velodyne")]


def test_a_frame_the_launch_computes_at_run_time_is_not_the_codes_default(tmp_path: Path) -> None:
    """A parameter the launch file sets from a value known only at launch time: the code's default ('base_link') does
    not hold, so no edge is made up from it."""
    given = "{'odom_frame_id': 'icp_odom', 'frame_id': LaunchConfiguration('frame_id'), 'guess_frame_id': 'odom_guess'}"
    assert _odometry_edges(tmp_path, given.replace("'guess_frame_id': 'odom_guess'", "'guess_frame_id': LaunchConfiguration('g')")) == []


def test_only_conditions_the_launched_values_decide_rule_a_branch_out() -> None:
    """A switch turned off rules out `if (publish_tf_)` and `if (publish_tf_ && ready_)`, not `if (publish_tf_ ||
    force_)` nor `if (!publish_tf_)`."""
    from physframe_ros.scan.code import analyze_cpp

    def sent(condition: str) -> list[str]:
        src = ("#include <tf2_ros/transform_broadcaster.h>\n"
               'Node::Node() { publish_tf_ = declare_parameter("publish_tf", true); }\n'
               "void Node::tick() {\n  geometry_msgs::msg::TransformStamped t;\n"
               '  t.header.frame_id = "odom";\n  t.child_frame_id = "base_link";\n'
               f"  if ({condition}) {{ br_->sendTransform(t); }}\n}}\n")
        return [e.child for e in analyze_cpp(src, "node.cpp", launched={"publish_tf": "false"}).edges]

    assert sent("publish_tf_") == []
    assert sent("publish_tf_ && ready_") == []
    assert sent("publish_tf_ || force_") == ["base_link"]
    assert sent("!publish_tf_") == ["base_link"]


def test_a_source_is_read_with_at_most_three_parameter_sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rtabmap_ros launches its SLAM node with fifteen parameter sets: the source is read with the first three, the
    rest run with its defaults, so the scan's time stays bounded."""
    import physframe_ros.scan.workers as workers

    launches = {f"odo/launch/odo{i}.launch.py": textwrap.dedent(f"""\
        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            return LaunchDescription([Node(package='odo', executable='icp_odometry', parameters=[{{'frame_id': 'base{i}'}}])])
        """) for i in range(6)}
    write_tree(tmp_path, {
        "odo/package.xml": '<package format="3"><name>odo</name><version>0.0.0</version><description>d</description>'
                           '<maintainer email="a@b.c">m</maintainer><license>MIT</license></package>\n',
        "odo/CMakeLists.txt": "project(odo)\nadd_executable(icp_odometry src/odometry.cpp)\n",
        "odo/src/odometry.cpp": _ODOMETRY,
        **launches,
    })
    reads: list[str] = []
    parse_one = workers.WorkerPool.parse_one

    def counted(self: workers.WorkerPool, job: workers.Job) -> object:
        reads.append(job[0])
        return parse_one(self, job)

    monkeypatch.setattr(workers.WorkerPool, "parse_one", counted)
    scan([tmp_path], jobs=1)
    assert reads.count("odo/src/odometry.cpp") == 3


def test_camera_data_launched_apart_from_the_description_that_places_its_frame(tmp_path: Path) -> None:
    """WATonomous' car: sensor_interfacing's ``panorama_cameras.yaml`` (a YAML launch file with no ``.launch`` in its
    name) starts camera_aravis2 drivers stamping ``camera_pano_nn``; only eve_description's robot, launched by another
    file, places that frame, unturned under the body. A bringup runs both, so the images are judged in that tree.
    A frame two trees place, one of them optical, is left alone."""
    write_tree(tmp_path, {
        "eve_description/package.xml": "<package format='3'><name>eve_description</name></package>",
        "eve_description/urdf/eve.urdf": """
            <robot name="eve">
              <link name="base_link"/><link name="roof_mount"/><link name="camera_pano_nn"/>
              <joint name="roof" type="fixed"><parent link="base_link"/><child link="roof_mount"/><origin xyz="0 0 1.5"/></joint>
              <joint name="camera_pano_nn_mount" type="fixed">
                <parent link="roof_mount"/><child link="camera_pano_nn"/><origin xyz="0.2 0 0.2" rpy="0 0 0"/>
              </joint>
            </robot>
            """,
        "eve_description/launch/tf_publish.yaml": """
            launch:
              - node:
                  pkg: robot_state_publisher
                  exec: robot_state_publisher
                  param:
                    - name: robot_description
                      value: "$(command 'cat $(find-pkg-share eve_description)/urdf/eve.urdf')"
            """,
        "sensor_interfacing/package.xml": "<package format='3'><name>sensor_interfacing</name></package>",
        "sensor_interfacing/launch/panorama_cameras.yaml": """
            # the eight roof cameras
            launch:
              - node:
                  pkg: camera_aravis2
                  exec: camera_driver_gv
                  name: camera_pano_nn
                  param:
                    - name: frame_id
                      value: "camera_pano_nn"
            """,
        "sensor_interfacing/launch/params.yaml": "camera_pano_nn:\n  ros__parameters:\n    frame_id: camera_pano_nn\n",
    })
    found = [f for f in scan([tmp_path], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location.file, f.location.line) for f in found if f.location] == [("sensor_interfacing/launch/panorama_cameras.yaml", 3)]
    assert "'camera_pano_nn'" in found[0].message and "RDF" in found[0].message
    write_tree(tmp_path, {
        "eve_sim/package.xml": "<package format='3'><name>eve_sim</name></package>",
        "eve_sim/urdf/sim.urdf": """
            <robot name="sim">
              <link name="base_link"/><link name="camera_pano_nn"/>
              <joint name="cam" type="fixed"><parent link="base_link"/><child link="camera_pano_nn"/>
                <origin rpy="-1.5707963 0 -1.5707963"/></joint>
            </robot>
            """,
        "eve_sim/launch/sim.launch.yaml": """
            launch:
              - node:
                  pkg: robot_state_publisher
                  exec: robot_state_publisher
                  param:
                    - name: robot_description
                      value: "$(command 'cat $(find-pkg-share eve_sim)/urdf/sim.urdf')"
            """,
    })
    assert [f for f in scan([tmp_path], jobs=1).findings if f.code == "INCORRECT_TRANSFORM" and "Image" in f.message] == []


def test_a_sensor_description_in_its_own_parameter_and_a_member_image_pointer(tmp_path: Path) -> None:
    """umrover's ZED: zed.launch loads the camera's description into ``zed_description`` and starts a
    robot_state_publisher remapping its ``robot_description`` there; the nodelet's header declares
    ``sensor_msgs::ImagePtr mLeftImgMsg = boost::make_shared<sensor_msgs::Image>();`` and stamps it with the body frame
    ``zed2i_left_camera_frame``, whose optical twin that description places."""
    write_tree(tmp_path, {
        "mrover/package.xml": "<package format='2'><name>mrover</name></package>",
        "mrover/CMakeLists.txt": "add_library(zed_nodelet src/zed_wrapper.cpp)\n",
        "mrover/rover_description/zed/zed_descr.urdf.xacro": """
            <?xml version="1.0"?>
            <robot name="stereolabs_camera" xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:arg name="camera_name" default="zed"/>
              <link name="$(arg camera_name)_base_link"/>
              <link name="$(arg camera_name)_left_camera_frame"/>
              <link name="$(arg camera_name)_left_camera_optical_frame"/>
              <joint name="$(arg camera_name)_left_camera_joint" type="fixed">
                <parent link="$(arg camera_name)_base_link"/><child link="$(arg camera_name)_left_camera_frame"/>
                <origin xyz="0 0.06 0" rpy="0 0 0"/>
              </joint>
              <joint name="$(arg camera_name)_left_camera_optical_joint" type="fixed">
                <parent link="$(arg camera_name)_left_camera_frame"/><child link="$(arg camera_name)_left_camera_optical_frame"/>
                <origin xyz="0 0 0" rpy="-1.5707963 0 -1.5707963"/>
              </joint>
            </robot>
            """,
        "mrover/launch/zed.launch": """
            <launch>
              <arg name="zed_model" default="zed2i"/>
              <node pkg="nodelet" type="nodelet" name="zed_nodelet" args="load mrover/ZedNodelet perception_nodelet_manager"/>
              <param name="zed_description" command="$(find xacro)/xacro '$(find mrover)/rover_description/zed/zed_descr.urdf.xacro'
                    camera_name:=$(arg zed_model)"/>
              <node name="zed_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher">
                <remap from="robot_description" to="zed_description"/>
              </node>
            </launch>
            """,
        "mrover/src/zed_wrapper.hpp": """
            #include <sensor_msgs/Image.h>
            #include <image_transport/image_transport.h>
            namespace mrover {
                class ZedNodelet {
                    image_transport::Publisher mLeftImgPub;
                    sensor_msgs::ImagePtr mLeftImgMsg = boost::make_shared<sensor_msgs::Image>();
                    void grabUpdate();
                };
            }
            """,
        "mrover/src/zed_wrapper.cpp": """
            #include "zed_wrapper.hpp"
            #include <tf2_ros/transform_broadcaster.h>
            namespace mrover {
                void ZedNodelet::grabUpdate() {
                    mLeftImgMsg->header.frame_id = "zed2i_left_camera_frame";
                    mLeftImgPub.publish(mLeftImgMsg);
                }
            }
            """,
    })
    found = [(f.code, f.location) for f in scan([tmp_path], jobs=1).findings if "zed2i_left_camera_frame" in f.frames]
    assert found == [("INCORRECT_TRANSFORM", Location("mrover/src/zed_wrapper.cpp", 5))]


_UKF_PACKAGE = {
    "fla_ukf/package.xml": """
        <package format="2"><name>fla_ukf</name><depend>nodelet</depend>
          <export><nodelet plugin="${prefix}/nodelet_plugins.xml"/></export></package>
        """,
    "fla_ukf/nodelet_plugins.xml": """
        <library path="lib/libfla_ukf_nodelet">
          <class name="fla_ukf/FLAUKFNodelet" type="FLAUKFNodelet" base_class_type="nodelet::Nodelet"/>
        </library>
        """,
    "fla_ukf/CMakeLists.txt": """
        project(fla_ukf)
        add_library(${PROJECT_NAME}_nodelet src/fla_ukf_nodelet.cpp)
        """,
    "fla_ukf/src/fla_ukf_nodelet.cpp": """
        #include <nodelet/nodelet.h>
        #include <tf2_ros/transform_broadcaster.h>
        void FLAUKFNodelet::imu_callback(const sensor_msgs::Imu &imu_msg) {
          auto odom = boost::make_shared<nav_msgs::Odometry>();
          odom->header.frame_id = world_frame_id_;
          odom->child_frame_id = robot_frame_id_;
          geometry_msgs::TransformStamped transform_msg;
          transform_msg.header = odom->header;
          transform_msg.child_frame_id = odom->child_frame_id;
          tf_broadcaster_.sendTransform(transform_msg);
        }
        void FLAUKFNodelet::onInit() {
          ros::NodeHandle n(getPrivateNodeHandle());
          n.param("world_frame_id", world_frame_id_, std::string("world"));
          n.param("robot_frame_id", robot_frame_id_, std::string("base_link"));
        }
        """,
}


def test_a_nodelet_is_its_plugins_library(tmp_path: Path) -> None:
    """kr_autonomous_flight: estimation.launch runs `nodelet standalone fla_ukf/FLAUKFNodelet`, the lookup name the
    package's nodelet_plugins.xml gives the class of `lib/libfla_ukf_nodelet`, which CMakeLists.txt builds from
    fla_ukf_nodelet.cpp. Read with the launch file's parameters, the nodelet broadcasts `quadrotor/odom -> quadrotor`,
    beside the launch file's static `quadrotor/vio_odom -> quadrotor`: two parents, the fixed one the stand-in."""
    write_tree(tmp_path, {**_UKF_PACKAGE, "estimation/package.xml": "<package format='2'><name>estimation</name></package>",
                          "estimation/launch/estimation.launch": """
        <launch>
          <node pkg="nodelet" type="nodelet" name="fla_ukf" args="standalone fla_ukf/FLAUKFNodelet">
            <param name="world_frame_id" value="quadrotor/odom"/>
            <param name="robot_frame_id" value="quadrotor"/>
          </node>
          <node pkg="tf2_ros" type="static_transform_publisher" name="body_camera_tf" args="0 0 0 0 0 0 quadrotor/vio_odom quadrotor"/>
        </launch>
        """})
    exes = executable_sources(discover([tmp_path]))
    assert exes[("fla_ukf", "fla_ukf/FLAUKFNodelet")] == ["fla_ukf/src/fla_ukf_nodelet.cpp"]
    (found,) = [f for f in scan([tmp_path], jobs=1).findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("estimation/launch/estimation.launch", 6)
    assert found.frames == ("quadrotor", "quadrotor/odom", "quadrotor/vio_odom")


def test_a_nodelet_manager_runs_nothing_and_an_unknown_nodelet_is_unknown(tmp_path: Path) -> None:
    """A manager publishes no transform (its nodelets are nodes of their own): a launch file of the manager and a
    scanned nodelet is complete. A nodelet of another repository, or one named only at launch time, is not known."""
    launch = """
        <launch>
          <node pkg="nodelet" type="nodelet" name="manager" args="manager"/>
          <node pkg="nodelet" type="nodelet" name="fla_ukf" args="load fla_ukf/FLAUKFNodelet manager"/>
          {more}
        </launch>
        """
    for more, complete in (("", True), ('<node pkg="nodelet" type="nodelet" name="cloud" args="load velodyne_pointcloud/CloudNodelet manager"/>', False),
                           ('<node pkg="nodelet" type="nodelet" name="x" args="load $(arg plugin) manager"/>', False)):
        write_tree(tmp_path, {**_UKF_PACKAGE, "fla_ukf/launch/ukf.launch": launch.format(more=more)})
        ws = discover([tmp_path])
        subs = build_subsystems(ws, {f.path: parse_file(f.path, f.kind, ScanContext(str(tmp_path), {})) for f in ws.files},
                                {f.path: f.kind for f in ws.files}, executable_sources(ws))
        (sub,) = [s for s in subs if s.name == "fla_ukf/launch/ukf.launch"]
        assert sub.complete == complete, more
