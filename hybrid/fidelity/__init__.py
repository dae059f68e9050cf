"""Fidelity to the deal: the facts a text states, which of them a deal did not give, and the guard against them."""
