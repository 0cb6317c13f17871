"""The arena: bots play each other on duplicate deals; win rates, scores and Elo with
95% confidence intervals, as a table, a JSON file and a PNG chart (``kozyr arena``)."""
