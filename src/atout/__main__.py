"""``python -m atout``: the ``atout`` command, for when its script is not on the PATH."""

from .cli.main import main

main()
