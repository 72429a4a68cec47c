"""Path and query parameters every service uses, with the limits that fit their columns.

Strings from a path are identifiers (event codes, section, game, entry ids): at most
``ID_MAX`` characters. Integers are bounded to what an ``Integer`` column holds; round numbers
far lower. The OpenAPI documents each limit; a value outside gets the usual 422.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

ID_MAX = 200
INT32_MAX = 2**31 - 1
ROUND_MAX = 1000

PathId = Annotated[str, Path(min_length=1, max_length=ID_MAX)]
RoundNo = Annotated[int, Path(ge=0, le=ROUND_MAX, description="round number")]
#: a sequence number to resume a stream from (events after it)
SinceSeq = Annotated[int, Query(ge=0, le=INT32_MAX, description="resume after this sequence number")]
