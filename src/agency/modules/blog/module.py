"""What the blog module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings
from agency.core.userdata import UserData
from agency.modules.blog import models, routes
from agency.modules.blog.service import user_data

MODULE: Module[Settings] = Module(
    name="blog",
    models=models,
    blueprint=routes.blueprint,
    user_data=UserData(export=user_data.export_user, erase=user_data.erase_user),
    # The first HTML response of these pages holds the list or the article (routes.py).
    server_pages=("/blog", "/blog/:slug"),
    # The cover upload is multipart (the CSRF guard's other rules still apply to it).
    uploads=(routes.COVER_UPLOAD,),
)
