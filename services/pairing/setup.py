"""Build the compiled parts of the fast Dutch engine, an adapter (its per-pair loops and its
blossom matching); all metadata lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import setup

setup(
    ext_modules=cythonize(
        [
            "src/pairing/adapters/dutch/_dutch_core.pyx",
            "src/pairing/adapters/dutch/_blossom.pyx",
            "src/pairing/adapters/dutch/_blossom_wide.pyx",
        ],
        language_level=3,
    )
)
