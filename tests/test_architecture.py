"""The dependency rule: rules are pure; mail, web and workers reach the database via services."""

from __future__ import annotations

import ast
from pathlib import Path

from adjudicator.services import NEIGHBOURHOODS

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


# Row statuses are named by their members (adjudicator.statuses), never spelt as text: a typo
# in a bare string compares false forever, and a filter on it silently finds nothing. Mypy
# already refuses a bare string assigned to a typed status; this catches what it lets through:
# comparisons (a member equals its text), SQL filters and the keywords of ``.values()``.
# adjudicator/games is left out: a game's own phases (``state.status``) are game state.
STATUS_FOLDERS = ("adjudicator", "workers")
NOT_ROWS = ("adjudicator/games", "adjudicator/migrations")


def _is_status(node: ast.AST) -> bool:
    """``x.status``, or a name ``status`` (a status read into a local)."""
    return (isinstance(node, ast.Attribute) and node.attr == "status") or (
        isinstance(node, ast.Name) and node.id == "status"
    )


def _texts(node: ast.AST | None) -> list[ast.Constant]:
    """The string literals a value is made of: itself, a tuple/list/set's, or an if/else's."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [text for element in node.elts for text in _texts(element)]
    if isinstance(node, ast.IfExp):
        return _texts(node.body) + _texts(node.orelse)
    return []


def bare_statuses(source: str) -> list[tuple[int, str]]:
    """Each string literal compared with, assigned to or filtered on as a status: (line, text)."""
    found: list[ast.Constant] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_status(side) for side in sides):
                found += [text for side in sides for text in _texts(side)]
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                pairs: list[tuple[ast.expr, ast.expr]] = [(target, node.value)]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = list(zip(target.elts, node.value.elts, strict=False))
                found += [
                    text for name, value in pairs if _is_status(name) for text in _texts(value)
                ]
        elif isinstance(node, ast.AnnAssign) and _is_status(node.target):
            found += _texts(node.value)
            if isinstance(node.value, ast.Call):  # status: Mapped[...] = mapped_column(default=)
                found += [
                    t for k in node.value.keywords if k.arg == "default" for t in _texts(k.value)
                ]
        elif isinstance(node, ast.Call):
            call = node.func
            if (
                isinstance(call, ast.Attribute)
                and call.attr in ("in_", "not_in")
                and _is_status(call.value)
            ):
                found += [text for argument in node.args for text in _texts(argument)]
            found += [t for k in node.keywords if k.arg == "status" for t in _texts(k.value)]
    return sorted((text.lineno, text.value) for text in found)


def test_row_statuses_are_members_not_bare_strings() -> None:
    problems = []
    for folder in STATUS_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where.startswith(NOT_ROWS):
                continue
            for line, value in bare_statuses(path.read_text()):
                problems.append(f"{where}:{line}: {value!r}")
    assert problems == []


def test_the_status_check_can_fail() -> None:
    source = "\n".join(
        [
            'if game.status == "active": pass',
            'ok = row.status not in ("done", "rejected")',
            'game.status, game.finished_at = "finished", now',
            'status = "failed" if late else "pending"',
            'query.where(Game.status.in_(("finished", "closed")))',
            'update(OutboxMessage).values(status="sent")',
            'status: Mapped[str] = mapped_column(String(16), default="pending")',
            'if game.status == GameStatus.ACTIVE and game.result == "won": pass',
            'extra = {"status": "ok"}',
        ]
    )
    assert bare_statuses(source) == [
        (1, "active"),
        (2, "done"),
        (2, "rejected"),
        (3, "finished"),
        (4, "failed"),
        (4, "pending"),
        (5, "closed"),
        (5, "finished"),
        (6, "sent"),
        (7, "pending"),
    ]


def uphill(graph: dict[str, set[str]], order: tuple[str, ...]) -> list[str]:
    """Each import of a services module that climbs: from a neighbourhood to one after it in
    ``order``, or from a module left loose at the services root."""
    rank = {hood: place for place, hood in enumerate(order)}
    found = []
    for name, targets in sorted(graph.items()):
        parts = name.split(".")
        if parts[:2] != ["adjudicator", "services"] or len(parts) < 3:
            continue
        if parts[2] not in rank:
            found.append(f"{name} stands outside every neighbourhood")
            continue
        for target in sorted(targets):
            other = target.split(".")
            climbs = len(other) > 2 and rank.get(other[2], len(order)) > rank[parts[2]]
            if other[:2] == ["adjudicator", "services"] and climbs:
                found.append(f"{name} imports {target}")
    return found


def test_services_import_one_way_down_their_neighbourhoods() -> None:
    assert uphill(module_graph(), NEIGHBOURHOODS) == []
    folders = {p.name for p in (ROOT / "adjudicator/services").iterdir() if p.is_dir()}
    assert folders - {"__pycache__"} == set(NEIGHBOURHOODS)


def test_the_direction_check_can_fail() -> None:
    graph = {
        "adjudicator.services.record.play": {"adjudicator.services.inbound.pipeline"},
        "adjudicator.services.inbound.pipeline": {"adjudicator.services.record.play"},
        "adjudicator.services.loose": set(),
    }
    assert uphill(graph, NEIGHBOURHOODS) == [
        "adjudicator.services.loose stands outside every neighbourhood",
        "adjudicator.services.record.play imports adjudicator.services.inbound.pipeline",
    ]
