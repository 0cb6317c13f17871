"""Bytes to messages and back: the WebSocket protocol's vocabulary and errors, safe JSON, HTTP
bodies and guards, the open sockets, and the relay that carries a table's frames between
processes.
"""
