"""Immutable records written by hand, read as frozen dataclasses (ADR 0013).

``@dataclass(frozen=True)`` compiles six functions per class from source when the class is
defined: for the records a pairing process defines (``model``, ``swiss.ByeRules``) that, with
``dataclasses`` and the ``re``, ``copy`` and ``weakref`` it imports, was about a seventh of a
``pairing-engine`` process. A record here subclasses :class:`Record`, writes its own
``__init__`` and is decorated with :func:`record` — for type checkers that *is*
``dataclasses.dataclass`` (they check its fields, defaults and immutability as a frozen
dataclass's); at run time :func:`record` reads the fields from the class's annotations, and
:class:`Record` gives a frozen dataclass's equality, hash, ``repr`` and refusal to assign.
``dataclasses.replace``, ``fields``, ``asdict`` and ``is_dataclass`` work on a record: its
``__dataclass_fields__`` is built on first read (importing ``dataclasses`` then); this module's
:func:`replace` is ``dataclasses.replace`` without that import. A field whose default is made
anew for each record (``field(default_factory=dict)``) has :data:`NEW_DICT` for default.

The tests hold every record to the frozen dataclass of its own annotations and defaults.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar


class _NewDict:
    """The default of a field that gets a new empty dict per record (``default_factory=dict``)."""

    def __repr__(self) -> str:
        return "<factory dict>"


NEW_DICT: Any = _NewDict()


class _DataclassFields:
    """A record class's ``__dataclass_fields__``, made on first read: the fields of the frozen
    dataclass of the record's annotations, with the defaults of its ``__init__``."""

    def __get__(self, instance: object, owner: type[Record]) -> dict[str, Any]:
        import dataclasses

        init = owner.__init__
        code = init.__code__
        parameters = code.co_varnames[1 : code.co_argcount]
        defaults = dict(zip(parameters[len(parameters) - len(init.__defaults__ or ()) :], init.__defaults__ or ()))
        annotations = owner.__annotations__
        specs: list[Any] = [
            (name, annotations[name], _field(dataclasses, defaults[name]))
            if name in defaults
            else (name, annotations[name])
            for name in owner._fields
        ]
        shadow = dataclasses.make_dataclass(owner.__name__, specs, frozen=True)
        fields: dict[str, Any] = getattr(shadow, "__dataclass_fields__")  # noqa: B009 (made at run time)
        setattr(owner, "__dataclass_fields__", fields)  # noqa: B010 (read once per class)
        return fields


def _field(dataclasses: Any, default: object) -> Any:
    if default is NEW_DICT:
        return dataclasses.field(default_factory=dict)
    return dataclasses.field(default=default)


def _frozen(name: str) -> AttributeError:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(f"cannot assign to field {name!r}")


class Record:
    """Equality, hash, ``repr`` and immutability of a frozen dataclass over ``_fields`` (set by
    :func:`record`); a subclass's ``__init__`` sets the fields through ``self.__dict__``."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[Any]  # the fields' values of a record, as a tuple
    if not TYPE_CHECKING:
        __dataclass_fields__ = _DataclassFields()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise _frozen(name)

    def __delattr__(self, name: str) -> None:
        raise _frozen(name)


def _record(cls: type[Record]) -> type[Record]:
    fields = tuple(name for name, kind in cls.__annotations__.items() if not str(kind).startswith("ClassVar"))
    values = attrgetter(*fields) if len(fields) > 1 else (lambda instance: (getattr(instance, fields[0]),))
    cls._fields = fields
    cls._values = staticmethod(values)
    setattr(cls, "__match_args__", fields)  # noqa: B010 (type checkers see the dataclass's)
    return cls


def _record_decorator(*, frozen: bool) -> Callable[[type[Record]], type[Record]]:
    """``@record(frozen=True)`` at run time: the fields from the class's own annotations, in order."""
    if not frozen:
        raise TypeError("records are frozen")
    return _record


def _replace(instance: Record, /, **changes: object) -> Record:
    """``dataclasses.replace`` of a record: a new one, the fields ``changes`` names changed."""
    make: Any = instance.__class__
    return make(**dict(zip(instance._fields, instance._values(instance)), **changes))


if TYPE_CHECKING:
    from dataclasses import dataclass as record
    from dataclasses import replace
else:
    record = _record_decorator
    replace = _replace

__all__ = ["NEW_DICT", "Record", "record", "replace"]
