"""The roles people hold in an organisation's events, as the seeds name them, and which staff
actions each role may take — one table for every service, the console and the docs.

A person holds roles in an organisation (in every event it owns) or in one event. An action
(``ACTIONS``) is allowed to a person who holds one of its roles in the event's organisation or
in the event itself. The platform operator's API keys may take every action. An arbiter's API
key of the time before staff accounts acts for one organisation (``key=arbiter:<organisation>``
in ``API_KEYS``; without one, the ``DEFAULT_ORGANISATION`` that owns events created without an
owner) and holds every event role there, as it could before.
"""

from __future__ import annotations

from collections.abc import Iterable

#: the organisation of events created without one (and of deployments from before organisations)
DEFAULT_ORGANISATION = "default"

#: role -> (Chinese, English)
ROLE_WORDS: dict[str, tuple[str, str]] = {
    "admin": ("组织管理员", "organisation administrator"),
    "organiser": ("组委会", "organiser"),
    "chief_arbiter": ("裁判长", "chief arbiter"),
    "arbiter": ("裁判员", "arbiter"),
    "pairing_officer": ("编排长", "pairing officer"),
    "recorder": ("记录员", "recorder"),
    "fee_clerk": ("收费员", "fee clerk"),
    "arbitration": ("仲裁委员", "arbitration committee member"),
}
STAFF_ROLES: tuple[str, ...] = tuple(ROLE_WORDS)
#: the roles that can be held in one event (an administrator is one of an organisation)
EVENT_ROLES: tuple[str, ...] = tuple(r for r in STAFF_ROLES if r != "admin")
#: what an arbiter's API key of the time before staff accounts holds in its organisation
LEGACY_ARBITER_KEY_ROLES: frozenset[str] = frozenset(EVENT_ROLES)

_ALL = frozenset(EVENT_ROLES) | {"admin"}

#: action -> (the roles that may take it, Chinese words, English words)
ACTIONS: dict[str, tuple[frozenset[str], str, str]] = {
    # every service: staff reads of an event's data in full (names, entries, audits)
    "event.read": (_ALL - {"recorder"}, "查看赛事的完整资料", "read the event's data in full"),
    # registration
    "event.create": (frozenset({"admin", "organiser"}), "创建赛事", "create events"),
    "event.configure": (
        frozenset({"admin", "organiser"}),
        "设置赛事（日程、费用、名额、合作应用）",
        "set up the event (schedule, fees, quotas, partner apps)",
    ),
    "entries.manage": (
        frozenset({"admin", "organiser", "chief_arbiter"}),
        "管理报名（变更、合并、关闭报名）",
        "manage entries (changes, merges, closing registration)",
    ),
    "evidence.review": (
        frozenset({"organiser", "chief_arbiter", "arbiter"}),
        "审核资格证明",
        "review eligibility evidence",
    ),
    "registrants.relink": (
        frozenset({"admin", "organiser"}),
        "重新发送报名人或代表队的查询链接",
        "send a registrant, or a delegation's leader, a new link",
    ),
    # issue 32: the organisation's registry of people (one person across its events): search,
    # read, merge, split, correct, export — held in the organisation, not in one of its events
    "people.manage": (
        frozenset({"admin", "organiser"}),
        "管理人员名册（查找、合并、拆分、更正、导出个人资料）",
        "manage the registry of people (find, merge, split, correct, export a person's data)",
    ),
    "checkin.record": (frozenset({"organiser", "chief_arbiter", "arbiter"}), "办理报到", "check players in"),
    "ledger.record": (frozenset({"organiser", "fee_clerk"}), "记录收费与退费", "record fees and refunds"),
    # pairing
    "rounds.pair": (
        frozenset({"chief_arbiter", "pairing_officer"}),
        "编排、公布和调整轮次",
        "pair, publish and reschedule rounds",
    ),
    "results.enter": (frozenset({"chief_arbiter", "arbiter"}), "录入对局结果", "enter results"),
    "results.correct": (frozenset({"chief_arbiter"}), "更正结果、裁定并列", "correct results and decide ties"),
    "appeals.lodge": (
        frozenset({"organiser", "chief_arbiter", "arbiter"}),
        "代为提交申诉",
        "lodge an appeal on someone's behalf",
    ),
    "appeals.decide": (frozenset({"arbitration"}), "裁决申诉", "decide appeals"),
    # gameplay
    "games.record": (
        frozenset({"recorder", "arbiter", "chief_arbiter"}),
        "记录对局（现场记谱）",
        "record games (live recording)",
    ),
    "slips.enter": (frozenset({"recorder", "arbiter", "chief_arbiter"}), "填写记分单", "enter result slips"),
    "slips.confirm": (frozenset({"arbiter", "chief_arbiter"}), "确认记分单", "confirm result slips"),
    "games.adjudicate": (
        frozenset({"arbiter", "chief_arbiter"}),
        "裁决对局（提前开始、判负、时钟）",
        "rule on games (early starts, forfeits, clocks)",
    ),
    # awards
    "awards.publish": (frozenset({"organiser", "chief_arbiter"}), "公布名次与奖项", "publish places and prizes"),
    "honours.grant": (frozenset({"admin", "organiser"}), "颁发荣誉奖项", "grant honours"),
}


def roles_for(action: str) -> frozenset[str]:
    """The roles that may take ``action`` (KeyError for an action no table names: a typo in a
    route must fail when the app is built, not let everyone through)."""
    return ACTIONS[action][0]


def may(held: Iterable[str], action: str) -> bool:
    return bool(roles_for(action) & set(held))


def role_words(roles: Iterable[str], language: str = "zh") -> str:
    """The roles in words, in the seeds' order: "裁判长、裁判员" / "chief arbiter or arbiter"."""
    ordered = [r for r in STAFF_ROLES if r in set(roles)]
    if language == "zh":
        return "、".join(ROLE_WORDS[r][0] for r in ordered)
    names = [ROLE_WORDS[r][1] for r in ordered]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def action_words(action: str, language: str = "zh") -> str:
    _roles, zh, en = ACTIONS[action]
    return zh if language == "zh" else en
