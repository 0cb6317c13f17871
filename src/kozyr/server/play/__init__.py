"""One table's game: the game specs as the server uses them, the match (the one authority over
moves), seats, presence, and replay frames.
"""
