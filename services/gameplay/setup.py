"""Build the Cython rules core; all metadata lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import setup

setup(
    ext_modules=cythonize(
        ["src/gameplay/engine/_core.pyx"],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
