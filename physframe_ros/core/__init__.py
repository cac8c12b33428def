"""The pure core: frames, rotations, the tree, its checks and findings. No ROS imports here.

Public API::

    from physframe_ros.core import Conventions, TfState, check_tree, Edge, Finding
"""

from .checks import check_tree, transform_findings
from .conventions import Conventions
from .crosscheck import Match, crosscheck, match_live
from .expected import ExpectedTree, ExpectedTreeError, Lookup, Variant
from .findings import CODES, Finding, FindingPolicy, Location, Severity, TimeSpan, sort_findings
from .rotations import ALL_ROTATIONS, IDENTITY, AxisTriple, OrthoRotation
from .tfmessage import TfDecodeError, decode_cdr, decode_ros1, encode_cdr, encode_ros1
from .tfstate import FindingTracker, StateConfig, TfState
from .tree import Edge

__all__ = [
    "ALL_ROTATIONS",
    "CODES",
    "IDENTITY",
    "AxisTriple",
    "Conventions",
    "Edge",
    "ExpectedTree",
    "ExpectedTreeError",
    "Finding",
    "FindingPolicy",
    "FindingTracker",
    "Location",
    "Lookup",
    "Match",
    "OrthoRotation",
    "Severity",
    "StateConfig",
    "TfDecodeError",
    "TfState",
    "TimeSpan",
    "Variant",
    "check_tree",
    "crosscheck",
    "decode_cdr",
    "decode_ros1",
    "encode_cdr",
    "encode_ros1",
    "match_live",
    "sort_findings",
    "transform_findings",
]
