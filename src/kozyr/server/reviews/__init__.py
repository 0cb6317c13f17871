"""Post-game reviews: the jobs the server runs in the background, and what each review process
runs.
"""
