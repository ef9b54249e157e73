"""The import rules (import-linter's contracts in pyproject.toml) hold, and each one fails when it is broken.

Each breaking case runs the linter on a copy of `games` with one import added that the contract forbids.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(tree: Path, contract: str | None = None) -> subprocess.CompletedProcess:
    args = [str(LINT), "--no-cache", "--config", str(ROOT / "pyproject.toml")]
    if contract:
        args += ["--contract", contract]
    return subprocess.run(args, cwd=tree, capture_output=True, text=True, timeout=120)


def test_the_contracts_are_kept():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# One worker runs the module (make test's --dist loadgroup): the copied tree is made once, not once a worker.
pytestmark = pytest.mark.xdist_group("import-contracts")


@pytest.fixture(scope="module")
def copied(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "games", tree / "games", ignore=shutil.ignore_patterns("__pycache__", "*.html"))
    return tree


# A line added to a file of the copy (appended when the file exists) that breaks the named contract.
BREAKS = {
    "pure-rules": ("games/horse_race/rules/leak.py", "import django.db"),
    "platform-knows-no-game": ("games/platform/leak.py", "from games.horse_race import game"),
    "games-apart": ("games/cards_table/leak.py", "from games.horse_race.rules import state"),
    "platform-layers": ("games/platform/services/leak.py", "from games.platform import views"),
    # season imports ledger already: ledger importing season closes a circle.
    "platform-acyclic": ("games/platform/services/ledger.py", "from . import season"),
    # What a viewer may see never depends on what players do through the site.
    "game-app-shape": ("games/horse_race/observation.py", "from . import operations"),
}


@pytest.mark.parametrize("contract", sorted(BREAKS))
def test_a_broken_contract_fails_the_lint(copied, contract):
    path, line = BREAKS[contract]
    target = copied / path
    original = target.read_text() if target.exists() else None
    target.write_text((original or "") + "\n" + line + "\n")
    try:
        result = lint(copied, contract)
        assert result.returncode != 0 and "BROKEN" in result.stdout, result.stdout
    finally:
        if original is None:
            target.unlink()
        else:
            target.write_text(original)
    assert lint(copied, contract).returncode == 0  # the copy without the line keeps it


def test_a_game_file_outside_the_shape_fails_the_lint(copied):
    """The shape is exhaustive: a file a game adds under a name of its own (the old `table.py` for what a
    viewer may see) breaks it until it takes the shape's name."""
    stray = copied / "games/arms_race/table.py"
    stray.write_text("from .rules import WEAPONS\n")
    try:
        result = lint(copied, "game-app-shape")
        assert result.returncode != 0 and "games.arms_race.table" in result.stdout, result.stdout
    finally:
        stray.unlink()
    assert lint(copied, "game-app-shape").returncode == 0
