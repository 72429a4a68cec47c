from gomoku_shared.alembic_env import run

run("portal")
