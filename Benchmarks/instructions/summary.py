#!/usr/bin/env python3
"""Summarise an icount histogram: instructions per call, per function and per kind.

    summary.py BINARY HISTOGRAM CALLS

The kinds separate what competes for the floating-point pipes (fma, mul, add/sub, compares and
shuffles) from loads/stores, moves and integer work: on this shared VM the fusion update's slow
phases track the floating-point work more than the total.
"""
import bisect, collections, re, subprocess, sys

binary, histogram, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = {}
for line in open(histogram):
    address, count = line.split()
    counts[int(address, 16)] = int(count)

symbols = []
for line in subprocess.run(["nm", "-n", binary], capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3:
        symbols.append((int(parts[0], 16), parts[2]))
starts = [s[0] for s in symbols]
demangle = {"update4time": "update", "estimateBias": "estimateBias", "V7correctyyF": "correct",
            "updateMagnetometer": "updateMagnetometer", "accumulateOutOfLine": "accumulateOutOfLine"}
per_function = collections.Counter()
for address, count in counts.items():
    name = symbols[bisect.bisect_right(starts, address) - 1][1]
    name = next((short for key, short in demangle.items() if key in name), name[:50])
    per_function[name] += count

kinds = collections.Counter()
listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True).stdout
for line in listing.splitlines():
    m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
    if not m or int(m.group(1), 16) not in counts:
        continue
    count, op, args = counts[int(m.group(1), 16)], m.group(2), m.group(3)
    if re.match(r"v?f(n)?m(add|sub)", op): kind = "fma"
    elif re.match(r"v?mul[sp][sd]", op): kind = "mul"
    elif re.match(r"v?(add|sub)[sp][sd]", op): kind = "add/sub"
    elif re.match(r"v?(div|sqrt)", op): kind = "div/sqrt"
    elif re.match(r"v?(u?comi|cmp[a-z]*[sp][sd])", op): kind = "fp compare"
    elif re.match(r"v?(shuf|unpck|perm|insert|extract|broadcast|movddup|movhp|movlp|blend)", op): kind = "shuffle/blend"
    elif op.startswith(("vmov", "mov")) and ("(%" in args or "rip" in args): kind = "load/store"
    elif op.startswith(("vmov", "mov")): kind = "register move"
    elif op.startswith("j") or op in ("call", "ret"): kind = "branch"
    else: kind = "other"
    kinds[kind] += count

total = sum(counts.values())
print(f"{total / calls:.1f} instructions per call")
print("  by function: " + ", ".join(f"{k} {v / calls:.1f}" for k, v in per_function.most_common(6)))
print("  by kind:     " + ", ".join(f"{k} {v / calls:.1f}" for k, v in kinds.most_common()))
