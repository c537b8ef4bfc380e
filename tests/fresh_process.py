"""Commands run as a fresh process, as a player runs them, which say on exit what they loaded:
a command that needs no database must not pay for importing one."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Put before the process's own code: on exit it writes the loaded modules' names to stderr.
REPORT_MODULES = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
)


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    errors: str  # what the process wrote to stderr before its list of modules
    loaded: set[str]


def run_python(code: str, args: list[str], cwd: Path, env: dict[str, str]) -> Ran:
    """Python ``code`` run in a fresh process with ``args``, from ``cwd``, with no ``PBEM_``
    setting of this machine's but those of ``env``: what came of it and what it loaded."""
    environ = {key: value for key, value in os.environ.items() if not key.startswith("PBEM_")}
    environ.update(env)
    done = subprocess.run(
        [sys.executable, "-c", REPORT_MODULES + code, *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    errors, marker, names = done.stderr.rpartition("\nMODULES ")
    assert marker, done.stderr
    return Ran(done.returncode, done.stdout, errors, set(names.split()))
