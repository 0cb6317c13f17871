"""Table talk (#44): players' and spectators' channels at a table, quick phrases and free
text, the kibitzer rule, the per-person rate limit, keeping talk with the table and
reports of a line (``docs/protocol.md``, "Table talk")."""
