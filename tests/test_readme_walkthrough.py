"""A newcomer's walkthrough, from the README alone, so that the README cannot drift from the code.

A fresh copy of the tree (the files `git clone` gives, nothing built, no .venv, no var/), the
README's first command run as written (`./run serve` makes its own .venv, installs the project
and starts the service), then the README's own words played by mail against it: its terminal
commands for a Thermopyles game (`pbem mail send`, `pbem mail read`), its game master's mail for a
2 de Mayo game with its Spanish player's example lines and the receipt the README shows for them,
and a Musket & Pike battle started as the README says. Every link in the banner and in every mail
read is followed on the live site. A README command or example that no longer works fails here.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from conftest import ROOT, free_port

README = (ROOT / "README.md").read_text(encoding="utf-8")
# A fresh .venv installs the project from PyPI (about a minute here), then the service starts.
STARTED_WITHIN = 600.0
GAME_MASTER = "gm@example.com"


def section(heading: str) -> str:
    """The README's text under ``## heading``, up to the next heading of that level."""
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert found, f"the README has no section {heading!r}"
    return found.group(1)


def blocks(text: str, info: str | None = None) -> list[str]:
    """The fenced blocks of ``text`` (those marked ``info`` only, when given)."""
    return [
        body
        for kind, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S)
        if info is None or kind == info
    ]


def commands(block: str) -> list[list[str]]:
    """A shell block's commands, each as its words, comments dropped."""
    return [words for line in block.splitlines() if (words := shlex.split(line, comments=True))]


def fresh_copy(target: Path) -> Path:
    """The tracked files of this tree, as they are now, in ``target``: what a clone holds."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, (item.decode() for item in listed)):
        source = ROOT / name
        if source.is_file():  # a file deleted in the tree and not yet committed is gone
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@dataclass
class Newcomer:
    """The clone, the running service's output, and the terminal's environment."""

    clone: Path
    env: dict[str, str]
    output: list[str] = field(default_factory=list)
    links: set[str] = field(default_factory=set)

    def run(self, words: list[str], timeout: float = 60) -> str:
        """One README command, run in the clone as the README says (`pbem` from its .venv)."""
        program = str(self.clone / ".venv/bin/pbem") if words[0] == "pbem" else words[0]
        done = subprocess.run(
            [program, *words[1:]],
            cwd=self.clone,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, (words, done.stdout, done.stderr)
        return done.stdout

    def send(self, sender: str, to: str, body: str) -> None:
        self.run(["pbem", "mail", "send", "--from", sender, "--to", to, body])

    def read(self, to: str, wait: str = "30") -> str:
        """The unread mails to ``to`` (at least one), with every link they give noted."""
        shown = self.run(["pbem", "mail", "read", "--to", to, "--wait", wait])
        assert shown.startswith("=== "), shown
        self.links.update(links_in(shown))
        return shown

    def read_until(self, to: str, words: str, rounds: int = 3) -> str:
        """The unread mails to ``to`` up to one that holds ``words``: a JOIN's own receipt may
        come before the mail that starts the game, or with it, as the workers happen to run."""
        shown = ""
        for _ in range(rounds):
            shown += self.read(to)
            if words in shown:
                break
        return shown


def links_in(text: str) -> set[str]:
    """The site's addresses in ``text``, without the sentence's closing marks around them."""
    return {
        link.rstrip(".,;:") for link in re.findall(r"http://127\.0\.0\.1:\d+/[^\s<>()\"']*", text)
    }


def reply_to(shown: str, seat: str = "") -> str:
    """The seat's own address in the mails shown (the last one given, for ``seat`` if named)."""
    found = re.findall(rf"^Reply-To: (orders\+\S*{seat}\S*)$", shown, re.M)
    assert found, shown
    return found[-1]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def newcomer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Newcomer]:
    clone = fresh_copy(tmp_path_factory.mktemp("clone"))
    # The settings the README names, so that this service keeps apart from any other here.
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PBEM_", "VIRTUAL_ENV", "PYTEST", "PYTHON"))
    }
    env.update(PBEM_WEB_PORT=str(free_port()), PBEM_SMTP_PORT=str(free_port()))
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if "/.venv/" not in p)
    [serve] = [
        words for words in commands(blocks(section("Two commands"), "sh")[0]) if "serve" in words
    ]
    assert serve == ["./run", "serve"], serve
    person = Newcomer(clone, env)
    process = subprocess.Popen(
        serve,
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    ready = threading.Event()

    def drain() -> None:  # read it all, so that the service never stalls on a full pipe
        assert process.stdout is not None
        for line in process.stdout:
            person.output.append(line)
            if "Stop with Ctrl-C" in line:
                ready.set()

    threading.Thread(target=drain, daemon=True).start()
    began = time.monotonic()
    while not ready.wait(1):
        if process.poll() is not None or time.monotonic() - began > STARTED_WITHIN:
            os.killpg(process.pid, signal.SIGKILL)
            raise AssertionError("./run serve did not start:\n" + "".join(person.output[-80:]))
    print(f"./run serve on a fresh copy: up in {time.monotonic() - began:.0f} s")
    try:
        yield person
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def test_the_banner_says_where_to_look_on_the_port_given(newcomer: Newcomer) -> None:
    banner = "".join(newcomer.output)
    port = newcomer.env["PBEM_WEB_PORT"]
    archive = re.search(r"archive\s+(\S+)", banner)
    assert archive and archive.group(1) == f"http://127.0.0.1:{port}/", banner
    assert f"SMTP 127.0.0.1:{newcomer.env['PBEM_SMTP_PORT']}" in banner, banner
    # The banner's own lines for a first game are the README's.
    terminal = flat(section("Playing by mail from a terminal"))
    for line in re.findall(r"^\s+(?:start a game|read replies) (pbem .*)$", banner, re.M):
        assert line in terminal, line
    newcomer.links.update(links_in(banner))


def test_a_thermopyles_game_by_the_readmes_terminal_commands(newcomer: Newcomer) -> None:
    first, second = (
        commands(block) for block in blocks(section("Playing by mail from a terminal"), "sh")
    )
    (send_new, read_welcome), (send_orders, read_reply) = first, second
    assert send_new[:3] == ["pbem", "mail", "send"] and read_welcome[:3] == ["pbem", "mail", "read"]
    newcomer.run(send_new)
    welcome = newcomer.run(read_welcome)
    newcomer.links.update(links_in(welcome))
    # The welcome, as the README says: the position, the hand, the reply address, the map.
    assert "Subject: [pbem #" in welcome and "Attached: " in welcome, welcome
    assert "HOW TO READ THE POSITION" in welcome, welcome
    address = reply_to(welcome)
    # The README's placeholder address is the one the welcome gave.
    orders = [address if "…" in word else word for word in send_orders]
    assert orders != send_orders, send_orders
    newcomer.run(orders)
    reply = newcomer.run(read_reply)
    newcomer.links.update(links_in(reply))
    action = send_orders[-1]
    assert f"1. {action} ->" in flat(reply), reply


def spanish_example() -> tuple[str, list[str], list[str]]:
    """The README's Spanish player: its JOIN line, what it sends after joining (its order
    lines), and the receipt's echo of them as the README shows it."""
    [example] = [
        b
        for b in blocks(section("In your language: Spanish, Russian or English"), "text")
        if "UNIRSE" in b
    ]
    entries = re.split(r"^(?=[→←])", example, flags=re.M)
    # A sent entry is "→ <address> <text>", its text running on in the lines below.
    join, orders = (entry.split(None, 2)[2] for entry in entries if entry.startswith("→"))
    lines = [line.strip() for line in orders.splitlines() if line.strip()]
    echo = [entry for entry in entries if entry.startswith("←") and "->" in entry][-1]
    # The receipt's lines stand three spaces or more apart, or on lines of their own.
    items = [part.strip() for part in re.split(r"\s{3,}", echo.split("\n", 1)[1]) if "->" in part]
    return join.strip(), lines, items


def test_a_two_player_game_as_the_readme_runs_it(newcomer: Newcomer) -> None:
    [mail] = blocks(section("Running a two-player game"), "")
    assert mail.startswith("NEW 2DEMAYO"), mail
    france = re.search(r"^FRANCE (\S+)$", mail, re.M)
    assert france and re.search(r"^SPAIN me$", mail, re.M), mail
    newcomer.send(GAME_MASTER, "new@pbem.localhost", mail)
    # The game master plays Spain ("me"): its letter and its own invitation come to it.
    spain = reply_to(newcomer.read(GAME_MASTER), "spain")
    murat = reply_to(newcomer.read(france.group(1)), "france")
    join, lines, echoed = spanish_example()
    newcomer.send(france.group(1), murat, "JOIN")
    newcomer.send(GAME_MASTER, spain, join)
    started = newcomer.read_until(GAME_MASTER, "la partida ha empezado")
    assert "la partida ha empezado" in started, started
    newcomer.send(GAME_MASTER, spain, "\n".join(lines))
    receipt = flat(newcomer.read(GAME_MASTER))
    assert echoed and all(item in receipt for item in echoed), (echoed, receipt)


def test_a_musket_and_pike_battle_starts_as_the_readme_says(newcomer: Newcomer) -> None:
    said = re.search(
        r"`(NEW MUSKETPIKE [^`]+)`", " ".join(section("Running a two-player game").split())
    )
    assert said, "the README shows no NEW MUSKETPIKE line"
    royalist, parliament = "hopton@example.com", "waller@example.com"
    body = f"{said.group(1)}\nROYALIST {royalist}\nPARLIAMENT {parliament}"
    newcomer.send(GAME_MASTER, "new@pbem.localhost", body)
    newcomer.read(GAME_MASTER)
    seats = {who: reply_to(newcomer.read(who)) for who in (royalist, parliament)}
    for who, address in seats.items():
        newcomer.send(who, address, "JOIN")
    for who in seats:
        opening = newcomer.read_until(who, "Attached: ")
        assert "Attached: " in opening and "Musket & Pike" in opening, opening
    # HELP, as the README ends its paragraph: the syntax of every decision.
    newcomer.send(royalist, seats[royalist], "HELP")
    assert "STANDING" in newcomer.read(royalist)


def test_every_link_a_newcomer_was_given_opens(newcomer: Newcomer) -> None:
    """Run last in this file: the archive, the games, the private checkers and lists, the help
    and the game master's panel, as the banner and the mails above gave them."""
    links = sorted(newcomer.links)
    assert any("/check/" in link for link in links) and any("?player=" in link for link in links), (
        links
    )
    broken = []
    for link in links:
        answer = requests.get(link, timeout=30)
        if answer.status_code != 200:
            broken.append((link, answer.status_code))
    assert not broken, broken
    print(f"{len(links)} links followed")
