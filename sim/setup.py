"""Build the compiled bot strategy; all metadata lives in pyproject.toml."""

import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

# The heuristic's key value * (1.0 + noise * r) must round exactly as Python's does: no fused
# multiply-add contraction (the compiled and the reference bots must rank the same points).
FLAGS = [] if sys.platform == "win32" else ["-ffp-contract=off"]

setup(
    ext_modules=cythonize(
        [Extension("gomoku_sim._strategy_core", ["src/gomoku_sim/_strategy_core.pyx"], extra_compile_args=FLAGS)],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
