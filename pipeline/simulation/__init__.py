"""Simulations that reproduce the paper's analytical claims (SPEC section 7)."""
