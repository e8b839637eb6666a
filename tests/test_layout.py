"""The layout rules of design.md, checked on the source itself: a module holds one job (at most
400 lines), a function is a few named steps (at most 60 lines, its whole ``def`` counted,
docstring included), no function is exempted from ruff's complexity limit, and the code says
why in its own words, not by pointing at a ticket number.

Modules and functions are those of the project's code: every package, ``bench`` and the files
at the root, without migrations (generated) and tests. The complexity exemption and ticket
references are looked for in every Python file but migrations.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
#: A ticket reference: "issue 16", "items 2, 17", "Issue #5", "item5".
TICKET = re.compile(r"\b(issue|item)s? ?#?\d+", re.IGNORECASE)
#: Spelt in two parts so that this file does not hold what it looks for.
EXEMPTION = "noqa: " + "C901"
SKIPPED = {".venv", ".git", "node_modules", "static", "templates", "var", "__pycache__"}


def python_files() -> list[Path]:
    """Every Python file of the repository but migrations (and the developer script, which is
    Python without the suffix)."""
    found = [ROOT / "dev"] if (ROOT / "dev").exists() else []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if SKIPPED.intersection(parts) or "migrations" in parts:
            continue
        found.append(path)
    return found


def code_files() -> list[Path]:
    """The project's code: ``python_files`` without the tests."""
    return [p for p in python_files() if p.relative_to(ROOT).parts[0] != "tests"]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_the_files_are_found():
    files = {name(p) for p in code_files()}
    assert {"manage.py", "engine/settlement.py", "bench/verification.py"} <= files
    assert not any("migrations" in f or f.startswith("tests/") for f in files)
    assert name(Path(__file__)) in {name(p) for p in python_files()}


def test_no_module_is_over_400_lines():
    long = [
        f"{name(path)}: {count} lines"
        for path in code_files()
        if (count := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert not long, "split by job (a package by area, or a sibling module):\n" + "\n".join(long)


def test_no_function_is_over_60_lines():
    long = []
    for path in code_files():
        for node in functions(ast.parse(path.read_text(), filename=str(path))):
            count = (node.end_lineno or node.lineno) - node.lineno + 1
            if count > MAX_FUNCTION_LINES:
                long.append(f"{name(path)}:{node.lineno} {node.name}: {count} lines")
    assert not long, "split into named steps:\n" + "\n".join(long)


def test_a_function_is_counted_from_its_def_to_its_last_line():
    source = 'def f():\n    """Doc."""\n' + "    x = 1\n" * 3 + "\n    return x\n"
    (node,) = functions(ast.parse(source))
    assert (node.end_lineno or 0) - node.lineno + 1 == 7


def test_no_function_is_exempt_from_the_complexity_limit():
    exempt = [
        f"{name(path)}:{number}"
        for path in python_files()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if EXEMPTION in line
    ]
    assert not exempt, "split the function into named steps instead:\n" + "\n".join(exempt)


def test_the_code_names_no_ticket():
    found = [
        f"{name(path)}:{number}: {line.strip()[:90]}"
        for path in python_files()
        if path != Path(__file__).resolve()  # this file holds examples of what it looks for
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if TICKET.search(line)
    ]
    assert not found, "say why in the code's own words:\n" + "\n".join(found)


def test_the_ticket_pattern_finds_references_and_nothing_else():
    for text in ("(issue 16)", "items 2, 17", "Issue #5", "hardening item 14", "item5"):
        assert TICKET.search(text), text
    for text in ("an issue with the rack", "each item of the list", "reissue 5", "items"):
        assert not TICKET.search(text), text
