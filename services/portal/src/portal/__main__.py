"""``python -m portal``: the same as ``python -m gomoku_shared.serve portal``."""

from gomoku_shared.serve import main

raise SystemExit(main(["portal", *__import__("sys").argv[1:]]))
