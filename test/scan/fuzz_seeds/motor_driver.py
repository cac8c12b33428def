import math
from geometry_msgs.msg import TransformStamped, Vector3Stamped


class Driver:
    def quaternion_from_euler(self, roll, pitch, yaw):
        cy = math.cos(yaw * 0.5)
        sy = math.sin(yaw * 0.5)
        cp = math.cos(pitch * 0.5)
        sp = math.sin(pitch * 0.5)
        cr = math.cos(roll * 0.5)
        sr = math.sin(roll * 0.5)
        q = [0] * 4
        q[0] = cy * cp * cr + sy * sp * sr
        q[1] = cy * cp * sr - sy * sp * cr
        q[2] = sy * cp * sr + cy * sp * cr
        q[3] = sy * cp * cr - cy * sp * sr
        return q

    def publish(self, x, y, theta, data):
        t = TransformStamped()
        t.header.frame_id = "odom"
        t.child_frame_id = "base_footprint"
        rotation = self.quaternion_from_euler(0, 0, theta)
        t.transform.rotation.x = rotation[0]
        t.transform.rotation.y = rotation[1]
        t.transform.rotation.z = rotation[2]
        t.transform.rotation.w = rotation[3]
        self.br.sendTransform(t)
        self.imu.angular_velocity.x = math.radians(data['GYRO'][1])
        self.imu.angular_velocity.y = math.radians(data['GYRO'][0])
        self.imu.angular_velocity.z = -math.radians(data['GYRO'][2])
        self.rpy = Vector3Stamped()
        self.rpy.header = self.imu.header
        self.rpy.vector.x = data['RPY'][0]
        self.rpy.vector.y = data['RPY'][1]
        self.rpy.vector.z = data['RPY'][2]
        if self.use_enu:
            self.imu.orientation.x = data['Q'][2]
            self.imu.orientation.y = data['Q'][1]
            self.imu.orientation.z = -data['Q'][3]
            self.imu.orientation.w = data['Q'][0]
