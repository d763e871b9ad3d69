"""Pure math of SPEC §2-4: beliefs, route strength, label posterior, KL and energy."""
