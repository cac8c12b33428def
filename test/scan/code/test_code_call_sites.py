"""Where a transform built in a helper is reported: at the call that names its frames (mavros'
``publish_static_transform("fcu_frd", "fcu", ...)``), with the helper's sendTransform as second source."""

from __future__ import annotations

from physframe_ros.core.checks import check_tree
from physframe_ros.core.conventions import Conventions
from physframe_ros.scan.code import analyze_cpp

UAS = """\
void UAS::setup_static_tf()
{
  publish_static_transform("fcu", "fcu_frd", Eigen::Affine3d(ftf::quaternion_from_rpy(M_PI, 0, 0)));
  publish_static_transform("fcu_frd", "fcu", Eigen::Affine3d(ftf::quaternion_from_rpy(-M_PI, 0, 0)));
}

void UAS::publish_static_transform(const std::string &frame_id, const std::string &child_id, const Eigen::Affine3d &tr)
{
  geometry_msgs::TransformStamped static_transformStamped;
  static_transformStamped.header.stamp = ros::Time::now();
  static_transformStamped.header.frame_id = frame_id;
  static_transformStamped.child_frame_id = child_id;
  tf::transformEigenToMsg(tr, static_transformStamped.transform);
  tf2_static_broadcaster.sendTransform(static_transformStamped);
}
"""


def test_helper_broadcasts_are_located_at_their_call_sites() -> None:
    facts = analyze_cpp(UAS, "uas_data.cpp")
    assert [(e.parent, e.child, [s.line for s in e.sources]) for e in facts.edges] == [("fcu", "fcu_frd", [3, 14]), ("fcu_frd", "fcu", [4, 14])]
    assert facts.findings == []  # the rotation is filled by transformEigenToMsg: not "never assigned"
    cycles = [f for f in check_tree(facts.edges, Conventions()) if f.code == "CYCLE_IN_FRAME_TREE"]
    assert [f.location.line for f in cycles if f.location] == [3]
