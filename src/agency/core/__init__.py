"""The shared kernel: settings, database, jobs, errors, HTTP plumbing. It knows no module."""
