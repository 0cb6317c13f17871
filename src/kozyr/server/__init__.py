"""The authoritative game server: accounts, lobby, tables over WebSockets, durable logs.

``kozyr serve`` runs it (see :mod:`kozyr.server.serve`); ``docs/protocol.md`` describes
the WebSocket protocol.
"""
