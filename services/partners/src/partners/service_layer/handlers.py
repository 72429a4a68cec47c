"""Every use case of the partners service in one table: a command's type → the function that runs
it, each taking the command, the units of work and the services (what the process shares: the
key vault, the webhook sender, the settings). The routes and the consumers call :func:`handle`
and nothing else of the service layer's writes. A handler's use case opens its unit of work with
``units.transaction()``: a keyed request's own (``joined``), a consumer's (``Units.joining``) or
a new one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .accounts import PartnerService
from .ambient import Units
from .commands import (
    AcceptInvitation,
    ConfirmTotp,
    CreateOrganisation,
    CreatePartner,
    DeliverEvent,
    DisableSubscription,
    EnableSubscription,
    InviteStaff,
    IssueCredential,
    IssueToken,
    RecordEventAccess,
    Redeliver,
    ReenableSubscription,
    RefreshSession,
    ResetPassword,
    ResumePartner,
    RevokeCredential,
    RotateCredential,
    RotateSigningKey,
    RotateWebhookSecret,
    SetDisabled,
    SetRoles,
    SignIn,
    SignOut,
    SignOutEverywhere,
    StartTotp,
    Subscribe,
    SuspendPartner,
    Unsubscribe,
    UpdatePartner,
)
from .offboarding import Offboarding
from .organisations import Organisations
from .sign_in import StaffSessions
from .webhooks import WebhookService


@dataclass(frozen=True)
class Services:
    """The service objects of the process, built once by the composition root; none holds a unit
    of work (each use case takes the handler's ``units``)."""

    accounts: PartnerService
    offboarding: Offboarding
    organisations: Organisations
    sessions: StaffSessions
    webhooks: WebhookService


async def create_partner(command: CreatePartner, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.create_partner(
        units,
        command.actor,
        command.partner_id,
        command.name,
        command.kind,
        command.scopes,
        command.rate,
    )


async def update_partner(command: UpdatePartner, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.update_partner(
        units,
        command.actor,
        command.partner_id,
        name=command.name,
        scopes=command.scopes,
        rate=command.rate,
    )


async def issue_credential(command: IssueCredential, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.issue_credential(units, command.actor, command.partner_id, command.label)


async def rotate_credential(command: RotateCredential, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.rotate_credential(units, command.actor, command.client_id, command.grace_s)


async def revoke_credential(command: RevokeCredential, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.revoke_credential(units, command.actor, command.client_id, command.reason)


async def issue_token(command: IssueToken, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.issue_token(units, command.client_id, command.secret, command.requested)


async def rotate_signing_key(command: RotateSigningKey, units: Units, services: Services) -> dict[str, Any]:
    return await services.accounts.rotate_signing_key(units, command.actor)


async def suspend_partner(command: SuspendPartner, units: Units, services: Services) -> dict[str, Any]:
    return await services.offboarding.suspend(units, command.actor, command.partner_id, command.reason)


async def resume_partner(command: ResumePartner, units: Units, services: Services) -> dict[str, Any]:
    return await services.offboarding.resume(units, command.actor, command.partner_id, command.reason)


async def disable_subscription(command: DisableSubscription, units: Units, services: Services) -> dict[str, Any]:
    return await services.offboarding.disable(
        units,
        command.actor,
        command.partner_id,
        command.subscription_id,
        command.reason,
    )


async def reenable_subscription(command: ReenableSubscription, units: Units, services: Services) -> dict[str, Any]:
    return await services.offboarding.enable(units, command.actor, command.partner_id, command.subscription_id)


async def create_organisation(command: CreateOrganisation, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.create(units, command.principal, command.org_id, command.name, command.name_zh)


async def invite_staff(command: InviteStaff, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.invite(
        units,
        command.principal,
        command.org_id,
        command.login,
        command.name,
        command.roles,
        command.events,
    )


async def reset_password(command: ResetPassword, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.reset_password(units, command.principal, command.org_id, command.account_id)


async def accept_invitation(command: AcceptInvitation, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.accept(units, command.token, command.password)


async def set_roles(command: SetRoles, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.set_roles(
        units,
        command.principal,
        command.org_id,
        command.account_id,
        command.roles,
        command.events,
    )


async def set_disabled(command: SetDisabled, units: Units, services: Services) -> dict[str, Any]:
    return await services.organisations.set_disabled(
        units,
        command.principal,
        command.org_id,
        command.account_id,
        command.disabled,
    )


async def sign_in(command: SignIn, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.sign_in(units, command.login, command.password, command.totp)


async def refresh_session(command: RefreshSession, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.refresh(units, command.session_id, command.refresh_token)


async def sign_out(command: SignOut, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.sign_out(units, command.session_id, command.refresh_token)


async def sign_out_everywhere(command: SignOutEverywhere, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.sign_out_everywhere(units, command.principal)


async def start_totp(command: StartTotp, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.totp_start(units, command.principal)


async def confirm_totp(command: ConfirmTotp, units: Units, services: Services) -> dict[str, Any]:
    return await services.sessions.totp_confirm(units, command.principal, command.code)


async def subscribe(command: Subscribe, units: Units, services: Services) -> dict[str, Any]:
    return await services.webhooks.subscribe(
        units,
        command.partner_id,
        command.url,
        command.event_types,
        command.description,
    )


async def unsubscribe(command: Unsubscribe, units: Units, services: Services) -> None:
    await services.webhooks.unsubscribe(units, command.partner_id, command.subscription_id)


async def rotate_webhook_secret(command: RotateWebhookSecret, units: Units, services: Services) -> dict[str, Any]:
    return await services.webhooks.rotate_secret(units, command.partner_id, command.subscription_id, command.grace_s)


async def enable_subscription(command: EnableSubscription, units: Units, services: Services) -> dict[str, Any]:
    return await services.webhooks.enable(units, command.partner_id, command.subscription_id)


async def redeliver(command: Redeliver, units: Units, services: Services) -> dict[str, Any]:
    return await services.webhooks.redeliver(units, command.partner_id, command.delivery_id)


async def deliver_event(command: DeliverEvent, units: Units, services: Services) -> int:
    async with units.transaction() as uow:
        return await services.webhooks.on_event(uow, command.envelope)


async def record_event_access(command: RecordEventAccess, units: Units, services: Services) -> bool:
    async with units.transaction() as uow:
        return await services.organisations.on_access_changed(
            uow, command.event_code, command.organisation, command.partners, command.changed_at
        )


Handler = Callable[[Any, Units, Services], Awaitable[Any]]

#: the service's use cases, by the command each runs
HANDLERS: dict[type, Handler] = {
    CreatePartner: create_partner,
    UpdatePartner: update_partner,
    IssueCredential: issue_credential,
    RotateCredential: rotate_credential,
    RevokeCredential: revoke_credential,
    IssueToken: issue_token,
    RotateSigningKey: rotate_signing_key,
    SuspendPartner: suspend_partner,
    ResumePartner: resume_partner,
    DisableSubscription: disable_subscription,
    ReenableSubscription: reenable_subscription,
    CreateOrganisation: create_organisation,
    InviteStaff: invite_staff,
    ResetPassword: reset_password,
    AcceptInvitation: accept_invitation,
    SetRoles: set_roles,
    SetDisabled: set_disabled,
    SignIn: sign_in,
    RefreshSession: refresh_session,
    SignOut: sign_out,
    SignOutEverywhere: sign_out_everywhere,
    StartTotp: start_totp,
    ConfirmTotp: confirm_totp,
    Subscribe: subscribe,
    Unsubscribe: unsubscribe,
    RotateWebhookSecret: rotate_webhook_secret,
    EnableSubscription: enable_subscription,
    Redeliver: redeliver,
    DeliverEvent: deliver_event,
    RecordEventAccess: record_event_access,
}


def handle(command: Any, units: Units, services: Services) -> Awaitable[Any]:
    """Run ``command``'s use case (the caller awaits it)."""
    return HANDLERS[type(command)](command, units, services)
