pytest_plugins = ["gomoku_shared.testing.plugin"]
