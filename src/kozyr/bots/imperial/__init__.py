"""Imperial computer players; importing this package registers them (see registry)."""
