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
