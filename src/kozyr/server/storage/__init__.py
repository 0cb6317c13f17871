"""Durable storage: the schema and its migrations, the store over SQLite or PostgreSQL, and the
leases that say which process runs a live table.
"""
