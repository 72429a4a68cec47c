"""Use cases of the pairing service: the round lifecycle (PAIR-11) driven by events, and the
arbiter's corrections. Each runs inside one unit of work with the section's tournament row
locked, and is a deterministic function of (database state, input): event ids are uuid5 of
(section, sequence number), pairing ids derive from round/board numbers.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from gomoku_shared.contracts.common import Entrant, SectionRules
from gomoku_shared.contracts.events import (
    GameFinished,
    PairingSpec,
    PlayoffRequired,
    ResultDecided,
    RoundPaired,
    SectionClosed,
    SectionCompleted,
    StandingsUpdated,
)
from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..adapters import orm
from ..adapters import repository as repo
from ..adapters.repository import SectionState
from ..domain import (
    Board,
    Code,
    IllegalPairing,
    NoLegalPairing,
    Outcome,
    PointSystem,
    RoundPairing,
    active_players,
    check_round,
    ties_needing_decision,
)
from ..domain.teams import as_tournament
from . import section as sec
from .pool import Pairer

log = logging.getLogger("pairing.handlers")
NS = uuid.UUID("0b7f2a36-93a1-4c55-8d8e-6a1f4de0c2b7")


# ---------------------------------------------------------------- helpers


def _emit(uow, st: SectionState, payload) -> None:
    seq = st.row["event_seq"] + 1
    st.row["event_seq"] = seq
    uow.emit(payload, event_id=uuid.uuid5(NS, f"{st.event_code}/{st.section_id}/{seq}/{payload.TYPE}"))


async def _save_seq(uow, st: SectionState) -> None:
    await repo.update_tournament(uow.session, st, event_seq=st.row["event_seq"])


async def load_locked(uow, ec: str, sid: str) -> SectionState:
    st = await repo.load(uow.session, ec, sid, lock=True)
    if st is None:
        raise NotFound("section_not_found", f"no section {sid!r} in event {ec!r}")
    return st


# ---------------------------------------------------------------- section.closed


async def open_tournament(uow, p: SectionClosed, pairer: Pairer) -> None:
    """Create the section's tournament and pair round 1 (PAIR-1..3, PAIR-9, PAIR-11)."""
    s = uow.session
    if await repo.exists(s, p.event_code, p.section_id):
        return  # the same section closed twice (a re-sent event): the first one stands
    now = uow.clock.now()
    status = "running" if p.status == "ready" else "cancelled"
    entrants = sec.seeding(list(p.entrants)) if p.status == "ready" else list(p.entrants)
    await s.execute(
        orm.tournaments.insert().values(
            event_code=p.event_code,
            section_id=p.section_id,
            stage=p.stage,
            name=p.name,
            status=status,
            kind=p.rules.kind,
            format=p.rules.format,
            rounds_planned=p.rules.rounds,
            current_round=0,
            revision=0,
            event_seq=0,
            rules=p.rules.model_dump(mode="json"),
            closed=p.model_dump(mode="json"),
            hold=False,
            created_at=now,
        )
    )
    if entrants:
        await s.execute(
            orm.entrants.insert(),
            [
                dict(
                    event_code=p.event_code,
                    section_id=p.section_id,
                    start_no=i,
                    entrant_id=e.entrant_id,
                    data=e.model_dump(mode="json"),
                    entry_round=1,
                    withdrawn_after=None,
                )
                for i, e in enumerate(entrants, 1)
            ],
        )
    if status != "running":
        return
    st = await repo.load(s, p.event_code, p.section_id, lock=True)
    assert st is not None
    if len(st.entrants) < 2:
        await repo.update_tournament(s, st, status="awaiting_arbiter", note="fewer than two entrants")
        return
    await pair_round(uow, st, 1, pairer)
    await _save_seq(uow, st)


# ---------------------------------------------------------------- pairing and publishing


async def pair_round(uow, st: SectionState, r: int, pairer: Pairer) -> None:
    """Pair round ``r`` with the domain engine; publish it unless the arbiter reviews pairings first."""
    try:
        rp = await pairer.run(sec.pair_job(st, r))
    except (NoLegalPairing, IllegalPairing, ValueError) as e:
        # ValueError: e.g. more rounds configured than a round robin of this field has
        # C.04.3: with no legal pairing the arbiter pairs the round by hand (PUT .../rounds/{r}/pairings)
        await repo.update_tournament(
            uow.session,
            st,
            status="awaiting_arbiter",
            current_round=r - 1,
            note=f"round {r}: no legal pairing ({e}); the arbiter pairs it",
        )
        return
    await store_round(uow, st, rp, paired_by="engine")


async def store_round(uow, st: SectionState, rp: RoundPairing, paired_by: str) -> None:
    r = rp.round
    rows, bye_rows = sec.round_rows(st, rp)
    status = "draft" if st.row["hold"] else "published"
    await repo.insert_round(uow.session, st, r, status, uow.clock.now(), rows, bye_rows, paired_by=paired_by)
    await repo.update_tournament(uow.session, st, current_round=r, status="running", note=None)
    if status == "published":
        await _published(uow, st, r)


async def _published(uow, st: SectionState, r: int) -> None:
    now = uow.clock.now()
    _emit(
        uow,
        st,
        RoundPaired(
            event_code=st.event_code,
            stage=st.row["stage"],
            section_id=st.section_id,
            round=r,
            starts_at=now,
            no_show_minutes=st.rules.no_show_minutes,
            pairings=sec.specs(st, r),
            byes=sec.bye_specs(st, r),
        ),
    )
    if not st.pairings.get(r):
        await advance(uow, st, None)  # nothing to play (everyone has a bye)


async def advance(uow, st: SectionState, pairer: Pairer | None) -> None:
    """After a result: when the current round is complete, publish standings and pair the next
    round (PAIR-11), or after the last round settle ties and complete the section."""
    r = st.row["current_round"]
    if r == 0 or st.row["status"] != "running" or st.rounds.get(r, {}).get("status") != "published":
        return
    if any(p["outcome"] is None for p in st.pairings.get(r, [])):
        return
    await repo.update_round(uow.session, st, r, status="complete", completed_at=uow.clock.now())
    rk = sec.ranked(st)
    _emit(
        uow,
        st,
        StandingsUpdated(
            event_code=st.event_code,
            stage=st.row["stage"],
            section_id=st.section_id,
            after_round=r,
            standings=sec.contract_rows(st, rk),
        ),
    )
    if r < st.rules.rounds:
        await pair_round(uow, st, r + 1, pairer or Pairer())
    else:
        await finalize(uow, st)


# ---------------------------------------------------------------- game.finished


def _outcome_of(p: dict, g: GameFinished) -> Outcome | None:
    """The pairing's outcome once its last game is in (PAIR-4/5/6); None while a game is left."""
    if g.double_forfeit:
        return Outcome.DOUBLE_FORFEIT
    if g.outcome is not None:
        fp, sp = g.outcome.first_points, g.outcome.second_points
        if g.first is not None and g.first == p["second_id"]:
            fp, sp = sp, fp
    elif g.game_no >= p["games"]:
        if g.winner is None:
            fp = sp = 1
        else:
            fp, sp = (1, 0) if g.winner == p["first_id"] else (0, 1)
    else:
        return None
    forfeit = g.reason == "no_show" and g.game_no == 1
    if fp > sp:
        return Outcome.FIRST_FORFEIT_WIN if forfeit else Outcome.FIRST_WINS
    if sp > fp:
        return Outcome.SECOND_FORFEIT_WIN if forfeit else Outcome.SECOND_WINS
    return Outcome.DRAW


def _points_of(st: SectionState, o: Outcome) -> tuple[float, float]:
    return _points(st.rules, o)


def _points(rules: SectionRules, o: Outcome) -> tuple[float, float]:
    ps = PointSystem(win=rules.points.win, draw=rules.points.draw, loss=rules.points.loss)
    cf, cs = o.codes()
    return float(ps.points(cf)), float(ps.points(cs))


async def game_finished(uow, g: GameFinished, pairer: Pairer) -> None:
    """Record a game; a replayed game.finished changes nothing (unique (pairing, game_no)).

    Only the tournament row (locked) and the pairing are read per game; the whole section is
    loaded when the game completes its round (or is a playoff game).
    """
    s = uow.session
    row = await repo.lock_row(s, g.event_code, g.section_id)
    if row is None:
        log.warning("game.finished for unknown section %s/%s ignored", g.event_code, g.section_id)
        return
    playoff_id = g.playoff_id or ""
    if await repo.game_recorded(s, g.event_code, g.section_id, playoff_id, g.pairing_id, g.game_no):
        return
    now = uow.clock.now()
    await repo.record_game(
        s,
        event_code=g.event_code,
        section_id=g.section_id,
        round=g.round,
        pairing_id=g.pairing_id,
        game_no=g.game_no,
        playoff_id=playoff_id,
        game_id=g.game_id,
        winner=g.winner,
        result=g.result,
        reason=g.reason,
        outcome=g.outcome.model_dump() if g.outcome else None,
        double_forfeit=g.double_forfeit,
        recorded_at=now,
    )
    if g.playoff_id:
        st = await repo.load(s, g.event_code, g.section_id)
        assert st is not None
        await _playoff_game(uow, st, g)
        await _save_seq(uow, st)
        return
    p = await repo.pairing_row(s, g.event_code, g.section_id, g.pairing_id)
    if p is None or (g.round and p["round"] != g.round):
        log.warning("game.finished for unknown pairing %s of %s ignored", g.pairing_id, g.section_id)
        return
    if p["outcome"] is not None:
        return  # the arbiter entered this result already: it stands
    o = _outcome_of(p, g)
    if o is None:
        return
    rules = SectionRules.model_validate(row["rules"])
    fp, sp = _points(rules, o)
    await repo.set_result(
        s, None, p, outcome=o.value, first_points=fp, second_points=sp, result_source="game", result_at=now
    )
    if p["round"] != row["current_round"] or await repo.open_pairings(s, g.event_code, g.section_id, p["round"]):
        return
    st = await repo.load(s, g.event_code, g.section_id)
    assert st is not None
    await advance(uow, st, pairer)
    await _save_seq(uow, st)


# ---------------------------------------------------------------- ties, playoffs, completion


def _tie_id(gender: str, places: tuple[int, ...]) -> str:
    return f"{gender + '.' if gender else ''}t{places[0]}-{places[-1]}"


async def finalize(uow, st: SectionState) -> None:
    """After the last round (PAIR-8): ties on places that matter → playoff or arbiter; else complete."""
    rk = sec.ranked(st)
    policy, places = st.rules.tie_policy, st.rules.places_that_matter
    cohorts = list(rk.by_gender.items()) if rk.by_gender is not None else [("", rk.rows)]
    needed: dict[str, tuple[str, Any, list[str]]] = {}
    if policy != "share" and places > 0:
        for g, rows in cohorts:
            for tg in ties_needing_decision(rows, range(1, places + 1), policy == "playoff"):
                ids = [st.entrants[no]["entrant_id"] for no in tg.ids]
                needed[_tie_id(g, tg.places)] = (g, tg, ids)
    for tie in list(st.ties):
        if tie["tie_id"] not in needed and tie["status"] != "void":
            await repo.upsert_tie(uow.session, st, {**tie, "status": "void"})
    for tie_id, (g, tg, ids) in sorted(needed.items()):
        old = next((t for t in st.ties if t["tie_id"] == tie_id), None)
        if old is not None and old["entrant_ids"] == ids and old["status"] != "void":
            continue  # the same tie: its playoff or decision stands
        tie = dict(
            tie_id=tie_id,
            gender=g or None,
            place_from=tg.places[0],
            place_to=tg.places[-1],
            entrant_ids=ids,
            action=tg.action,
            status="open",
            playoff={},
            decision=None,
            decided_by=None,
            decided_at=None,
            revision=(old["revision"] + 1) if old else 1,
        )
        await repo.upsert_tie(uow.session, st, tie)
        if tg.action == "playoff":
            await _start_playoff(uow, st, tie, [ids])
    open_ = [t for t in st.ties if t["status"] in ("open", "playing")]
    if open_:
        status = "awaiting_playoff" if any(t["action"] == "playoff" for t in open_) else "awaiting_arbiter"
        await repo.update_tournament(uow.session, st, status=status)
        return
    await complete(uow, st)


def _player_for(st: SectionState, entrant_id: str) -> tuple[str, str | None, str | None]:
    """(player id, team id, partner) who plays a playoff for an entrant: teams send board 1 (PAIR-10)."""
    e: Entrant = st.entrants[st.by_entrant_id()[entrant_id]]["entrant"]
    if not st.team:
        return e.entrant_id, None, e.partner_id
    m = sec.members(e)[0]
    return m.player_id, e.entrant_id, m.partner_id or e.partner_id


async def _start_playoff(uow, st: SectionState, tie: dict, groups: list[list[str]]) -> None:
    """PLAY-PLAYOFF: every pair of each still-tied group plays (two games, then deciders, run by gameplay)."""
    stage = int(tie["playoff"].get("stage", 0)) + 1
    playoff_id = f"{st.section_id}.{tie['tie_id']}.v{tie['revision']}.s{stage}"
    matches, specs, playing = [], [], []
    for grp in groups:
        if len(grp) < 2:
            continue
        playing += grp
        for i in range(len(grp)):
            for j in range(i + 1, len(grp)):
                a, b = grp[i], grp[j]
                (pa, ta, xa), (pb, tb, xb) = _player_for(st, a), _player_for(st, b)
                pid = f"p{len(matches) + 1}"
                matches.append(
                    {
                        "pairing_id": pid,
                        "first": pa,
                        "second": pb,
                        "first_entrant": a,
                        "second_entrant": b,
                        "winner": None,
                        "done": False,
                    }
                )
                specs.append(
                    PairingSpec(
                        pairing_id=pid,
                        first=pa,
                        second=pb,
                        games=2,
                        ruleset=st.rules.ruleset,
                        clock=st.rules.playoff_clock,
                        first_partner=xa,
                        second_partner=xb,
                        first_team=ta,
                        second_team=tb,
                        board=1 if st.team else None,
                    )
                )
    tie = {
        **tie,
        "status": "playing",
        "playoff": {"stage": stage, "playoff_id": playoff_id, "groups": groups, "matches": matches},
    }
    await repo.upsert_tie(uow.session, st, tie)
    _emit(
        uow,
        st,
        PlayoffRequired(
            event_code=st.event_code,
            stage=st.row["stage"],
            section_id=st.section_id,
            playoff_id=playoff_id,
            place_from=tie["place_from"],
            place_to=tie["place_to"],
            entrant_ids=playing,
            pairings=specs,
            decider_clock=st.rules.playoff_decider_clock,
            starts_at=uow.clock.now(),
            no_show_minutes=st.rules.no_show_minutes,
        ),
    )


async def _playoff_game(uow, st: SectionState, g: GameFinished) -> None:
    tie = next(
        (t for t in st.ties if t["playoff"].get("playoff_id") == g.playoff_id and t["status"] == "playing"), None
    )
    if tie is None or g.outcome is None and not g.double_forfeit:
        return
    po = {**tie["playoff"], "matches": [dict(m) for m in tie["playoff"]["matches"]]}
    m = next((x for x in po["matches"] if x["pairing_id"] == g.pairing_id), None)
    if m is None or m["done"]:
        return
    m["done"] = True
    if not g.double_forfeit and g.outcome is not None:
        fp, sp = g.outcome.first_points, g.outcome.second_points
        if g.first is not None and g.first == m["second"]:
            fp, sp = sp, fp
        m["winner"] = m["first_entrant"] if fp > sp else m["second_entrant"] if sp > fp else None
    tie = {**tie, "playoff": po}
    if not all(x["done"] for x in po["matches"]):
        await repo.upsert_tie(uow.session, st, tie)
        return
    wins: dict[str, int] = {}
    for x in po["matches"]:
        if x["winner"]:
            wins[x["winner"]] = wins.get(x["winner"], 0) + 1
    new_groups: list[list[str]] = []
    stuck = False
    for grp in po["groups"]:
        if len(grp) == 1:
            new_groups.append(grp)
            continue
        ordered = sorted(grp, key=lambda e: (-wins.get(e, 0), grp.index(e)))
        split: list[list[str]] = []
        for e in ordered:
            if split and wins.get(split[-1][0], 0) == wins.get(e, 0):
                split[-1].append(e)
            else:
                split.append([e])
        in_group = [x for x in po["matches"] if x["first_entrant"] in grp]
        if len(split) == 1 and all(x["winner"] is None for x in in_group):
            stuck = True  # nobody played (double forfeits): a replay would repeat it — the arbiter decides
        new_groups += split
    if all(len(grp) == 1 for grp in new_groups):
        tie = {
            **tie,
            "status": "decided",
            "decision": [grp[0] for grp in new_groups],
            "decided_by": "playoff",
            "decided_at": uow.clock.now(),
        }
        await repo.upsert_tie(uow.session, st, tie)
        await _maybe_complete(uow, st)
    elif stuck:
        tie = {**tie, "status": "open", "action": "arbiter"}
        await repo.upsert_tie(uow.session, st, tie)
        await _maybe_complete(uow, st)
    else:
        await _start_playoff(uow, st, tie, new_groups)


async def _maybe_complete(uow, st: SectionState) -> None:
    open_ = [t for t in st.ties if t["status"] in ("open", "playing")]
    if open_:
        status = "awaiting_playoff" if any(t["status"] == "playing" for t in open_) else "awaiting_arbiter"
        await repo.update_tournament(uow.session, st, status=status)
        return
    await complete(uow, st)


def completed_payload(st: SectionState, revision: int) -> SectionCompleted:
    rk = sec.ranked(st)
    entrants = []
    for _no, row in sorted(st.entrants.items()):
        e: Entrant = row["entrant"]
        if row["withdrawn_after"] is not None:
            e = e.model_copy(
                update={"attributes": {**e.attributes, "withdrawn": True, "withdrawn_after": row["withdrawn_after"]}}
            )
        entrants.append(e)
    closed = st.row["closed"]
    return SectionCompleted(
        event_code=st.event_code,
        stage=st.row["stage"],
        section_id=st.section_id,
        name=closed.get("name", st.row["name"]),
        revision=revision,
        rules=st.rules,
        standings=sec.contract_rows(st, rk, final=True),
        entrants=entrants,
        board_stats=sec.board_stats(st) if st.team else [],
        flagged_ties=[t["entrant_ids"] for t in st.ties if t["action"] == "arbiter" and t["status"] != "void"],
        rounds_played=len(st.complete_rounds()),
    )


async def complete(uow, st: SectionState) -> None:
    """Emit section.completed (revision + 1 after a correction, AWD-8)."""
    revision = st.row["revision"] + 1
    payload = completed_payload(st, revision)
    await repo.update_tournament(
        uow.session,
        st,
        status="completed",
        revision=revision,
        completed_at=uow.clock.now(),
        final=payload.model_dump(mode="json"),
    )
    _emit(uow, st, payload)


# ---------------------------------------------------------------- arbiter actions


async def audit(uow, st: SectionState, principal, action: str, rnd: int | None, details: dict) -> None:
    await repo.add_audit(
        uow.session,
        st,
        at=uow.clock.now(),
        role=principal.role,
        key_id=principal.key_id,
        action=action,
        rnd=rnd,
        details=details,
    )


def _no(st: SectionState, entrant_id: str) -> int:
    no = st.by_entrant_id().get(entrant_id)
    if no is None:
        raise Unprocessable("unknown_entrant", f"{entrant_id!r} is not an entrant of {st.section_id}")
    return no


async def enter_result(
    uow, ec: str, sid: str, r: int, pairing_id: str, result: str, principal, pairer: Pairer, note: str = ""
) -> dict:
    """Enter or correct a result (PAIR-11): standings recompute; later rounds are never re-paired;
    after completion the section is republished with revision + 1 (AWD-8)."""
    st = await load_locked(uow, ec, sid)
    if r not in st.rounds or st.rounds[r]["status"] == "draft":
        raise Conflict("round_not_published", f"round {r} is not published")
    p = next((x for x in st.pairings.get(r, []) if x["pairing_id"] == pairing_id), None)
    if p is None:
        raise NotFound("pairing_not_found", f"no pairing {pairing_id!r} in round {r}")
    o = sec.RESULTS[result]
    before = p["outcome"]
    if before == o.value:
        return {"pairing_id": pairing_id, "result": sec.result_name(o), "changed": False}
    fp, sp = _points_of(st, o)
    await repo.set_result(
        uow.session,
        st,
        p,
        outcome=o.value,
        first_points=fp,
        second_points=sp,
        result_source="arbiter",
        result_at=uow.clock.now(),
    )
    await audit(
        uow, st, principal, "result", r, {"pairing_id": pairing_id, "before": before, "after": o.value, "note": note}
    )
    _emit_decision(uow, st, r, p, o, note)
    if st.rounds[r]["status"] == "complete":
        last = max(st.complete_rounds())
        _emit(
            uow,
            st,
            StandingsUpdated(
                event_code=st.event_code,
                stage=st.row["stage"],
                section_id=st.section_id,
                after_round=last,
                standings=sec.contract_rows(st, sec.ranked(st)),
            ),
        )
        if st.row["status"] in ("completed", "awaiting_arbiter", "awaiting_playoff") and last >= st.rules.rounds:
            await finalize(uow, st)
    elif r == st.row["current_round"]:
        await advance(uow, st, pairer)
    await _save_seq(uow, st)
    return {"pairing_id": pairing_id, "result": sec.result_name(o), "changed": True}


def _emit_decision(uow, st: SectionState, r: int, p: dict, o: Outcome, note: str) -> None:
    """The arbiter's result travels to gameplay, which closes (or corrects) the pairing's games
    with it: one result in both services, whatever is still being played (PAIR-11)."""
    reason = "no_show" if o in sec.FORFEITS else "arbiter"
    _emit(
        uow,
        st,
        ResultDecided(
            event_code=st.event_code,
            stage=st.row["stage"],
            section_id=st.section_id,
            round=r,
            pairing_id=p["pairing_id"],
            first=p["first_id"],
            second=p["second_id"],
            outcome=sec.result_name(o),
            reason=reason,
            sequence=st.row["event_seq"] + 1,
            decided_at=uow.clock.now(),
            note=note,
        ),
    )


def _next_round(st: SectionState) -> int:
    """The round byes and withdrawals apply to: a draft round, else the one after the current."""
    r = st.row["current_round"]
    if r and st.rounds.get(r, {}).get("status") == "draft":
        return r
    return r + 1


async def _repair_draft(uow, st: SectionState, pairer: Pairer) -> None:
    r = st.row["current_round"]
    if r and st.rounds.get(r, {}).get("status") == "draft":
        await repo.delete_round(uow.session, st, r)
        await pair_round(uow, st, r, pairer)


async def add_bye(uow, ec: str, sid: str, entrant_id: str, kind: str, r: int | None, principal, pairer: Pairer) -> dict:
    """A requested (half point) or arbiter-forced (full point) bye for a round not yet published."""
    st = await load_locked(uow, ec, sid)
    if st.row["status"] in ("completed", "cancelled"):
        raise Conflict("section_finished", f"section {sid} is {st.row['status']}")
    nxt = _next_round(st)
    r = nxt if r is None else r
    if r < nxt:
        raise Conflict("round_published", f"round {r} is already published: past rounds are never re-paired")
    if r > st.rules.rounds:
        raise Unprocessable("no_such_round", f"the section has {st.rules.rounds} rounds")
    no = _no(st, entrant_id)
    await repo.add_request(
        uow.session,
        st,
        round=r,
        start_no=no,
        kind=kind,
        created_at=uow.clock.now(),
        by=principal.key_id or principal.role,
    )
    await audit(uow, st, principal, "bye", r, {"entrant_id": entrant_id, "kind": kind})
    if r == st.row["current_round"]:
        await _repair_draft(uow, st, pairer)
    await _save_seq(uow, st)
    return {"entrant_id": entrant_id, "round": r, "kind": kind}


async def withdraw(
    uow, ec: str, sid: str, entrant_id: str, after_round: int | None, reason: str, principal, pairer: Pairer
) -> dict:
    """Withdraw a player (PAIR-11): never paired after ``after_round``; past rounds stand."""
    st = await load_locked(uow, ec, sid)
    if st.row["status"] in ("completed", "cancelled"):
        raise Conflict("section_finished", f"section {sid} is {st.row['status']}")
    nxt = _next_round(st)
    after = nxt - 1 if after_round is None else after_round
    if after < nxt - 1:
        raise Conflict("round_published", f"round {after + 1} is already published: past rounds are never re-paired")
    no = _no(st, entrant_id)
    await repo.set_withdrawn(uow.session, st, no, after, reason, uow.clock.now(), principal.key_id or principal.role)
    await audit(uow, st, principal, "withdrawal", after, {"entrant_id": entrant_id, "reason": reason})
    if after < st.row["current_round"]:
        await _repair_draft(uow, st, pairer)
    await _save_seq(uow, st)
    return {"entrant_id": entrant_id, "after_round": after}


async def late_entry(uow, ec: str, sid: str, entrant: Entrant, principal, pairer: Pairer) -> dict:
    """A late entry (PAIR-11): paired from the next unpublished round on, absent (no points) before;
    past rounds stay as paired. Swiss individual sections only (a round robin's table is fixed)."""
    st = await load_locked(uow, ec, sid)
    if st.row["status"] != "running" or st.team or st.rules.format != "swiss":
        raise Conflict("late_entry_refused", "late entries join running individual Swiss sections only")
    if entrant.entrant_id in st.by_entrant_id():
        raise Conflict("already_entered", f"{entrant.entrant_id} is already an entrant")
    r = _next_round(st)
    if r > st.rules.rounds:
        raise Conflict("late_entry_refused", "no round is left to play")
    no = max(st.entrants) + 1
    await uow.session.execute(
        orm.entrants.insert().values(
            event_code=ec,
            section_id=sid,
            start_no=no,
            entrant_id=entrant.entrant_id,
            data=entrant.model_dump(mode="json"),
            entry_round=r,
            withdrawn_after=None,
        )
    )
    st.entrants[no] = dict(
        event_code=ec,
        section_id=sid,
        start_no=no,
        entrant_id=entrant.entrant_id,
        data=entrant.model_dump(mode="json"),
        entry_round=r,
        withdrawn_after=None,
        entrant=entrant,
    )
    await audit(uow, st, principal, "late_entry", r, {"entrant_id": entrant.entrant_id})
    if r == st.row["current_round"]:
        await _repair_draft(uow, st, pairer)
    await _save_seq(uow, st)
    return {"entrant_id": entrant.entrant_id, "start_no": no, "entry_round": r}


async def set_hold(uow, ec: str, sid: str, hold: bool, principal) -> dict:
    st = await load_locked(uow, ec, sid)
    await repo.update_tournament(uow.session, st, hold=hold)
    await audit(uow, st, principal, "hold", None, {"hold": hold})
    return {"hold": hold}


async def publish_round(uow, ec: str, sid: str, r: int, principal) -> dict:
    """Publish a draft round (the arbiter reviewed it): from now on its pairings are final."""
    st = await load_locked(uow, ec, sid)
    if r not in st.rounds:
        raise NotFound("round_not_found", f"round {r} is not paired")
    if st.rounds[r]["status"] != "draft":
        raise Conflict("round_published", f"round {r} is already published")
    now = uow.clock.now()
    await repo.update_round(uow.session, st, r, status="published", published_at=now, starts_at=now)
    await audit(uow, st, principal, "publish", r, {})
    await _published(uow, st, r)
    await _save_seq(uow, st)
    return {"round": r, "status": "published"}


async def correct_pairings(
    uow,
    ec: str,
    sid: str,
    r: int,
    boards: list[tuple[str, str]],
    byes: list[tuple[str, str]],
    principal,
    pairer: Pairer,
) -> dict:
    """The arbiter's pairing of round ``r`` (a draft, or a round the engine could not pair), checked
    against the absolute criteria before it is stored (PAIR-2, PAIR-11)."""
    st = await load_locked(uow, ec, sid)
    cur = st.row["current_round"]
    editable = (r == cur and st.rounds.get(r, {}).get("status") == "draft") or (
        r == cur + 1
        and (cur == 0 or st.rounds.get(cur, {}).get("status") == "complete")
        and st.row["status"] == "awaiting_arbiter"
        and r <= st.rules.rounds
    )
    if not editable:
        raise Conflict("round_published", f"round {r} cannot be changed: published rounds are final")
    idx = st.by_entrant_id()
    try:
        pb = tuple(Board(idx[a], idx[b]) for a, b in boards)
        codes = {
            "pairing": Code.PAIRING_BYE,
            "requested": sec.bye_rules().requested,
            "forced": sec.bye_rules().forced,
            "absent": Code.ZERO_BYE,
        }
        by = {idx[e]: codes[k] for e, k in byes}
    except KeyError as e:
        raise Unprocessable("unknown_entrant", f"{e.args[0]!r} is not an entrant of this section") from None
    rp = RoundPairing(r, pb, by)
    dom = sec.team_tournament(st) if st.team else sec.tournament(st)
    t = as_tournament(dom) if st.team else dom
    exclude = [no for no, c in by.items() if c is not Code.PAIRING_BYE]
    participants = active_players(t, r, exclude=exclude)
    problems = check_round(t, rp, participants)
    if st.rules.format == "round_robin":
        problems = [x for x in problems if "colour" not in x and "three times" not in x]
    if problems:
        raise Unprocessable("illegal_pairing", "the pairing breaks the absolute criteria", {"problems": problems})
    await repo.delete_round(uow.session, st, r)
    await audit(
        uow, st, principal, "pairings", r, {"boards": [list(b) for b in boards], "byes": [list(b) for b in byes]}
    )
    await store_round(uow, st, rp, paired_by="arbiter")
    await _save_seq(uow, st)
    return {"round": r, "status": st.rounds[r]["status"]}


async def decide_tie(uow, ec: str, sid: str, tie_id: str, order: list[Any], principal) -> dict:
    """PAIR-8 where playoffs are forbidden (or a playoff could not be played): the arbiter's order."""
    st = await load_locked(uow, ec, sid)
    tie = next((t for t in st.ties if t["tie_id"] == tie_id and t["status"] != "void"), None)
    if tie is None:
        raise NotFound("tie_not_found", f"no tie {tie_id!r} in {sid}")
    if tie["status"] == "decided":
        raise Conflict("tie_decided", f"tie {tie_id} is already decided")
    if tie["status"] == "playing":
        raise Conflict("playoff_running", f"tie {tie_id} is being settled by a playoff")
    flat = [x for grp in order for x in (grp if isinstance(grp, list) else [grp])]
    if sorted(flat) != sorted(tie["entrant_ids"]):
        raise Unprocessable(
            "bad_order", "the order must list exactly the tied entrants", {"expected": sorted(tie["entrant_ids"])}
        )
    tie = {**tie, "status": "decided", "decision": order, "decided_by": "arbiter", "decided_at": uow.clock.now()}
    await repo.upsert_tie(uow.session, st, tie)
    await audit(uow, st, principal, "tie_decision", None, {"tie_id": tie_id, "order": order})
    await _maybe_complete(uow, st)
    await _save_seq(uow, st)
    return {"tie_id": tie_id, "status": "decided", "order": order}
