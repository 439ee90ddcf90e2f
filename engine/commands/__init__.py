"""One module per `hulkforge` subcommand (see engine/cli.py)."""
