"""Vector changes: a log of the assertions whose searchable vector may have changed.

Approximate nearest-neighbour indexes of an engagement's vectors live in files beside the
store (pipeline/store/ann.py). To stay in step with every writer — this process or another,
today's code or tomorrow's — triggers append (engagement, assertion) to this log whenever an
assertion is inserted, deleted, moved, retracted or restored, soft-deleted, edited, or its
vector is stored or removed. An index records the last sequence number it has applied and
replays only what came after. The log holds ids only, never text.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_LOG = "INSERT INTO vector_changes (engagement_id, assertion_id)"

_SQLITE = [
    f"""CREATE TRIGGER vector_change_assertion_insert AFTER INSERT ON assertions
    BEGIN {_LOG} VALUES (NEW.engagement_id, NEW.id); END""",
    f"""CREATE TRIGGER vector_change_assertion_update
    AFTER UPDATE OF force, deleted_at, engagement_id, content ON assertions
    BEGIN
        {_LOG} VALUES (NEW.engagement_id, NEW.id);
        {_LOG} SELECT OLD.engagement_id, OLD.id WHERE OLD.engagement_id <> NEW.engagement_id;
    END""",
    f"""CREATE TRIGGER vector_change_assertion_delete AFTER DELETE ON assertions
    BEGIN {_LOG} VALUES (OLD.engagement_id, OLD.id); END""",
    f"""CREATE TRIGGER vector_change_embedding_insert AFTER INSERT ON assertion_embeddings
    BEGIN {_LOG} SELECT engagement_id, id FROM assertions WHERE id = NEW.assertion_id; END""",
    f"""CREATE TRIGGER vector_change_embedding_update AFTER UPDATE ON assertion_embeddings
    BEGIN {_LOG} SELECT engagement_id, id FROM assertions WHERE id = NEW.assertion_id; END""",
    f"""CREATE TRIGGER vector_change_embedding_delete AFTER DELETE ON assertion_embeddings
    BEGIN {_LOG} SELECT engagement_id, id FROM assertions WHERE id = OLD.assertion_id; END""",
]

_POSTGRES = [
    f"""CREATE FUNCTION vector_change_assertion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            {_LOG} VALUES (OLD.engagement_id, OLD.id);
            RETURN OLD;
        END IF;
        {_LOG} VALUES (NEW.engagement_id, NEW.id);
        IF TG_OP = 'UPDATE' AND OLD.engagement_id <> NEW.engagement_id THEN
            {_LOG} VALUES (OLD.engagement_id, OLD.id);
        END IF;
        RETURN NEW;
    END $$""",
    f"""CREATE FUNCTION vector_change_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            {_LOG} SELECT engagement_id, id FROM assertions WHERE id = OLD.assertion_id;
            RETURN OLD;
        END IF;
        {_LOG} SELECT engagement_id, id FROM assertions WHERE id = NEW.assertion_id;
        RETURN NEW;
    END $$""",
    """CREATE TRIGGER vector_change_assertion
    AFTER INSERT OR DELETE OR UPDATE OF force, deleted_at, engagement_id, content ON assertions
    FOR EACH ROW EXECUTE FUNCTION vector_change_assertion()""",
    """CREATE TRIGGER vector_change_embedding
    AFTER INSERT OR UPDATE OR DELETE ON assertion_embeddings
    FOR EACH ROW EXECUTE FUNCTION vector_change_embedding()""",
]


def upgrade() -> None:
    op.create_table(
        "vector_changes",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("engagement_id", sa.Integer, nullable=False),
        sa.Column("assertion_id", sa.Integer, nullable=False),
    )
    op.create_index("ix_vector_changes_engagement_seq", "vector_changes", ["engagement_id", "seq"])
    statements = _POSTGRES if op.get_bind().dialect.name == "postgresql" else _SQLITE
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS vector_change_assertion ON assertions")
        op.execute("DROP TRIGGER IF EXISTS vector_change_embedding ON assertion_embeddings")
        op.execute("DROP FUNCTION IF EXISTS vector_change_assertion()")
        op.execute("DROP FUNCTION IF EXISTS vector_change_embedding()")
    else:
        for name in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS vector_change_assertion_{name}")
            op.execute(f"DROP TRIGGER IF EXISTS vector_change_embedding_{name}")
    op.drop_index("ix_vector_changes_engagement_seq", table_name="vector_changes")
    op.drop_table("vector_changes")
