"""Account use cases, one file each; callers import the file they need
(`from agency.modules.auth.service import accounts`). Plain async functions with explicit
inputs; no Quart. Messages are the spec's, word for word.

- `accounts`: an account by id or e-mail; create, sign up, log in, sign up-or-log-in at checkout.
- `sessions`: session tokens (only their hash is stored): start, resolve, end.
- `resets`: the forgotten-password e-mail (a background job) and the reset itself.
- `profile`: name and avatar, password and e-mail changes.
- `admin`: `agency users ...`: create, list, grant or take admin rights, sign out everywhere.
- `user_data`: "export my data" and "delete my account", across every module.
- `retention`: deletes expired sessions and used or expired reset links after their time.
- `validation` and `passwords`: the rules for e-mails and passwords, and argon2 hashing.
"""
