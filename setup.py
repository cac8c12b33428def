"""ament_python package; also a plain pip-installable Python package (no ROS needed for scan/replay)."""

from glob import glob

from setuptools import find_namespace_packages, setup

package_name = "physframe_ros"

setup(
    name=package_name,
    version="0.1.0",
    # namespace packages: the data folders (examples/, report/) are listed too, so setuptools installs
    # them without its "package would be ignored" warnings (colcon's "stderr output")
    packages=find_namespace_packages(include=[package_name, package_name + ".*"]),
    package_data={package_name: ["examples/**/*", "report/*.css", "report/*.js"]},
    include_package_data=True,
    data_files=[
        ("share/ament_index/resource_index/packages", ["resource/" + package_name]),
        ("share/" + package_name, ["package.xml"]),
        ("share/" + package_name + "/launch", glob("launch/*.launch.py")),
        ("share/" + package_name + "/config", glob("config/*.yaml")),
    ],
    python_requires=">=3.10",
    install_requires=["setuptools", "pyyaml", "numpy"],
    extras_require={
        "scan": ["xacro", "tree-sitter", "tree-sitter-cpp"],
        "replay": ["rosbags"],
        "pdf": ["cairosvg"],
        "test": ["pytest", "hypothesis", "transforms3d", "rosbags", "cairosvg", "xacro", "tree-sitter", "tree-sitter-cpp", "mypy", "ruff"],
    },
    zip_safe=True,
    maintainer="physframe developers",
    maintainer_email="dev@physframe.invalid",
    description="Finds physical frame-of-reference bugs in ROS robots: live, in bags, and in source.",
    license="Apache-2.0",
    entry_points={
        "console_scripts": [
            "physframe = physframe_ros.cli:main",
            "monitor = physframe_ros.node.monitor:main",
        ],
    },
)
