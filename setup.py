"""Package layout: engine/ and editor/ as packages, schemas/ and sample_missions/ shipped inside engine."""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["engine", "engine.*", "editor", "editor.*"]),
        "engine._schemas",
        "engine._samples",
    ],
    package_dir={"engine._schemas": "schemas", "engine._samples": "sample_missions"},
    package_data={"engine._schemas": ["*.json"], "engine._samples": ["*.json"], "editor": ["resources/*"]},
)
