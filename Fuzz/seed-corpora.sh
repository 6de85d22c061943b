#!/usr/bin/env bash
# Seeds the fuzz corpora in $1/<target>: the kept inputs under
# Tests/FuzzRegressionTests/Inputs, the project's own reports and thresholds,
# and — when the Core Data fixtures are beside the clone (or named by
# FAULTLINE_COREDATA_FIXTURES) — their model files, compiled models, model
# caches and stores. Fixtures are copied into the corpus only, never into the
# repository.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$1"
mkdir -p "$out"
for target in predicate model-file compiled-model store report property-list; do
    mkdir -p "$out/$target"
    cp Tests/FuzzRegressionTests/Inputs/"$target"/* "$out/$target/" 2>/dev/null || true
done
for file in Results/baseline-*.json Benchmarks/thresholds.json; do
    [ -f "$file" ] && cp "$file" "$out/report/$(basename "$file")"
done
fixtures="${FAULTLINE_COREDATA_FIXTURES:-../shared/coredata-stores}"
if [ ! -d "$fixtures" ]; then
    echo "seed-corpora: no Core Data fixtures at $fixtures; seeding from the kept inputs only" >&2
    exit 0
fi
n=0
while IFS= read -r -d '' file; do
    n=$((n + 1)); cp "$file" "$out/model-file/fixture-$n-contents"
done < <(find "$fixtures" -name contents -path '*.xcdatamodel*' -print0)
while IFS= read -r -d '' file; do
    n=$((n + 1)); cp "$file" "$out/compiled-model/fixture-$n.mom"
done < <(find "$fixtures" -name '*.mom' -size -1M -print0)
while IFS= read -r -d '' file; do
    n=$((n + 1))
    # Stores under 1 MB as they are; every store's model cache blob on its own.
    if [ "$(stat -c %s "$file")" -lt 1048576 ]; then cp "$file" "$out/store/fixture-$n.sqlite"; fi
    if command -v sqlite3 >/dev/null; then
        sqlite3 "file:$file?immutable=1" "SELECT writefile('$out/compiled-model/fixture-$n.cache', Z_CONTENT) FROM Z_MODELCACHE LIMIT 1" \
            >/dev/null 2>&1 || true
        sqlite3 "file:$file?immutable=1" "SELECT writefile('$out/property-list/fixture-$n.plist', Z_PLIST) FROM Z_METADATA LIMIT 1" \
            >/dev/null 2>&1 || true
    fi
done < <(find "$fixtures" \( -name '*.sqlite' -o -name '*.store' \) -print0)
while IFS= read -r -d '' file; do
    n=$((n + 1)); cp "$file" "$out/property-list/fixture-$n-VersionInfo.plist"
done < <(find "$fixtures" -name VersionInfo.plist -path '*.momd/*' -print0)
echo "seed-corpora: $(find "$out" -type f | wc -l) inputs" >&2
