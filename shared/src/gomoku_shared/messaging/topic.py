"""AMQP topic-exchange matching, as RabbitMQ does it.

Routing keys and binding patterns are dot-separated words; in a pattern ``*`` stands
for exactly one word and ``#`` for zero or more words.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def topic_matches(pattern: str, routing_key: str) -> bool:
    """True when ``routing_key`` matches the binding ``pattern``."""
    return _match(tuple(pattern.split(".")), tuple(routing_key.split(".")))


def _match(pat: tuple[str, ...], key: tuple[str, ...]) -> bool:
    # reachable[j]: the pattern prefix consumed so far can match key[:j]
    reachable = [True] + [False] * len(key)
    for word in pat:
        if word == "#":
            # zero or more words: once a prefix is reachable, every longer one is
            nxt = reachable[:]
            for end in range(1, len(key) + 1):
                nxt[end] = nxt[end] or nxt[end - 1]
        else:
            nxt = [False] * (len(key) + 1)
            for end in range(1, len(key) + 1):
                if reachable[end - 1] and (word == "*" or word == key[end - 1]):
                    nxt[end] = True
        reachable = nxt
    return reachable[len(key)]


def validate_pattern(pattern: str) -> None:
    """Reject patterns RabbitMQ would accept but that are almost surely typos."""
    if not pattern or any(w == "" for w in pattern.split(".")):
        raise ValueError(f"empty word in binding pattern {pattern!r}")
