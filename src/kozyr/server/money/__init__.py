"""Play chips on the double-entry ledger: wallets, a stake table's escrow, spectators' bets."""
