# Idioms of the Python walker for the fuzzer to mutate: w-first quaternions from the transformations module,
# an aliased import, a member message published by a callback, code after an early return.
import rospy
import transformations
from transforms3d.euler import euler2quat as quaternion_from_euler
from geometry_msgs.msg import PointStamped, Quaternion
from nav_msgs.msg import Odometry


class Node:
    def __init__(self):
        self._odom_msg = Odometry()
        self._odom_msg.header.frame_id = 'odom'
        self._pub = rospy.Publisher('odom', Odometry, queue_size=1)

    def stub(self):
        return PointStamped(), PointStamped()
        p = PointStamped()
        p.header.frame_id = 'map'
        return p, p

    def tick(self, T, roll):
        q = transformations.quaternion_from_matrix(T)
        self._odom_msg.pose.pose.orientation = Quaternion(x=q[0], y=q[1], z=q[2], w=q[3])
        e = quaternion_from_euler(roll, 0.0, 0.0)
        a, b = self.stub()
        self._pub.publish(self._odom_msg)
        self._pub.publish(a)
