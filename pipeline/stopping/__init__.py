"""When to stop reading (SPEC §4): stopping rules and policies over recorded steps
(`policies`, pure Python) and the process reward model (`prm`: numpy inference, torch
training only inside `train_prm`)."""
