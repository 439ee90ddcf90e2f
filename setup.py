"""Package layout: engine/ and editor/ as packages, schemas/ and sample_missions/ shipped inside engine.

With HULKFORGE_COMPILE=1 the engine's hot modules (engine/compiled.py) are compiled with mypyc as well: the same
games, faster (docs/speed.md). The build backend (packaging/backend) decides: it compiles a normal install when the
machine can, brings mypy into that build and sets the variable for it.
"""

import os
import runpy

from setuptools import find_packages, setup


def _ext_modules() -> list:
    if os.environ.get("HULKFORGE_COMPILE", "") != "1":
        return []
    from mypyc.build import mypycify

    # Read as a file: the engine package itself is not importable while it is being built.
    modules = runpy.run_path(os.path.join("engine", "compiled.py"))["MODULES"]
    return mypycify([name.replace(".", "/") + ".py" for name in modules], opt_level="3")


setup(
    packages=[
        *find_packages(include=["engine", "engine.*", "editor", "editor.*"]),
        "engine._schemas",
        "engine._samples",
    ],
    package_dir={"engine._schemas": "schemas", "engine._samples": "sample_missions"},
    package_data={"engine._schemas": ["*.json"], "engine._samples": ["*.json"], "editor": ["resources/*"]},
    ext_modules=_ext_modules(),
)
