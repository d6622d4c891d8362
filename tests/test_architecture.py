"""The module layout the README promises: every module folder is registered and complete."""

from __future__ import annotations

import importlib
from pathlib import Path

import agency
from agency.core.modules import Module
from agency.registry import MODULES

MODULES_DIR = Path(agency.__file__).parent / "modules"
REQUIRED_FILES = ("__init__.py", "module.py")


def module_folders() -> list[str]:
    return sorted(p.name for p in MODULES_DIR.iterdir() if (p / "__init__.py").is_file())


def test_every_module_folder_is_registered_once() -> None:
    assert sorted(m.name for m in MODULES) == module_folders()
    assert len({m.name for m in MODULES}) == len(MODULES)


def test_the_eight_modules_exist() -> None:
    assert set(module_folders()) == {
        "auth",
        "catalogue",
        "billing",
        "sites",
        "insights",
        "blog",
        "seo",
        "content",
    }


def test_every_module_has_the_required_files_and_a_docstring() -> None:
    for name in module_folders():
        for required in REQUIRED_FILES:
            assert (MODULES_DIR / name / required).is_file(), f"{name}/{required} is missing"
        package = importlib.import_module(f"agency.modules.{name}")
        assert package.__doc__, f"agency.modules.{name} must say what it owns"
        assert isinstance(importlib.import_module(f"agency.modules.{name}.module").MODULE, Module)


def test_models_live_in_their_module() -> None:
    for module in MODULES:
        if module.models is not None:
            assert module.models.__name__ == f"agency.modules.{module.name}.models"
