"""People: accounts and sessions, names that cannot pass for someone else's, login limits,
ratings.
"""
