"""`python -m adjudicator.cli`: the `pbem` command."""

from adjudicator.cli import main

main()
