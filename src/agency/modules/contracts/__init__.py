"""Withdrawals and cancellations without an account ("Withdraw from contract", "Cancel contracts
here"), their receipts, and the admins' lists."""
