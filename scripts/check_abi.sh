#!/bin/sh
# Keeps POISE_API_VERSION (and with it libpoise's SONAME) honest: include/poise.abi holds every
# declaration of include/poise.h (the header without its system includes, preprocessed without
# comments, whitespace collapsed, one declaration a line, then its #define constants) with the
# API version and the version they were recorded at.
# - A recorded declaration that is gone or differs (a struct layout, a signature, a constant's
#   value) breaks programs built against the library: the check fails until POISE_API_VERSION is
#   raised and, before 1.0, the minor version with it (0.9.x → 0.10.0: the CMake version file
#   treats 0.MINOR as the API), and the declarations are recorded again.
# - A declaration only added (a new function, a new constant) breaks nothing: the check fails
#   until it is recorded, which needs no new API version (a program that calls it needs a library
#   that has it: the dynamic linker names the missing symbol).
#   scripts/check_abi.sh            check (run by `make test`)
#   scripts/check_abi.sh --update   record the current declarations (refused if one changed or
#                                   went away and the versions did not move)
set -eu
HEADER=include/poise.h
RECORD=include/poise.abi
CC=${CC:-cc}
declarations() {
    grep -v '^#include' "$HEADER" | $CC -E -P -x c - | tr -s ' \t\n' '   ' |
        awk 'BEGIN { RS = ";" } { for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); depth += (c == "{") - (c == "}") }
                                 text = text $0; if (depth == 0) { gsub(/^ +| +$/, "", text); if (text != "") print text ";"; text = "" } else text = text ";" }'
    grep '^#define' "$HEADER" | grep -v -e ' POISE_H$' -e ' POISE_VERSION ' -e ' POISE_API_VERSION ' | tr -s ' \t' '  '
}
api=$(sed -n 's/^#define POISE_API_VERSION \([0-9][0-9]*\).*/\1/p' "$HEADER")
version=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' "$HEADER")
minor=$(echo "$version" | cut -d. -f1-2)
recorded() { sed -n "s/^$1 //p" "$RECORD"; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
declarations | LC_ALL=C sort -u > "$WORK/current"
[ -f "$RECORD" ] && sed -n 's/^declaration //p' "$RECORD" | LC_ALL=C sort -u > "$WORK/recorded" || : > "$WORK/recorded"
LC_ALL=C comm -23 "$WORK/recorded" "$WORK/current" > "$WORK/changed"
LC_ALL=C comm -13 "$WORK/recorded" "$WORK/current" > "$WORK/added"
show() { sed 's/^\(.\{0,150\}\).*/    \1/' "$1" >&2; }

if [ "${1:-}" = --update ]; then
    if [ -f "$RECORD" ] && [ -s "$WORK/changed" ]; then
        [ "$api" -gt "$(recorded api)" ] || { echo "$HEADER: declarations changed or went away: raise POISE_API_VERSION above $(recorded api) first:" >&2; show "$WORK/changed"; exit 1; }
        case $minor in 0.*) [ "$minor" != "$(recorded version)" ] || { echo "$HEADER changed: raise the minor version of POISE_VERSION ($version) too" >&2; exit 1; } ;; esac
    fi
    { printf 'api %s\nversion %s\n' "$api" "$minor"; sed 's/^/declaration /' "$WORK/current"; } > "$RECORD.tmp" && mv "$RECORD.tmp" "$RECORD"
    echo "recorded $RECORD: API $api, version $minor, $(wc -l < "$WORK/current") declarations"
    exit 0
fi
[ -f "$RECORD" ] || { echo "no $RECORD: run scripts/check_abi.sh --update" >&2; exit 1; }
if [ -s "$WORK/changed" ]; then
    echo "$HEADER: declarations recorded in $RECORD (API $(recorded api)) changed or went away:" >&2
    show "$WORK/changed"
    echo "A struct layout, signature or constant differs: raise POISE_API_VERSION (the SONAME follows)" >&2
    echo "and, before 1.0, the minor version of POISE_VERSION; then run scripts/check_abi.sh --update." >&2
    exit 1
fi
if [ "$(recorded api)" != "$api" ] || [ "$(recorded version)" != "$minor" ]; then
    echo "$HEADER: POISE_API_VERSION $api / version $minor, but $RECORD was recorded at API $(recorded api) / $(recorded version); run scripts/check_abi.sh --update" >&2
    exit 1
fi
if [ -s "$WORK/added" ]; then
    echo "$HEADER: declarations added since $RECORD was recorded (compatible; the API version stays):" >&2
    show "$WORK/added"
    echo "record them with scripts/check_abi.sh --update." >&2
    exit 1
fi
echo "poise.h ABI: API $api, $(wc -l < "$WORK/current") declarations as recorded"
