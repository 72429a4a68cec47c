"""docs/rules.md, the index of rule ids, is what tools/rules_index.py builds from the repository
today (issue 31): a rule, a seed clause or a test naming a rule added without regenerating the
index fails here. Regenerate with ``.venv/bin/python tools/rules_index.py``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_index", ROOT / "tools/rules_index.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_tool()


@pytest.fixture(scope="module")
def rules(tool: ModuleType) -> dict[str, Any]:
    """The index's rules, read from the repository once for this module."""
    return tool.collect()


def test_docs_rules_md_is_up_to_date(tool, rules):
    expected = tool.render(rules)
    current = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    assert current == expected, "docs/rules.md is stale: run .venv/bin/python tools/rules_index.py"


def test_every_rule_family_has_an_owner_and_named_tests(rules):
    """Each rule cited has at least one test naming it, and the index lists every family."""
    assert {rule.split("-")[0] for rule in rules} == {"EVT", "REG", "PAIR", "PLAY", "AWD"}
    assert [rule for rule, entry in rules.items() if not entry.tests] == []


def test_a_test_names_a_rule_by_its_name_or_docstring(tool):
    source = '''"""PAIR-3: round robin."""
def test_reg14_fees_in_time():
    pass
def test_other():
    """AWD-4: prize money (DA 九(四))."""
'''
    assert sorted(tool._tests_naming(Path("x/tests/test_x.py"), source)) == ["AWD-4", "PAIR-3", "REG-14"]
    assert tool.clauses_in("AWD-4: prize money (DA 九(四)), NY 十(一)3 and NT 时间") == ["DA 九(四)", "NY 十(一)3"]
