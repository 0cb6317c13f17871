"""Live tables: a table and its lock, whose turn it is, what each watcher sees, who owns a
table in a cluster, the lobby, and hints.
"""
