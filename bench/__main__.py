"""Run every benchmark module in this package (or only those named on the command line).

A benchmark is any module ``bench/<name>.py`` (not starting with ``_``) defining ``main()``,
except the tools in TOOLS (``bench.compare`` runs the benchmarks of two trees; it is run alone).
Usage: ``python -m bench [name ...]``; ``python -m bench --list`` shows what would run.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path

TOOLS = frozenset({"compare"})


def discover() -> list[str]:
    here = Path(__file__).parent
    return sorted(
        m.name
        for m in pkgutil.iter_modules([str(here)])
        if not m.name.startswith("_") and not m.ispkg and m.name not in TOOLS
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    names = discover()
    if "--list" in args:
        print("\n".join(names))
        return 0
    if args:
        unknown = sorted(set(args) - set(names))
        if unknown:
            print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(names)}", file=sys.stderr)
            return 2
        names = [n for n in names if n in args]
    failed = []
    for name in names:
        module = importlib.import_module(f"{__package__ or 'bench'}.{name}")
        entry = getattr(module, "main", None)
        if not callable(entry):
            continue
        print(f"== bench.{name} ==", flush=True)
        started = time.perf_counter()
        saved_argv = sys.argv
        sys.argv = [f"bench.{name}"]  # each benchmark sees no dispatcher arguments
        try:
            entry()
        except Exception:  # keep running the others, report at the end
            traceback.print_exc()
            failed.append(name)
        finally:
            sys.argv = saved_argv
        print(f"-- bench.{name}: {time.perf_counter() - started:.1f} s\n", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
