"""Articles' cover images: an admin uploads one JPEG, PNG or WebP; it is resized with Pillow
to the widths the pages use and kept in the data directory's `blog-covers` folder, one file a
width, named after the upload's content hash (`{key}-{width}.{ext}`), so that a name always
means the same bytes and the files are served with a year's immutable cache.

A cover is shown on the article (full width of the text column, up to 960 CSS px: 480, 960
and 1440 px files for 1x, 2x and phones), in the blog list, as the Open Graph image and in the
JSON-LD. Files smaller than a width are not enlarged: the largest size is the upload's own
width (at most `WIDTHS[-1]`).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agency.core.errors import NotFound, ValidationFailed
from agency.core.sql import fits_int_id
from agency.modules.blog.models import Article
from agency.modules.blog.schemas import CoverOut

if TYPE_CHECKING:  # Pillow is imported when an upload arrives: it stays out of start-up
    from PIL import Image

WIDTHS = (480, 960, 1440)
# The size a page names in `src`: the article column's width at 1x.
DEFAULT_WIDTH = 960
# Below the request limit of upload paths (`agency.app.MAX_UPLOAD_BODY_BYTES`, 8 MiB), so that
# a too-large file gets this message; a larger body is refused (413) before it is read.
MAX_BYTES = 8_000_000
MAX_PIXELS = 40_000_000  # a decoded image's width x height (a "decompression bomb" guard)
MIN_SIDE = 200
FOLDER = "blog-covers"
URL_PREFIX = "/api/blog/covers/"
# Pillow's format name -> (file extension, MIME type, save options).
FORMATS: dict[str, tuple[str, str, dict[str, object]]] = {
    "JPEG": ("jpg", "image/jpeg", {"quality": 85, "optimize": True, "progressive": True}),
    "PNG": ("png", "image/png", {"optimize": True}),
    "WEBP": ("webp", "image/webp", {"quality": 85, "method": 4}),
}
EXTENSIONS = {ext: mime for ext, mime, _ in FORMATS.values()}
MSG_ARTICLE_NOT_FOUND = "This article does not exist."
MSG_NO_FILE = "Please choose an image file (JPEG, PNG or WebP)."
MSG_TOO_BIG = "The image is larger than 8 MB. Please upload a smaller image."
MSG_NOT_IMAGE = "This file is not a JPEG, PNG or WebP image."
MSG_TOO_SMALL = f"The image must be at least {MIN_SIDE} by {MIN_SIDE} pixels."
MSG_TOO_MANY_PIXELS = "The image has too many pixels (at most 40 megapixels)."
# A stored file's name: key, width, extension (what the public route accepts).
_NAME = re.compile(r"([0-9a-f]{32})-([0-9]{2,4})\.(jpg|png|webp)")


@dataclass(frozen=True)
class Stored:
    """What the article keeps of its cover: `key` is `{hash}.{ext}`; width and height are
    the largest stored size's."""

    key: str
    width: int
    height: int


def widths_for(largest: int) -> list[int]:
    """The widths stored for a cover whose largest size is `largest` px wide: every standard
    width below it, and it."""
    return [w for w in WIDTHS if w < largest] + [largest]


def target_width(width: int) -> int:
    """The largest width stored for an upload `width` px wide (never enlarged)."""
    return min(width, WIDTHS[-1])


def scaled_height(width: int, height: int, new_width: int) -> int:
    """The height of a `width` x `height` image scaled to `new_width`, at least 1."""
    return max(1, round(height * new_width / width))


def _decode(data: bytes) -> tuple[Image.Image, str]:
    """The upload as an image and its format name; ValidationFailed for anything else."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise ValidationFailed(MSG_NO_FILE, fields={"file": MSG_NO_FILE})
    if len(data) > MAX_BYTES:
        raise ValidationFailed(MSG_TOO_BIG, fields={"file": MSG_TOO_BIG})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=list(FORMATS))
            if image.width * image.height > MAX_PIXELS:
                raise ValidationFailed(MSG_TOO_MANY_PIXELS, fields={"file": MSG_TOO_MANY_PIXELS})
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ValidationFailed(MSG_TOO_MANY_PIXELS, fields={"file": MSG_TOO_MANY_PIXELS}) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise ValidationFailed(MSG_NOT_IMAGE, fields={"file": MSG_NOT_IMAGE}) from error
    assert image.format is not None
    return image, image.format


def store(data: bytes, folder: Path) -> Stored:
    """Check the upload, write its sizes into `folder` (created if need be) and say what the
    article keeps. The image is turned upright (EXIF orientation) and its metadata dropped."""
    from PIL import Image, ImageOps

    image, fmt = _decode(data)
    image = ImageOps.exif_transpose(image)
    if image.width < MIN_SIDE or image.height < MIN_SIDE:
        raise ValidationFailed(MSG_TOO_SMALL, fields={"file": MSG_TOO_SMALL})
    ext, _mime, options = FORMATS[fmt]
    if fmt == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    elif fmt != "JPEG" and image.mode not in ("RGB", "RGBA", "L"):
        image = image.convert("RGBA")
    digest = hashlib.sha256(data).hexdigest()[:32]
    largest = target_width(image.width)
    folder.mkdir(parents=True, exist_ok=True)
    height = scaled_height(image.width, image.height, largest)
    for width in widths_for(largest):
        path = folder / f"{digest}-{width}.{ext}"
        if path.exists():
            continue
        size = (width, scaled_height(image.width, image.height, width))
        resized = image if size == image.size else image.resize(size, Image.Resampling.LANCZOS)
        part = path.with_suffix(f".{ext}.part")
        resized.save(part, format=fmt, **options)
        part.replace(path)
    return Stored(key=f"{digest}.{ext}", width=largest, height=height)


def file_name(key: str, width: int) -> str:
    digest, _, ext = key.partition(".")
    return f"{digest}-{width}.{ext}"


def cover_out(key: str | None, width: int | None, height: int | None, alt: str) -> CoverOut | None:
    """The cover as the pages and the API show it, or None when the article has none."""
    if not key or not width or not height:
        return None
    widths = widths_for(width)
    default = next((w for w in widths if w >= DEFAULT_WIDTH), widths[-1])
    return CoverOut(
        url=URL_PREFIX + file_name(key, default),
        srcset=", ".join(f"{URL_PREFIX}{file_name(key, w)} {w}w" for w in widths),
        width=width,
        height=height,
        alt=alt,
    )


def public_file(folder: Path, name: str) -> tuple[Path, str] | None:
    """The stored file a public URL names and its MIME type, or None (unknown or malformed
    name: nothing outside `folder` is ever reached)."""
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    path = folder / name
    if not path.is_file():
        return None
    return path, EXTENSIONS[match.group(3)]


def remove_files(folder: Path, key: str, width: int) -> None:
    """Delete a cover's files (when no other article uses the same key)."""
    for w in widths_for(width):
        (folder / file_name(key, w)).unlink(missing_ok=True)


async def set_cover(article_id: int, data: bytes, folder: Path) -> None:
    """Store an upload as the article's cover (its alt text stays); the old cover's files go
    unless another article shows the same image."""
    article = await Article.get_or_none(id=article_id) if fits_int_id(article_id) else None
    if article is None:
        raise NotFound(MSG_ARTICLE_NOT_FOUND, code="article_not_found")
    # Decoding and resizing take up to a second for a large photo: off the event loop.
    stored = await asyncio.to_thread(store, data, folder)
    old = (article.cover_key, article.cover_width)
    await Article.filter(id=article_id).update(
        cover_key=stored.key, cover_width=stored.width, cover_height=stored.height
    )
    await _forget(folder, *old, keep=stored.key)


async def remove_cover(article_id: int, folder: Path) -> None:
    """The article has no cover any more (its alt text is cleared too)."""
    article = await Article.get_or_none(id=article_id) if fits_int_id(article_id) else None
    if article is None:
        raise NotFound(MSG_ARTICLE_NOT_FOUND, code="article_not_found")
    old = (article.cover_key, article.cover_width)
    await Article.filter(id=article_id).update(
        cover_key=None, cover_width=None, cover_height=None, cover_alt=""
    )
    await _forget(folder, *old, keep=None)


async def _forget(folder: Path, key: str | None, width: int | None, *, keep: str | None) -> None:
    if not key or not width or key == keep:
        return
    if await Article.filter(cover_key=key).exists():
        return
    remove_files(folder, key, width)
