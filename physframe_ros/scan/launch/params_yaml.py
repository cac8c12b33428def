"""Parameter YAML files (rosparam ``load`` files, ROS 2 ``--params-file`` files): frame ids written
as parameter values, checked as INVALID_FRAME_ID at their line.

Read line by line rather than through a YAML parser: only ``key: value`` lines whose key says frame
matter, and their line is what a user needs. A value a template fills in later is not checked.
"""

from __future__ import annotations

import re

from ..frame_ids import names_frame, parameter_findings
from ..model import FileFacts

# `  frame_id: "/odom"`, `- child_frame_id: /base`, `odometry.frame_id: 'odom'  # comment`
_ENTRY = re.compile(r"""^[ \t]*(?:-[ \t]+)?([\w.]*frame[\w.]*)[ \t]*:[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#'"{\[][^#\n]*?))[ \t]*(?:#.*)?$""", re.MULTILINE)


def parse_params_yaml(text: str, rel_path: str) -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if "frame" not in text:
        return facts
    for m in _ENTRY.finditer(text):
        key = m.group(1)
        if not names_frame(key):
            continue
        value = next(g for g in m.groups()[1:] if g is not None)
        line = text.count("\n", 0, m.start(1)) + 1
        facts.findings.extend(parameter_findings({key: value}, {key: line}, rel_path, line))
    return facts
