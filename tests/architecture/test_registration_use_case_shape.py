"""One use-case shape in registration (issue 31): every command of ``service_layer/commands.py``
has one handler in ``service_layer/handlers.py``'s table, each taking (command, unit of work, what
it runs on: the event locked and loaded, or the service's state), and the entrypoints change
state only through ``handlers.handle`` (checked with the other services' in
``test_use_case_shape.py``, whose ``REGISTRATION_WRITING_FUNCTIONS`` lists the functions); no
route is given its signature at run time; the HTTP bodies live in the entrypoints, the service layer takes their plain forms."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

from pydantic import BaseModel

from registration.entrypoints import registry_schemas, roster_schemas, schemas
from registration.service_layer import commands, forms, handlers

ENTRYPOINTS = Path(handlers.__file__).resolve().parents[1] / "entrypoints"
#: what runs a command in its transaction: ``access.run`` / ``Call.run`` (keyed), ``public_api.on_event`` (the doors)
RUNNERS = {"run", "on_event"}


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


def test_a_runner_is_handed_a_command_not_a_use_case_of_its_own():
    """The runners take a command (``handlers.handle`` runs it), never a function to run."""
    found = []
    for path in sorted(ENTRYPOINTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in RUNNERS and any(isinstance(arg, ast.Lambda) for arg in node.args):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found


def test_no_route_is_given_its_signature_at_run_time():
    package = ENTRYPOINTS.parent
    found = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for marker in (
            "__signature__",
            "__annotations__",
            "inspect.Signature",
            "inspect.Parameter",
            "makefun",
            "create_model",
        ):
            if marker in text:
                found.append(f"{path.relative_to(package)}: {marker}")
    assert not found, found


def _bodies() -> list[type[BaseModel]]:
    return [
        value
        for module in (schemas, roster_schemas, registry_schemas)
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BaseModel)
        and not name.startswith("_")
        and value.__module__ == module.__name__
    ]


def test_the_service_layer_takes_plain_forms_not_http_bodies():
    """Every body has the form of its name with the same fields; nothing in the service layer
    imports pydantic (its constraints are the edge's)."""
    assert len(_bodies()) >= 40
    for body in _bodies():
        form_type = getattr(forms, body.__name__)
        assert dataclasses.is_dataclass(form_type), body
        assert {f.name for f in dataclasses.fields(form_type)} == set(body.model_fields), body
    service_layer = Path(forms.__file__).parent
    assert not [p.name for p in service_layer.glob("*.py") if "pydantic" in p.read_text(encoding="utf-8")]


def test_a_body_becomes_its_form_nested_bodies_too():
    body = schemas.TeamIn(
        section_id="s",
        unit="u",
        members=[
            {
                "name": "A",
                "gender": "male",
                "birth_date": "2010-01-02",
                "board": 1,
                "evidence": [{"kind": "student_status", "document_ref": "d"}],
            }
        ],
    )
    team = schemas.form(body, forms.TeamIn)
    assert isinstance(team.members[0], forms.MemberIn) and isinstance(team.members[0].evidence[0], forms.EvidenceIn)
    assert team.members[0].board == 1 and team.insurance == forms.InsuranceIn()
    close = schemas.form(schemas.CloseIn(format_choices={"s": {"kind": "swiss", "rounds": 7}}), forms.CloseIn)
    assert close.format_choices == {"s": forms.FormatChoiceIn("swiss", 7)}
    overrides = {"stages": {"online": {"sections": {"men": {"cap": 1}}}}, "waiting_list": True}
    event = schemas.form(schemas.EventIn(preset_id="sz-2022", event_code="e", overrides=overrides), forms.EventIn)
    assert event.overrides == overrides  # what the form leaves open is kept as it is
