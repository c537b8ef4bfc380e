"""Legible sizes: no function over 80 lines and no module over 500 lines in the service's code
(migrations aside, which are written once and never read as a design). A longer function is
a table of named steps waiting to be written; a longer module, two modules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("adjudicator", "workers")
MOST_FUNCTION_LINES = 80
MOST_MODULE_LINES = 500


def sources() -> list[Path]:
    return [
        path
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    ]


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def long_functions(path: Path, most: int = MOST_FUNCTION_LINES) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{shown(path)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > most
    ]


def test_no_function_is_longer_than_80_lines() -> None:
    assert [found for path in sources() for found in long_functions(path)] == []


def test_no_module_is_longer_than_500_lines() -> None:
    long = []
    for path in sources():
        count = len(path.read_text().splitlines())
        if count > MOST_MODULE_LINES:
            long.append(f"{shown(path)}: {count} lines")
    assert long == []


def test_the_size_check_can_fail(tmp_path: Path) -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(80))
    source = tmp_path / "long.py"
    source.write_text(f"def long() -> None:\n{body}\n\n\ndef short() -> None:\n    pass\n")
    assert long_functions(source) == ["long.py:1 long: 81 lines"]
    assert sources() and all(path.suffix == ".py" for path in sources())
