"""Start the physframe monitor node beside a robot.

    ros2 launch physframe_ros monitor.launch.py
    ros2 launch physframe_ros monitor.launch.py expected_tree:=expected.yaml tf_topics:=/robot1/tf,/robot1/tf_static
    ros2 launch physframe_ros monitor.launch.py params_file:=my_monitor.yaml log_level:=debug

Arguments left empty keep the params file's values.
"""

from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

from launch import LaunchDescription
from physframe_ros.node.params import launch_overrides


def _monitor(context, *args, **kwargs):
    value = lambda name: LaunchConfiguration(name).perform(context)  # noqa: E731
    overrides = launch_overrides(value("expected_tree"), value("tf_topics"))
    return [
        Node(
            package="physframe_ros",
            executable="monitor",
            name="physframe_monitor",
            output="screen",
            parameters=[value("params_file"), overrides],
            ros_arguments=["--log-level", value("log_level")],
            # glibc's allocator gives memory back once churned frame names are forgotten; Python's
            # small-object arenas stay pinned by a few survivors (docs/monitor.md, "Bounded memory")
            additional_env={"PYTHONMALLOC": "malloc"},
        )
    ]


def generate_launch_description():
    return LaunchDescription(
        [
            DeclareLaunchArgument(
                "params_file",
                default_value=PathJoinSubstitution([FindPackageShare("physframe_ros"), "config", "monitor.yaml"]),
                description="YAML with the monitor's parameters (every one is in config/monitor.yaml, commented)",
            ),
            DeclareLaunchArgument("expected_tree", default_value="", description="expected tree YAML from `physframe scan --expected-out`"),
            DeclareLaunchArgument("tf_topics", default_value="", description="extra TF topics, comma-separated (e.g. /robot1/tf,/robot1/tf_static)"),
            DeclareLaunchArgument("log_level", default_value="info", description="node log level: debug, info, warn, error"),
            OpaqueFunction(function=_monitor),
        ]
    )
