"""Friends, blocks and challenges (#44): the lists each account keeps in the database,
the challenges of one named person to another, and their frames."""
