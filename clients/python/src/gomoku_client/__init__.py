"""Typed client of the Gomoku tournament platform's partner API.

``AsyncClient`` (asyncio) and ``Client`` (blocking) cover a partner's flows: access tokens by the
OAuth client-credentials grant, registering entries, pairings and standings, the partner's
players' games and their actions, awards, webhook subscriptions, and an event's live stream.
``WebhookVerifier`` checks the deliveries a partner's server receives. See README.md.
"""

from ._core import ApiKey, ClientCredentials, Credentials, RateLimitState, RetryPolicy
from .aio import AsyncClient
from .errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    GomokuError,
    NotFound,
    RateLimited,
    ServerError,
    TokenError,
    Unauthorized,
    Unprocessable,
    Unreachable,
)
from .sync import Client
from .webhooks import Deduplicator, InvalidWebhook, WebhookVerifier

__all__ = [
    "ApiError",
    "ApiKey",
    "AsyncClient",
    "BadRequest",
    "Client",
    "ClientCredentials",
    "Conflict",
    "Credentials",
    "Deduplicator",
    "Forbidden",
    "GomokuError",
    "InvalidWebhook",
    "NotFound",
    "RateLimitState",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "TokenError",
    "Unauthorized",
    "Unprocessable",
    "Unreachable",
    "WebhookVerifier",
]
