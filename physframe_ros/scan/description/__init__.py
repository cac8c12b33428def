"""Robot and world descriptions for ``physframe scan``: URDF, xacro (expanded by a sandboxed
xacro, see :mod:`~physframe_ros.scan.safe_eval`) and SDFormat.

Each parser returns the file's :class:`~physframe_ros.scan.model.FileFacts`: the joints as
edges with their file:line, sensors and their mounts, and description findings.
"""
from .camera_plugins import model_camera_findings
from .sdf import parse_sdf_file
from .urdf import parse_urdf_file, robot_edges
from .xacro_support import MACRO_ALONE, expand_robot, needs_xacro, parse_xacro_file

__all__ = ["MACRO_ALONE", "expand_robot", "model_camera_findings", "needs_xacro", "parse_sdf_file", "parse_urdf_file", "parse_xacro_file", "robot_edges"]
