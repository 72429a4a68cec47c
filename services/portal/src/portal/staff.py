"""The staff console: people sign in and act through the services' APIs with their own
credentials (entries, evidence review, check-in and no-shows, closing a stage, entering and
correcting results, appeals, honours, invitations, the fee clerk's ledger). One module per group
of pages; this one puts them together on the app."""

from __future__ import annotations

from fastapi import FastAPI

from . import (
    staff_appeals,
    staff_entries,
    staff_event,
    staff_evidence,
    staff_honours,
    staff_invitations,
    staff_ledger,
    staff_organisation,
    staff_relink,
    staff_round,
    staff_sign_in,
    staff_unit_documents,
)
from .sessions import Sessions
from .site import Site
from .staff_pages import StaffPages


def install(app: FastAPI, site: Site) -> None:
    settings = site.settings
    sessions = Sessions(settings.session_secret, settings.session_minutes, settings.database_url)
    app.state.sessions = sessions
    pages = StaffPages(site, sessions)
    staff_sign_in.install(app, pages)
    staff_event.install(app, pages)
    staff_entries.install(app, pages)
    staff_relink.install(app, pages)  # issue 34
    staff_unit_documents.install(app, pages)  # issue 34: a delegation's documents
    staff_evidence.install(app, pages)
    staff_round.install(app, pages)
    staff_appeals.install(app, pages)  # AWD-10
    staff_honours.install(app, pages)  # AWD-9
    staff_invitations.install(app, pages)  # issue 29
    staff_organisation.install(app, pages)  # issue 29
    staff_ledger.install(app, pages)  # issue 29: the fee clerk's console
