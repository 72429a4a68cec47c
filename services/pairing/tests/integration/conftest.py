import os
import sys

# pytest runs with --import-mode=importlib, so make the shared test helpers importable.
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
