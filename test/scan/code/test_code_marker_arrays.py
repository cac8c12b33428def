"""MarkerArrays resized and sent on with markers never filled, from two real idioms: hdl_graph_slam's
``create_marker_array`` (resized to 5, markers 0, 1, 3 and 4 filled: issue #94) and eband_local_planner's
``publishBand`` (the call filling the heading markers commented out). The same code with the markers filled,
or filled in ways the text does not show, is left alone."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, mentions_tf

HDL = """\
class Node {
  void map_optimization_timer_callback(const ros::WallTimerEvent& event) {
    if(markers_pub.getNumSubscribers()) {
      auto markers = create_marker_array(ros::Time::now());
      markers_pub.publish(markers);
    }
  }

  visualization_msgs::MarkerArray create_marker_array(const ros::Time& stamp) const {
    visualization_msgs::MarkerArray markers;
    markers.markers.resize(5);

    visualization_msgs::Marker& traj_marker = markers.markers[0];
    traj_marker.header.frame_id = "map";
    visualization_msgs::Marker& imu_marker = markers.markers[1];
    imu_marker.header.frame_id = "map";
    // markers.markers[2] was the GPS marker
    visualization_msgs::Marker& edge_marker = markers.markers[3];
    edge_marker.header.frame_id = "map";
    visualization_msgs::Marker& sphere_marker = markers.markers[4];
    sphere_marker.header.frame_id = "map";
    return markers;
  }
};
"""

EBAND = """\
void EBandVisualization::publishBand(std::string marker_name_space, std::vector<Bubble> band)
{
\tvisualization_msgs::MarkerArray eband_msg;
\teband_msg.markers.resize(band.size());

\tvisualization_msgs::MarkerArray eband_heading_msg;
\teband_heading_msg.markers.resize(band.size());

\tfor(int i = 0; i < ((int) band.size()); i++)
\t{
\t\tbubbleToMarker(band[i], eband_msg.markers[i], marker_name_space, i, green);
\t\t//bubbleHeadingToMarker(band[i], eband_heading_msg.markers[i], marker_heading_name_space, i, green);
\t}

\tbubble_pub_.publish(eband_msg);
\tbubble_pub_.publish(eband_heading_msg);
}
"""

FILLED = """\
visualization_msgs::MarkerArray all_filled(const ros::Time& stamp) {
  visualization_msgs::MarkerArray markers;
  markers.markers.resize(2);
  markers.markers[0].header.frame_id = "map";
  markers.markers[1].header.frame_id = "map";
  return markers;
}
void in_a_loop(const std::vector<Pose>& poses) {
  visualization_msgs::MarkerArray arr;
  arr.markers.resize(poses.size());
  for (auto& m : arr.markers) { m.header.frame_id = "map"; }
  pub_.publish(arr);
}
void by_a_helper(int n) {
  visualization_msgs::MarkerArray arr;
  arr.markers.resize(n);
  fill_all(arr);
  pub_.publish(arr);
}
void member_array() {
  arr_.markers.resize(3);
  pub_.publish(arr_);
}
"""


def _found(text: str) -> list[tuple[int | None, str]]:
    facts = analyze_cpp(text, "src/markers.cpp")
    return [(f.location.line if f.location else None, f.message) for f in facts.findings if f.code == "MISSING_FRAME"]


def test_constant_resize_with_a_marker_never_filled_is_reported_at_the_resize() -> None:
    ((line, message),) = _found(HDL)
    assert line == 11
    assert "MarkerArray 'markers' is resized to 5 at line 11 but marker 2 of them is never filled" in message
    assert "returned to be published" in message and "empty header.frame_id" in message


def test_no_marker_filled_is_reported_at_the_publish() -> None:
    # the fill left in a comment fills nothing; eband_msg's markers go to a helper, which may fill them
    ((line, message),) = _found(EBAND)
    assert line == 16
    assert "MarkerArray 'eband_heading_msg' is resized at line 7 but none of its markers is filled before it is published at line 16" in message


def test_markers_filled_or_handed_to_code_that_may_fill_them_are_not_reported() -> None:
    assert _found(FILLED) == []


def test_a_file_naming_only_marker_arrays_is_read() -> None:
    assert mentions_tf("#include <visualization_msgs/MarkerArray.h>\nvisualization_msgs::MarkerArray a;")
