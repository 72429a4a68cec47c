"""One use-case shape in pairing (issue 31): every command of ``service_layer/commands.py`` has
one handler in ``service_layer/handlers.py``'s table, each taking (command, unit of work, pairer),
and the entrypoints change state only through ``handlers.handle``."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

from pairing.service_layer import commands, handlers

ENTRYPOINTS = Path(handlers.__file__).resolve().parents[1] / "entrypoints"
#: the service-layer modules whose functions change state: reached through the handlers only
WRITERS = {"arbiter", "lifecycle", "ties"}
#: functions of mixed modules that change state (the rest of those modules are reads and forms)
WRITING_FUNCTIONS = {
    ("appeals", "lodge"),
    ("appeals", "decide"),
    ("schedule", "delay_round"),
    ("schedule", "delay_slot"),
}


def _command_types() -> set[type]:
    return {
        value
        for value in vars(commands).values()
        if inspect.isclass(value) and dataclasses.is_dataclass(value) and value.__module__ == commands.__name__
    }


def test_every_command_has_one_handler_of_the_one_shape():
    assert len(_command_types()) >= 13
    assert set(handlers.HANDLERS) == _command_types()
    for command_type, handler in handlers.HANDLERS.items():
        parameters = list(inspect.signature(handler).parameters.values())
        assert len(parameters) == 3, handler.__name__
        assert parameters[0].annotation in (command_type.__name__, command_type), handler.__name__
        assert parameters[1].annotation == "PairingUnitOfWork", handler.__name__


def test_entrypoints_change_state_through_the_handlers_only():
    found = []
    for path in sorted(ENTRYPOINTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("service_layer"):
                modules = {(node.module or "").split(".")[-1], *(alias.name for alias in node.names)}
                if modules & WRITERS:
                    found.append(f"{path.name}:{node.lineno} imports {sorted(modules & WRITERS)}")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in WRITERS or (node.value.id, node.attr) in WRITING_FUNCTIONS:
                    found.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
    assert not found, found
