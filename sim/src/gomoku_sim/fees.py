"""The organiser's bookkeeping in a simulated event (REG-14): the operator records, through the
registration API, the board-and-lodging fees each entry owes, received before the deadline.
An amount the regulation announces separately (另行通知) is either announced by the organiser
first (`ANNOUNCED`, NT 十一) or never published, and then the fee clerk confirms each entry paid
in full after its payment (NY, whose regulation gives no amount).

Where the event's fees decide validity, one entry of a seed may be left unpaid on purpose
(`UNPAID`): the stage close refuses it (not paired) and the consistency check still agrees,
since a refused entry is in no field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .client import Platform

#: preset -> how many entries the sim leaves without their fees (NY 十二(三): 不予编排)
UNPAID: Mapping[str, int] = {"ny-2022": 1}
#: what is paid for an item whose amount the seed announces separately (另行通知), in fen
ANNOUNCED_LATER_FEN = 100_000
#: preset -> the amounts the organiser announces (fen, at the item's basis) before the payments
ANNOUNCED: Mapping[str, Mapping[str, int]] = {"nt-2023": {"lodging": 30_000}}


def left_unpaid(report: Mapping[str, Any], preset_id: str) -> list[str]:
    """The entries left unpaid: the last ones of the section with the most entries (so the
    section still has a field), by entry id."""
    count = UNPAID.get(preset_id, 0)
    entries = [e for e in report.get("entries", []) if e.get("status") in ("accepted", "accepted_pending_evidence")]
    if not count or not entries:
        return []
    sizes: dict[str, int] = {}
    for e in entries:
        sizes[e["section_id"]] = sizes.get(e["section_id"], 0) + 1
    largest = max(sorted(sizes), key=lambda sid: sizes[sid])
    if sizes[largest] <= count + 2:
        return []
    return sorted(e["entry_id"] for e in entries if e["section_id"] == largest)[-count:]


async def record_fees(platform: Platform, code: str, preset_id: str) -> list[str]:
    """Record every accepted entry's fees as received now (the registration clock is before the
    deadline); returns the entries left unpaid."""
    report = await platform.get("registration", f"/v1/events/{code}/fees")
    if not report.get("required_for_validity"):
        return []
    if await announce_amounts(platform, code, preset_id, report):
        report = await platform.get("registration", f"/v1/events/{code}/fees")
    unpaid = left_unpaid(report, preset_id)
    for entry in report.get("entries", []):
        if entry["entry_id"] in unpaid or entry.get("status") not in ("accepted", "accepted_pending_evidence"):
            continue
        for item in entry.get("items", []):
            owed = item["due_fen"] if item["due_fen"] is not None else ANNOUNCED_LATER_FEN
            if item["complete"] or owed <= item["paid_fen"]:
                continue
            body = {
                "item": item["item"],
                "amount_fen": owed - item["paid_fen"],
                "entry_id": entry["entry_id"],
                "reference": f"bank-{entry['entry_id']}",
            }
            await platform.post(
                "registration",
                f"/v1/events/{code}/ledger",
                body,
                idempotency_key=f"{code}-fee-{entry['entry_id']}-{item['item']}",
            )
            if item["due_fen"] is None:  # no amount to compare with: the clerk confirms it
                await platform.post(
                    "registration",
                    f"/v1/events/{code}/entries/{entry['entry_id']}/fees/confirmation",
                    {"item": item["item"], "note": "paid in full (receipt checked)"},
                    idempotency_key=f"{code}-fee-ok-{entry['entry_id']}-{item['item']}",
                )
    return unpaid


async def announce_amounts(platform: Platform, code: str, preset_id: str, report: Mapping[str, Any]) -> bool:
    """The organiser announces the amounts the regulation left to a later notice (另行通知),
    where the sim knows them; True when it announced any."""
    amounts = ANNOUNCED.get(preset_id, {})
    pending = [i["id"] for i in report.get("items", []) if i.get("amount_fen") is None and i["id"] in amounts]
    for item_id in pending:
        await platform.post(
            "registration",
            f"/v1/events/{code}/fees/announcements",
            {"item": item_id, "amount_fen": amounts[item_id], "note": "食宿标准 announced"},
            idempotency_key=f"{code}-fee-announce-{item_id}",
        )
    return bool(pending)


def field_counts(entries: list[dict[str, Any]], playing: tuple[Any, ...], unpaid: list[str]) -> dict[str, int]:
    """Entries per section the close will pair: in a playing status, fees paid."""
    counts: dict[str, int] = {}
    for e in entries:
        if e.get("status") in playing and e["entry_id"] not in unpaid:
            counts[e.get("section_id", "")] = counts.get(e.get("section_id", ""), 0) + 1
    return counts
