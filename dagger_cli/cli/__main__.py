"""``python -m dagger_cli.cli``: the ``dagger`` command."""

from . import main

if __name__ == "__main__":  # pragma: no cover
    main()
