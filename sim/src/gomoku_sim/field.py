"""A deterministic synthetic field for a preset: players, units, teams, eligibility facts.

Everything is a function of (event config, seed, sizes): names, genders, birth dates inside the
sections' windows, units, ID numbers, residency evidence. A few applications are ineligible on
purpose (outside the age window, wrong gender, too short a social-insurance record, an
incomplete team) so that a run shows the registration service refusing them with a reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from gomoku_shared.event_config import EventConfig, SectionConfig

SURNAMES = (
    "Wang",
    "Li",
    "Zhang",
    "Liu",
    "Chen",
    "Yang",
    "Huang",
    "Zhao",
    "Wu",
    "Zhou",
    "Xu",
    "Sun",
    "Ma",
    "Zhu",
    "Hu",
    "Guo",
    "He",
    "Lin",
    "Luo",
    "Gao",
    "Zheng",
    "Liang",
    "Xie",
    "Song",
    "Tang",
    "Han",
    "Feng",
    "Deng",
)
GIVEN_M = (
    "Wei",
    "Qiang",
    "Lei",
    "Jun",
    "Yang",
    "Yong",
    "Jie",
    "Tao",
    "Ming",
    "Chao",
    "Hao",
    "Peng",
    "Bo",
    "Xin",
    "Long",
    "Kai",
    "Yu",
    "Feng",
    "Zhen",
    "Rui",
)
GIVEN_F = (
    "Fang",
    "Na",
    "Min",
    "Jing",
    "Li",
    "Yan",
    "Xia",
    "Ting",
    "Hui",
    "Ying",
    "Lan",
    "Qian",
    "Yue",
    "Xue",
    "Mei",
    "Lin",
    "Dan",
    "Jia",
    "Shu",
    "Wen",
)
UNITS = (
    "Futian Gomoku Club",
    "Nanshan Chess Academy",
    "Luohu Mind Sports Association",
    "Bao'an Youth Club",
    "Longgang Qiyuan",
    "Pingshan Sports School",
    "Guangming Gomoku Society",
    "Yantian Renju Circle",
)
PROVINCES = (
    "Beijing",
    "Shanghai",
    "Jiangsu",
    "Zhejiang",
    "Guangdong",
    "Hubei",
    "Sichuan",
    "Shandong",
    "Fujian",
    "Anhui",
    "Hunan",
    "Henan",
    "Hebei",
    "Liaoning",
)


@dataclass
class Person:
    person_id: str
    name: str
    gender: str
    birth_date: date
    id_number: str
    unit: str | None
    #: REG-8: the unit the athlete holds an annual registration with (a unit id)
    registered_unit_id: str | None = None


@dataclass
class Application:
    """One registration the driver submits: an individual entry or a team."""

    app_id: str
    stage: str
    section_id: str
    kind: str  # individual | team
    people: list[Person]
    unit: str | None
    facts: dict[str, Any] = field(default_factory=dict)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    expect: str = "accepted"  # accepted | refused
    why: str = ""  # the rule a refusal should name


def _adult_window(sec: SectionConfig) -> tuple[date, date]:
    earliest = sec.birth.born_from or date(1965, 1, 1)
    latest = sec.birth.born_to or (
        date(2004, 12, 31) if sec.birth.born_from is None else earliest + timedelta(days=3 * 365)
    )
    if latest < earliest:
        latest = earliest + timedelta(days=365)
    return earliest, latest


def _birth(rng: random.Random, sec: SectionConfig) -> date:
    earliest, latest = _adult_window(sec)
    return earliest + timedelta(days=rng.randrange(max(1, (latest - earliest).days + 1)))


def _name(rng: random.Random, gender: str, used: set[str]) -> str:
    for _ in range(200):
        n = (
            f"{rng.choice(SURNAMES)} {rng.choice(GIVEN_M if gender == 'male' else GIVEN_F)}"
            f"{rng.choice(('', '', rng.choice(GIVEN_M if gender == 'male' else GIVEN_F).lower()))}"
        )
        if n not in used:
            used.add(n)
            return n
    n = f"{rng.choice(SURNAMES)} {len(used)}"
    used.add(n)
    return n


def _id_number(rng: random.Random, birth: date) -> str:
    return f"4403{rng.randrange(10, 99)}{birth:%Y%m%d}{rng.randrange(100, 999)}{rng.randrange(10)}"


class FieldBuilder:
    def __init__(self, config: EventConfig, seed: int | str) -> None:
        self.config = config
        self.seed = seed
        self.used_names: set[str] = set()
        self.counter = 0

    def rng(self, *parts: object) -> random.Random:
        return random.Random("|".join(str(p) for p in (self.seed, "field", *parts)))

    def person(
        self, rng: random.Random, sec: SectionConfig, gender: str, unit: str | None, birth: date | None = None
    ) -> Person:
        self.counter += 1
        born = birth or _birth(rng, sec)
        return Person(
            f"p{self.counter:05d}", _name(rng, gender, self.used_names), gender, born, _id_number(rng, born), unit
        )

    def months_before(self, n: int) -> list[str]:
        """The ``n`` calendar months before the registration closes (social insurance)."""
        close = self.config.registration.closes_at
        idx = close.year * 12 + close.month - 2  # the month before the closing month
        return [f"{(i // 12):04d}-{(i % 12) + 1:02d}" for i in range(idx - n + 1, idx + 1)]

    def units(self) -> tuple[str, ...]:
        return PROVINCES if not self.config.units.individual_entries_allowed else UNITS

    def residency(self, rng: random.Random, p: Person) -> tuple[dict, list[dict]]:
        """REG-6 facts and evidence of an eligible SZ player (one of the residency clauses)."""
        kind = rng.choice(("household", "household", "residence_permit", "student_status"))
        if kind == "residence_permit":
            months = self.months_before(13)
            return (
                {},
                [
                    {
                        "kind": "residence_permit",
                        "region": "Shenzhen",
                        "document_ref": f"rp-{p.person_id}",
                        "issued_on": "2019-03-01",
                    },
                    {
                        "kind": "social_insurance",
                        "region": "Shenzhen",
                        "document_ref": f"si-{p.person_id}",
                        "months_paid": months,
                    },
                ],
            )
        ev_kind = {"household": "household_registration", "student_status": "student_status"}[kind]
        return ({}, [{"kind": ev_kind, "region": "Shenzhen", "document_ref": f"{kind[:2]}-{p.person_id}"}])

    def representation(self, p: Person, unit: str) -> tuple[dict, list[dict]]:
        """REG-8: an athlete registered with the unit (annual registration)."""
        p.registered_unit_id = unit_slug(unit)
        return ({}, [])

    def build(self, sizes: dict[str, int]) -> list[Application]:
        apps: list[Application] = []
        cfg = self.config
        for stage in cfg.stages:
            if stage.entry != "registration":
                continue
            for sec in stage.sections:
                n = sizes.get(sec.id, 0)
                if n <= 0:
                    continue
                if sec.kind == "team":
                    apps += self.teams(stage.id, sec, n)
                else:
                    apps += self.individuals(stage.id, sec, n)
        return apps

    def _facts(self, rng: random.Random, sec: SectionConfig, person: Person) -> tuple[dict, list[dict]]:
        if any(self.config.clause(c).kind == "residency_any_of" for c in sec.eligibility):
            return self.residency(rng, person)
        if any(self.config.clause(c).kind == "representation" for c in sec.eligibility):
            return self.representation(person, person.unit or "")
        return {}, []

    def individuals(self, stage: str, sec: SectionConfig, n: int) -> list[Application]:
        rng = self.rng(sec.id)
        units = self.units()
        out = []
        for index in range(n):
            gender = sec.gender if sec.gender != "mixed" else ("female" if index % 3 == 2 else "male")
            # a few units per section, the i-th player of every section in the same one, so units
            # field players in both genders (team scores, AWD-6); some SZ players enter alone
            unit = units[index % 4] if (index % 5 != 4 or not self.config.units.individual_entries_allowed) else None
            person = self.person(rng, sec, gender, unit)
            facts, evidence = self._facts(rng, sec, person)
            out.append(
                Application(f"{sec.id}-{index + 1:03d}", stage, sec.id, "individual", [person], unit, facts, evidence)
            )
        out += self.ineligible(stage, sec, rng)
        return out

    def ineligible(self, stage: str, sec: SectionConfig, rng: random.Random) -> list[Application]:
        """One refused application per section, each for a different reason."""
        units = self.units()
        unit = units[0]
        variant = sum(map(ord, sec.id)) % 3
        if sec.birth.born_from is not None and variant != 1:  # REG-4: born too early
            gender = sec.gender if sec.gender != "mixed" else "male"
            person = self.person(rng, sec, gender, unit, birth=sec.birth.born_from - timedelta(days=400))
            facts, evidence = self._facts(rng, sec, person)
            return [
                Application(
                    f"{sec.id}-x-age", stage, sec.id, "individual", [person], unit, facts, evidence, "refused", "REG-4"
                )
            ]
        if sec.gender in ("male", "female") and variant != 2:  # REG-5: wrong gender
            wrong = "female" if sec.gender == "male" else "male"
            person = self.person(rng, sec, wrong, unit)
            facts, evidence = self._facts(rng, sec, person)
            return [
                Application(
                    f"{sec.id}-x-gender",
                    stage,
                    sec.id,
                    "individual",
                    [person],
                    unit,
                    facts,
                    evidence,
                    "refused",
                    "REG-5",
                )
            ]
        if any(self.config.clause(c).kind == "residency_any_of" for c in sec.eligibility):  # REG-6: 6 months only
            gender = sec.gender if sec.gender != "mixed" else "male"
            person = self.person(rng, sec, gender, unit)
            evidence = [
                {
                    "kind": "residence_permit",
                    "region": "Shenzhen",
                    "document_ref": f"rp-{person.person_id}",
                    "issued_on": f"{self.config.registration.closes_at.year}-01-10",
                },
                {
                    "kind": "social_insurance",
                    "region": "Shenzhen",
                    "document_ref": f"si-{person.person_id}",
                    "months_paid": self.months_before(6),
                },
            ]
            return [
                Application(
                    f"{sec.id}-x-residency",
                    stage,
                    sec.id,
                    "individual",
                    [person],
                    unit,
                    {},
                    evidence,
                    "refused",
                    "REG-6",
                )
            ]
        return []

    def teams(self, stage: str, sec: SectionConfig, n: int) -> list[Application]:
        """Teams in fixed board order (REG-9): the composition the section asks for."""
        comp = sec.team
        if comp is None or comp.scored_from_individual_sections:
            return []  # scored from individual results (SZ, NY): nothing to register
        rng = self.rng(sec.id)
        units = self.units()
        size = comp.size_max or comp.size_min
        out = []
        for index in range(n):
            unit = (
                units[index % len(units)]
                if index < len(units)
                else f"{units[index % len(units)]} {index // len(units) + 1}"
            )
            genders = self._team_genders(sec, size)
            members = [self.person(rng, sec, g, unit) for g in genders]
            if sec.eligibility:
                for member in members:
                    self.representation(member, unit)
            out.append(Application(f"{sec.id}-t{index + 1:02d}", stage, sec.id, "team", members, unit, {}, []))
        # REG-8: a team whose board-1 player is registered with another unit
        if sec.eligibility and n < len(units):
            unit = units[n]
            members = [self.person(rng, sec, g, unit) for g in self._team_genders(sec, size)]
            for m in members:
                self.representation(m, unit)
            members[0].registered_unit_id = unit_slug(units[0])
            out.append(
                Application(f"{sec.id}-x-unit", stage, sec.id, "team", members, unit, expect="refused", why="REG-8")
            )
        return out

    @staticmethod
    def _team_genders(sec: SectionConfig, size: int) -> list[str]:
        comp = sec.team
        assert comp is not None
        genders = ["male"] * comp.male_min + ["female"] * comp.female_min
        while len(genders) < size:
            genders.append("male" if sec.gender != "female" else "female")
        genders = genders[:size]
        # place the board-bound genders (NT mixed: the woman on board 3)
        for board, gender in sorted(comp.board_gender.items()):
            if genders[board - 1] != gender:
                slot = genders.index(gender)
                genders[board - 1], genders[slot] = genders[slot], genders[board - 1]
        return genders


def unit_slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


def units_of(apps: list[Application]) -> list[str]:
    """Every unit named by the field, sorted (the driver creates them before the entries)."""
    return sorted({a.unit for a in apps if a.unit})


def build_field(config: EventConfig, seed: int | str, sizes: dict[str, int]) -> list[Application]:
    return FieldBuilder(config, seed).build(sizes)
