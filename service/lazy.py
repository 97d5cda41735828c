"""A package whose names load with the module that holds them, when first asked for (PEP 562):
`__getattr__ = lazy_names(__name__, {"Name": "module", ...})`, the same names imported under
`if TYPE_CHECKING:` for the type checker."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_names(package: str, modules: dict[str, str]) -> Callable[[str], object]:
    def load(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # asked once
        return value

    return load
