"""One use-case shape in every converted service (issue 31), as in cosmicpython: the commands are
plain frozen dataclasses in ``service_layer/commands.py``; ``service_layer/handlers.py`` holds ONE
table, ``HANDLERS``, with one handler per command taking (command, unit of work, …) and a
``handle`` that runs one; the entrypoints change state only through ``handle``.

A service is converted by adding one line to ``SHAPES``."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class Shape:
    service: str
    #: the annotation of every handler's second parameter
    unit_of_work: str
    #: how many commands the service has at least (a table that lost its commands fails)
    commands: int
    #: service-layer modules whose functions change state: reached through the handlers only
    writers: frozenset[str]
    #: (module, function) of mixed modules that change state (the rest are reads and forms)
    writing_functions: frozenset[tuple[str, str]] = frozenset()
    #: attributes that reach past the handlers to the objects doing the writes
    past_the_handlers: frozenset[str] = frozenset()


#: the methods of partners' service objects that change state (each takes the handler's units)
PARTNERS_WRITING_METHODS = frozenset(
    {
        *("create_partner", "update_partner", "issue_credential", "rotate_credential", "revoke_credential"),
        *("issue_token", "rotate_signing_key", "suspend", "resume", "disable", "enable", "create", "invite"),
        *("reset_password", "accept", "set_roles", "set_disabled", "sign_in", "refresh", "sign_out"),
        *("sign_out_everywhere", "totp_start", "totp_confirm", "subscribe", "unsubscribe", "rotate_secret"),
        *("redeliver", "on_event", "on_access_changed"),
    }
)

#: registration's service-layer functions the handlers run (the routes and consumers reach them
#: through ``handlers.handle`` only), by module; test_registration_use_case_shape.py checks more
REGISTRATION_WRITING_FUNCTIONS = frozenset(
    {
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
        ("registry_staff", "merge"),
        ("registry_staff", "split"),
        ("registry_staff", "correct"),
        ("registry_staff", "export"),
        ("public_entries", "enter"),
        ("delegation_door", "start"),
        ("delegation_door", "submit"),
        ("documents", "add_document"),
        ("delegation_documents", "add_unit_document"),
    }
)

SHAPES = (
    Shape(
        "pairing",
        "PairingUnitOfWork",
        13,
        frozenset({"arbiter", "lifecycle", "ties"}),
        frozenset(
            {("appeals", "lodge"), ("appeals", "decide"), ("schedule", "delay_round"), ("schedule", "delay_slot")}
        ),
    ),
    Shape(
        "gameplay",
        "Units",
        14,
        frozenset(
            {"actions", "sweeper", "over_the_board", "creation", "arbiter_decisions", "rescheduling", "finishing"}
        ),
        past_the_handlers=frozenset({"jobs"}),
    ),
    Shape(
        "awards",
        "AwardsUnitOfWork",
        9,
        frozenset({"section_publication", "registry_changes", "title_ladder"}),
        frozenset(
            {
                ("publishing", "publish_section"),
                ("honours", "record"),
                ("honours", "revoke"),
                ("season", "on_owner_changed"),
            }
        ),
    ),
    # the service objects mix reads and writes: their writing methods, reached on any object
    # handlers take (command, unit of work, the event locked and loaded or the service's state)
    Shape("registration", "RegistrationUnitOfWork", 29, frozenset(), REGISTRATION_WRITING_FUNCTIONS),
    Shape("partners", "Units", 30, frozenset(), past_the_handlers=PARTNERS_WRITING_METHODS),
)
IDS = [shape.service for shape in SHAPES]


def _modules(shape: Shape) -> tuple[ModuleType, ModuleType]:
    package = f"{shape.service}.service_layer"
    return importlib.import_module(f"{package}.commands"), importlib.import_module(f"{package}.handlers")


def _command_types(commands: ModuleType) -> set[type]:
    return {
        value
        for value in vars(commands).values()
        if inspect.isclass(value) and dataclasses.is_dataclass(value) and value.__module__ == commands.__name__
    }


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_every_command_has_one_handler_of_the_one_shape(shape: Shape):
    commands, handlers = _modules(shape)
    command_types = _command_types(commands)
    assert len(command_types) >= shape.commands
    assert set(handlers.HANDLERS) == command_types
    assert callable(handlers.handle)
    for command_type, handler in handlers.HANDLERS.items():
        assert command_type.__dataclass_params__.frozen, f"{command_type.__name__} is not frozen"  # type: ignore[attr-defined]
        parameters = list(inspect.signature(handler).parameters.values())
        assert len(parameters) == len(inspect.signature(handlers.handle).parameters), handler.__name__
        assert parameters[0].annotation in (command_type.__name__, command_type), handler.__name__
        assert parameters[1].annotation == shape.unit_of_work, handler.__name__


def offences(path: Path, shape: Shape) -> list[str]:
    """Each import of a writer module or of a writing function, and each reach for a writing
    function (under any alias of its module) or past the handlers, in ``path``."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # a name bound in the module -> the service-layer module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and "service_layer" in (node.module or ""):
            module = (node.module or "").split(".")[-1]
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
                if module in shape.writers or alias.name in shape.writers:
                    found.append(f"{path.name}:{node.lineno} imports {module}.{alias.name}")
                elif (module, alias.name) in shape.writing_functions:
                    found.append(f"{path.name}:{node.lineno} imports {module}.{alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name):
                module = aliases.get(node.value.id, node.value.id)
                if module in shape.writers or (module, node.attr) in shape.writing_functions:
                    found.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
            if node.attr in shape.past_the_handlers:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return found


def test_the_walker_sees_writes_past_the_handlers(tmp_path):
    """The check itself: writer imports, writer calls and reaches past the handlers are caught."""
    sample = tmp_path / "routes.py"
    sample.write_text(
        "from ..service_layer import actions\nfrom ..service_layer.sweeper import Sweeper\n"
        "from ..service_layer.commands import Act\nfrom ..service_layer import views, appeals as service\n"
        "async def f(games):\n    await actions.act(1)\n    await games.jobs.sweeper.sweep()\n"
        "    await games.handle(Act())\n    await views.view(1)\n    await service.lodge(1)\n"
        "    service.form(1)\nfrom ..service_layer.appeals import lodge, form\n",
        encoding="utf-8",
    )
    shape = Shape(
        "svc", "Units", 0, frozenset({"actions", "sweeper"}), frozenset({("appeals", "lodge")}), frozenset({"jobs"})
    )
    lines = sorted(int(found.split(":")[1].split()[0]) for found in offences(sample, shape))
    assert lines == [1, 2, 6, 7, 10, 12]


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_entrypoints_change_state_through_the_handlers_only(shape: Shape):
    entrypoints = ROOT / "services" / shape.service / "src" / shape.service / "entrypoints"
    found = [offence for path in sorted(entrypoints.glob("*.py")) for offence in offences(path, shape)]
    assert not found, found
