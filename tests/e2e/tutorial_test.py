#!/usr/bin/env python3
"""Runs every command of docs/tutorial.md and checks what it prints.

In each ```console block, a line starting with "$ " is a command (a trailing
backslash continues it); the lines after it, up to the next command, are
output that must appear in that order among the lines the command prints
(stdout and stderr). In an output line "..." matches any text; a line that
is only "..." just marks omitted lines. A command must exit 0, or N when it
ends with the comment "# exits N". Images the page shows from docs/tutorial/
must equal the files its commands write (run with --update to refresh them
after a deliberate change).

Commands run with bash in a fresh folder holding a link to models/, with
lpx's folder first on PATH. About 3 s.

usage: tutorial_test.py LPX [--update]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "tutorial.md")


def commands(text):
    """(line number, command, expected exit, expected output lines)."""
    out, block, cmd = [], False, None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("```"):
            block = line.strip() == "```console"
            cmd = None
            continue
        if not block:
            continue
        if line.startswith("$ "):
            start, command = i, line[2:]
            while command.endswith("\\") and i < len(lines):
                command = command + "\n" + lines[i] # bash joins the lines
                i += 1
            m = re.search(r"#\s*exits\s+(\d+)\s*$", command)
            cmd = [start, command, int(m.group(1)) if m else 0, []]
            out.append(cmd)
        elif cmd is not None:
            cmd[3].append(line)
    return out


def matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), line.rstrip()) is not None


def check_output(expected, actual):
    """The first expected line not found in order, or None."""
    at = 0
    for want in expected:
        if want.strip() == "...":
            continue
        while at < len(actual) and not matches(want, actual[at]):
            at += 1
        if at == len(actual):
            return want
        at += 1
    return None


def main():
    lpx = os.path.abspath(sys.argv[1])
    update = "--update" in sys.argv[2:]
    with open(PAGE) as f:
        text = f.read()
    steps = commands(text)
    failures = 0
    env = dict(os.environ, PATH=os.path.dirname(lpx) + os.pathsep + os.environ["PATH"])
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.join(ROOT, "models"), os.path.join(tmp, "models"))
        for line, command, status, expected in steps:
            p = subprocess.run(["bash", "-c", command], cwd=tmp, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            actual = p.stdout.splitlines()
            missing = check_output(expected, actual)
            if p.returncode != status:
                print(f"FAIL line {line}: {command}\n  exit {p.returncode}, expected {status}")
            elif missing is not None:
                print(f"FAIL line {line}: {command}\n  no line matching: {missing}")
            else:
                print(f"ok   line {line}: {command.splitlines()[0]}")
                continue
            failures += 1
            print("  it printed:\n    " + "\n    ".join(actual[:40]))
        for image in re.findall(r"!\[[^\]]*\]\(tutorial/([^)]+)\)", text):
            made, shown = os.path.join(tmp, image), os.path.join(ROOT, "docs", "tutorial", image)
            if update and os.path.exists(made):
                shutil.copyfile(made, shown)
            same = os.path.exists(made) and os.path.exists(shown) and \
                open(made, "rb").read() == open(shown, "rb").read()
            print(("ok   " if same else "FAIL ") + f"docs/tutorial/{image} is what the commands draw"
                  + ("" if same else " (rerun with --update after a deliberate change)"))
            failures += not same
    print(f"{len(steps)} commands, {failures} failure(s)")
    return 1 if failures or not steps else 0


if __name__ == "__main__":
    sys.exit(main())
