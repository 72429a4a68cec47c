"""The hand-written records (``pairing.domain.frozen``) behave as the frozen dataclasses of their
own annotations and defaults, and gacrux's JSON output encodes as before without json imported
at gacrux's import (ADR 0013, the pairing-engine process)."""

from __future__ import annotations

import copy
import dataclasses
import decimal
import inspect
import json
import pickle

import pytest

from pairing.domain import model, swiss
from pairing.domain.frozen import NEW_DICT, Record, replace
from pairing.domain.gacrux_import import JSONEncoderOnFirstUse

RECORDS = [
    model.PointSystem,
    model.RoundEntry,
    model.Player,
    model.ForbiddenGroup,
    model.Tournament,
    model.Board,
    model.RoundPairing,
    swiss.ByeRules,
]


def _reference(cls: type) -> type:
    """The frozen dataclass of ``cls``'s annotations, with its class-level defaults."""
    specs = []
    for name, kind in cls.__annotations__.items():
        default = cls.__dict__.get(name, dataclasses.MISSING)
        if default is NEW_DICT:
            specs.append((name, kind, dataclasses.field(default_factory=dict)))
        elif default is dataclasses.MISSING:
            specs.append((name, kind))
        else:
            specs.append((name, kind, dataclasses.field(default=default)))
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=True)


def _values(cls: type, tag: str) -> list[str]:
    return [f"{tag}{index}" for index in range(len(cls.__annotations__))]


def test_every_record_of_the_pairing_path_is_listed():
    defined = {cls for cls in Record.__subclasses__() if cls.__module__.startswith("pairing.domain")}
    assert defined == set(RECORDS)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_init_takes_the_fields_in_order_with_their_defaults(cls):
    reference = _reference(cls)
    assert list(inspect.signature(cls).parameters) == list(cls.__annotations__) == list(cls._fields)
    required = [
        name
        for name, field in reference.__dataclass_fields__.items()
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
    ]
    values = dict(zip(required, _values(cls, "r")))
    ours, theirs = cls(**values), reference(**values)
    assert [getattr(ours, name) for name in cls._fields] == [getattr(theirs, name) for name in cls._fields]
    assert repr(ours) == repr(theirs).replace(reference.__qualname__, cls.__qualname__, 1)
    for name, field in reference.__dataclass_fields__.items():
        if field.default_factory is dict:  # a new dict per record, as default_factory=dict
            assert getattr(ours, name) == {} and getattr(ours, name) is not getattr(cls(**values), name)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_equality_hash_repr_and_replace_are_a_frozen_dataclass(cls):
    reference = _reference(cls)
    first = _values(cls, "a")
    ours, theirs = cls(*first), reference(*first)
    assert repr(ours) == repr(theirs).replace(reference.__qualname__, cls.__qualname__, 1)
    assert ours == cls(*first) and hash(ours) == hash(cls(*first)) == hash(theirs)
    assert ours != theirs and (ours == object()) is False
    for index, name in enumerate(cls._fields):
        changed = first[:index] + ["other"] + first[index + 1 :]
        assert ours != cls(*changed), f"{name} is compared"
        assert replace(ours, **{name: "other"}) == cls(*changed) == dataclasses.replace(ours, **{name: "other"})
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(ours, name, "other")
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(ours, name)
    assert pickle.loads(pickle.dumps(ours)) == ours and copy.deepcopy(ours) == ours
    assert dataclasses.is_dataclass(ours)
    assert [field.name for field in dataclasses.fields(cls)] == [field.name for field in dataclasses.fields(reference)]
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    assert cls.__match_args__ == reference.__match_args__
    with pytest.raises(TypeError):
        replace(ours, unknown=1)


def test_a_cached_property_is_computed_once_and_replace_drops_it():
    entry = model.RoundEntry(1, None, None, model.Code.FULL_BYE)
    tournament = model.Tournament(players=(model.Player(1),), rounds_planned=3, history={1: (entry,)})
    assert tournament.rounds_done == 1 and tournament.rounds_done == 1
    assert replace(tournament, history={}).rounds_done == 0


class _GacruxLikeEncoder(JSONEncoderOnFirstUse):
    """As gacrux's ``helpers.DecimalEncoder``, on the stand-in base."""

    def default(self, o):
        if isinstance(o, decimal.Decimal):
            return str(o)
        return super().default(o)


class _JsonEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, decimal.Decimal):
            return str(o)
        return super().default(o)


def test_the_encoder_base_standing_in_for_json_encodes_as_json_does():
    document = {"pts": decimal.Decimal("1.5"), "list": [1, "x", None, True, 2.5], "nested": {"b": decimal.Decimal("0")}}
    for options in ({"indent": 2}, {}, {"sort_keys": True, "separators": (",", ":")}):
        assert json.dumps(document, cls=_GacruxLikeEncoder, **options) == json.dumps(
            document, cls=_JsonEncoder, **options
        )
    with pytest.raises(TypeError, match="not JSON serializable"):
        json.dumps({"x": object()}, cls=_GacruxLikeEncoder)


_GACRUX_JSON = """
import io, sys
from decimal import Decimal
from pairing.domain.gacrux_import import JSONEncoderOnFirstUse
from gacrux import helpers
assert "json" not in sys.modules and "re" not in sys.modules
assert issubclass(helpers.DecimalEncoder, JSONEncoderOnFirstUse)
out = io.StringIO()
helpers.json_output(out, {"pts": Decimal("2.0"), "cid": 3, "list": [Decimal("0.5")]})
print(out.getvalue())
"""


def test_gacrux_imports_without_json_and_writes_its_json_through_the_stand_in():
    """In a fresh interpreter (this one imported json already), gacrux's import leaves json and
    re out, and its JSON output still encodes its Decimals."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _GACRUX_JSON], capture_output=True, text=True, check=True)
    expected = {"pts": "2.0", "cid": 3, "list": ["0.5"]}
    assert done.stdout == json.dumps(expected, indent=2) + "\n"
