"""realtime_tools ``RealtimePublisher`` and generate_parameter_library schemas, on the code shapes of
ros-controls/ros_controllers (ROS 1) and ros-controls/ros2_controllers (ROS 2): frames set in one method
(init / on_configure) and published from another (update)."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp
from physframe_ros.scan.code.helpers import PackageSources
from physframe_ros.scan.code.param_schemas import schema_defaults, unknown_prefix

# ros_controllers diff_drive_controller (noetic-devel), cut down
ROS1_HEADER = """\
#include <realtime_tools/realtime_publisher.h>
#include <tf/tfMessage.h>
namespace diff_drive_controller {
  class DiffDriveController : public controller_interface::ControllerBase {
  private:
    std::string base_frame_id_;
    std::string odom_frame_id_;
    std::shared_ptr<realtime_tools::RealtimePublisher<nav_msgs::Odometry> > odom_pub_;
    std::shared_ptr<realtime_tools::RealtimePublisher<tf::tfMessage> > tf_odom_pub_;
  };
}
"""
ROS1_SOURCE = """\
#include <diff_drive_controller/diff_drive_controller.h>
namespace diff_drive_controller {
  DiffDriveController::DiffDriveController()
    : base_frame_id_("base_link")
    , odom_frame_id_("odom")
  {
  }

  bool DiffDriveController::init(hardware_interface::VelocityJointInterface* hw, ros::NodeHandle& root_nh, ros::NodeHandle &controller_nh)
  {
    controller_nh.param("base_frame_id", base_frame_id_, base_frame_id_);
    controller_nh.param("odom_frame_id", odom_frame_id_, odom_frame_id_);
    setOdomPubFields(root_nh, controller_nh);
    return true;
  }

  void DiffDriveController::update(const ros::Time& time, const ros::Duration& period)
  {
    if (odom_pub_->trylock())
    {
      odom_pub_->msg_.header.stamp = time;
      odom_pub_->msg_.pose.pose.position.x = odometry_.getX(); odom_pub_->msg_.pose.pose.orientation = orientation;
      odom_pub_->unlockAndPublish();
    }
    if (enable_odom_tf_ && tf_odom_pub_->trylock())
    {
      geometry_msgs::TransformStamped& odom_frame = tf_odom_pub_->msg_.transforms[0];
      odom_frame.header.stamp = time;
      odom_frame.transform.translation.x = odometry_.getX();
      odom_frame.transform.rotation = orientation;
      tf_odom_pub_->unlockAndPublish();
    }
  }

  void DiffDriveController::setOdomPubFields(ros::NodeHandle& root_nh, ros::NodeHandle& controller_nh)
  {
    odom_pub_.reset(new realtime_tools::RealtimePublisher<nav_msgs::Odometry>(controller_nh, "odom", 100));
    odom_pub_->msg_.header.frame_id = odom_frame_id_;
    odom_pub_->msg_.child_frame_id = base_frame_id_;

    tf_odom_pub_.reset(new realtime_tools::RealtimePublisher<tf::tfMessage>(root_nh, "/tf", 100));
    tf_odom_pub_->msg_.transforms.resize(1);
    tf_odom_pub_->msg_.transforms[0].transform.translation.z = 0.0;
    tf_odom_pub_->msg_.transforms[0].child_frame_id = base_frame_id_;
    tf_odom_pub_->msg_.transforms[0].header.frame_id = odom_frame_id_;
  }
}
"""


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_ros1_realtime_tf_publisher_filled_in_init_and_sent_in_update_is_a_broadcast() -> None:
    facts = analyze_cpp(ROS1_SOURCE, "diff_drive_controller/src/diff_drive_controller.cpp", headers=[ROS1_HEADER])
    assert [(e.parent, e.child, e.static) for e in facts.edges] == [("odom", "base_link", False)]
    assert facts.edges[0].sources[0].line == _line(ROS1_SOURCE, "tf_odom_pub_->unlockAndPublish();")
    assert facts.findings == []


def test_realtime_publisher_on_tf_static_is_a_static_broadcast() -> None:
    source = ROS1_SOURCE.replace('(root_nh, "/tf", 100)', '(root_nh, "/tf_static", 1)')
    facts = analyze_cpp(source, "diff_drive_controller/src/diff_drive_controller.cpp", headers=[ROS1_HEADER])
    assert [(e.parent, e.child, e.static) for e in facts.edges] == [("odom", "base_link", True)]


def test_realtime_message_bound_by_reference_and_frames_set_through_it() -> None:
    """``auto & msg = pub->msg_;`` then ``msg.transforms.front()...``: the publisher's message is written."""
    source = """\
void Broadcaster::on_configure()
{
  tf_pub_ = std::make_shared<realtime_tools::RealtimePublisher<tf2_msgs::msg::TFMessage>>(tf_publisher_);
  auto & msg = tf_pub_->msg_;
  msg.transforms.resize(1);
  msg.transforms.front().header.frame_id = "world";
  msg.transforms.front().child_frame_id = "tool0";
}
void Broadcaster::update()
{
  if (tf_pub_ && tf_pub_->trylock()) {
    tf_pub_->msg_.transforms.back().header.stamp = now;
    tf_pub_->unlockAndPublish();
  }
}
"""
    facts = analyze_cpp(source, "src/broadcaster.cpp")
    assert [(e.parent, e.child) for e in facts.edges] == [("world", "tool0")]
    assert facts.findings == []


def test_realtime_publisher_whose_frames_no_method_shows_gives_no_error() -> None:
    """Unknown is never an error: the message is the publisher's, other code may fill it."""
    source = """\
void C::update()
{
  if (state_pub_->trylock()) {
    state_pub_->msg_.header.stamp = time;
    state_pub_->unlockAndPublish();
  }
}
void C::init()
{
  state_pub_.reset(new realtime_tools::RealtimePublisher<nav_msgs::Odometry>(nh, "odom", 4));
}
"""
    facts = analyze_cpp(source, "src/c.cpp")
    assert [f for f in facts.findings if f.code != "PARSE_ERROR"] == []


# ros2_controllers steering_controllers_library (master), cut down
SCHEMA = """\
steering_controllers_library:
  tf_frame_prefix_enable: {
    type: bool,
    default_value: true,
    read_only: true,
  }
  tf_frame_prefix: {
    type: string,
    default_value: "",
    read_only: true,
  }
  odom_frame_id: {
    type: string,
    default_value: "odom",
    description: "Name of the frame for odometry.",
    read_only: true,
  }
  base_frame_id: {
    type: string,
    default_value: "base_link",
    read_only: true,
  }
  tf:
    child_frame_id: {type: string, default_value: "base_footprint"}
  __map_joints:
    weight: {type: double, default_value: 1.0}
"""
ROS2_HEADER = """\
#include "steering_controllers_library_params.hpp"
namespace steering_controllers_library
{
class SteeringControllersLibrary : public controller_interface::ChainableControllerInterface
{
protected:
  std::shared_ptr<steering_controllers_library::ParamListener> param_listener_;
  steering_controllers_library::Params params_;

  using ControllerStatePublisherTf = realtime_tools::RealtimePublisher<tf2_msgs::msg::TFMessage>;
  using ControllerStateMsgTf = tf2_msgs::msg::TFMessage;
  rclcpp::Publisher<ControllerStateMsgTf>::SharedPtr tf_odom_s_publisher_;
  std::unique_ptr<ControllerStatePublisherTf> rt_tf_odom_state_publisher_;
  ControllerStateMsgTf tf_odom_state_msg_;
};
}
"""
ROS2_SOURCE = """\
#include "steering_controllers_library/steering_controllers_library.hpp"
namespace steering_controllers_library
{
controller_interface::CallbackReturn SteeringControllersLibrary::on_configure(
  const rclcpp_lifecycle::State & /*previous_state*/)
{
  params_ = param_listener_->get_params();

  std::string tf_prefix = "";
  if (params_.tf_frame_prefix_enable)
  {
    if (params_.tf_frame_prefix != "")
    {
      tf_prefix = params_.tf_frame_prefix;
    }
    else
    {
      tf_prefix = std::string(get_node()->get_namespace());
    }
    if (tf_prefix.back() != '/')
    {
      tf_prefix = tf_prefix + "/";
    }
  }
  const std::string odom_frame_id = tf_prefix + params_.odom_frame_id;
  const std::string base_frame_id = tf_prefix + params_.base_frame_id;

  tf_odom_s_publisher_ = get_node()->create_publisher<ControllerStateMsgTf>(DEFAULT_TRANSFORM_TOPIC, rclcpp::SystemDefaultsQoS());
  rt_tf_odom_state_publisher_ = std::make_unique<ControllerStatePublisherTf>(tf_odom_s_publisher_);

  tf_odom_state_msg_.transforms.resize(2);
  tf_odom_state_msg_.transforms[0].header.frame_id = odom_frame_id;
  tf_odom_state_msg_.transforms[0].child_frame_id = base_frame_id;
  tf_odom_state_msg_.transforms[1].header.frame_id = base_frame_id;
  tf_odom_state_msg_.transforms[1].child_frame_id = params_.tf.child_frame_id;
  return controller_interface::CallbackReturn::SUCCESS;
}

controller_interface::return_type SteeringControllersLibrary::update_and_write_commands(
  const rclcpp::Time & time, const rclcpp::Duration & /*period*/)
{
  if (params_.enable_odom_tf && rt_tf_odom_state_publisher_)
  {
    tf_odom_state_msg_.transforms.front().header.stamp = time;
    tf_odom_state_msg_.transforms.front().transform.translation.x = odometry_.get_x();
    rt_tf_odom_state_publisher_->try_publish(tf_odom_state_msg_);
  }
  return controller_interface::return_type::OK;
}
}
"""


def _ros2(source: str = ROS2_SOURCE, schemas: tuple[str, ...] = (SCHEMA,)) -> list[tuple[str, str]]:
    package = PackageSources(lambda: [source], lambda: list(schemas))
    facts = analyze_cpp(source, "steering_controllers_library/src/steering_controllers_library.cpp", headers=[ROS2_HEADER], package=package)
    # the one finding: this version's tf_prefix is the namespace when no prefix is given, with its leading '/' kept
    # ('/' in the root namespace, so '/odom'), the bug ros2_controllers fixed in #1420 by erasing it
    assert [(f.code, f.level.name, f.location.line if f.location else None) for f in facts.findings] == [
        ("INVALID_FRAME_ID", "WARNING", 25), ("INVALID_FRAME_ID", "WARNING", 26)
    ]
    return [(e.parent, e.child) for e in facts.edges]


def test_ros2_params_from_the_schema_and_a_run_time_tf_prefix() -> None:
    """``params_.<name>`` (and ``params_.tf.child_frame_id``) are the schema's defaults; ``tf_prefix +
    name`` with a prefix computed at run time is the unprefixed name; the message is a class member
    declared through a ``using`` alias and sent by ``try_publish``."""
    assert _ros2() == [("odom", "base_link"), ("base_link", "base_footprint")]


def test_ros2_empty_schema_default_is_unknown_not_an_empty_frame() -> None:
    """pose_broadcaster: ``frame_id: {type: string, default_value: "", validation: {not_empty<>: null}}`` is
    given by the user; the broadcast is then known by one frame only, with no error."""
    schema = SCHEMA.replace('default_value: "odom"', 'default_value: ""')
    assert _ros2(schemas=(schema,)) == [("base_link", "base_footprint")]


def test_ros2_without_a_schema_the_frames_stay_unknown() -> None:
    """No schema: ``params_.odom_frame_id`` is not known, and nothing is made up (no edge, no error)."""
    assert _ros2(schemas=()) == []


def test_get_params_into_a_local_struct() -> None:
    source = ROS2_SOURCE.replace("params_ = param_listener_->get_params();", "auto params = param_listener_->get_params();").replace(
        "params_.odom_frame_id;", "params.odom_frame_id;"
    )
    assert _ros2(source)[0] == ("odom", "base_link")


def test_schema_defaults_flatten_nested_groups_and_skip_mapped_ones() -> None:
    parsed = schema_defaults(SCHEMA)
    assert parsed is not None
    namespace, defaults = parsed
    assert namespace == "steering_controllers_library"
    assert defaults["odom_frame_id"] == "odom" and defaults["tf.child_frame_id"] == "base_footprint"
    assert "tf_frame_prefix_enable" not in defaults  # booleans are no frame names
    assert "tf_frame_prefix" not in defaults  # "": a value the user gives, not a frame name
    assert not any(k.startswith("__") or "weight" in k for k in defaults)
    assert schema_defaults("robot:\n  ros__parameters:\n    odom_frame: odom\n") is None  # a parameter file, not a schema


def test_unknown_prefix_only_for_prefix_names_and_frame_names() -> None:
    assert unknown_prefix("tf_prefix", "odom") and unknown_prefix("this->frame_prefix_", "base_link")
    assert not unknown_prefix("tf_prefix", "/")
    assert not unknown_prefix("namespace_", "odom")


# ros2_controllers admittance_controller/include/admittance_controller/admittance_rule_impl.hpp at 64c00ea (PR #1601)
ADMITTANCE = """\
namespace admittance_controller
{
const control_msgs::msg::AdmittanceControllerState & AdmittanceRule::get_controller_state()
{
  state_message_.admittance_position = tf2::eigenToTransform(admittance_state_.admittance_position);

  state_message_.ref_trans_base_ft.header.frame_id = parameters_.kinematics.base;
  state_message_.ref_trans_base_ft.header.frame_id = "ft_reference";
  state_message_.ref_trans_base_ft = tf2::eigenToTransform(admittance_state_.ref_trans_base_ft);

  Eigen::Quaterniond quat(admittance_state_.rot_base_control);
  state_message_.rot_base_control.w = quat.w();

  return state_message_;
}
}
"""
ADMITTANCE_FIXED = ADMITTANCE.replace(
    """  state_message_.ref_trans_base_ft.header.frame_id = parameters_.kinematics.base;
  state_message_.ref_trans_base_ft.header.frame_id = "ft_reference";
  state_message_.ref_trans_base_ft = tf2::eigenToTransform(admittance_state_.ref_trans_base_ft);
""",
    """  state_message_.ref_trans_base_ft = tf2::eigenToTransform(admittance_state_.ref_trans_base_ft);
  state_message_.ref_trans_base_ft.header.frame_id = parameters_.kinematics.base;
  state_message_.ref_trans_base_ft.child_frame_id = "ft_reference";
""",
)


def test_transform_in_a_message_replaced_by_eigen_to_transform_after_its_frame_was_set() -> None:
    """The frames set before ``tf2::eigenToTransform`` are gone after it (it returns empty frames): warnings at the
    conversion line (the enclosing message is published elsewhere); none once the frames are set after it."""
    path = "admittance_controller/include/admittance_controller/admittance_rule_impl.hpp"
    found = {(f.code, f.severity.name if f.severity else None, f.location.line if f.location else 0) for f in analyze_cpp(ADMITTANCE, path).findings}
    line = _line(ADMITTANCE, "ref_trans_base_ft = tf2::eigenToTransform")
    assert found == {("MISSING_FRAME", "WARNING", line), ("MISSING_CHILD_FRAME", "WARNING", line)}
    # admittance_position was never given a frame in this function: nothing says it should carry one here
    assert analyze_cpp(ADMITTANCE_FIXED, path).findings == []


WG06_HEADER = """\
class WG06 : public WG0X
{
  realtime_tools::RealtimePublisher<geometry_msgs::WrenchStamped> *ft_publisher_;
  realtime_tools::RealtimePublisher<geometry_msgs::WrenchStamped> *framed_publisher_;
};
"""
WG06 = """\
WG06::WG06() : ft_publisher_(NULL), framed_publisher_(NULL) {}

void WG06::initializeFT()
{
  ft_publisher_ = new realtime_tools::RealtimePublisher<geometry_msgs::WrenchStamped>(ros::NodeHandle(), topic, 1);
  framed_publisher_ = new realtime_tools::RealtimePublisher<geometry_msgs::WrenchStamped>(ros::NodeHandle(), topic, 1);
  framed_publisher_->msg_.header.frame_id = ft_frame_;
}

bool WG06::unpackFT(WG06StatusWithAccelAndFT *status, WG06StatusWithAccelAndFT *last_status)
{
  unsigned new_samples = (unsigned(status->ft_sample_count_) - unsigned(last_status->ft_sample_count_)) & 0xFF;
  if ((new_samples > 0) && (ft_publisher_ != NULL) && (ft_publisher_->trylock()))
  {
    ft_publisher_->msg_.header.stamp = current_time;
    ft_publisher_->msg_.wrench = ft_state.samples_[new_samples - 1];
    ft_publisher_->unlockAndPublish();
  }
  if (framed_publisher_->trylock())
  {
    framed_publisher_->msg_.header.stamp = current_time;
    framed_publisher_->unlockAndPublish();
  }
  return true;
}
"""


def test_a_member_realtime_publishers_message_whose_frame_nothing_sets() -> None:
    # pr2_ethercat_drivers' wg06 before PR #73: the WrenchStamped goes out with a stamp only (a warning: another
    # file of the class could set it); `(unsigned(a) - unsigned(b))` no longer breaks the function for tree-sitter
    facts = analyze_cpp(WG06, "src/wg06.cpp", headers=[WG06_HEADER])
    assert [(f.code, f.level.value, f.location and f.location.line) for f in facts.findings] == [("MISSING_FRAME", "warning", 17)]
    assert facts.notes == []
