"""`python -m pipeline` is the `dacg` command."""

from pipeline.cli import main

main()
