"""Tables of the awards service (its own database; no other service reads them).

JSON documents are stored as canonical text (sorted keys, no spaces) so that equal content
is equal bytes: that is how "an identical republish changes nothing" is decided.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Date, Float, Index, Integer, MetaData, String, Table, Text, UniqueConstraint

from gomoku_shared.db import UtcDateTime
from gomoku_shared.event_access import event_access_table
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)
#: issue 29: who owns each event (event.access_changed), for the staff's per-event authorisation
event_access = event_access_table(metadata)

#: one row per event: its configuration (from event.configured), or a placeholder row that
#: serialises the handlers of one event (SELECT … FOR UPDATE) before the configuration came
event_configs = Table(
    "event_configs",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("name", String(300), nullable=True),
    Column("preset_id", String(100), nullable=True),
    #: canonical JSON of EventConfig; NULL until event.configured arrives
    Column("config", Text, nullable=True),
    Column("received_at", UtcDateTime(), nullable=True),
)

#: final standings of a section, one row per revision of section.completed (AWD-8)
section_results = Table(
    "section_results",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("section_id", String(100), primary_key=True),
    Column("revision", Integer, primary_key=True),
    Column("stage", String(100), nullable=False),
    Column("name", String(300), nullable=False),
    Column("kind", String(20), nullable=False),
    #: canonical JSON of the SectionCompleted payload
    Column("payload", Text, nullable=False),
    Column("received_at", UtcDateTime(), nullable=False),
)

#: every awards.published, current and superseded (AWD-8 corrections)
publications = Table(
    "publications",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_code", String(100), nullable=False),
    Column("section_id", String(100), nullable=False),
    Column("stage", String(100), nullable=False),
    Column("kind", String(20), nullable=False),
    #: publication number of this section: 1, 2, 3 …
    Column("revision", Integer, nullable=False),
    Column("supersedes", Integer, nullable=True),
    Column("superseded", Boolean, nullable=False, default=False),
    Column("superseded_by", Integer, nullable=True),
    #: section.completed revision it was computed from (None for a team ranking)
    Column("source_revision", Integer, nullable=True),
    #: canonical JSON of the awards.published payload as emitted
    Column("payload", Text, nullable=False),
    #: canonical JSON of the published lists (standings, certificates, prize/title/board rows …)
    Column("document", Text, nullable=False),
    Column("published_at", UtcDateTime(), nullable=False),
    UniqueConstraint("event_code", "section_id", "revision", name="uq_publication_revision"),
    Index("ix_publications_event", "event_code", "section_id"),
)

#: the current team ranking of each team section (AWD-6), one row per unit
team_rankings = Table(
    "team_rankings",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("team_section_id", String(100), primary_key=True),
    Column("unit_id", String(200), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("unit_name", String(300), nullable=False),
    #: NULL for a unit without a team score (reason in note)
    Column("place", Integer, nullable=True),
    Column("score", String(40), nullable=True),
    Column("shared_place", Boolean, nullable=False, default=False),
    #: canonical JSON lists: counted members, tiebreak values
    Column("members", Text, nullable=False),
    Column("tiebreaks", Text, nullable=False),
    Column("note", Text, nullable=False, default=""),
    Column("publication_revision", Integer, nullable=False),
)

#: current qualifier selection per source section and target (AWD-QUAL)
qualifier_selections = Table(
    "qualifier_selections",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("section_id", String(100), primary_key=True),
    Column("target_section_id", String(100), primary_key=True),
    Column("from_stage", String(100), nullable=False),
    Column("to_stage", String(100), nullable=False),
    Column("gender", String(10), nullable=True),
    Column("revision", Integer, nullable=False),
    Column("source_revision", Integer, nullable=False),
    #: False while a tie at a cut waits for an arbiter (not emitted then)
    Column("complete", Boolean, nullable=False),
    #: revision last emitted as qualifiers.selected (NULL: never)
    Column("emitted_revision", Integer, nullable=True),
    #: canonical JSON: qualifiers, substitutes, skipped, flags
    Column("content", Text, nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
)

#: AWD-9 honours the organiser gives (NY 十一(三)): awarded, or revoked (kept, with who and why)
honours = Table(
    "honours",
    metadata,
    Column("event_code", String(100), primary_key=True),
    #: h1, h2 … in the order recorded
    Column("honour_id", String(32), primary_key=True),
    #: organisation | sportsmanship | coach
    Column("kind", String(20), nullable=False),
    #: unit | entrant | coach
    Column("recipient_kind", String(10), nullable=False),
    #: the unit or the entrant id; NULL for a coach
    Column("recipient_id", String(200), nullable=True),
    Column("recipient_name", String(300), nullable=False),
    Column("unit_name", String(300), nullable=True),
    Column("section_id", String(100), nullable=True),
    Column("citation", Text, nullable=False, default=""),
    #: awarded | revoked
    Column("status", String(10), nullable=False),
    Column("awarded_at", UtcDateTime(), nullable=False),
    #: who recorded and who revoked: acct:<account> or the key id, and the name (issue 29)
    Column("awarded_by", String(64), nullable=False),
    Column("awarded_by_name", String(200), nullable=True),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Column("revoked_by", String(64), nullable=True),
    Column("revoked_by_name", String(200), nullable=True),
    Column("revoked_reason", Text, nullable=True),
)

#: staff actions on the awards (a publication asked for by an arbiter or operator), audited
staff_actions = Table(
    "staff_actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_code", String(100), nullable=False),
    Column("section_id", String(100), nullable=False),
    Column("action", String(40), nullable=False),
    #: who acted (issue 29): a person's name, else the key id (never the key) …
    Column("actor", String(120), nullable=False),
    #: … and their stable id: acct:<account>, or the key id
    Column("actor_id", String(64), nullable=True),
    #: the publication current after the action (None: nothing to publish)
    Column("revision", Integer, nullable=True),
    Column("published", Boolean, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Index("ix_staff_actions_section", "event_code", "section_id"),
)

# ---------------------------------------------------------------- the season (issue 32, ADR 0012)

#: one title granted by place (AWD-5) to a registry person; a section's grants are replaced
#: whole when it is published again (AWD-8), so the current title is always computed from these
title_grants = Table(
    "title_grants",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("section_id", String(100), primary_key=True),
    Column("person_id", String(64), primary_key=True),
    Column("organisation", String(64), nullable=False),
    Column("title", String(20), nullable=False),
    Column("place", Integer, nullable=False),
    #: the last day of the section's stage (the configuration's ends_on)
    Column("granted_on", Date, nullable=False),
    Column("name", String(300), nullable=False),
    #: registration's player id in the event (a split of one event person moves its rows)
    Column("player_id", String(100), nullable=True),
    Index("ix_title_grants_person", "organisation", "person_id"),
)

#: one rated game of a rated event (forfeits never stored); replaced per section like grants
rated_games = Table(
    "rated_games",
    metadata,
    Column("event_code", String(100), primary_key=True),
    Column("section_id", String(100), primary_key=True),
    Column("pairing_id", String(64), primary_key=True),
    Column("organisation", String(64), nullable=False),
    Column("round", Integer, nullable=False),
    Column("first_id", String(64), nullable=False),
    Column("second_id", String(64), nullable=False),
    Column("first_name", String(300), nullable=False),
    Column("second_name", String(300), nullable=False),
    #: the first player's score: 1, 0.5 or 0
    Column("score", Float, nullable=False),
    #: the last day of the section's stage: it decides the game's rating period (month)
    Column("played_on", Date, nullable=False),
    #: registration's player ids in the event (a split of one event person moves its games)
    Column("first_player", String(100), nullable=True),
    Column("second_player", String(100), nullable=True),
    Index("ix_rated_games_org", "organisation", "played_on"),
    #: a person's games from either side (a history page: migration 0009)
    Index("ix_rated_games_first", "organisation", "first_id"),
    Index("ix_rated_games_second", "organisation", "second_id"),
)

#: the published rating list of each period (YYYY-MM): every rated person as rated at its end;
#: recomputed whole from the organisation's games whenever they change
rating_lists = Table(
    "rating_lists",
    metadata,
    Column("organisation", String(64), primary_key=True),
    Column("period", String(7), primary_key=True),
    Column("person_id", String(64), primary_key=True),
    Column("name", String(300), nullable=False),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("provisional", Boolean, nullable=False),
    #: the place in the period's list (rating, highest first; person id on a tie: migration 0010)
    Column("rank", Integer, nullable=False),
    #: the name's first character, case folded: what the public search looks people up by
    Column("initial", String(8), nullable=False),
    #: a person's rating after each period (a history page: migration 0009)
    Index("ix_rating_lists_person", "organisation", "person_id", "period"),
    #: a period's list in order, and its length (its last place)
    Index("ix_rating_lists_rank", "organisation", "period", "rank"),
    #: a search by initial reads only the rows found
    Index("ix_rating_lists_initial", "organisation", "period", "initial", "rank"),
)

#: an organisation's title ladder, lowest first (none stored: 18k … 1k, 1d … 9d)
title_ladders = Table(
    "title_ladders",
    metadata,
    Column("organisation", String(64), primary_key=True),
    #: JSON list of titles, lowest first
    Column("titles", Text, nullable=False),
)
