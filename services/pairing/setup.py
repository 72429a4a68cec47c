"""Build the compiled loops of the fast Dutch engine; all metadata lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import setup

setup(ext_modules=cythonize(["src/pairing/domain/_dutch_core.pyx"], language_level=3))
