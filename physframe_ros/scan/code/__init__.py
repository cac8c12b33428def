"""Code analysis for ``physframe scan``: C++ through tree-sitter-cpp, Python through ``ast``.

``analyze_cpp(text, rel_path)`` and ``analyze_python(text, rel_path)`` (optionally with
``conventions=``) return the file's :class:`~physframe_ros.scan.model.FileFacts`; they never
raise and never run the scanned code. ``mentions_tf(text)`` is the cheap prefilter: files it
rejects hold nothing the analyzers could find.

What they report, and where:

* **edges**: every ``sendTransform`` whose frame ids are known statically (literals,
  ``const``/``constexpr``/``#define`` constants, class members set in constructors or initializer
  lists, parameter defaults of ``declare_parameter``, ``param``, ``get_parameter_or``,
  ``rospy.get_param``), at the ``sendTransform`` line; ``static`` for a
  StaticTransformBroadcaster; ``rotation``/``translation`` when fully constant.
* **lookups**: ``lookupTransform``/``lookup_transform``/``canTransform``/``can_transform``/
  ``buffer.transform`` (target <- source), at the call.
* **MISSING_FRAME** / **MISSING_CHILD_FRAME**: a message built in the function (stamped sensor
  data, ``*Stamped``, ``Odometry``, ``TransformStamped``) published or broadcast with
  ``header.frame_id`` (or ``child_frame_id``) never set or set to ``""``, reported at the
  ``publish``/``sendTransform`` line; the message names the line the message was built. A message
  handed to other code first (``fill_header(msg)``, ``prepare(&msg)``, ``prepare(msg.get())``,
  tf2's ``transform(in, out, target)``) or whose header is copied is not reported: a value the
  analysis could not follow is unknown, never an error. Velocity and joystick commands
  (``TwistStamped``, ``AckermannDriveStamped``, ``Joy``...) are not checked: an empty frame_id is
  their convention. tf2's time-travel lookup ``lookupTransform(target, t1, source, t2, fixed)``
  of one frame is no REDUNDANT_TRANSFORM.
* **INCORRECT_TRANSFORM**: constant rotations are abstracted to the 24 orthogonal rotations
  (PhysFrame's R12), composed through ``*``/``@``/``dot`` (R14), inverted through
  ``inverse()``/``transpose()``/``t()``/``inv()``/``.T``, typed top when built from
  non-constants (R13) and dropped from products with known factors (R15), within a function,
  through class members and through calls to functions of the same file. The analyzers only
  record the edge with its rotation (``Edge.rotation`` when fully constant, else
  ``Edge.constant_part``); the verdict is the tree's (core ``check_tree``), which sees the
  mounts around the edge: the rotation must match the frames' conventions (core
  ``Conventions``); on a free edge such as map -> camera_link, a constant FLU -> RDF turn that
  is never undone is the ORB-SLAM2 bug.
* **REVERSED_NAME**: ``a_to_b`` (and ``b_in_a``) names the transform with header.frame_id ``a``
  and child_frame_id ``b``, which tf2's ``lookupTransform(a, b)`` returns; a variable so named
  holding the opposite transform is reported at its broadcast or lookup.
* **REDUNDANT_TRANSFORM**, **INVALID_FRAME_ID**, **INVALID_TRANSFORM**: core
  ``transform_findings`` on constant values; same-frame lookups.
* **PARSE_ERROR** (info): Python's first syntax error, with its line; what parses around it is
  still analysed. Each file has a step budget, so one file can never stall a scan. C++ is read
  without the preprocessor: macros tree-sitter cannot read are blanked first (``cpp_macros``),
  and what it still cannot read is a note on ``FileFacts.notes``, not a finding (the code
  usually compiles; the parser is what falls short).
"""

from typing import Callable

from ..model import FileFacts
from .prefilter import mentions_tf
from .python import analyze_python

analyze_cpp: Callable[..., FileFacts] | None
#: Why C++ files cannot be analysed (tree-sitter missing), or None. Python analysis never needs it.
CPP_UNAVAILABLE: str | None = None
try:
    from .cpp import analyze_cpp
except ModuleNotFoundError as _exc:
    analyze_cpp = None
    CPP_UNAVAILABLE = f"C++ files are not analysed: {_exc} (pip install tree-sitter tree-sitter-cpp)"

__all__ = ["CPP_UNAVAILABLE", "analyze_cpp", "analyze_python", "mentions_tf"]
