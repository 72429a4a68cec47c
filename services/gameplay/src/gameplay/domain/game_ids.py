"""Names of games and rounds, deterministic so that runs compare byte for byte across run modes."""

from __future__ import annotations

import uuid

#: namespace of the event ids derived from game ids (game.started / game.finished)
EVENT_NAMESPACE = uuid.UUID("6b1d6c8e-5a43-4a55-9a0e-2f1f3c0d9e01")


def round_key(event_code: str, section_id: str, round_no: int) -> str:
    return f"{event_code}/{section_id}/{round_no}"


def game_id_for(
    event_code: str,
    stage: str,
    section_id: str,
    round_no: int,
    pairing_id: str,
    game_no: int,
    playoff_id: str | None = None,
) -> str:
    if playoff_id:
        return f"{event_code}.{stage}.{section_id}.po.{playoff_id}.{pairing_id}.g{game_no}"
    return f"{event_code}.{stage}.{section_id}.r{round_no}.{pairing_id}.g{game_no}"


def event_id(game_id: str, what: str) -> uuid.UUID:
    """The id of a game's integration event (``started``, ``finished``): a redelivery re-emits the same."""
    return uuid.uuid5(EVENT_NAMESPACE, f"{game_id}/{what}")
