"""REG-2 / REG-3: the indexes the cap, waiting-list, duplicate and quota checks read stay equal
to a scan of every entry, whatever sequence of writes the aggregate makes (the bulk import of
issue #18 reads them instead of scanning the event per entry)."""

from __future__ import annotations

import copy
import random

from registration.domain.entry_book import EntryBook
from registration.domain.model import Entry, EntryStatus

SECTIONS = ("men", "women", "juniors")
UNITS = (None, "u1", "u2")
PEOPLE = tuple(f"p{index}" for index in range(12))


def _random_entry(rng: random.Random, entry_id: str) -> Entry:
    players = tuple(rng.sample(PEOPLE, rng.choice((1, 1, 2))))
    return Entry(
        id=entry_id,
        event_id="ev",
        section_id=rng.choice(SECTIONS),
        person_ids=players,
        unit_id=rng.choice(UNITS),
        status=rng.choice(list(EntryStatus)),
        received_at=None,
        quota_exempt=frozenset(player for player in players if rng.random() < 0.3),
    )


def _assert_index_matches_a_scan(book: EntryBook) -> None:
    everything = list(book.values())
    for section in SECTIONS:
        in_section = [e for e in everything if e.section_id == section]
        assert list(book.of_section(section)) == in_section  # submission order kept
        assert book.held(section) == sum(e.status.holds_place for e in in_section)
        assert book.waiting(section) == sum(e.status is EntryStatus.WAITLISTED for e in in_section)
        for person in PEOPLE:
            seated = {
                e.id
                for e in in_section
                if person in e.person_ids and (e.status.holds_place or e.status is EntryStatus.WAITLISTED)
            }
            assert book.seats(section, person) == seated
    for unit in UNITS[1:]:
        held = [e for e in everything if e.unit_id == unit and e.status.holds_place]
        assert book.unit_players(unit) == {p for e in held for p in e.person_ids}
        assert book.unit_exempt(unit) == {p for e in held for p in e.quota_exempt}


def test_reg2_reg3_index_follows_every_kind_of_write():
    rng = random.Random(18)
    book = EntryBook()
    for step in range(600):
        ids = list(book)
        action = rng.random()
        if action < 0.45 or not ids:
            entry_id = f"e{step}"
            book[entry_id] = _random_entry(rng, entry_id)  # a new entry
        elif action < 0.75:
            entry_id = rng.choice(ids)
            book[entry_id] = _random_entry(rng, entry_id)  # status, section or players change
        elif action < 0.85:
            del book[rng.choice(ids)]
        elif action < 0.9:
            book.pop(rng.choice(ids))
        elif action < 0.95:
            entry_id = rng.choice(ids)
            book.update({entry_id: _random_entry(rng, entry_id), f"x{step}": _random_entry(rng, f"x{step}")})
        else:
            book.setdefault(f"s{step}", _random_entry(rng, f"s{step}"))
        _assert_index_matches_a_scan(book)
    assert len(book) > 50


def test_reg2_copies_and_a_plain_dict_given_are_indexed_alike():
    rng = random.Random(5)
    plain = {f"e{index}": _random_entry(rng, f"e{index}") for index in range(40)}
    book = EntryBook(plain)
    _assert_index_matches_a_scan(book)
    for duplicate in (copy.copy(book), copy.deepcopy(book), book.copy()):
        assert isinstance(duplicate, EntryBook) and duplicate == plain
        _assert_index_matches_a_scan(duplicate)
    book.clear()
    assert book.held("men") == 0 and list(book.of_section("men")) == []
