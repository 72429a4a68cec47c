"""A service's own random secret in its data directory, for the embedded mode when the secret is
not configured (registration's DATA_KEY, partners' PARTNERS_KEY).

Created once, readable by this user only: written to a private temporary file and linked into
place, so that two processes starting at once end up with the same secret and nobody ever reads
a half-written one. Neither the secret nor any part of it is logged."""

from __future__ import annotations

import logging
import os
import secrets
import stat
import tempfile
from pathlib import Path

from .settings import SettingsError


def embedded_secret(path: Path, *, what: str, error: type[SettingsError], created: str, log: logging.Logger) -> str:
    """The secret in `path` (created if there is none; `created` is logged then, with the path
    for ``%s``). `error` is raised, naming `what`, for a file others may read or an empty one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".key-")  # mode 0600
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(32) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.link(tmp, path)
            log.warning(created, path)
        except FileExistsError:
            pass  # another process created it first: use that one
        finally:
            os.unlink(tmp)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise error(f"the {what} {path} is readable by others (mode {mode:o}); chmod 600 it")
    secret = path.read_text().strip()
    if not secret:
        raise error(f"the {what} {path} is empty")
    return secret
