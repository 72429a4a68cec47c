"""Names in the page's language (issue 28): the event, its stages and sections as registration
names them (``name`` and the presets' ``name_zh``), put in place before a page is drawn, so that
a Chinese page says 男子组（大众规则组） where the services' answers say "Men, free rules".

``localise`` is applied by ``Site.html`` to every page's context: the event, the section of
pairing's answer (named again by the event's section of that id) and the awards page's
``section_names``. An English page keeps the English names; a name without a Chinese one stays
as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _named(item: Mapping[str, Any], lang: str) -> dict[str, Any]:
    if lang == "zh" and item.get("name_zh"):
        return {**item, "name": item["name_zh"]}
    return dict(item)


def event_in(event: Any, lang: str) -> Any:
    """Registration's event with the event's, its stages' and sections' names in ``lang``."""
    if not isinstance(event, Mapping):
        return event
    named = _named(event, lang)
    stages = event.get("stages")
    if isinstance(stages, list):
        named["stages"] = [
            {
                **_named(stage, lang),
                "sections": [_named(sec, lang) for sec in stage.get("sections", []) if isinstance(sec, Mapping)],
            }
            for stage in stages
            if isinstance(stage, Mapping)
        ]
    return named


def section_names(event: Any) -> dict[str, str]:
    """Each section's name by its id (in the language ``event_in`` put the event in)."""
    if not isinstance(event, Mapping):
        return {}
    return {
        str(sec.get("id")): str(sec.get("name") or "—")
        for stage in event.get("stages", []) or []
        for sec in stage.get("sections", []) or []
    }


def localise(ctx: dict[str, Any], lang: str) -> None:
    """The page's context with its names in ``lang`` (in place)."""
    if "event" not in ctx:
        return
    ctx["event"] = event_in(ctx["event"], lang)
    names = section_names(ctx["event"])
    section = ctx.get("section")
    if isinstance(section, Mapping) and names.get(str(section.get("section_id"))):
        ctx["section"] = {**section, "name": names[str(section["section_id"])]}
    if "section_names" in ctx:
        ctx["section_names"] = names
