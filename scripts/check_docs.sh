#!/bin/sh
# Builds the DocC catalogs (Sources/Poise/Poise.docc, Sources/PoiseSpectral/PoiseSpectral.docc)
# with the toolchain's `docc` from symbol graphs of the debug build, fails on any DocC warning
# (broken symbol or article links, undocumented parameters), and type-checks every ```swift
# example in the articles against the built modules (`make check-docs`; docs/reports.md).
# A block right after a line `<!-- fragment -->` is not compiled (e.g. a Package.swift excerpt).
set -eu
SWIFT=${SWIFT:-swift}
BIN=$(dirname "$(command -v "$SWIFT")")
DOCC=${DOCC:-$BIN/docc}
[ -x "$DOCC" ] || DOCC=$(command -v docc || true)
[ -n "$DOCC" ] || { echo "check_docs: docc not found in the toolchain" >&2; exit 2; }
MODULES=$("$SWIFT" build --show-bin-path)/Modules
WORK=${WORK:-$(mktemp -d)}
trap 'rm -rf "$WORK"' EXIT
status=0
for module in Poise PoiseSpectral; do
  catalog=Sources/$module/$module.docc
  mkdir -p "$WORK/sg-$module"
  "$SWIFT" symbolgraph-extract -module-name "$module" -I "$MODULES" -I Sources/CFFTW \
    -I Sources/CPoiseKernels/include \
    -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$WORK/sg-$module"
  log="$WORK/docc-$module.log"
  "$DOCC" convert "$catalog" --additional-symbol-graph-dir "$WORK/sg-$module" \
    --output-path "$WORK/out-$module" --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.poise.$module" >"$log" 2>&1 || { cat "$log"; status=1; }
  if grep -qE '^(warning|error):' "$log"; then
    echo "check_docs: $catalog has DocC warnings:" >&2
    grep -A6 -E '^(warning|error):' "$log" >&2
    status=1
  else
    echo "check_docs: $catalog builds without warnings ($(ls "$WORK/out-$module/data/documentation/$(echo "$module" | tr 'A-Z' 'a-z')" | wc -l) pages)"
  fi
  # Each article's examples, each block wrapped in its own function, in one file per article.
  for article in "$catalog"/*.md; do
    name=$(basename "$article" .md)
    source="$WORK/example-$module-$name.swift"
    python3 - "$article" "$source" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read().splitlines()
blocks, inside, skip, current, previous = [], False, False, [], ""
for line in text:
    if not inside and line.strip() == "```swift":
        inside, skip, current = True, previous.strip() == "<!-- fragment -->", []
    elif inside and line.strip() == "```":
        inside = False
        if not skip: blocks.append(current)
    elif inside:
        current.append(line)
    if line.strip(): previous = line
imports = sorted({l for b in blocks for l in b if re.match(r"import \w+$", l.strip())})
body = []
for i, b in enumerate(blocks):
    body.append(f"func example{i}() throws {{")
    body += ["    " + l for l in b if not re.match(r"import \w+$", l.strip())]
    body.append("}")
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(imports + body) + "\n" if blocks else "")
PY
    [ -s "$source" ] || continue
    if "$SWIFT"c -typecheck -parse-as-library -swift-version 6 -I "$MODULES" -I Sources/CFFTW \
        -I Sources/CPoiseKernels/include "$source" 2>"$WORK/tc.log"; then
      echo "check_docs: $article: examples compile"
    else
      echo "check_docs: $article: an example does not compile:" >&2
      cat "$WORK/tc.log" >&2
      status=1
    fi
  done
done
exit $status
