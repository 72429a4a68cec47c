"""Pure rules of the gameplay service on top of ``gameplay.engine``: one live game rebuilt from
its action log (``live``), server clocks per player (``clocks``), and what a finished game
means for its pairing (``outcome``). No I/O here."""
