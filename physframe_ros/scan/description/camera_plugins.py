"""REP-103 in robot descriptions: the frame a Gazebo camera plugin stamps its images with is an optical frame.

Gazebo renders a camera looking along the +x axis of the link the sensor is attached to (``<gazebo
reference="camera_link">``), a body frame: x forward, y left, z up. The plugin stamps every image and
camera_info with its frame parameter (``<frameName>``, ``<frame_name>``, ``<gz_frame_id>``...); that frame
must be the optical one, x right, y down, z forward, i.e. the body turned by rpy (-pi/2, 0, -pi/2). A
frame that is the sensor's link itself, or a link fixed to it with a known rotation that is not that turn,
publishes the images rotated. Only a rotation the description fixes is judged: a frame built by xacro, one
defined elsewhere or reached through a movable joint says nothing.

An SDF model's camera is judged once every file is read: the frame its plugin names is often one that
only the robot's URDF defines (the tree tf publishes), so it is placed as that description places it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Iterable, Iterator

from ...core.checks import camera_axes
from ...core.conventions import OPTICAL, default_conventions
from ...core.findings import Finding, Location
from ...core.rotations import FLU, IDENTITY, RDF, OrthoRotation
from ...core.tree import Edge, single_parents
from ..code.optical import camera_link_finding
from ..model import CameraSensor, FileFacts, SimSensor
from ..xml_lines import XmlNode
from .sdf_pose import read_pose

Locator = Callable[[XmlNode], Location]

CAMERA_SENSORS = frozenset({"camera", "depth", "multicamera", "wideanglecamera", "rgbd_camera", "depth_camera", "rgbd"})
FRAME_TAGS = ("frameName", "frame_name", "gz_frame_id", "ignition_frame_id", "optical_frame_id")


def is_camera_sensor(el: XmlNode) -> bool:
    """``<sensor type="camera">``, or the Gazebo 0.x form old ROS 1 descriptions use (PR2's ``<sensor:camera>``,
    its plugin a ``<controller:gazebo_ros_camera plugin="libgazebo_ros_camera.so">`` holding ``<frameName>``)."""
    if el.tag == "sensor":
        return el.get("type") in CAMERA_SENSORS
    return el.tag.startswith("sensor:") and el.tag[len("sensor:"):] in CAMERA_SENSORS


def _frame_of(sensor: XmlNode) -> XmlNode | None:
    """The element naming the frame a camera sensor's plugin (or the sensor itself, for gz) stamps images with."""
    return next((el for el in sensor.iter() if el.tag in FRAME_TAGS and el.text.strip()), None)


def _up(bottom: str, parent: dict[str, Edge], stop: Callable[[str], bool], tolerance: float) -> tuple[OrthoRotation, str] | None:
    """Up from ``bottom`` through static edges to the first ancestor ``stop`` accepts: that ancestor and the fixed
    rotation from it down to ``bottom``; None when an edge on the way is missing, moves or is not orthogonal."""
    rot, cur = IDENTITY, bottom
    for _ in range(len(parent) + 1):
        e = parent.get(cur)
        step = OrthoRotation.from_quaternion(e.rotation, tolerance) if e is not None and e.static and e.rotation is not None else None
        if e is None or step is None:
            return None
        rot, cur = step @ rot, e.parent
        if stop(cur):
            return rot, cur
    return None


def fixed_rotation(link: str, frame: str, edges: list[Edge], tolerance: float = 1e-3) -> OrthoRotation | None:
    """The fixed rotation from ``link`` to ``frame`` (below or above it) through static edges; None when not fixed."""
    if frame == link:
        return IDENTITY
    parent = {e.child: e for e in edges}
    below = _up(frame, parent, link.__eq__, tolerance)
    if below is not None:
        return below[0]
    above = _up(link, parent, frame.__eq__, tolerance)
    return above[0].inverse() if above is not None else None


def camera_sensors_of(holder: XmlNode) -> Iterator[tuple[XmlNode, XmlNode, OrthoRotation]]:
    """The camera sensors of a ``<gazebo>`` extension or an SDF ``<link>``: each with the element naming the frame
    its images are stamped with and its mount; sensors whose frame xacro builds or whose mount is unknown are left out."""
    for sensor in holder.children:
        if not is_camera_sensor(sensor):
            continue
        el = _frame_of(sensor)
        mount = sensor_mount(sensor)
        if el is not None and "$" not in el.text and mount is not None:
            yield sensor, el, mount


def sensor_mount(sensor: XmlNode) -> OrthoRotation | None:
    """The rotation of a sensor's axes in its link, from its ``<pose>`` and its camera's own ``<camera><pose>``
    (identity without them: Baxter's hand cameras turn only the latter); None when one is not readable, not relative
    to the link, or not one of the 24 orthogonal rotations (a tilted camera is not judged)."""
    camera = sensor.find("camera")
    mount = IDENTITY
    for pose in (sensor.find("pose"), camera.find("pose") if camera is not None else None):
        if pose is not None and ((pose.get("relative_to") or "").strip() or (pose.get("rotation_format") or "euler_rpy") != "euler_rpy"):
            return None
        value, _ = read_pose(pose)
        turn = OrthoRotation.from_matrix(value[0], tolerance=1e-3) if value is not None else None
        if turn is None:
            return None
        mount = mount @ turn
    return mount


def _problem(name: str, link: str, frame: str, rel: OrthoRotation, how: str, fix: str, frames: tuple[str, ...], at: Location) -> Finding:
    """The finding for camera ``name`` on ``link`` whose images are stamped in ``frame``, turned ``rel`` from the
    camera's own axes (not the optical turn)."""
    return Finding(
        "INCORRECT_TRANSFORM",
        f"camera sensor '{name}' on link '{link}' stamps its images in '{frame}' ({how}), which is {rel.apply(FLU)} "
        f"relative to the camera; Gazebo renders along the camera's x axis and REP-103 camera data is in an optical frame, "
        f"{RDF} (x right, y down, z forward): {fix}",
        tuple(dict.fromkeys(frames)),
        at,
    )


def camera_plugin_findings(robot: XmlNode, edges: list[Edge], locate: Locator, prefix: str = "") -> list[Finding]:
    """INCORRECT_TRANSFORM for each camera sensor whose plugin frame is not optical relative to its link."""
    conventions = default_conventions()
    out: list[Finding] = []
    for gz in robot.findall("gazebo"):
        link = (gz.get("reference") or "").strip()
        if not link or "$" in link or conventions.classify(prefix + link).cls.name == OPTICAL:
            continue
        for sensor, el, mount in camera_sensors_of(gz):
            frame = el.text.strip()
            rot = fixed_rotation(prefix + link, prefix + frame, edges)
            if rot is None:
                # car_demo's Prius: four cameras stamping 'camera_link', a link the robot never defines (a frame the
                # robot places, behind a movable joint, is left alone there)
                unplaced = camera_link_finding("Image", prefix + frame, edges, conventions, locate(el))
                if unplaced is not None:
                    out.append(unplaced)
                continue
            if (mount.inverse() @ rot).apply(FLU) == RDF:
                continue
            plugin = locate(el)
            # the line to change: the joint that turns a direct child the wrong way, else the plugin's frame
            joint = next((e.sources[0] for e in edges if e.parent == prefix + link and e.child == prefix + frame and e.sources), None)
            if rot == IDENTITY:
                how, fix = "the sensor's link itself", f"give the plugin a child frame of '{link}' turned by rpy (-pi/2, 0, -pi/2)"
            else:
                how, fix = f"fixed to it with rotation {rot}", f"turn '{frame}' by rpy (-pi/2, 0, -pi/2) from '{link}'"
            if joint is not None and plugin.line:
                how = f"the plugin names it at line {plugin.line}, {how}"
            out.append(_problem(sensor.get("name") or "", link, frame, mount.inverse() @ rot, how, fix, (prefix + link, prefix + frame),
                                joint if joint is not None else plugin))
    return out


def _path_joint(a: str, b: str, edges: list[Edge]) -> Edge | None:
    """A movable joint on the tree's path between frames ``a`` and ``b`` (one moves relative to the other); None when
    they are joined by fixed joints only, or not joined at all."""
    parent = {e.child: e for e in edges}

    def chain(f: str) -> list[Edge]:
        out: list[Edge] = []
        while f in parent and len(out) <= len(parent):
            out.append(parent[f])
            f = parent[f].parent
        return out

    up_a, up_b = chain(a), chain(b)
    above_a = [a, *(e.parent for e in up_a)]
    above_b = [b, *(e.parent for e in up_b)]
    common = next((f for f in above_a if f in above_b), None)
    if common is None:
        return None
    path = up_a[:above_a.index(common)] + up_b[:above_b.index(common)]
    return next((e for e in path if not e.static), None)


# sensors whose data lie in their own link's axes, stamped as they are; a contact sensor's plugin (gazebo_ros_bumper)
# expresses the contacts in the frame it names, so any frame of the robot is right there
_PLACED_SENSORS = CAMERA_SENSORS | {"ray", "gpu_ray", "lidar", "gpu_lidar", "sonar", "imu"}


def sensor_frame_findings(robot: XmlNode, edges: list[Edge], locate: Locator, prefix: str = "") -> list[Finding]:
    """INCORRECT_TRANSFORM for a Gazebo sensor whose plugin stamps its data with a frame of the robot that a movable
    joint separates from the sensor's link (Baxter's hand cameras stamped ``head_camera`` and its hand range finders
    ``base``): consumers place the data where that frame is, which moves independently of the sensor."""
    out: list[Finding] = []
    for gz in robot.findall("gazebo"):
        link = (gz.get("reference") or "").strip()
        if not link or "$" in link:
            continue
        for sensor in gz.children:
            if (sensor.get("type") if sensor.tag == "sensor" else sensor.tag.partition(":")[2]) not in _PLACED_SENSORS:
                continue
            el = _frame_of(sensor)
            frame = el.text.strip() if el is not None else ""
            if el is None or "$" in frame or frame == link:
                continue
            joint = _path_joint(prefix + link, prefix + frame, edges)
            if joint is None:
                continue
            at = f" ({joint.sources[0]})" if joint.sources else ""
            out.append(Finding(
                "INCORRECT_TRANSFORM",
                f"{sensor.get('type') or sensor.tag.split(':')[-1]} sensor '{sensor.get('name') or ''}' on link '{link}' stamps "
                f"its data in '{frame}', which the movable joint {joint.parent} -> {joint.child}{at} separates from the "
                f"sensor: consumers place the data where '{frame}' is, not where the sensor is; stamp it with '{link}' or a "
                "frame fixed to it",
                (prefix + link, prefix + frame), locate(el),
            ))
    return out


def placed_sensors_of(holder: XmlNode, link: str, locate: Locator, prefix: str = "") -> Iterator[SimSensor]:
    """The lidars, IMUs and sonars of a ``<gazebo reference>`` extension or an SDF ``<link>`` (named ``link``): each
    with the frame its plugin names (none: gz-sim's scoped name) and its mount. One whose frame xacro builds, whose
    mount is unknown, or whose plugin stamps the link itself is left out (the link's own joints place that)."""
    for sensor in holder.children:
        kind = (sensor.get("type") or "") if sensor.tag == "sensor" else ""
        if kind not in _PLACED_SENSORS or kind in CAMERA_SENSORS:
            continue
        el = _frame_of(sensor)
        frame = el.text.strip() if el is not None else ""
        mount = sensor_mount(sensor)
        if "$" in frame or mount is None or frame == link:
            continue
        yield SimSensor(sensor.get("name") or "", kind, prefix + link, prefix + frame if frame else "", mount, locate(sensor))


def gazebo_sensors(robot: XmlNode, locate: Locator, prefix: str = "") -> list[SimSensor]:
    """The placed sensors of a URDF's ``<gazebo reference="link">`` extensions."""
    out: list[SimSensor] = []
    for gz in robot.findall("gazebo"):
        link = (gz.get("reference") or "").strip()
        if link and "$" not in link:
            out.extend(placed_sensors_of(gz, link, locate, prefix))
    return out


def model_camera_findings(files: Iterable[FileFacts], descriptions: Collection[str]) -> list[Finding]:
    """INCORRECT_TRANSFORM for each SDF model camera whose images are stamped in a frame that is not optical relative
    to the camera. The frame is judged where tf gets it: from the robot descriptions (``descriptions``: URDF and
    xacro paths) that define it, turned from the nearest frame they share with the model (neuronbot2: the model's
    ``camera_link`` renders, the URDF fixes ``rgb_camera_frame`` to ``camera_link`` unturned); from the model itself
    when no description defines it. Any description that makes it optical silences the finding."""
    files = list(files)
    trees: dict[tuple[str, str], list[Edge]] = {}  # each description's edges, as each file that reads it has them
    for ff in files:
        for e in ff.edges:
            src = e.sources[0].file if e.sources else ff.path
            if src in descriptions:
                trees.setdefault((ff.path, src), []).append(e)
    out: list[Finding] = []
    for ff in files:
        model = [e for e in ff.edges if e.sources and e.sources[0].file == ff.path]
        for cam in ff.camera_sensors:
            defining = [(src, edges) for (_, src), edges in trees.items() if src != ff.path and any(e.child == cam.frame for e in edges)]
            if defining:
                judged = [(src, j) for src, edges in defining for j in [_across(cam, model, edges)] if j is not None]
                if not judged:
                    apart = _unturned_in_descriptions(cam, defining)
                    if apart is not None:
                        out.append(apart)
                    continue
                if any(j.rel.apply(FLU) == RDF for _, j in judged):
                    continue
                src, j = judged[0]
                where = f"{src}:{j.edge.sources[0].line}" if j.edge.sources and j.edge.sources[0].line else src
                camera = f"along the x axis of '{j.common}'" if j.camera == IDENTITY else f"turned {j.camera} from '{j.common}'"
                how = f"{where} fixes it to '{j.common}' {_turned(j.published)}, and the model renders the camera {camera}"
                # the line to change: for the link the camera renders from, the description's rotation of it (neuronbot2's
                # Kinect: the fix turned camera_link); for another frame, the plugin's name of it (its RGB camera's fix
                # named the optical frame)
                at = (j.edge.rotation_location if cam.frame == cam.link else None) or cam.location
                if at != cam.location and cam.location.line:
                    how = f"the model's plugin names it at {cam.location}, {how}"
                out.append(_problem(cam.name, cam.link, cam.frame, j.rel, how, f"turn '{cam.frame}' by rpy (-pi/2, 0, -pi/2) from the camera",
                                    (cam.link, cam.frame), at))
                continue
            rot = fixed_rotation(cam.link, cam.frame, model)
            if rot is not None and (cam.mount.inverse() @ rot).apply(FLU) != RDF:
                how = "the sensor's link itself" if rot == IDENTITY else f"fixed to it {_turned(rot)} in the model"
                out.append(_problem(cam.name, cam.link, cam.frame, cam.mount.inverse() @ rot, how,
                                    "stamp them with a child frame of the link turned by rpy (-pi/2, 0, -pi/2)", (cam.link, cam.frame), cam.location))
    return out


def _unturned_in_descriptions(cam: CameraSensor, defining: list[tuple[str, list[Edge]]]) -> Finding | None:
    """The camera's frame judged in the descriptions alone when none shares a frame with the model above it
    (ros2_turtlebot3_waffle_intel_realsense: the model's camera renders from ``realsense_link``, the URDF fixes
    ``realsense_depth_frame`` unturned under a ``camera_link``): not optical relative to the camera body frame above
    it in every description that defines it (REP-103's rule on the tree, as the live monitor applies it); reported
    as the first one places it."""
    placed = [single_parents(edges) for _, edges in defining]
    judged = [camera_axes(cam.frame, parents, default_conventions()) if cam.frame in parents else None for parents in placed]
    first = judged[0] if judged else None
    if first is None or None in judged:
        return None
    body, rot = first
    edge = placed[0][cam.frame]
    where = f"{edge.sources[0]}" if edge.sources else "the description"
    how = f"the model's plugin names it at {cam.location}; {where} fixes it under the camera body frame '{body}' {_turned(rot)}"
    return _problem(cam.name, cam.link, cam.frame, rot, how, f"turn '{cam.frame}' by rpy (-pi/2, 0, -pi/2) from '{body}'",
                    (body, cam.frame), edge.rotation_location or cam.location)


def _turned(rot: OrthoRotation) -> str:
    return "with no rotation" if rot == IDENTITY else f"with rotation {rot}"


@dataclass(frozen=True)
class _Across:
    rel: OrthoRotation  # the stamped frame relative to the camera's axes
    common: str  # the nearest ancestor of the frame in the description that the model also has
    published: OrthoRotation  # the frame in ``common``, as the description fixes it
    camera: OrthoRotation  # the camera's axes in ``common``, as the model places them
    edge: Edge  # the description's edge that places the frame


def _across(cam: CameraSensor, model: list[Edge], tree: list[Edge], tolerance: float = 1e-3) -> _Across | None:
    """The camera's frame as ``tree`` publishes it, against the camera as the model renders it, from the first
    ancestor of the frame (above it, so a name both share is judged by the tree) that the model knows; None when a
    rotation on the way is not fixed or not orthogonal."""
    parent = {e.child: e for e in tree}
    known = {f for e in model for f in (e.parent, e.child)} | {cam.link}
    found = _up(cam.frame, parent, known.__contains__, tolerance)
    to_link = fixed_rotation(found[1], cam.link, model) if found is not None else None
    if found is None or to_link is None:
        return None
    published, common = found
    camera = to_link @ cam.mount
    return _Across(camera.inverse() @ published, common, published, camera, parent[cam.frame])
