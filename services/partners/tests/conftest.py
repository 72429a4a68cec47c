import os
import sys

# the tests' helpers (partners_kit) sit beside this file
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
