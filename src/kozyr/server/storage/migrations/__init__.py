"""Alembic migrations, shipped inside the package and applied at server start."""
