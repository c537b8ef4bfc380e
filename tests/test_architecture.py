"""The dependency rule: rules are pure; mail, web and workers reach the database via services."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RULES = (
    "flask",
    "sqlalchemy",
    "celery",
    "kombu",
    "redis",
    "random",
    "time",
    "datetime",
    "adjudicator.services",
    "adjudicator.mail",
    "adjudicator.web",
    "adjudicator.models",
    "adjudicator.db",
    "workers",
    "smtplib",
    "os",
)


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def offending(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    problems = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for module in imports(path):
            if any(module == bad or module.startswith(bad + ".") for bad in forbidden):
                problems.append(f"{path.relative_to(ROOT)} imports {module}")
    return problems


def test_rules_are_pure() -> None:
    assert offending("adjudicator/core", FORBIDDEN_IN_RULES) == []
    assert offending("adjudicator/games", FORBIDDEN_IN_RULES) == []


def test_games_import_only_core_of_the_project() -> None:
    problems = []
    for path in sorted((ROOT / "adjudicator/games").rglob("*.py")):
        for module in imports(path):
            if module.startswith("adjudicator.") and not module.startswith(
                ("adjudicator.core", "adjudicator.games")
            ):
                problems.append(f"{path.relative_to(ROOT)} imports {module}")
    assert problems == []


def test_mail_and_web_do_not_touch_the_database_directly() -> None:
    assert (
        offending(
            "adjudicator/mail",
            ("sqlalchemy", "adjudicator.models", "adjudicator.db", "flask", "celery"),
        )
        == []
    )
    assert (
        offending(
            "adjudicator/web", ("sqlalchemy", "adjudicator.models", "adjudicator.db", "celery")
        )
        == []
    )
    assert offending("workers", ("sqlalchemy", "adjudicator.models", "flask")) == []


def test_the_check_itself_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom sqlalchemy import select\n")
    assert imports(bad) == {"random", "sqlalchemy"}


def module_graph() -> dict[str, set[str]]:
    """Every module of the package and the project modules it imports, anywhere in its body
    (an import inside a function is an arrow too: it only hides a cycle until it runs)."""
    modules: dict[str, Path] = {}
    for folder in ("adjudicator", "workers"):
        for path in (ROOT / folder).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def is_package_of(module: str, target: str) -> bool:
    return module.startswith(target + ".")


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = module_graph()
    # A package's __init__ that re-exports its modules is not a circle of logic.
    for name in graph:
        graph[name] = {t for t in graph[name] if not is_package_of(name, t)}
    assert cycles(graph) == []


def test_core_names_no_game() -> None:
    graph = module_graph()
    arrows = [
        f"{name} imports {target}"
        for name, targets in graph.items()
        if name.startswith("adjudicator.core")
        for target in targets
        if target.startswith("adjudicator.games")
    ]
    assert arrows == []


def test_the_cycle_check_can_fail() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


GAME_NAMES = ("thermopyl", "2demayo", "2 de mayo", "dos_de_mayo", "musket", "spartan", "persian")


def named_games(folder: str) -> list[str]:
    """Each line of a folder's code that names a game, its pieces or its sides' peoples."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if any(name in line.lower() for name in GAME_NAMES):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_services_name_no_game() -> None:
    """What a game knows is asked of it through the contract (``Game.joined_orders``,
    ``Game.strength``, ``Game.ranking_axis`` ...), so services serve a fourth game unchanged."""
    assert named_games("adjudicator/services") == []
    assert named_games("adjudicator/games/thermopyles")  # the check finds a game's own name
