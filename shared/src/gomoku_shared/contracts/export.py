"""Write the JSON Schema of every contract: ``python -m gomoku_shared.contracts.export DIR``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .registry import json_schemas


def export(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for event_type, schema in json_schemas().items():
        path = directory / f"{event_type}.json"
        path.write_text(json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "shared/schemas")
    for written in export(target):
        print(written)
