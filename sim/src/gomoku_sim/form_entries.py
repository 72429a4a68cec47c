"""Issue 34: part of a field entered by people on the public entry form, as the portal's form
sends it — no partner credential, the challenge answered when the organiser switched it on,
only the facts the section asks — and the photo of the residency document uploaded with the
entry's secret link. The arbiter then reviews the evidence as every other entry's.

Who goes through the form: where the event takes public entries, the players of the field who
enter alone (no unit: the form has none, so units' team scores are untouched). Everything sent
is a function of the seed's field, so the run's results and digest stay those of the seed; the
secret links are kept in memory only (never in the summary). No partner app may act for these
players in their games (gameplay lets a partner act for its own players only), so their bots play
with the staff's key (``acting_role``).
"""

from __future__ import annotations

import hashlib
import io
from typing import Any

from gomoku_shared.event_config import EventConfig

from .client import ApiError, Platform
from .field import Application

#: the form's residency options, by the field's evidence kind (social insurance is no option: the
#: form asks for its months with a residence permit)
FORM_KINDS = {"household_registration", "residence_permit", "student_status"}


def by_form(config: EventConfig, app: Application, sent: int = 0) -> bool:
    """Whether the application is made on the public form (see the module's docstring), ``sent``
    having been made there already: the form takes so many an hour from one address (the run's
    one client; a full field's other lone players go through the partner app)."""
    rules = config.registration.public_entries
    return (
        rules.open
        and sent < min(rules.per_address_per_hour, rules.cap)
        and app.kind == "individual"
        and app.unit is None
        and app.expect == "accepted"
    )


def acting_role(form_entrants: set[str], player_id: str) -> str:
    """The key a bot's game action goes with: the partner app's for its own players; for a player
    entered on the form no partner app may act (gameplay: partners act for their own players
    only), so the staff's key enters that person's moves, as the arbiter's console would."""
    return "arbiter" if player_id in form_entrants else "partner"


def _residency(app: Application) -> dict[str, Any] | None:
    declared = next((e for e in app.evidence if e["kind"] in FORM_KINDS), None)
    if declared is None:
        return None
    out: dict[str, Any] = {"kind": declared["kind"], "region": declared.get("region") or ""}
    if declared["kind"] == "residence_permit":
        paid = next((e for e in app.evidence if e["kind"] == "social_insurance"), {})
        out["insurance_months"] = len(paid.get("months_paid", []))
    return out


def form_body(config: EventConfig, app: Application) -> dict[str, Any]:
    """The form's fields for one player (the guardian's phone derived from the application's id,
    so a seed always sends the same; the policy's number as the partner app gives it)."""
    person = app.people[0]
    body: dict[str, Any] = {
        "section_id": app.section_id,
        "name": person.name,
        "gender": person.gender,
        "birth_date": person.birth_date.isoformat(),
        "id_number": person.id_number,
        "guardian_phone": "139" + str(int(hashlib.sha256(app.app_id.encode()).hexdigest(), 16))[-8:],
    }
    if config.insurance.required and config.insurance.provided_by == "participant":
        body["insurance_policy"] = f"ins-{app.app_id}"  # REG-13, when the form asks it
    residency = _residency(app)
    if residency is not None:
        body["residency"] = residency
    return body


def document_photo(app: Application) -> bytes:
    """A small JPEG standing for the photo of the declared document (the same bytes per seed)."""
    from PIL import Image

    shade = sum(map(ord, app.app_id)) % 200
    out = io.BytesIO()
    Image.new("RGB", (48, 32), (shade, 120, 90)).save(out, "JPEG", quality=80)
    return out.getvalue()


async def enter_on_form(p: Platform, config: EventConfig, code: str, app: Application) -> dict[str, Any]:
    """One application on the public form, its document uploaded by the secret link; answers
    what the driver keeps of a registration (``status``, ``entry_id``; a refusal's clause)."""
    body = form_body(config, app)
    form = await p.get("registration", f"/v1/events/{code}/public-entries/form", role=None)
    if form.get("challenge"):
        sum_ = await p.get("registration", f"/v1/events/{code}/public-entries/challenge", role=None)
        body |= {"challenge": sum_["challenge"], "answer": sum_["a"] + sum_["b"]}
    try:
        made = await p.post("registration", f"/v1/events/{code}/public-entries", body, role=None)
    except ApiError as exc:
        clause = exc.details.get("clause") if isinstance(exc.details, dict) else None
        return {"status": "refused", "clause": clause or exc.code, "reason": exc.message, "http_status": exc.status}
    link = {"X-Registrant-Token": made["token"]}
    sent = None
    if "residency" in body:
        sent = await _upload(p, link, body["residency"]["kind"], document_photo(app))
    mine = await p.get("registration", "/v1/registrant", role=None, headers=link)
    return {
        "status": mine["status"],
        "entry_id": mine["entry_id"],
        "clause": mine.get("clause"),
        "via": "form",
        # the document as stored: its kind and the evidence record it joined (kept by the driver only)
        "document": {"kind": sent.get("kind"), "evidence_id": sent.get("evidence_id")} if sent else None,
    }


async def _upload(p: Platform, link: dict[str, str], kind: str, photo: bytes) -> dict[str, Any]:
    """The document's photo, as the registrant's upload page sends it (multipart); it joins the
    entry's pending evidence of its kind for the arbiter's review."""
    http = p.partner.http  # an httpx client in both modes (the distributed one sends forms too)
    response = await http.post(
        p.url("registration", "/v1/registrant/documents"),
        data={"kind": kind},
        files={"file": ("document.jpg", photo, "image/jpeg")},
        headers=link,
    )
    if response.status_code != 201:
        raise RuntimeError(f"document upload refused: {response.status_code} {response.text}")
    return dict(response.json())
