"""Evaluation protocol of SPEC §5: record full trajectories, replay stopping policies."""
