"""The site's own media files: what an operator puts in the data directory's `media/` folder
(the /ugc-force sample video, its poster and captions) is served at `/media/<name>`.

Only a plain file name with a known extension is served: no folders, no hidden files, nothing
outside the folder (a link leading out of it included). Everything else is "not found"."""

from __future__ import annotations

import re
from pathlib import Path

FOLDER = "media"
URL_PREFIX = "/media/"
# A name starts with a letter or digit (no hidden files, no `..`) and has one of these
# extensions; the route's converter already keeps slashes out.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,199}\.([A-Za-z0-9]+)")
TYPES = {
    "mp4": "video/mp4",
    "webm": "video/webm",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "png": "image/png",
    "webp": "image/webp",
    "avif": "image/avif",
    "vtt": "text/vtt",  # Quart adds the charset (UTF-8) to text types
}
# The operator may replace a file under the same name: browsers keep it an hour, then
# revalidate by its ETag / Last-Modified.
MAX_AGE = 3600


def media_folder(data_dir: Path) -> Path:
    return data_dir / FOLDER


def public_file(folder: Path, name: str) -> tuple[Path, str] | None:
    """The file `/media/<name>` serves and its content type, or None (a name not allowed, an
    unknown type, no such file, or a link leading out of the folder)."""
    match = _NAME.fullmatch(name)
    if match is None or ".." in name:
        return None
    kind = TYPES.get(match.group(1).lower())
    if kind is None:
        return None
    path = folder / name
    try:
        resolved = path.resolve(strict=True)
        inside = resolved.parent == folder.resolve(strict=True)
    except OSError:
        return None
    if not inside or not resolved.is_file():
        return None
    return resolved, kind
