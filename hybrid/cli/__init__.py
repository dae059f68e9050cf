"""The `hybrid ...` command line: a thin map from subcommand to the Python API."""
