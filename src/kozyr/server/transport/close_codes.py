"""The close codes this server ends a WebSocket with, named once for every module that
closes one (the connection, the socket registry, the account routes, the cluster)."""

SIGNED_OUT = 4401
"""Close code for the sockets of a session that has been signed out."""
TRY_AGAIN_LATER = 1013
"""Close code for a client that does not read its frames (RFC 6455: try again later)."""
POLICY = 1008
"""Close code for a client past a limit (connections, frames)."""
SERVICE_RESTART = 1012
"""Close code when the table moved to another process or the processes lost each other
(RFC 6455: service restart): reconnect and resynchronise by ``seq``."""
