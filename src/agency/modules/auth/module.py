"""What the auth module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module

MODULE = Module(name="auth")
