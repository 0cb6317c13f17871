"""The ``kozyr`` command."""

import typer

app = typer.Typer(help="kozyr: Imperial and Emperor card games.", no_args_is_help=True)


@app.command()
def version() -> None:
    """Print the version."""
    from kozyr import __version__

    print(__version__)
