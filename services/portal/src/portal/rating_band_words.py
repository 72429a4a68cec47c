"""Issue 32 rating-band prizes in the reader's words: a prize row's band of published ratings
("rating under 1600", "等级分1600以下") on the awards page and the certificates PDF."""

from __future__ import annotations

from typing import Any

from .i18n import Words


def band_label(words: Words, row: dict[str, Any]) -> str:
    """The band a prize row's table ranks, in words; "" for a table that ranks everyone."""
    at_least, under = row.get("band_at_least"), row.get("band_under")
    if at_least and under:
        return words.t("prize_band.between", at_least=at_least, under=under)
    if under:
        return words.t("prize_band.under", under=under)
    if at_least:
        return words.t("prize_band.at_least", at_least=at_least)
    return ""


def band_prize_lines(words: Words, section: str, prize: dict[str, Any]) -> list[str]:
    """What a rating-band prize's certificate says was won: the rank among the band's players."""
    return [words.t("pdf.cert.band_prize", section=section, band=band_label(words, prize), n=prize.get("rank"))]


def band_prizes(awards: dict[str, Any]) -> list[dict[str, Any]]:
    """The prize rows of rating-band tables (each gets its own certificate)."""
    return [p for p in awards.get("prizes") or [] if p.get("band_at_least") or p.get("band_under")]
