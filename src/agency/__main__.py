"""`python -m agency` runs the command-line interface."""

from agency.cli import main

if __name__ == "__main__":
    main()
