"""The pairing domain's public names, imported on first use (``pairing/domain/__init__.py``):
the names type checkers see are the names served, each is its module's object, and importing
the package imports none of its modules (a pairing process loads only what it pairs with)."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pairing.domain as domain


def test_type_checking_imports_are_the_lazy_exports():
    tree = ast.parse(Path(domain.__file__).read_text(encoding="utf-8"))
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {
        alias.name: node.module for node in guarded.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert seen == domain._EXPORTS
    assert sorted(domain.__all__) == sorted(seen)


def test_every_export_is_its_modules_object():
    for name, module in domain._EXPORTS.items():
        assert getattr(domain, name) is getattr(importlib.import_module(f"pairing.domain.{module}"), name)
    assert "pair_swiss_round" in dir(domain)


def test_importing_the_package_imports_no_module_of_it():
    code = "import sys, pairing.domain; print(sorted(m for m in sys.modules if m.startswith('pairing.domain.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    star = "from pairing.domain import *; print(callable(pair_swiss_round), Code.WIN.value)"
    done = subprocess.run([sys.executable, "-c", star], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True 1"
