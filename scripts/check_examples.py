#!/usr/bin/env python3
"""Run the `$ poise …` examples of README.md and docs/*.md and compare their shown output.

Usage (from the repository root; `make test` runs it after the Swift tests):

    python3 scripts/check_examples.py [--poise PATH] [--only TEXT …] [--list]

What is an example: a fenced code block with at least one line starting with `$ poise`. Every
`$ ` line of such a block is a command (a line ending in `\\` continues on the next); the lines
after it, up to the next `$ ` line, are its shown output.

How it runs: the blocks of one page run in order in one scratch folder (so a page can make a
file in one block and read it in the next), with `data` linked to the repository's data/ and
`../shared` to the repository's ../shared (when present), `poise` first on PATH, under `bash -o
pipefail`, each command with a time limit (--timeout, default 600 s).

How output is compared (standard output and standard error together, in order):
- A command with no shown output is only checked to succeed.
- Shown lines must appear in the output in order; a line `…` stands for any number of lines
  (none included). Without a `…` between them, two shown lines must be consecutive output
  lines; without a final `…`, the shown output must end where the output ends.
- A shown line ending in `…` matches a printed line that starts like it.
- Runs of spaces count as one space. Numbers are compared as numbers: a shown number matches
  when the printed one differs by at most the larger of two units in the shown number's last
  digit and 0.1 % of its value (`-121.27` accepts −121.25 … −121.29, not −121.52); whole
  numbers without a decimal point (counts, samples) must be equal within that same rule,
  which for a number below 1000 means within 2. Everything else must be equal.
- A command must exit 0, unless its shown output has a line starting with `Error:`: then it
  must fail, and with status 64 when the block shows `# exits 64` after the command.

Skipping: a block whose opening fence is directly preceded by a line
`*Not run by the example check: REASON.*` is reported as skipped with that reason (use it for
an example that needs the network or a device, or takes longer than a few seconds). A block
that reads ../shared/data is skipped, with that reason, when the folder is absent (the README's
examples may not read it: they must run from a fresh clone).
The report lists every block run and skipped; a failure prints the command, a diff of shown
against printed output, and the exit status, and the script exits 1.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_MARKER = re.compile(r"^\*Not run by the example check: (.+?)\.?\*\s*$")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
ELLIPSIS = "…"


class Command:
    def __init__(self, line, text, shown, exits):
        self.line, self.text, self.shown, self.exits = line, text, shown, exits


class Block:
    def __init__(self, page, line, heading, commands, skip):
        self.page, self.line, self.heading, self.commands, self.skip = page, line, heading, commands, skip

    @property
    def name(self):
        return "%s:%d (%s)" % (self.page, self.line, self.heading or "top")


def parse_page(page):
    """The example blocks of one Markdown page."""
    lines = open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n")
    blocks, heading, i = [], "", 0
    while i < len(lines):
        if lines[i].startswith("#") and not lines[i].startswith("#!"):
            heading = lines[i].lstrip("#").strip()
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if not any(text.startswith("$ poise") for _, text in body):
            continue
        marker = SKIP_MARKER.match(lines[start - 1]) if start > 0 else None
        commands, j = [], 0
        while j < len(body):
            number, text = body[j]
            if not text.startswith("$ "):
                j += 1   # text before the first command: not compared
                continue
            command = text[2:]
            while command.endswith("\\") and j + 1 < len(body):
                j += 1
                command = command[:-1] + " " + body[j][1].strip()
            j += 1
            shown = []
            while j < len(body) and not body[j][1].startswith("$ "):
                shown.append(body[j][1])
                j += 1
            exits = None
            code = re.search(r"\s#\s*exits (\d+)\s*$", command)
            if code:
                exits = int(code.group(1))
            commands.append(Command(number, command, shown, exits))
        blocks.append(Block(page, start + 1, heading, commands, marker.group(1) if marker else None))
    return blocks


def tokens(line):
    """A line as alternating text and numbers, with runs of spaces as one space."""
    line = " ".join(line.split())
    out, last = [], 0
    for m in NUMBER.finditer(line):
        out.append(("text", line[last:m.start()]))
        out.append(("number", m.group()))
        last = m.end()
    out.append(("text", line[last:]))
    return out


def tolerance(shown):
    mantissa = re.split(r"[eE]", shown)[0]
    exponent = int(re.split(r"[eE]", shown)[1]) if re.search(r"[eE]", shown) else 0
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    unit = 10.0 ** (exponent - decimals)
    return max(2 * unit, 1e-3 * abs(float(shown)))


def line_matches(shown, printed):
    shown = " ".join(shown.split())
    printed = " ".join(printed.split())
    if shown.endswith(ELLIPSIS) and shown != ELLIPSIS:
        # A line cut short in the page: the printed line must start like it.
        shown = shown[:-1].rstrip()
        printed = printed[:len(shown)]
    a, b = tokens(shown), tokens(printed)
    if len(a) != len(b):
        return False
    for (kind, x), (_, y) in zip(a, b):
        if kind == "text":
            if x != y:
                return False
        elif abs(float(x) - float(y)) > tolerance(x):
            return False
    return True


def output_matches(shown, printed):
    """Whether the shown lines (with … gaps) match the printed lines in order."""
    shown = list(shown)
    while shown and shown[-1].strip() == "" :
        shown.pop()
    segments, current, gap_before = [], [], False
    for line in shown:
        if line.strip() == ELLIPSIS:
            segments.append((gap_before, current))
            current, gap_before = [], True
        else:
            current.append(line)
    segments.append((gap_before, current))
    open_end = shown and shown[-1].strip() == ELLIPSIS
    printed = list(printed)
    while printed and printed[-1].strip() == "":
        printed.pop()

    def match_from(k, position):
        if k == len(segments):
            return open_end or position == len(printed)
        gap, lines = segments[k]
        candidates = range(position, len(printed) - len(lines) + 1) if gap else [position]
        for p in candidates:
            if all(p + n < len(printed) and line_matches(l, printed[p + n]) for n, l in enumerate(lines)):
                if match_from(k + 1, p + len(lines)):
                    return True
        return False

    return match_from(0, 0)


def find_poise():
    for configuration in ("debug", "release"):
        path = os.path.join(ROOT, ".build", configuration, "poise")
        if os.access(path, os.X_OK):
            return path
    sys.exit("check_examples: no .build/debug/poise or .build/release/poise; build it first "
             "(swift build --product poise) or pass --poise PATH")


def run_block(block, work, env, timeout):
    """Runs one block's commands in `work`; returns a list of failure texts."""
    failures = []
    for command in block.commands:
        shown = [l for l in command.shown]
        expects_error = any(l.startswith("Error:") for l in shown)
        started = time.monotonic()
        try:
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command.text], cwd=work, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            failures.append("%s:%d: `$ %s` took longer than %d s" % (block.page, command.line, command.text, timeout))
            break
        seconds = time.monotonic() - started
        printed = result.stdout.decode("utf-8", "replace").split("\n")
        problems = []
        if expects_error:
            if result.returncode == 0:
                problems.append("exited 0, but the page shows an error")
            elif command.exits is not None and result.returncode != command.exits:
                problems.append("exited %d, the page says %d" % (result.returncode, command.exits))
        elif result.returncode != 0:
            problems.append("exited %d" % result.returncode)
        if any(l.strip() for l in shown) and not output_matches(shown, printed):
            problems.append("printed output differs from the page")
        if problems:
            diff = "\n".join(difflib.unified_diff([l for l in shown], [l for l in printed],
                                                  "shown in %s" % block.page, "printed", lineterm="", n=2))
            failures.append("%s:%d: `$ %s` (%.1f s): %s\n%s" % (block.page, command.line, command.text, seconds,
                                                               "; ".join(problems), diff or "\n".join(printed[-20:])))
            break   # later commands of the block usually need this one
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--poise", help="the poise binary (default .build/debug/poise, else .build/release/poise)")
    parser.add_argument("--only", action="append", default=[], help="run only blocks whose name contains TEXT")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per command (default 600: generous, for a loaded machine)")
    parser.add_argument("--list", action="store_true", help="list the blocks and exit")
    args = parser.parse_args()

    pages = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    blocks = [b for page in pages for b in parse_page(page)]
    if args.only:
        blocks = [b for b in blocks if any(text in b.name for text in args.only)]
    if args.list:
        for b in blocks:
            print("%s%s" % (b.name, "  [skipped: %s]" % b.skip if b.skip else ""))
        return 0
    poise = os.path.abspath(args.poise) if args.poise else find_poise()
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    have_shared = os.path.isdir(os.path.join(shared, "data"))

    scratch = tempfile.mkdtemp(prefix="poise-examples-")
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir)
    os.symlink(poise, os.path.join(bin_dir, "poise"))
    if have_shared:
        os.symlink(shared, os.path.join(scratch, "shared"))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C.UTF-8")
    env.pop("COLUMNS", None)

    ran, skipped, failures = 0, 0, []
    for b in blocks:
        if b.page == "README.md" and any("../shared" in c.text for c in b.commands):
            failures.append("%s: the README's examples must run from a fresh clone (only data/), "
                            "but this one reads ../shared" % b.name)
    started = time.monotonic()
    print("check_examples: %s, %d example blocks in %d pages; numbers match within max(2 units in "
          "the last shown digit, 0.1 %%)" % (os.path.relpath(poise, ROOT), len(blocks), len(pages)))
    try:
        works = {}
        for b in blocks:
            reason = b.skip
            if reason is None and not have_shared and any("../shared" in c.text for c in b.commands):
                reason = "reads ../shared/data, which is absent"
            if reason:
                skipped += 1
                print("  skip %s: %s" % (b.name, reason))
                continue
            work = works.get(b.page)
            if work is None:
                work = os.path.join(scratch, "work-" + re.sub(r"\W", "-", b.page))
                os.makedirs(work)
                os.symlink(os.path.join(ROOT, "data"), os.path.join(work, "data"))
                works[b.page] = work
            t = time.monotonic()
            problems = run_block(b, work, env, args.timeout)
            ran += 1
            print("  %s %s: %d command%s, %.1f s" % ("FAIL" if problems else "ok  ", b.name, len(b.commands),
                                                   "" if len(b.commands) == 1 else "s", time.monotonic() - t))
            failures += problems
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("check_examples: %d blocks run, %d skipped, %d failed (%.0f s)" % (ran, skipped, len(failures),
                                                                         time.monotonic() - started))
    for f in failures:
        print("\n" + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
