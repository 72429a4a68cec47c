"""PAIR-1 / EVT-7: the round limits a section's format must keep at closing.

- The preset's `format.max_rounds` bounds either format (NT 七(二) 不超过7轮: a 9-team round
  robin of 9 rounds is refused). Where the regulation says "in principle" (DA 七(四) 原则上不超过
  7轮, `max_rounds_binding: in_principle`), the organiser may close with more rounds by giving a
  reason, which the close records; where it binds, no reason helps.
- No round without a scheduled start: a section whose schedule lists its rounds must have a
  slot for every round it will play (EVT-7), whatever the maximum says. A section with no slots
  at all is unscheduled (its rounds start when published, as the schedule's "all or none" allows).

A refusal names the choices that do fit, so the arbiter can pick one (e.g. a Swiss of 7 rounds
instead of a 9-round round robin).
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku_shared.event_config import FormatKind, SectionConfig

from .model import Decision, Verdict
from .swiss_limit import max_swiss_rounds


def round_robin_rounds(entrants: int) -> int:
    """PAIR-3: a round robin of n entrants plays n − 1 rounds (n with an odd field: a bye each)."""
    return max(entrants - 1 if entrants % 2 == 0 else entrants, 1)


@dataclass(frozen=True)
class RoundsOption:
    """A format the section may close with: a round robin, or a Swiss of up to `max_rounds`."""

    kind: FormatKind
    max_rounds: int


class RoundLimitExceeded(ValueError):
    """The section's format has more rounds than its maximum (PAIR-1) or its schedule (EVT-7)."""

    def __init__(
        self,
        section_id: str,
        entrants: int,
        kind: FormatKind,
        rounds: int,
        *,
        max_rounds: int | None,
        scheduled: int,
        binding: str,
        options: tuple[RoundsOption, ...],
    ) -> None:
        super().__init__(section_id, entrants, kind, rounds)
        self.section_id = section_id
        self.entrants = entrants
        self.kind = kind
        self.rounds = rounds
        self.max_rounds = max_rounds
        self.scheduled = scheduled
        self.binding = binding
        self.options = options

    @property
    def over_maximum(self) -> bool:
        return self.max_rounds is not None and self.rounds > self.max_rounds

    @property
    def over_schedule(self) -> bool:
        """True when the schedule alone is what the rounds exceed (the maximum is named first)."""
        return not self.over_maximum and 0 < self.scheduled < self.rounds

    @property
    def override_allowed(self) -> bool:
        """Only an in-principle maximum gives way, and never to a round without a start."""
        return self.binding == "in_principle" and not 0 < self.scheduled < self.rounds

    def __str__(self) -> str:
        what = "round robin" if self.kind == "round_robin" else "Swiss"
        if self.over_schedule:
            limit = f"the schedule starts {self.scheduled} rounds (EVT-7: no round without a scheduled start)"
        else:
            held = "in principle" if self.binding == "in_principle" else "binding"
            limit = f"at most {self.max_rounds} rounds ({held}, PAIR-1)"
        choices = " or ".join(_option_words(o) for o in self.options) or "no format fits: change the schedule"
        words = f"{self.section_id}: a {what} of {self.entrants} entrants plays {self.rounds} rounds; {limit}; choose {choices}"
        if self.override_allowed:
            words += ", or give over_max_reason to play more rounds"
        return words


def _option_words(option: RoundsOption) -> str:
    if option.kind == "round_robin":
        return f"a round robin of {option.max_rounds} rounds"
    return f"a Swiss of at most {option.max_rounds} rounds"


def round_limit(section: SectionConfig, scheduled: int) -> int | None:
    """The most rounds the section may play: its maximum, and its schedule when it has one."""
    rules = section.format
    limits = [n for n in (rules.max_rounds if rules else None, scheduled or None) if n is not None]
    return min(limits) if limits else None


def fitting_options(section: SectionConfig, entrants: int, scheduled: int) -> tuple[RoundsOption, ...]:
    """The formats the section may still close with for this field, within its limits."""
    rules = section.format
    if rules is None:
        return ()
    limit = round_limit(section, scheduled)
    options: list[RoundsOption] = []
    for kind in rules.allowed:
        if kind == "round_robin":
            rounds = round_robin_rounds(entrants)
            if limit is None or rounds <= limit:
                options.append(RoundsOption("round_robin", rounds))
        else:
            # PAIR-2: no more Swiss rounds than the field can be promised
            most = max_swiss_rounds(entrants) if limit is None else min(limit, max_swiss_rounds(entrants))
            options.append(RoundsOption("swiss", most))
    return tuple(options)


def check_round_limits(
    section: SectionConfig,
    entrants: int,
    kind: FormatKind,
    rounds: int,
    scheduled: int,
    over_max_reason: str | None = None,
) -> Decision | None:
    """PAIR-1 / EVT-7: None when `rounds` keep the section's limits; the recorded decision when
    the organiser goes beyond an in-principle maximum with a reason; else RoundLimitExceeded."""
    rules = section.format
    max_rounds = rules.max_rounds if rules else None
    binding = rules.max_rounds_binding if rules else "strict"
    over_schedule = scheduled > 0 and rounds > scheduled
    over_max = max_rounds is not None and rounds > max_rounds
    if not over_schedule and not over_max:
        return None
    reason = (over_max_reason or "").strip()
    if not over_schedule and binding == "in_principle" and reason:
        return Decision(
            "PAIR-1",
            f"{section.id}/max_rounds",
            Verdict.ADMITTED,
            f"{rounds} rounds beyond the maximum of {max_rounds} (in principle), by the organiser: {reason}",
        )
    raise RoundLimitExceeded(
        section.id,
        entrants,
        kind,
        rounds,
        max_rounds=max_rounds,
        scheduled=scheduled,
        binding=binding,
        options=fitting_options(section, entrants, scheduled),
    )
