"""What the scanner learns from each file; the parsers produce it, the subsystem builder joins it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.expected import DataFrame, Lookup, PartialEdge
from ..core.findings import Finding, Location
from ..core.rotations import OrthoRotation
from ..core.tree import Edge
from .xml_lines import XmlError, XmlNode, parse_xml

#: The value of a parameter a launch file gives a node that is known only when the launch runs, as handed to the
#: node's code: the code's default does not hold there either.
LAUNCH_TIME = "\x01launch time"


@dataclass(frozen=True)
class LaunchedNode:
    """A node a launch file starts: the link from launch files to the sources that run."""

    package: str
    executable: str
    location: Location
    name: str = ""
    # the frame-named parameters and tf switches (``publish_tf``: "false") the launch gives this instance, each with
    # where its value is written; None: a value known only when the launch runs (the code's default does not hold)
    params: tuple[tuple[str, str | None, Location], ...] = ()


@dataclass(frozen=True)
class CameraSensor:
    """A simulated camera of an SDF model: Gazebo renders along the x axis of ``link`` turned by ``mount``
    (the sensor's own pose), and its plugin stamps the images with ``frame``, which the robot description
    that tf publishes may define rather than the model."""

    name: str
    link: str
    frame: str
    mount: OrthoRotation
    location: Location  # the plugin's frame element


@dataclass(frozen=True)
class SimSensor:
    """A simulated sensor whose data lie in its own axes (a lidar, an IMU, a sonar): Gazebo measures along ``link``
    turned by ``mount`` (the sensor's ``<pose>``) and stamps the data with ``frame``, its plugin's frame parameter;
    with none (``frame`` empty), gz-sim's bridge stamps its scoped name ``<model>/<link>/<name>``, a frame no
    description defines, which a launch file then places with a static transform."""

    name: str
    type: str
    link: str
    frame: str
    mount: OrthoRotation
    location: Location  # the sensor element

    def stamps(self, frame: str) -> bool:
        """Whether data stamped ``frame`` are this sensor's."""
        if self.frame:
            return frame == self.frame
        scope = frame.split("/")
        return len(scope) >= 3 and scope[-1] == self.name


@dataclass
class FileFacts:
    """Frame facts of one file. Paths in locations are relative to the scanned root."""

    path: str
    edges: list[Edge] = field(default_factory=list)  # transforms declared or broadcast
    lookups: list[Lookup] = field(default_factory=list)  # transforms the code asks tf2 for
    findings: list[Finding] = field(default_factory=list)  # problems local to the file
    nodes: list[LaunchedNode] = field(default_factory=list)  # launch files: nodes started
    includes: list[str] = field(default_factory=list)  # launch files: included files (relative paths)
    unseen_includes: list[LaunchedNode] = field(default_factory=list)  # launch files: included files outside the scanned tree
    uses: list[str] = field(default_factory=list)  # launch files: robot descriptions read (relative paths)
    include_args: dict[str, dict[str, str]] = field(default_factory=dict)  # launch files: arguments passed to each include
    lines: int = 0  # for progress and benchmarks
    notes: list[str] = field(default_factory=list)  # "file:line: remark" the user may want, not findings
    partial: bool = False  # descriptions: a fragment, or read only in part: its tree is not a whole robot
    unknown_broadcasts: int = 0  # code: broadcasts whose frames could not be resolved (some transform is not seen)
    # launch files: edges only one choice of the robot's environment declares (a robot model's description), by choice
    variants: dict[tuple[tuple[str, str], ...], list[Edge]] = field(default_factory=dict)
    arg_choices: dict[str, list[str]] = field(default_factory=dict)  # launch files: the values an argument declares it takes
    # launch files: boolean arguments with a default (not passed in) that turn an element on or off -> their <arg> line and
    # the other value ("true" for a default false)
    switches: dict[str, tuple[int, str]] = field(default_factory=dict)
    # launch files (XML): every boolean argument declared with a default and not passed in -> that default
    boolean_args: dict[str, str] = field(default_factory=dict)
    partial_edges: list[PartialEdge] = field(default_factory=list)  # code: broadcasts and lookups with one frame known
    data_frames: list[DataFrame] = field(default_factory=list)  # code: frames stamped on published data
    camera_sensors: list[CameraSensor] = field(default_factory=list)  # SDF models: cameras judged against every description
    sim_sensors: list[SimSensor] = field(default_factory=list)  # descriptions: simulated lidars, IMUs, sonars


def parse_document(facts: FileFacts, text: str, what: str, root_tag: str | None = None, lenient_comments: bool = False) -> XmlNode | None:
    """The root element of an XML file, or None after a PARSE_ERROR on ``facts`` naming the file and line
    (not well-formed, or a root other than ``root_tag``); ``what`` says what is skipped; ``lenient_comments``: as
    :func:`parse_xml`, for robot descriptions."""
    rel = facts.path
    try:
        root = parse_xml(text, lenient_comments)
    except XmlError as exc:
        facts.findings.append(Finding("PARSE_ERROR", f"{rel}: {exc}; {what} skipped", (), Location(rel, exc.line)))
        return None
    if root_tag is not None and root.tag != root_tag:
        facts.findings.append(Finding("PARSE_ERROR", f"{rel}: root element is <{root.tag}>, not <{root_tag}>", (), Location(rel, root.line)))
        return None
    return root
