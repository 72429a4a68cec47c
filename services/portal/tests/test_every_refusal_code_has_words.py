"""Issue 28: every refusal code any service can answer has words in Chinese and English in the
console, and the console shows those words, never the service's English message.

There is no single table of the codes: each service raises its refusals where they happen
(``ServiceError`` and its kinds, the domains' ``RuleRefused``/``GameRefusal``/``IllegalAction``
families, ``error_body`` in the web layer, the web layer's status → code table). The codes are
collected here from the services' and the shared library's source, so a new code without words
fails this test."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

from portal import i18n
from portal.staff_pages import refusal

ROOT = Path(__file__).resolve().parents[3]
#: the callables that carry a refusal's code as their first argument (or ``code=``)
REFUSAL_CALL = re.compile(
    r"(Error|Refused|Refusal|Conflict|NotFound|Unprocessable|Forbidden|Action|Mismatch|Reused|Unauthorized|Limited"
    r"|NotPermitted)$|^error_body$"
)
#: Python's own exceptions: their first argument is a message, not a code
BUILTIN = frozenset(name for name in dir(__builtins__) if name.endswith("Error")) | {
    "ValueError",
    "TypeError",
    "RuntimeError",
    "AssertionError",
    "KeyError",
    "LookupError",
    "NotImplementedError",
    "OSError",
}
CODE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")


def _sources() -> list[Path]:
    roots = [ROOT / "shared" / "src", *sorted((ROOT / "services").glob("*/src"))]
    return [f for root in roots if root.parent.name != "portal" for f in sorted(root.rglob("*.py"))]


def _callee(node: ast.Call) -> str:
    fn = node.func
    return fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""


def collected_codes() -> dict[str, str]:
    """Every literal refusal code in the services' source, with where it is raised first."""
    codes: dict[str, str] = {}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found: list[ast.expr] = []
            if isinstance(node, ast.Call) and _callee(node) not in BUILTIN and REFUSAL_CALL.search(_callee(node)):
                found = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "code")]
            elif (
                isinstance(node, ast.Dict)
                and node.keys
                and all(
                    isinstance(k, ast.Constant) and isinstance(k.value, int) and 400 <= k.value < 600 for k in node.keys
                )
            ):  # a status → code table (the web layer's answers to HTTP errors)
                found = list(node.values)
            for arg in found:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.match(arg.value):
                    codes.setdefault(arg.value, f"{path.relative_to(ROOT)}:{arg.lineno}")
    return codes


CODES = collected_codes()


def test_issue28_the_collection_finds_the_codes_of_every_service():
    """The scan is not empty by accident: codes of each service and of the web layer are found."""
    for code in (
        "stale_revision",  # pairing
        "wrong_fee",  # pairing's appeals (AWD-10)
        "unknown_entry",  # registration
        "slip_mismatch",  # gameplay (PLAY-9)
        "occupied",  # gameplay's engine
        "honour_full",  # awards (AWD-9)
        "partner_exists",  # partners
        "forbidden_role",  # the shared auth
        "method_not_allowed",  # the web layer's status table
        "validation_error",  # the web layer
    ):
        assert code in CODES, code
    assert len(CODES) > 150, len(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_issue28_every_refusal_code_has_words_in_chinese_and_english(code):
    """A code a service answers (raised where ``CODES[code]`` says) has a sentence in each language."""
    assert i18n.known(f"refusal.{code}"), f"no words for refusal.{code} (raised at {CODES[code]})"
    zh, en = i18n.Words("zh").t(f"refusal.{code}"), i18n.Words("en").t(f"refusal.{code}")
    assert zh != en and "—" not in (zh, en)
    assert re.search(r"[\u4e00-\u9fff]", zh), zh  # Chinese words on the Chinese page
    assert not re.search(r"[\u4e00-\u9fff]", en), en  # and none on the English one
    if "_" in code:  # the words, not the code ("forbidden" or "occupied" may be a word)
        assert code not in zh and code not in en


class _Site:
    def words(self, request: Any) -> i18n.Words:
        return i18n.Words(request)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("status", [403, 404, 409, 422])
def test_issue28_the_console_shows_the_words_never_the_services_message(lang, status):
    """Each code's refusal as the console says it: its words, with nothing of the service's own
    English message (which names ids and fields for programmers)."""
    message = "no pairing 'r3.b3' in round 3 of 'open' (ServiceMessage)"
    for code in sorted(CODES):
        # the details a code's words name (e.g. {entrants}) as the service sends them, and an id
        fields = {f for _, f, _, _ in Formatter().parse(i18n.Words(lang).t(f"refusal.{code}")) if f}
        details = {"pairing_id": "r3.b3", **dict.fromkeys(fields, 2)}
        body = {"error": {"code": code, "message": message, "details": details}}
        said = refusal(_Site(), lang, status, body)  # type: ignore[arg-type]
        assert said["detail"] == "" and "ServiceMessage" not in said["text"] and "r3.b3" not in said["text"], code
        assert said["text"] and "—" != said["text"] and "{" not in said["text"], code


def test_issue28_forbidden_is_a_role_refusal_at_403_and_a_forbidden_move_otherwise():
    """The web layer answers 403 ``forbidden``; the game engine's ``forbidden`` is black's
    forbidden move (RULE: 禁手): one code, two meanings, told apart by the status."""
    body = {"error": {"code": "forbidden", "message": "Forbidden"}}
    assert refusal(_Site(), "zh", 403, body)["text"] == i18n.Words("zh").t("refusal.forbidden_role")  # type: ignore[arg-type]
    assert "禁手" in refusal(_Site(), "zh", 409, body)["text"]  # type: ignore[arg-type]
