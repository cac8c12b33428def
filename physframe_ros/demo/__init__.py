"""The bundled demo: a simulated robot publishing TF over DDS, with injected faults (robot.py is ROS-free)."""
