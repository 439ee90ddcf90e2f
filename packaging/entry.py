"""Entry script of the frozen hulkforge app: the `hulkforge` console script, safe for worker processes."""

import multiprocessing
import sys


def main() -> int:
    """Run the hulkforge command line (no command opens the editor), as the console script does."""
    from engine.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    # Must come before anything else: the simulator's worker processes are this same executable started
    # again with multiprocessing's arguments; freeze_support() turns such a process into the worker and
    # exits, so it never parses the command line nor loads Qt.
    multiprocessing.freeze_support()
    # The pool asks for spawn explicitly; make it the default too, so any other pool is fork-free (forking
    # a process that runs Qt threads can deadlock).
    multiprocessing.set_start_method("spawn", force=True)
    sys.exit(main())
