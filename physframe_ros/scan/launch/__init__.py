"""Launch and parameter files for ``physframe scan``: ROS 1 XML, ROS 2 Python / XML / YAML launch
files and YAML parameter files, read without running them.

Each parser takes the file's text and path and returns the file's
:class:`~physframe_ros.scan.model.FileFacts` (static transforms, launched nodes with their
parameters, descriptions loaded into robot_state_publisher, frame-id findings); they never raise
on malformed input and never execute what they read.
"""
from .params_yaml import parse_params_yaml
from .python import parse_launch_py_file
from .ros1 import parse_launch_xml_file
from .xml_yaml import parse_launch_yaml_file

__all__ = ["parse_launch_py_file", "parse_launch_xml_file", "parse_launch_yaml_file", "parse_params_yaml"]
