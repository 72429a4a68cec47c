"""Who acted, as registration's audits keep it (issue 29): a person signed in with their staff
account by name and account id, ``"王芳 (acct:a-12)"``; an API key by role and key id,
``"operator:k1"`` (as before). Stored in the ``*_by`` columns of the audit tables and shown as
they are in the staff views; never written to a log line."""

from __future__ import annotations

from gomoku_shared.auth import Principal

#: a display name longer than this is cut (the audit columns hold 300 characters)
NAME_MAX = 200


def actor_ref(principal: Principal) -> str:
    """Who acted: a person's display name with their ``acct:`` id, else the key's role and id."""
    if principal.person is not None:
        return f"{principal.actor[:NAME_MAX]} ({principal.actor_id[:90]})"
    return f"{principal.role}:{principal.key_id}"


def requester_ref(principal: Principal) -> str:
    """Who asked (a withdrawal, a change, a refund): a partner by its id, staff as ``actor_ref``."""
    if principal.role == "partner":
        return f"partner:{principal.partner_id or principal.key_id}"
    return actor_ref(principal)
