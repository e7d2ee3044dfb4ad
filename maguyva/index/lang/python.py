"""Python hooks: module names from package paths and import resolution (absolute and relative)."""

from __future__ import annotations

SOURCE_ROOTS = ("", "src/", "lib/")


def module_name(path: str) -> str:
    """``pkg/mod.py`` → ``pkg.mod``; ``pkg/__init__.py`` → ``pkg``; a leading ``src/`` is dropped."""
    stem = path.rsplit(".", 1)[0]
    if stem.endswith("/__init__") or stem == "__init__":
        stem = stem[: -len("__init__")].rstrip("/")
    for root in SOURCE_ROOTS[1:]:
        if stem.startswith(root):
            stem = stem[len(root):]
            break
    return stem.replace("/", ".")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """The repository file ``module`` names, seen from ``from_path``; None when not in the repo."""
    dots = len(module) - len(module.lstrip("."))
    rest = module[dots:].replace(".", "/")
    if dots:
        base = from_path.rsplit("/", 1)[0] if "/" in from_path else ""
        for _ in range(dots - 1):
            base = base.rsplit("/", 1)[0] if "/" in base else ""
        candidates = [f"{base}/{rest}".strip("/")] if rest else [base]
    else:
        candidates = [root + rest for root in SOURCE_ROOTS]
        package = from_path.rsplit("/", 1)[0] if "/" in from_path else ""
        if package:  # implicit sibling import, as scripts run from their own directory do
            candidates.append(f"{package}/{rest}")
    for stem in candidates:
        for path in (f"{stem}.py", f"{stem}.pyi", f"{stem}/__init__.py".lstrip("/")):
            if path in known_paths:
                return path
    return None


def submodule(module: str, name: str) -> str:
    """The module named by ``from module import name`` when ``name`` is itself a module."""
    return f"{module}{name}" if module.endswith(".") else f"{module}.{name}"
