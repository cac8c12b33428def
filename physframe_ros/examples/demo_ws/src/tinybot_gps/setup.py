from setuptools import find_packages, setup

setup(
    name="tinybot_gps",
    version="0.1.0",
    packages=find_packages(),
    data_files=[("share/ament_index/resource_index/packages", ["resource/tinybot_gps"]), ("share/tinybot_gps", ["package.xml"])],
    install_requires=["setuptools"],
    entry_points={"console_scripts": ["gps_node = tinybot_gps.gps_node:main"]},
)
