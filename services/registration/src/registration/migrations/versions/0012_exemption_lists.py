"""REG-16 (NY 七(三)): the list a delegation-quota exemption is checked against — each load
(who, when, which edition) and the lines of the list in force, personal data encrypted.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "exemption_lists",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("revision", sa.Integer, primary_key=True),
        sa.Column("edition", sa.String(50), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("loaded_by", sa.String(100), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("beyond_top", sa.Integer, nullable=False),
    )
    op.create_table(
        "exemption_players",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("section", sa.String(100), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("birth_date_enc", sa.Text, nullable=True),
        sa.Column("id_number_enc", sa.Text, nullable=True),
        sa.Column("id_number_index", sa.String(64), nullable=True),
        sa.Column("id_number_masked", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("exemption_players")
    op.drop_table("exemption_lists")
