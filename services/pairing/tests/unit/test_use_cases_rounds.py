"""Pairing's round use cases on the in-memory repositories and the fake unit of work (the fast
lane, issue 31): what each command of the handlers' table changes and what it publishes —
section.closed (PAIR-1, REG-12), game.finished (PAIR-4, PAIR-11), the arbiter's results
(PAIR-11, AWD-8), holds, drafts, corrected pairings and publishing (PAIR-2, PAIR-11). The same
behaviour through the HTTP API on SQLite is in the slow ``test_service_*`` modules."""

from __future__ import annotations

import pytest
from pairing_fakes import ARBITER, FakeUnitOfWork, games_won_by_first
from pairing_kit import EV, closed, players, rules

from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from pairing.service_layer.commands import (
    CorrectPairings,
    EnterResult,
    OpenSection,
    PublishRound,
    RecordGame,
    SetHold,
)


async def _opened(sid: str = "a", n: int = 6, rounds: int = 3, **kw) -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    await uow.handle(OpenSection(closed(sid, players(n), rules(rounds=rounds, **kw))))
    return uow


async def _play(uow: FakeUnitOfWork, rnd: int, sid: str = "a", draws: bool = False) -> None:
    [paired] = [p for p in uow.payloads("round.paired", sid) if p.round == rnd]
    for game in games_won_by_first(paired, draws):
        await uow.handle(RecordGame(game))


async def test_pair1_section_closed_opens_the_tournament_and_publishes_round_one():
    """PAIR-1/PAIR-11: a ready section is stored with its entrants by start number and round 1
    goes out at once; the same section.closed again changes nothing."""
    uow = await _opened(n=6)
    [paired] = uow.payloads("round.paired", "a")
    assert paired.round == 1 and len(paired.pairings) == 3 and paired.byes == []
    assert sorted(e["entrant_id"] for e in uow.store.sections[(EV, "a")].entrants.values()) == [
        p.entrant_id for p in players(6)
    ]
    state = await uow.sections.load(EV, "a")
    assert state is not None and (state.row["status"], state.row["current_round"]) == ("running", 1)
    await uow.handle(OpenSection(closed("a", players(6), rules(rounds=3))))
    assert len(uow.events) == 1


async def test_reg12_section_cancelled_at_closing_completes_unpaired():
    """REG-12: a section cancelled at closing is never paired but goes out as section.completed
    with ``cancelled`` and no standings."""
    uow = FakeUnitOfWork()
    await uow.handle(OpenSection(closed("a", players(3), rules(), status="cancelled")))
    assert uow.payloads("round.paired") == []
    [done] = uow.payloads("section.completed", "a")
    assert done.cancelled and done.standings == [] and done.revision == 1


async def test_pair11_one_entrant_waits_for_the_arbiter():
    uow = FakeUnitOfWork()
    await uow.handle(OpenSection(closed("a", players(1), rules())))
    state = await uow.sections.load(EV, "a")
    assert state is not None and state.row["status"] == "awaiting_arbiter" and uow.events == []


async def test_pair11_games_finish_the_round_then_standings_and_the_next_round_go_out():
    """PAIR-4/PAIR-11: the last result of a round publishes the standings and pairs the next
    round; a re-sent game.finished counts once; after the last round the section completes."""
    uow = await _opened(n=6, rounds=2)
    [paired] = uow.payloads("round.paired", "a")
    games = games_won_by_first(paired)
    for game in games[:-1]:
        await uow.handle(RecordGame(game))
    assert uow.payloads("standings.updated") == []  # one pairing still plays
    await uow.handle(RecordGame(games[-1]))
    await uow.handle(RecordGame(games[-1]))
    [standings] = uow.payloads("standings.updated", "a")
    assert standings.after_round == 1 and sorted(row.points for row in standings.standings) == [0] * 3 + [2] * 3
    assert [p.round for p in uow.payloads("round.paired", "a")] == [1, 2]
    assert len(uow.store.games) == 3
    await _play(uow, 2)
    [done] = uow.payloads("section.completed", "a")
    assert done.revision == 1 and done.rounds_played == 2 and not done.cancelled


async def test_pair11_arbiter_results_complete_a_round_with_result_decided_and_audit():
    """PAIR-11: results entered by the arbiter go to gameplay (result.decided, in sequence),
    are audited, and complete the round like game results."""
    uow = await _opened(n=4)
    [paired] = uow.payloads("round.paired", "a")
    for spec in paired.pairings:
        answer = await uow.handle(EnterResult(EV, "a", 1, spec.pairing_id, "draw", ARBITER))
        assert answer == {"pairing_id": spec.pairing_id, "result": "draw", "changed": True, "revision": 1}
    decided = uow.payloads("result.decided", "a")
    assert [d.pairing_id for d in decided] == [s.pairing_id for s in paired.pairings]
    assert decided[0].sequence < decided[1].sequence and decided[0].reason == "arbiter"
    assert [p.round for p in uow.payloads("round.paired", "a")] == [1, 2]
    assert [row["action"] for row in await uow.audit.of_section(EV, "a")] == ["result", "result"]
    again = await uow.handle(EnterResult(EV, "a", 1, paired.pairings[0].pairing_id, "draw", ARBITER))
    assert again["changed"] is False


async def test_pair11_result_refusals_change_nothing_and_publish_nothing():
    """A stale revision (409), an unknown pairing (404) and an unpublished round (409) roll the
    whole command back."""
    uow = await _opened(n=4)
    pairing_id = uow.payloads("round.paired", "a")[0].pairings[0].pairing_id
    await uow.handle(EnterResult(EV, "a", 1, pairing_id, "first_wins", ARBITER))
    published = len(uow.events)
    with pytest.raises(Conflict) as stale:
        await uow.handle(EnterResult(EV, "a", 1, pairing_id, "draw", ARBITER, expected_revision=0))
    assert stale.value.code == "stale_revision" and stale.value.details["current"]["revision"] == 1
    with pytest.raises(NotFound):
        await uow.handle(EnterResult(EV, "a", 1, "r1.b99", "draw", ARBITER))
    with pytest.raises(Conflict):
        await uow.handle(EnterResult(EV, "a", 3, "r3.b1", "draw", ARBITER))
    assert len(uow.events) == published
    assert (await uow.sections.pairing(EV, "a", pairing_id))["outcome"] == "1-0"


async def test_awd8_a_correction_after_completion_republishes_with_revision_two():
    """AWD-8: a corrected result after the last round republishes section.completed with
    revision + 1; the pairings stay as they were."""
    uow = await _opened(n=4, rounds=1)
    await _play(uow, 1)
    spec = uow.payloads("round.paired", "a")[0].pairings[0]
    await uow.handle(EnterResult(EV, "a", 1, spec.pairing_id, "second_wins", ARBITER, expected_revision=1))
    assert [d.revision for d in uow.payloads("section.completed", "a")] == [1, 2]
    assert len(uow.payloads("round.paired", "a")) == 1


async def test_pair11_hold_makes_the_next_round_a_draft_the_arbiter_corrects_and_publishes():
    """PAIR-11/PAIR-2: with hold on the next round is a draft (nothing published); a corrected
    pairing with a rematch is refused (422), a legal one stored, and publishing sends it out once."""
    uow = await _opened(n=4)
    assert await uow.handle(SetHold(EV, "a", True, ARBITER)) == {"hold": True}
    await _play(uow, 1)
    assert [p.round for p in uow.payloads("round.paired", "a")] == [1]
    assert (await uow.sections.load(EV, "a")).rounds[2]["status"] == "draft"
    r1 = uow.payloads("round.paired", "a")[0].pairings
    rematch = [(r1[0].first, r1[0].second), (r1[1].first, r1[1].second)]
    with pytest.raises(Unprocessable) as illegal:
        await uow.handle(CorrectPairings(EV, "a", 2, rematch, [], ARBITER))
    assert illegal.value.code == "illegal_pairing"
    good = [(r1[0].second, r1[1].second), (r1[1].first, r1[0].first)]
    assert await uow.handle(CorrectPairings(EV, "a", 2, good, [], ARBITER)) == {"round": 2, "status": "draft"}
    assert await uow.handle(PublishRound(EV, "a", 2, ARBITER)) == {"round": 2, "status": "published"}
    r2 = uow.payloads("round.paired", "a")[1]
    assert [(s.first, s.second) for s in r2.pairings] == good
    with pytest.raises(Conflict):
        await uow.handle(PublishRound(EV, "a", 2, ARBITER))
    actions = [row["action"] for row in await uow.audit.of_section(EV, "a")]
    assert actions == ["hold", "pairings", "publish"]


async def test_pair11_the_arbiters_result_stands_over_a_later_game_finished():
    """PAIR-11: a game.finished arriving after the arbiter's result of its pairing is recorded
    but not scored: the arbiter's result stands and the round is paired once."""
    uow = await _opened(n=4, rounds=2)
    first, second = games_won_by_first(uow.payloads("round.paired", "a")[0])
    await uow.handle(EnterResult(EV, "a", 1, first.pairing_id, "second_wins", ARBITER, note="dispute"))
    [decided] = uow.payloads("result.decided", "a")
    assert (decided.outcome, decided.reason, decided.note) == ("second_wins", "arbiter", "dispute")
    await uow.handle(RecordGame(first))
    await uow.handle(RecordGame(second))
    stored = await uow.sections.pairing(EV, "a", first.pairing_id)
    assert stored is not None and (stored["outcome"], stored["result_source"]) == ("0-1", "arbiter")
    assert [p.round for p in uow.payloads("round.paired", "a")] == [1, 2] and len(uow.store.games) == 2


async def test_pair6_a_double_forfeit_scores_nothing_from_gameplay_or_the_arbiter():
    """PAIR-6 / PLAY-7: both absent is a double forfeit, 0:0 and never a draw; entered by the
    arbiter it goes to gameplay with the forfeit reason."""
    uow = await _opened(n=4, rounds=2)
    first, second = games_won_by_first(uow.payloads("round.paired", "a")[0])
    absent = first.model_copy(update={"winner": None, "result": "double_forfeit", "reason": "no_show"})
    await uow.handle(RecordGame(absent.model_copy(update={"double_forfeit": True})))
    await uow.handle(EnterResult(EV, "a", 1, second.pairing_id, "double_forfeit", ARBITER))
    [decided] = uow.payloads("result.decided", "a")
    assert (decided.outcome, decided.reason) == ("double_forfeit", "no_show")
    [standings] = uow.payloads("standings.updated", "a")
    assert all(row.points == 0 and row.games_played == 0 for row in standings.standings)


async def test_awd8_each_correction_goes_to_gameplay_with_a_higher_sequence():
    """AWD-8: every correction after completion republishes the section (revision + 1) and is
    sent to gameplay with a higher sequence (gameplay applies only the latest)."""
    uow = await _opened(n=4, rounds=1)
    await _play(uow, 1)
    pairing_id = uow.payloads("round.paired", "a")[0].pairings[0].pairing_id
    for seen, result in enumerate(("second_wins", "draw"), 1):
        await uow.handle(EnterResult(EV, "a", 1, pairing_id, result, ARBITER, expected_revision=seen))
    decided = uow.payloads("result.decided", "a")
    assert [d.outcome for d in decided] == ["second_wins", "draw"] and decided[0].sequence < decided[1].sequence
    assert [c.revision for c in uow.payloads("section.completed", "a")] == [1, 2, 3]
