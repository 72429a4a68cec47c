"""One use-case shape in registration (issue 31): every command of ``service_layer/commands.py``
has one handler in ``service_layer/handlers.py``'s table, each taking (command, unit of work, what
it runs on: the event locked and loaded, or the service's state), and the entrypoints change
state only through ``handlers.handle``; no route is given its signature at run time."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

from registration.service_layer import commands, handlers

ENTRYPOINTS = Path(handlers.__file__).resolve().parents[1] / "entrypoints"
#: the service-layer functions the handlers run (the routes and consumers reach them through
#: ``handlers.handle`` only), by module
WRITING_FUNCTIONS = {
    ("owners", "choose_partners"),
    ("entries", "register_player"),
    ("entries", "register_bulk"),
    ("entries", "register_team"),
    ("entries", "withdraw"),
    ("entries", "review"),
    ("evidence", "correct_facts"),
    ("evidence", "upload_evidence"),
    ("evidence", "decide_evidence"),
    ("changes", "request_change_cmd"),
    ("changes", "decide_change_cmd"),
    ("units", "add_unit"),
    ("units", "add_official"),
    ("exemptions", "load_list"),
    ("stages", "check_in"),
    ("stages", "post_seeded"),
    ("stages", "on_qualifiers_selected"),
    ("closing", "close_stage_cmd"),
    ("fees", "record_line"),
    ("fees", "announce_fee"),
    ("fees", "confirm_paid"),
    ("fees", "request_refund"),
    ("fees", "decide_refund_cmd"),
    ("fees", "on_appeal"),
    ("public_entries", "reissue"),
    ("delegation_door", "reissue"),
    ("events", "create_event"),
    ("schedule", "on_round_rescheduled"),
    ("seeding", "on_ratings_published"),
}
#: Not yet converted (issue 31): entrypoints that still hand a service-layer write of their own to
#: a runner (``access.command`` / ``access.run`` / ``public_api.on_event``), file -> how many call
#: sites; may only go down. The public form and the delegation door (no credential, no
#: Idempotency-Key; public_api's count includes ``on_event`` itself), documents (multipart) and the
#: registry of people (no event).
NOT_YET_CONVERTED = {
    "delegation_api.py": 3,
    "delegation_documents.py": 1,
    "document_routes.py": 1,
    "public_api.py": 2,
    "registrant_documents.py": 1,
    "registry_routes.py": 1,
}
#: the runners a not-yet-converted route calls with its own use case
RUNNERS = {"command", "run", "on_event"}


def _command_types() -> set[type]:
    return {
        value
        for value in vars(commands).values()
        if inspect.isclass(value) and dataclasses.is_dataclass(value) and value.__module__ == commands.__name__
    }


def test_every_command_has_one_handler_of_the_one_shape():
    assert len(_command_types()) >= 29
    assert set(handlers.HANDLERS) == _command_types()
    for command_type, handler in handlers.HANDLERS.items():
        parameters = list(inspect.signature(handler).parameters.values())
        assert len(parameters) == 3, handler.__name__
        assert parameters[0].annotation in (command_type.__name__, command_type), handler.__name__
        assert parameters[1].annotation == "RegistrationUnitOfWork", handler.__name__
        on_event = command_type in commands.EVENT_COMMANDS
        assert parameters[2].annotation == ("EventCommand" if on_event else "RegistrationState"), handler.__name__


def test_every_command_on_an_event_names_it():
    for command_type in commands.EVENT_COMMANDS:
        assert [field.name for field in dataclasses.fields(command_type)][0] == "event_code", command_type


def _calls(path: Path) -> list[tuple[int, str]]:
    """Each ``module.function`` attribute and each bare call of a runner in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RUNNERS:
            found.append((node.lineno, node.func.id))
    return found


def test_entrypoints_change_state_through_the_handlers_only():
    writers = {f"{module}.{name}" for module, name in WRITING_FUNCTIONS}
    found = [
        f"{path.name}:{line} {name}"
        for path in sorted(ENTRYPOINTS.glob("*.py"))
        for line, name in _calls(path)
        if name in writers
    ]
    assert not found, found


def test_the_routes_not_yet_converted_only_shrink():
    counts = {
        path.name: sum(1 for _line, name in _calls(path) if name in RUNNERS)
        for path in sorted(ENTRYPOINTS.glob("*.py"))
        if path.name != "access.py"
    }
    grown = {name: n for name, n in counts.items() if n > NOT_YET_CONVERTED.get(name, 0)}
    assert not grown, f"run a new write through handlers.handle (Call.run): {grown}"
    shrunk = {name: n for name, n in counts.items() if name in NOT_YET_CONVERTED and n < NOT_YET_CONVERTED[name]}
    assert not shrunk, f"fewer left: lower NOT_YET_CONVERTED to {shrunk}"


def test_no_route_is_given_its_signature_at_run_time():
    package = ENTRYPOINTS.parent
    found = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for marker in ("__signature__", "inspect.Signature", "inspect.Parameter", "makefun", "create_model"):
            if marker in text:
                found.append(f"{path.relative_to(package)}: {marker}")
    assert not found, found
