"""The engine is the rules alone: it reaches neither the computer players nor Django."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
FORBIDDEN = ("games.ai", "django")


def imported_names(path: Path, package: str) -> Iterator[str]:
    """Yield every module (or module.name) that ``path`` imports, anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            yield module
            # ``from games import ai`` reaches games.ai through the name, not the module.
            yield from (f"{module}.{alias.name}" for alias in node.names)


def reaches(name: str, forbidden: str) -> bool:
    return name == forbidden or name.startswith(forbidden + ".")


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def package_of(path: Path) -> str:
    """Return the package a relative import in ``path`` starts from."""
    return ".".join(("games", "engine", *path.parent.relative_to(ENGINE).parts))


def test_the_walk_sees_the_engine_and_its_imports() -> None:
    paths = engine_modules()
    assert ENGINE / "fast.py" in paths
    names = set(imported_names(ENGINE / "state.py", package_of(ENGINE / "state.py")))
    assert "games.engine.actions" in names  # relative imports are resolved


def test_the_walk_would_catch_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from games import ai\n    import django.conf\n")
    names = set(imported_names(sneaky, "games.engine"))
    assert any(reaches(name, "games.ai") for name in names)
    assert any(reaches(name, "django") for name in names)


def test_the_engine_imports_neither_the_players_nor_django() -> None:
    offenders = [
        f"{path.relative_to(ENGINE)}: {name}"
        for path in engine_modules()
        for name in imported_names(path, package_of(path))
        if any(reaches(name, forbidden) for forbidden in FORBIDDEN)
    ]
    assert offenders == []
