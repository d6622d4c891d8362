"""The product's modules. Each owns its models, schemas, service functions, routes and CLI
commands; other modules call its `api.py`, never its tables or routes."""
