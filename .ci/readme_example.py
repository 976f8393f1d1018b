"""Runs the README's first example with the `cmg` a wheel installed, and checks its output.

    python .ci/readme_example.py VENV_SCRIPTS_DIR

The example is the README's first ```console block: each `$ command` line runs through
`sh` from the repository root with VENV_SCRIPTS_DIR first on PATH, and must print the
lines under it (standard output, then standard error), where a `...` line stands for any
number of lines. These are the rules tests/it/docs.rs applies to every block against the
cargo-built binary; this script needs no Rust, which is the point: it checks what
`pip install` gave. Exit code 0 when every command printed what the README shows.
"""

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def first_console_block(readme: str) -> list[str]:
    lines = readme.splitlines()
    start = lines.index("```console") + 1
    end = lines.index("```", start)
    return lines[start:end]


def commands(block: list[str]) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for line in block:
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
        else:
            raise SystemExit(f"readme_example: output before the first `$ ` line: {line!r}")
    return found


def trim_trailing_blank(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    line, rest = expected[0], expected[1:]
    if line.strip() == "...":
        return any(matches(rest, actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and actual[0].rstrip() == line and matches(rest, actual[1:])


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    scripts = pathlib.Path(sys.argv[1]).resolve()
    env = dict(os.environ, NO_COLOR="1")
    env.pop("CLICOLOR_FORCE", None)
    env["PATH"] = f"{scripts}{os.pathsep}{env.get('PATH', '')}"
    found = shutil.which("cmg", path=env["PATH"])
    if found is None or pathlib.Path(found).resolve().parent != scripts:
        print(f"readme_example: `cmg` on PATH is {found}, not the one in {scripts}", file=sys.stderr)
        return 1
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    failed = 0
    example = commands(first_console_block(readme))
    for command, expected in example:
        run = subprocess.run(
            ["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, stdin=subprocess.DEVNULL
        )
        # A checkout with Windows line endings makes `cat` print them; cmg prints `\n`.
        printed = (run.stdout + run.stderr).decode("utf-8", "replace").replace("\r\n", "\n")
        if matches(trim_trailing_blank(expected), trim_trailing_blank(printed.splitlines())):
            print(f"ok   $ {command}")
        else:
            failed += 1
            print(f"FAIL $ {command}\n{printed}--- but the README shows ---\n" + "\n".join(expected))
    print(f"readme example with {found}: {len(example) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
