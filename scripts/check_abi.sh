#!/bin/sh
# Keeps POISE_API_VERSION (and with it libpoise's SONAME) honest: include/poise.abi holds a
# fingerprint of include/poise.h's declarations (the header without its system includes,
# preprocessed without comments, plus its #define constants, whitespace collapsed) with the API
# version and the version it was taken at. When the declarations change (a struct layout, a signature, a constant), this check fails
# until POISE_API_VERSION is raised and, before 1.0, the minor version with it (0.9.x → 0.10.0:
# the CMake version file treats 0.MINOR as the API), and the fingerprint is recorded again:
#   scripts/check_abi.sh            check (run by `make test`)
#   scripts/check_abi.sh --update   record the current fingerprint (refused if the versions did not move)
set -eu
HEADER=include/poise.h
RECORD=include/poise.abi
CC=${CC:-cc}
fingerprint() {
    { grep -v '^#include' "$HEADER" | $CC -E -P -x c -
      grep '^#define' "$HEADER" | grep -v -e ' POISE_H$' -e ' POISE_VERSION ' -e ' POISE_API_VERSION '
    } | tr -s ' \t\n' '   ' | sha256sum | cut -d' ' -f1
}
api=$(sed -n 's/^#define POISE_API_VERSION \([0-9][0-9]*\).*/\1/p' "$HEADER")
version=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' "$HEADER")
minor=$(echo "$version" | cut -d. -f1-2)
current=$(fingerprint)
recorded() { sed -n "s/^$1 //p" "$RECORD"; }

if [ "${1:-}" = --update ]; then
    if [ -f "$RECORD" ] && [ "$(recorded sha256)" != "$current" ]; then
        [ "$api" -gt "$(recorded api)" ] || { echo "$HEADER changed: raise POISE_API_VERSION above $(recorded api) first" >&2; exit 1; }
        case $minor in 0.*) [ "$minor" != "$(recorded version)" ] || { echo "$HEADER changed: raise the minor version of POISE_VERSION ($version) too" >&2; exit 1; } ;; esac
    fi
    printf 'api %s\nversion %s\nsha256 %s\n' "$api" "$minor" "$current" > "$RECORD.tmp" && mv "$RECORD.tmp" "$RECORD"
    echo "recorded $RECORD: API $api, version $minor"
    exit 0
fi
[ -f "$RECORD" ] || { echo "no $RECORD: run scripts/check_abi.sh --update" >&2; exit 1; }
if [ "$(recorded sha256)" != "$current" ]; then
    echo "$HEADER: the declarations changed since $RECORD was recorded (API $(recorded api))." >&2
    echo "A struct layout, signature or constant differs: raise POISE_API_VERSION (the SONAME follows)" >&2
    echo "and, before 1.0, the minor version of POISE_VERSION; then run scripts/check_abi.sh --update." >&2
    exit 1
fi
if [ "$(recorded api)" != "$api" ] || [ "$(recorded version)" != "$minor" ]; then
    echo "$HEADER: POISE_API_VERSION $api / version $minor, but $RECORD was recorded at API $(recorded api) / $(recorded version); run scripts/check_abi.sh --update" >&2
    exit 1
fi
echo "poise.h ABI: API $api, fingerprint as recorded"
