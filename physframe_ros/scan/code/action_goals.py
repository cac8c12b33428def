"""Navigation goals sent through an action client with the frame of their pose never set.

``move_base_msgs::MoveBaseGoal goal; goal.target_pose.pose.position.x = x; ac.sendGoal(goal);`` (m-explore before
its fix): move_base rejects a goal whose ``target_pose.header.frame_id`` is not its global frame, and nav2 fails to
transform a ``NavigateToPose`` goal whose ``pose.header.frame_id`` is empty. Read on the file's text: a goal counts
as framed when any text mentions its pose other than to write the pose's own fields or the header's stamp (a frame
written, the pose assigned whole or bound to a reference), and a goal handed to any other call may be filled there.
A goal held as a member of something else is followed by its name (``sendGoal(now_waypoint->goal)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a goal declared (C++) or made (Python): its name, and the field that holds the stamped pose
_GOALS = (
    (re.compile(r"\bMoveBaseGoal\s+(\w+)\s*[;{]|\b(\w+)\s*=\s*(?:[\w.]+\.)?MoveBaseGoal\s*\(\s*\)"), "target_pose"),
    (re.compile(r"\bNavigateToPose::Goal\s+(\w+)\s*[;{]|\b(\w+)\s*=\s*(?:[\w:.]+(?:::|\.))?NavigateToPose(?:::|\.)Goal\s*\(\s*\)"), "pose"),
)
# the goal sent: a variable, or a member reached through others (`now_waypoint->goal`, fifth_robot_pkg's waypoints)
_SEND = re.compile(r"\b(?:sendGoal|sendGoalAndWait|send_goal|send_goal_and_wait|async_send_goal|send_goal_async)\s*\(\s*\*?\s*"
                   r"(?:\w+\s*(?:\[[^\]\n]*\]\s*)?(?:\.|->)\s*)*(\w+)\s*[,)]")


@dataclass(frozen=True)
class UnframedGoal:
    name: str
    field: str
    line: int

    def message(self) -> str:
        return (f"navigation goal '{self.name}' is sent with {self.field}.header.frame_id never set: move_base and nav2 "
                f"read the goal pose in that frame, so an empty one is rejected or fails to transform; set "
                f"{self.name}.{self.field}.header.frame_id (and its stamp)")


def unframed_goals(text: str) -> list[UnframedGoal]:
    """The sends of goals whose pose frame no text of the file sets."""
    if "Goal" not in text:
        return []
    sends = [(m.group(1), text.count("\n", 0, m.start()) + 1) for m in _SEND.finditer(text)]
    out: list[UnframedGoal] = []
    for pattern, field in _GOALS:
        names = {m.group(1) or m.group(2) for m in pattern.finditer(text)}
        for name in names:
            # the pose's own fields and the header's stamp are no frame
            framed = re.search(rf"\b{re.escape(name)}\s*(?:\.|->)\s*{field}\b(?!\s*\.\s*(?:pose\b|header\s*\.\s*stamp\b))", text)
            sent_at = [line for sent, line in sends if sent == name]
            # handed whole to a call besides the sends (`fillGoal(goal)`, `makeGoal(&goal)`): it may be framed there
            handed = len(re.findall(rf"[(,]\s*[&*]?\s*{re.escape(name)}\s*[,)]", text)) > len(sent_at)
            if framed is None and not handed:
                out.extend(UnframedGoal(name, field, line) for line in sent_at)
    return out
