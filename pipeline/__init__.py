"""DACG: drift-aware causal graph search over biomedical literature."""

__version__ = "0.1.0"
