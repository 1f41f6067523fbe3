"""Assertion embeddings carry the id of the embedder that computed them.

The same model run on another runtime (int8 ONNX instead of torch) gives slightly different
vectors; a vector whose embedder differs from the one in use is recomputed, never mixed in.
Rows stored before this migration were all made by sentence-transformers on torch (or, for
other models, by an embedder known only by its model name).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TORCH_ID = "torch:sentence-transformers"


def upgrade() -> None:
    with op.batch_alter_table("assertion_embeddings") as batch:
        batch.add_column(sa.Column("embedder", sa.String(100), nullable=True))
    op.execute(
        sa.text(
            "UPDATE assertion_embeddings SET embedder = CASE WHEN model = 'all-MiniLM-L6-v2' "
            f"THEN '{TORCH_ID}' ELSE model END"
        )
    )
    with op.batch_alter_table("assertion_embeddings") as batch:
        batch.alter_column("embedder", existing_type=sa.String(100), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("assertion_embeddings") as batch:
        batch.drop_column("embedder")
