"""Entry point of the frozen `agency` executable (see agency.spec)."""

from agency.cli import main

if __name__ == "__main__":
    main()
