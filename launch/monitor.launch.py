"""Start the physframe monitor node beside a robot.

    ros2 launch physframe_ros monitor.launch.py
    ros2 launch physframe_ros monitor.launch.py expected_tree:=expected.yaml tf_topics:=/robot1/tf,/robot1/tf_static
    ros2 launch physframe_ros monitor.launch.py params_file:=my_monitor.yaml log_level:=debug
    ros2 launch physframe_ros monitor.launch.py aggregator:=true     # also diagnostic_aggregator, "TF frames" group

Arguments left empty keep the params file's values.
"""

from typing import List

from ament_index_python.packages import PackageNotFoundError, get_package_prefix
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import Parameter
from launch_ros.substitutions import FindPackageShare

from launch import LaunchDescription
from physframe_ros.node.params import LOG_LEVELS, NODE_NAME, launch_overrides, log_level_arguments

AGGREGATOR_PACKAGE = "diagnostic_aggregator"


def _monitor(context, *args, **kwargs):
    value = lambda name: LaunchConfiguration(name).perform(context)  # noqa: E731
    # each override as `-p` after the params file (a dict would go to a /tmp/launch_params_* file nothing deletes)
    overrides = [
        Parameter(name, v, value_type=List[str] if isinstance(v, list) else str)
        for name, v in launch_overrides(value("expected_tree"), value("tf_topics")).items()
    ]
    actions = [
        Node(
            package="physframe_ros",
            executable="monitor",
            name=NODE_NAME,
            output="screen",
            parameters=[value("params_file"), *overrides],
            ros_arguments=log_level_arguments(value("log_level")),
            # glibc's allocator gives memory back once churned frame names are forgotten; Python's
            # small-object arenas stay pinned by a few survivors (docs/monitor.md, "Bounded memory")
            additional_env={"PYTHONMALLOC": "malloc"},
        )
    ]
    if value("aggregator") == "true":
        try:
            get_package_prefix(AGGREGATOR_PACKAGE)
        except PackageNotFoundError:
            actions.append(
                LogInfo(
                    msg=f"aggregator:=true: {AGGREGATOR_PACKAGE} is not installed (e.g. apt install ros-$ROS_DISTRO-diagnostic-aggregator); "
                    "the monitor runs alone and /diagnostics stays unaggregated"
                )
            )
        else:
            # the node name is the top key of the analyzers file
            actions.append(
                Node(package=AGGREGATOR_PACKAGE, executable="aggregator_node", name="analyzers", output="screen", parameters=[value("aggregator_config")])
            )
    return actions


def generate_launch_description():
    share = FindPackageShare("physframe_ros")
    return LaunchDescription(
        [
            DeclareLaunchArgument(
                "params_file",
                default_value=PathJoinSubstitution([share, "config", "monitor.yaml"]),
                description="YAML with the monitor's parameters (every one is in config/monitor.yaml, commented)",
            ),
            DeclareLaunchArgument("expected_tree", default_value="", description="expected tree YAML from `physframe scan --expected-out`"),
            DeclareLaunchArgument("tf_topics", default_value="", description="extra TF topics, comma-separated (e.g. /robot1/tf,/robot1/tf_static)"),
            DeclareLaunchArgument("log_level", default_value="info", choices=list(LOG_LEVELS), description="log level of the monitor's own logger"),
            DeclareLaunchArgument(
                "aggregator",
                default_value="false",
                choices=["true", "false"],
                description=f"also start {AGGREGATOR_PACKAGE}'s aggregator_node (where installed), grouping every monitor under 'TF frames'",
            ),
            DeclareLaunchArgument(
                "aggregator_config",
                default_value=PathJoinSubstitution([share, "config", "diagnostic_aggregator.yaml"]),
                description="analyzers file for aggregator:=true",
            ),
            OpaqueFunction(function=_monitor),
        ]
    )
