"""INVALID_FRAME_ID on frame parameters in launch files and parameter YAML files, in the idioms of
the known bugs: teb_local_planner_tutorials' map_server ``<param name="frame_id" value="/map"/>``,
arena_camera's ``value="/$(arg node_name)"``, turtlebot3's ROS 2 ``PythonExpression`` with an empty
namespace, cob's controller YAML ``frame_id: "/odom_combined"``."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree as _write

from physframe_ros.scan.scanner import scan


def _invalid(root: Path) -> list[tuple[str, int | None, tuple[str, ...]]]:
    result = scan([root], jobs=1)
    return sorted((f.location.file, f.location.line, f.frames) for f in result.findings if f.code == "INVALID_FRAME_ID" and f.location)


def test_ros1_launch_node_and_global_frame_parameters(tmp_path: Path) -> None:
    _write(tmp_path, {"launch/stage.launch": """
        <launch>
          <arg name="node_name" default="pylon_camera_node"/>
          <param name="/amcl/global_frame_id" value="/map"/>
          <node name="map_server" pkg="map_server" type="map_server" args="maps/m.yaml">
            <param name="frame_id" value="/map"/>
            <param name="camera_frame" value="/$(arg node_name)"/>
            <param name="odom_frame_id" value="odom"/>
            <param name="topic" value="/scan"/>
            <param name="frame_rate" value="/x"/>
          </node>
        </launch>
        """})
    assert _invalid(tmp_path) == [
        ("launch/stage.launch", 3, ("/map",)),
        ("launch/stage.launch", 5, ("/map",)),
        ("launch/stage.launch", 6, ("/pylon_camera_node",)),
    ]


def test_ros2_launch_parameters_with_python_expression_and_empty_namespace(tmp_path: Path) -> None:
    _write(tmp_path, {"launch/robot.launch.py": """
        from launch import LaunchDescription
        from launch.substitutions import LaunchConfiguration, PythonExpression
        from launch_ros.actions import Node

        def generate_launch_description():
            namespace = LaunchConfiguration('namespace', default='')
            return LaunchDescription([
                Node(
                    package='turtlebot3_node',
                    executable='turtlebot3_ros',
                    parameters=[
                        {'odometry.frame_id': PythonExpression(['"', namespace, '/odom"'])},
                        {'odometry.child_frame_id': 'base_footprint', 'unknown_frame': LaunchConfiguration('f')}]),
            ])
        """})
    assert _invalid(tmp_path) == [("launch/robot.launch.py", 12, ("/odom",))]


def test_a_python_expression_that_is_an_f_string_with_nothing_to_fill(tmp_path: Path) -> None:
    """kitti_odometry_replayer_ros2: PythonExpression(['f"', frame_prefix, '/"']) is f"/" with the empty prefix."""
    _write(tmp_path, {"launch/robot.launch.py": """
        from launch import LaunchDescription
        from launch.substitutions import LaunchConfiguration, PythonExpression
        from launch_ros.actions import Node

        def generate_launch_description():
            frame_prefix = LaunchConfiguration('frame_prefix', default='')
            with_slash = PythonExpression(['f"', frame_prefix, '/"'])
            return LaunchDescription([
                Node(package='kitti', executable='replayer',
                     parameters=[{'odom_frame': PythonExpression(['f"', with_slash, 'odom"'])}]),
            ])
        """})
    assert _invalid(tmp_path) == [("launch/robot.launch.py", 10, ("/odom",))]


def test_parameter_yaml_file(tmp_path: Path) -> None:
    _write(tmp_path, {"config/base_controller.yaml": """
        odometry_controller:
          type: cob_omni_drive_controller/OdometryController
          frame_id: "/odom_combined"
          child_frame_id: /base_footprint   # comment
          topic: /odom
          global_frame: map
          robot_frame: "${prefix}base"
          frames:
            - sensor_frame: 'laser link'
        """})
    assert _invalid(tmp_path) == [
        ("config/base_controller.yaml", 3, ("/odom_combined",)),
        ("config/base_controller.yaml", 4, ("/base_footprint",)),
        ("config/base_controller.yaml", 9, ("laser link",)),
    ]


def test_blank_values_and_ros1_lookup_frames_are_not_reported(tmp_path: Path) -> None:
    # ouster-ros passes " " for "empty"; a frame the robot's environment names is filled at launch;
    # hector_trajectory_server looks '/map' up through ROS 1 tf, which resolves it
    _write(tmp_path, {"launch/x.launch": """
        <launch>
          <arg name="point_cloud_frame" default=" "/>
          <!-- mrs_uav_general: the robot's name comes from its environment, a placeholder in the frame names -->
          <arg name="UAV_NAME" default="$(env UAV_NAME)"/>
          <arg name="fcu_frame" default="$(arg UAV_NAME)/fcu"/>
          <node name="os_cloud" pkg="ouster_ros" type="os_cloud">
            <param name="~/point_cloud_frame" value="$(arg point_cloud_frame)"/>
          </node>
          <node name="hector_trajectory_server" pkg="hector_trajectory_server" type="hector_trajectory_server">
            <param name="target_frame_name" type="string" value="/map"/>
            <param name="source_frame_name" type="string" value="/base_link"/>
          </node>
        </launch>
        """})
    assert _invalid(tmp_path) == []


def test_inline_rosparam_bodies(tmp_path: Path) -> None:
    # the multi-robot idiom `<rosparam subst_value="true">` with an empty tf_prefix; roslaunch leaves $(arg) alone
    # without subst_value, and a file= load is the YAML file's own scan
    _write(tmp_path, {"launch/robot.launch": """
        <launch>
          <arg name="tf_prefix" default=""/>
          <rosparam param="/gps/frame_id">/gps_link</rosparam>
          <node name="ekf" pkg="robot_localization" type="ekf_localization_node">
            <rosparam subst_value="true">
              odom_frame: odom
              base_link_frame: $(arg tf_prefix)/base_link
              world_frame: /odom
            </rosparam>
            <rosparam>
              map_frame: $(arg tf_prefix)/map
            </rosparam>
            <rosparam command="load" file="$(find robot_localization)/params/ekf.yaml"/>
          </node>
        </launch>
        """})
    assert _invalid(tmp_path) == [
        ("launch/robot.launch", 3, ("/gps_link",)),
        ("launch/robot.launch", 7, ("/base_link",)),
        ("launch/robot.launch", 8, ("/odom",)),
    ]


def test_upper_case_frame_keys_in_a_yaml_file(tmp_path: Path) -> None:
    # amsl_navigation_managers' map file: `MAP_FRAME: '/map'`, copied into every marker's header
    _write(tmp_path, {"sample/map/sample_map.yaml": "# sample node_edge map\nMAP_FRAME: '/map'\nNODE:\n    - id: 0\n"})
    assert _invalid(tmp_path) == [("sample/map/sample_map.yaml", 2, ("/map",))]


def _reversed(root: Path) -> list[tuple[str, int | None, tuple[str, ...]]]:
    return sorted((f.location.file, f.location.line, f.frames) for f in scan([root], jobs=1).findings
                  if f.code == "REVERSED_NAME" and f.location)


def test_parameters_whose_names_say_their_frames_are_swapped(tmp_path: Path) -> None:
    """Turtlebot_Navigation's diff_params.yaml: odom_frame_id holds base_link and base_frame_id holds odom, so the
    odometer that reads them broadcasts base_link -> odom. The same pair in a launch file's node parameters; one key
    of another class alone, or the two keys in different mappings, is not reported."""
    _write(tmp_path / "a", {"config/diff_params.yaml": """
        wheel_base: 1.0
        odom_frame_id: "base_link"
        base_frame_id: "odom"
        left_wheel_joint: "left_axle"
        """})
    assert _reversed(tmp_path / "a") == [("config/diff_params.yaml", 2, ("base_link", "odom"))]
    _write(tmp_path / "b", {"launch/odom.launch": """
        <launch>
          <node pkg="rigid2d" type="odometer" name="odometer">
            <param name="base_frame" value="map"/>
            <param name="map_frame" value="base_footprint"/>
          </node>
        </launch>
        """})
    assert _reversed(tmp_path / "b") == [("launch/odom.launch", 3, ("map", "base_footprint"))]
    _write(tmp_path / "c", {"config/a.yaml": """
        slam:
          odom_frame: base_link
        localizer:
          base_frame: odom
        lio:
          odom_frame: base_link
          map_frame: map
        """})
    assert _reversed(tmp_path / "c") == []


def _scan_frames(root: Path) -> list[tuple[str, int | None, tuple[str, ...]]]:
    return sorted((f.location.file, f.location.line, f.frames) for f in scan([root], jobs=1).findings
                  if f.code == "INCORRECT_TRANSFORM" and "LaserScan" in f.message and f.location)


def test_a_laser_scan_made_from_a_camera_told_to_publish_in_an_optical_frame(tmp_path: Path) -> None:
    """linorobot2's fake laser: depthimage_to_laserscan given output_frame camera_depth_optical_frame publishes its scan
    in the vertical plane. In a ROS 2 parameter file under the node's name, in a ROS 1 launch file's node parameters
    (output_frame_id), and pointcloud_to_laserscan's target_frame; a body frame, or another node's output_frame, is fine."""
    _write(tmp_path / "a", {"config/fake_laser.yaml": """
        depthimage_to_laserscan:
          ros__parameters:
            scan_time: 0.033
            output_frame: camera_depth_optical_frame
        other_node:
          ros__parameters:
            output_frame: camera_depth_optical_frame
        """})
    assert _scan_frames(tmp_path / "a") == [("config/fake_laser.yaml", 4, ("camera_depth_optical_frame",))]
    _write(tmp_path / "b", {"launch/fake.launch": """
        <launch>
          <node pkg="depthimage_to_laserscan" type="depthimage_to_laserscan" name="d2l">
            <param name="output_frame_id" value="camera_depth_optical_frame"/>
          </node>
          <node pkg="pointcloud_to_laserscan" type="pointcloud_to_laserscan_node" name="p2l">
            <param name="target_frame" value="camera_link"/>
          </node>
        </launch>
        """})
    assert _scan_frames(tmp_path / "b") == [("launch/fake.launch", 3, ("camera_depth_optical_frame",))]
    _write(tmp_path / "c", {"config/fake_laser.yaml": "depthimage_to_laserscan:\n  ros__parameters:\n    output_frame: camera_link\n"})
    assert _scan_frames(tmp_path / "c") == []


def test_a_zero_quaternion_in_a_parameter_file(tmp_path: Path) -> None:
    """jsk_apc's bin poses: `initial_quat_list: [[0,0,0,0], ...]`, broadcast by a script as static transforms. The
    identity, a rotation triple of zeros and a key not named for a rotation are left alone."""
    _write(tmp_path, {"config/bin_upper_shelf.yaml": """
        initial_pos_list: [[-0.22, 0.30, 0.33], [-0.22, 0, 0.33]]
        initial_rot_list: [[0,0,0], [0,0,0]]
        initial_quat_list: [[0,0,0,0], [0.0, 0.0, 0.0, 0.0]]
        orientation: [0, 0, 0, 1]
        gains: [0, 0, 0, 0]
        tool:
          rotation: [0., 0., 0., 0.]  # comment
        """})
    found = sorted((f.location.line, f.severity.value) for f in scan([tmp_path], jobs=1).findings if f.code == "INVALID_TRANSFORM" and f.location)
    assert found == [(3, "warning"), (7, "warning")]
