"""A cheap test that a source file can hold frame facts, so the scanner parses only those."""

from __future__ import annotations

import re

_DATA_TYPES = (
    "Image|CompressedImage|Range|MagneticField|FluidPressure|Temperature|RelativeHumidity|Illuminance|OccupancyGrid|Path|GridCells|"
    "Marker|MarkerArray|Detection[23]D(?:Array)?|BoundingBox(?:3D)?Array|BoundingBox|PolygonArray|DisparityImage|Radar(?:Scan|Tracks)|ObjectArray|"
    "Sentence|Octomap|OctomapWithPose|People|PositionMeasurement(?:Array)?|DetectionArray|Detection|AlvarMarkers?|BoundingBoxes|"
    "DetectedObjectArray|DetectedObject|TrackedPersons|DetectedPersons|HazardDetectionVector|HazardDetection|"
    "IrIntensityVector|IrIntensity|WheelVels|WheelTicks"
)  # the stamped types of facts._STAMPED_TYPES and facts._PACKAGE_STAMPED

# Identifiers of the tf APIs, transform/stamped message types and constant-rotation builders
# the analyzers understand. A file with none of them has nothing for them to find.
_MARKERS = re.compile(
    r"sendTransform|lookup_?[tT]ransform|can_?[tT]ransform|TransformStamped|StampedTransform|frame_id|"
    r"Matrix3x3|setRPY|Quaternion|quaternion_from|AngleAxis|Odometry|NavSatFix|LaserScan|Imu\b|PointCloud|"
    r"Stamped\b|transformPoint|transformPose|TransformListener|euler2|Rotation\.from|setEuler|cv2_to_imgmsg|toImageMsg|cvToImgMsg|CameraInfo|TFMessage|"
    r"MoveBaseGoal|NavigateToPose|"  # navigation goals, sent through an action client
    r"LLtoUTM|UTMtoLL|"  # UTM coordinates handed to a point's x and y
    r"header\.stamp|"  # stamps data whose type only a header names (cv_camera's info_ and CvImage members)
    # the other stamped data types (facts._STAMPED_TYPES), named with their package: a file that builds one and
    # never writes frame_id (the bug itself) names nothing else above; bare words like Image or Path would
    # match most of the code
    r"_msgs(?:::msg)?::(?:" + _DATA_TYPES + r")\b|_msgs\.msg\b[^\n]*\b(?:" + _DATA_TYPES + r")\b|"
    # a constant named for a frame written out with a leading '/' (`#define K2_TF_RGB_FRAME "/head_mount..."` in a
    # header of definitions only): the invalid id is reported where it is written
    r"[Ff][Rr][Aa][Mm][Ee]\w*(?:\[\])?[ \t]*=?[ \t]*\"/|"
    # a frame-like name written with a leading '/', maybe handed to a function of the package that takes a frame
    # (`make_shared<CloudPublisher>(nh, topic, "/velo_link", 100)`)
    r"\"/(?:\w+_(?:link|frame)|map|odom|world)\""
)


def mentions_tf(text: str) -> bool:
    """True when the text names any tf API, frame-carrying message or rotation builder."""
    return _MARKERS.search(text) is not None
