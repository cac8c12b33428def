import os

import xacro
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    prefix = LaunchConfiguration("prefix")
    path = os.path.join(get_package_share_directory("arm_description"), "urdf", "arm.urdf.xacro")
    doc = xacro.process_file(path, mappings={"prefix": "left_"}).toxml()
    return LaunchDescription([
        DeclareLaunchArgument("prefix", default_value=""),
        Node(package="robot_state_publisher", executable="robot_state_publisher",
             parameters=[{"robot_description": Command(["xacro ", FindPackageShare("arm_description"), "/urdf/arm.urdf.xacro", " prefix:=", prefix])}]),
        Node(package="tf2_ros", executable="static_transform_publisher",
             arguments=["--x", "0.5", "--frame-id", "map", "--child-frame-id", "odom"]),
        Node(package="robot_state_publisher", executable="robot_state_publisher", name="rsp2",
             parameters=[{"robot_description": doc, "frame_prefix": "right/"}]),
    ])
