"""Masks of personal data in answers (docs/privacy.md). A mask never keeps the original length:
a masked value of any length has the same width, so that it tells nothing of what it hides
but the characters it shows on purpose."""

from __future__ import annotations

#: what stands for the hidden part of a name, whatever its length ('李**')
NAME_MASK = "**"
#: what stands for the hidden part of an identifier or reference, whatever its length
TAIL_MASK = "*" * 14
#: characters a tail mask leaves hidden at least: a shorter value is masked entirely
MIN_HIDDEN = 8


def mask_name(name: str | None) -> str:
    """'李小龙' -> '李**', 'Li' -> 'L**': the first character only, then a fixed mask."""
    stripped = (name or "").strip()
    return stripped[:1] + NAME_MASK if stripped else ""


def mask_tail(value: str | None, keep_tail: int = 4) -> str:
    """'440301199001011234' -> '**************1234'; 'E1234567' -> '******************' (a value
    too short to show a tail is masked entirely): always len(TAIL_MASK) + keep_tail characters."""
    stripped = (value or "").strip()
    if not stripped:
        return ""
    if len(stripped) < keep_tail + MIN_HIDDEN:
        return TAIL_MASK + "*" * keep_tail
    return TAIL_MASK + stripped[-keep_tail:]
