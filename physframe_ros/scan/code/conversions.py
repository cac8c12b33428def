"""Rotations named for a conversion between two axis conventions.

A quaternion or matrix called ``q_ned_enu``, ``nedToEnu`` or ``R_frd_flu`` converts between the conventions its
name gives, so its constant value is known whichever way round the code uses it: NED <-> ENU swaps x and y and
negates z (rpy pi, 0, pi/2, its own inverse); FRD <-> FLU and NED <-> NWU turn half a turn about x (rpy pi, 0, 0);
ENU <-> NWU a quarter turn about z. A name with any other constant rotation holds the wrong conversion (oxts'
``q_ned_enu.setRPY(pi, 0, -pi/2)``, a yaw sign slip that leaves every heading mirrored).
"""

from __future__ import annotations

import math
import re

from ...core.findings import Finding, Location, Severity
from ...core.rotations import OrthoRotation, format_rotation
from ..frame_ids import snake_case
from .values import Heading

_CONVENTIONS = frozenset({"ned", "enu", "frd", "flu", "nwu"})
_NED_ENU = OrthoRotation.from_rpy(math.pi, 0.0, math.pi / 2)
_HALF_ROLL = OrthoRotation.from_rpy(math.pi, 0.0, 0.0)
_QUARTER_YAW = OrthoRotation.from_rpy(0.0, 0.0, math.pi / 2)
_BETWEEN: dict[frozenset[str], tuple[OrthoRotation | None, str]] = {
    frozenset({"ned", "enu"}): (_NED_ENU, "NED <-> ENU swaps x and y and negates z: rpy (pi, 0, pi/2), its own inverse"),
    frozenset({"frd", "flu"}): (_HALF_ROLL, "FRD <-> FLU negates y and z: rpy (pi, 0, 0), its own inverse"),
    frozenset({"ned", "nwu"}): (_HALF_ROLL, "NED <-> NWU negates y and z: rpy (pi, 0, 0), its own inverse"),
    frozenset({"enu", "nwu"}): (_QUARTER_YAW, "ENU <-> NWU is a quarter turn about z: rpy (0, 0, pi/2) one way, (0, 0, -pi/2) the other"),
}


def conversion_words(name: str) -> frozenset[str]:
    """The axis conventions a variable's name gives (``q_ned_enu``, ``ned2enu``, ``nedToEnu``: ned and enu)."""
    return frozenset(w for w in re.split(r"[^a-z]+", snake_case(name)) if w in _CONVENTIONS)


def conversion_pair(name: str) -> frozenset[str] | None:
    """The two axis conventions a variable's name says it converts between, when it names exactly two."""
    words = conversion_words(name)
    return words if len(words) == 2 else None


def conversion_finding(name: str, rot: OrthoRotation, loc: Location) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) when ``name`` says it converts between two axis conventions and the constant
    orthogonal rotation ``rot`` it holds is not the rotation between them, either way round."""
    pair = conversion_pair(name)
    if pair is None or pair not in _BETWEEN:
        return None
    expected, rule = _BETWEEN[pair]
    if expected is None or rot in (expected, expected.inverse()):
        return None
    a, b = sorted(pair)
    return Finding(
        "INCORRECT_TRANSFORM",
        f"'{name}' is named for the conversion between {a.upper()} and {b.upper()} but holds rotation {rot}, "
        f"{format_rotation(rot.quaternion())}: {rule}, so data converted with it ends up with mirrored or swapped axes",
        (), loc, severity=Severity.WARNING,
    )


def heading_finding(yaw: Heading, loc: Location) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) for a yaw made from a compass heading (``slope * h + intercept``) other than
    ``pi/2 - heading``: a heading turns clockwise from north (NED), REP-103's yaw counterclockwise from east (ENU)."""
    if yaw.slope < 0 and abs(math.remainder(yaw.intercept - math.pi / 2, math.tau)) < 1e-3:
        return None
    if yaw.slope > 0:
        what = "the heading itself" if abs(math.remainder(yaw.intercept, math.tau)) < 1e-3 else "the heading turned the same way"
        how = "mirrored: it turns clockwise where the yaw turns counterclockwise"
    elif abs(math.remainder(yaw.intercept + math.pi / 2, math.tau)) < 1e-3:
        what, how = "-heading - pi/2", "a half turn off"
    else:
        what, how = f"-heading {'+' if yaw.intercept >= 0 else '-'} {abs(yaw.intercept):.4g}", "measured from another axis than east"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"the yaw given here is {what}, from a field named for a compass heading: a heading turns clockwise from north "
        f"(NED), REP-103's yaw counterclockwise from east (ENU), so the orientation is {how}; the yaw is pi/2 - heading",
        (), loc, severity=Severity.WARNING,
    )
