# Sourced by build_c_library.sh and build_readers_library.sh (needs BIN and WORK set).
# objects TARGET: the objects of the target's current sources, from the build's output file map
# (a glob would also pick up objects of sources renamed or deleted since an earlier build).
objects() {
    python3 -c 'import json, sys
for source, entry in json.load(open(sys.argv[1])).items():
    if source.endswith(".swift") and "object" in entry: print(entry["object"])' "$BIN/$1.build/output-file-map.json"
}
# c_objects TARGET: the objects of the C target's current sources (Sources/TARGET/*.c).
c_objects() {
    for source in Sources/"$1"/*.c; do echo "$BIN/$1.build/${source##*/}.o"; done
}
# export_map PREFIX TARGET: $WORK/symbols.txt, every PREFIX* function TARGET's objects define, and
# $WORK/exports.map, the version script that exports only those.
export_map() {
    nm -g --defined-only $(objects "$2") | awk -v p="^$1" '$2 == "T" && $3 ~ p { print $3 }' | sort -u > "$WORK/symbols.txt"
    [ -s "$WORK/symbols.txt" ] || { echo "no $1* symbols found" >&2; exit 1; }
    { echo "{ global:"; sed 's/$/;/' "$WORK/symbols.txt"; echo "local: *; };"; } > "$WORK/exports.map"
}
