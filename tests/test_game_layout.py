"""The layout of a game package: its layers import one way only.

Musket & Pike is three subpackages under ``game.py``: ``rules`` (pure, typed rules), ``words``
(text for players) and ``pictures`` (the map, its key, the preview). A layer may import the
layers below it and never one above: rules import neither words nor pictures, words never import
pictures, and nothing inside the package imports ``game`` (the contract on top joins them)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUSKET_AND_PIKE = "adjudicator.games.musket_and_pike"
# The layers, bottom first: each may import those before it, never one after it.
LAYERS = ("rules", "words", "pictures", "game")


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function; a name taken from a
    package (``from pkg import words``) counts as the module of that name too. (The project
    writes no relative imports.)"""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def layer_of(module: str, package: str) -> str | None:
    """The layer a module of ``package`` belongs to (its first part below the package)."""
    if not module.startswith(package + "."):
        return None
    first = module[len(package) + 1 :].split(".")[0]
    return first if first in LAYERS else None


def crossings(folder: Path, package: str) -> list[str]:
    """Every import in ``folder`` (the package's files) that goes up a layer."""
    problems = []
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(folder)
        own = relative.parts[0] if len(relative.parts) > 1 else relative.stem
        if own not in LAYERS:
            continue
        for module in sorted(imported(path)):
            other = layer_of(module, package)
            if other is not None and LAYERS.index(other) > LAYERS.index(own):
                problems.append(f"{relative} ({own}) imports {module} ({other})")
    return problems


def test_musket_and_pike_layers_import_downwards_only() -> None:
    folder = ROOT / "adjudicator/games/musket_and_pike"
    assert {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()} == {
        "rules",
        "words",
        "pictures",
    }
    assert crossings(folder, MUSKET_AND_PIKE) == []


def test_every_musket_and_pike_module_lives_in_a_layer() -> None:
    """Only ``game.py`` and the package's own ``__init__`` stand beside the layers; a new module
    goes into the layer that owns what it does."""
    folder = ROOT / "adjudicator/games/musket_and_pike"
    assert sorted(p.name for p in folder.glob("*.py")) == ["__init__.py", "game.py"]


def test_each_layer_says_what_it_owns_and_may_import() -> None:
    folder = ROOT / "adjudicator/games/musket_and_pike"
    for layer in LAYERS[:-1]:
        said = ast.get_docstring(ast.parse((folder / layer / "__init__.py").read_text())) or ""
        assert "May import" in said, layer


def test_the_check_finds_an_import_that_goes_up(tmp_path: Path) -> None:
    """The check is not vacuous: a rule that reads a words module, words that draw, and a
    rule that reaches the contract on top are each found, whichever import form they use."""
    package = "somegame"
    for layer in ("rules", "words", "pictures"):
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text('"""A layer."""\n')
    (tmp_path / "rules" / "combat.py").write_text(
        "from somegame.words import report\n"
        "def f():\n"
        "    from somegame.game import GAME\n"
        "    return GAME\n"
    )
    (tmp_path / "words" / "report.py").write_text("import somegame.pictures.render\n")
    (tmp_path / "words" / "fine.py").write_text("from somegame.rules import combat\n")
    (tmp_path / "pictures" / "render.py").write_text("from somegame.words.report import x\n")
    assert crossings(tmp_path, package) == [
        "rules/combat.py (rules) imports somegame.game (game)",
        "rules/combat.py (rules) imports somegame.game.GAME (game)",
        "rules/combat.py (rules) imports somegame.words (words)",
        "rules/combat.py (rules) imports somegame.words.report (words)",
        "words/report.py (words) imports somegame.pictures.render (pictures)",
    ]
