"""tinybot bringup: robot description, localization frames and the GPS driver."""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import AnyLaunchDescriptionSource
from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    xacro_file = PathJoinSubstitution([FindPackageShare("tinybot_description"), "urdf", "tinybot.urdf.xacro"])
    description = ParameterValue(
        Command(["xacro ", xacro_file, " camera_pitch:=", LaunchConfiguration("camera_pitch")]), value_type=str)
    return LaunchDescription([
        DeclareLaunchArgument("camera_pitch", default_value="0.1"),
        Node(package="robot_state_publisher", executable="robot_state_publisher",
             parameters=[{"robot_description": description}]),
        IncludeLaunchDescription(AnyLaunchDescriptionSource(
            PathJoinSubstitution([FindPackageShare("tinybot_bringup"), "launch", "localization.launch.xml"]))),
        Node(package="tinybot_gps", executable="gps_node"),
    ])
