"""Code analysis for ``physframe scan``: C++ through tree-sitter-cpp, Python through ``ast``.

``analyze_cpp(text, rel_path)`` and ``analyze_python(text, rel_path)`` return the
file's :class:`~physframe_ros.scan.model.FileFacts`: broadcast edges (with constant
rotations and translations where known), tf lookups, and the findings local to the file
(MISSING_FRAME, MISSING_CHILD_FRAME, INVALID_FRAME_ID, INVALID_TRANSFORM,
REDUNDANT_TRANSFORM, REVERSED_NAME, INCORRECT_TRANSFORM, PARSE_ERROR). An
INCORRECT_TRANSFORM on a fully constant rotation is the same Finding the tree check
produces for that edge, so a caller merging both should drop exact duplicates.
``mentions_tf(text)`` is the cheap prefilter: files it rejects hold nothing to find.
"""

from .cpp import analyze_cpp
from .prefilter import mentions_tf
from .python import analyze_python

__all__ = ["analyze_cpp", "analyze_python", "mentions_tf"]
