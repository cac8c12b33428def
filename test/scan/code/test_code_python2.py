"""Python 2 rospy nodes are analysed like Python 3 ones, with their line numbers. The idioms are real:
jsk_perception's label_image_decomposer.py (``async = message_filters.ApproximateTimeSynchronizer(...)``,
which stopped the whole file from parsing and hid its header-less mask images), print statements,
``except E, e``, ``print >>sys.stderr``, octal modes and long literals."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from physframe_ros.scan.code import analyze_python
from physframe_ros.scan.code.python2 import as_python3
from physframe_ros.scan.discovery import discover
from physframe_ros.scan.scanner import scan

JSK = """\
#!/usr/bin/env python
import cv_bridge
import message_filters
import rospy
from sensor_msgs.msg import Image


class LabelImageDecomposer(object):

    def subscribe(self):
        use_async = rospy.get_param('~approximate_sync', False)
        if use_async:
            async = message_filters.ApproximateTimeSynchronizer(
                [self.sub_img, self.sub_label],
                queue_size=10, slop=0.1)
            async.registerCallback(self._apply)
        else:
            print "exact sync"

    def _apply(self, img_msg, label_msg):
        bridge = cv_bridge.CvBridge()
        label_img = bridge.imgmsg_to_cv2(label_msg)
        fg_mask = (label_img != 0).astype('uint8') * 255
        fg_mask_msg = bridge.cv2_to_imgmsg(fg_mask, encoding='mono8')
        self.pub_fg_mask.publish(fg_mask_msg)
"""


def test_a_python2_node_is_analysed_with_its_own_line_numbers_and_no_parse_error() -> None:
    facts = analyze_python(JSK, "jsk_perception/node_scripts/label_image_decomposer.py")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_FRAME", 25)]


@pytest.mark.parametrize(
    ("python2", "python3"),
    [
        ("print 'frame', frame_id", "print( 'frame', frame_id)"),
        ("print", "print()"),
        ("print x,", "print( x)"),
        ("print >>sys.stderr, 'no tf'", "print(  'no tf', file=sys.stderr)"),
        ("if ok: print 'ok'", "if ok: print( 'ok')"),
        ("x = 1; print x", "x = 1; print( x)"),
        ("print('already a call')", "print('already a call')"),
        ("print ('already a call')", "print ('already a call')"),
        ("print (a), b", "print( (a), b)"),
        ("try:\n    pass\nexcept IOError, e:\n    pass", "try:\n    pass\nexcept IOError as  e:\n    pass"),
        ("try:\n    pass\nexcept IOError,e:\n    pass", "try:\n    pass\nexcept IOError as e:\n    pass"),
        ("raise ValueError, 'bad frame'", "raise ValueError( 'bad frame')"),
        ("if a <> b: pass", "if a != b: pass"),
        ("os.chmod(p, 0777)", "os.chmod(p, 0o777)"),
        ("n = 10L", "n = 10"),
        ("s = `x`", "s = repr(x)"),
        ("exec code", "exec( code)"),
        ("if x:\n\tif y:\n\t\tpass\n        z = 1", "if x:\n        if y:\n                pass\n        z = 1"),
    ],
)
def test_python2_statements_become_python3_on_the_same_lines(python2: str, python3: str) -> None:
    out = as_python3(python2)
    assert out == python3
    ast.parse(out)


def test_a_multi_line_print_closes_on_its_last_line_before_the_comment() -> None:
    out = as_python3("print 'a %s' % (x,\n   y)   # why\nz = 1\n")
    assert out == "print( 'a %s' % (x,\n   y))   # why\nz = 1\n"


def test_python3_syntax_of_async_is_kept() -> None:
    src = "async def f():\n    await g()\n"
    assert as_python3(src) == src


NMEA_SCRIPT = """\
#!/usr/bin/env python
import rospy
from sensor_msgs.msg import NavSatFix

if __name__ == '__main__':
    rospy.init_node('nmea_serial_driver')
    pub = rospy.Publisher('fix', NavSatFix, queue_size=1)
    fix = NavSatFix()
    fix.header.stamp = rospy.get_rostime()
    print "publishing"
    pub.publish(fix)
"""


def test_an_extension_less_ros1_script_is_read_by_its_shebang(tmp_path: Path) -> None:
    pkg = tmp_path / "gps"
    (pkg / "scripts").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package><name>gps</name></package>\n")
    (pkg / "scripts" / "nmea_serial_driver").write_text(NMEA_SCRIPT)
    (pkg / "scripts" / "setup_udev").write_text("#!/bin/bash\necho frame_id\n")
    (pkg / "LICENSE").write_text("BSD\n")
    assert [(f.path, f.kind) for f in discover([tmp_path]).files] == [("gps/scripts/nmea_serial_driver", "python")]
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None) for f in scan([tmp_path]).findings]
    assert found == [("MISSING_FRAME", "gps/scripts/nmea_serial_driver", 11)]
