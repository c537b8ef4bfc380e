"""Legible sizes: no function over 80 lines or 8 parameters and no module over 400 lines in the
service's code (migrations aside, which are written once and never read as a design). A longer
function is a table of named steps waiting to be written; a longer module, two modules; a longer
parameter list, values that travel together waiting to be named as one."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("adjudicator", "workers")
MOST_FUNCTION_LINES = 80
MOST_MODULE_LINES = 400
MOST_PARAMETERS = 8
# Click hands a command each of its options as a keyword argument of its own: the options are
# the parameters, and grouping them would only hide the command line from its own definition.
CLICK_COMMANDS = {"adjudicator/cli/games.py": frozenset({"game_new"})}


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


def many_parameters(path: Path, most: int = MOST_PARAMETERS) -> list[str]:
    """Functions taking more than ``most`` parameters, positional and keyword-only alike (a
    method's self or cls aside; *args and **kwargs are not lists of names)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    exempt = CLICK_COMMANDS.get(shown(path), frozenset())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name in exempt:
            continue
        named = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if named and named[0].arg in ("self", "cls"):
            named = named[1:]
        if len(named) > most:
            found.append(f"{shown(path)}:{node.lineno} {node.name}: {len(named)} parameters")
    return found


def test_no_function_is_longer_than_80_lines() -> None:
    assert [found for path in sources() for found in long_functions(path)] == []


def test_no_function_takes_more_than_8_parameters() -> None:
    assert [found for path in sources() for found in many_parameters(path)] == []


def test_no_module_is_longer_than_400_lines() -> None:
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


def test_the_parameter_check_can_fail(tmp_path: Path) -> None:
    source = tmp_path / "wide.py"
    source.write_text(
        "def wide(a, b, c, d, e, /, f, *, g, h, i): pass\n"
        "def narrow(a, b, c, d, e, f, g, h, *rest, **more): pass\n"
        "class Box:\n"
        "    def method(self, a, b, c, d, e, f, g, h): pass\n"
        "    async def other(self, a, b, c, d, e, f, g, *, h, i): pass\n"
    )
    assert many_parameters(source) == [
        "wide.py:1 wide: 9 parameters",
        "wide.py:5 other: 9 parameters",
    ]
