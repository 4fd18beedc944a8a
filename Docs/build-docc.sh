#!/usr/bin/env bash
# Builds the DocC archives of the public library modules with the toolchain's `docc`, warnings
# as errors, so every symbol link in the docs resolves: symbol graphs are extracted from the
# modules `swift build` made (no second compile, no package plugin), then `docc convert`.
#
# Usage: Docs/build-docc.sh [output directory]   (default: .build-docs/archives)
#
# The toolchain's docc rather than swift-docc-plugin: the plugin would be a dependency of this
# package, so every package that depends on ObservableClient would clone it and SymbolKit too,
# and it compiles the modules again in a scratch directory of its own; extracting the graphs
# from the build CI has just made takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

# The modules to document: the products' public libraries. A module's catalog, if it has one,
# is Sources/<module>/<module>.docc.
modules=(IndefiniteObservable ObservableClient ObservableServer)

out=${1:-.build-docs/archives}
graphs=.build-docs/symbol-graphs
mkdir -p "$out"

for module in "${modules[@]}"; do
  swift build --target "$module" 2>&1 | tail -n 1
done
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")

# The C modules the Swift modules import: the system library's module map in Sources, and the
# module maps SwiftPM wrote for the C targets.
include=(-I "$bin/Modules")
for map in Sources/*/module.modulemap; do include+=(-I "$(dirname "$map")"); done
for map in "$bin"/*.build/module.modulemap; do include+=(-Xcc "-fmodule-map-file=$map"); done

for module in "${modules[@]}"; do
  echo "== DocC: $module"
  rm -rf "$graphs/$module" "$out/$module.doccarchive"
  mkdir -p "$graphs/$module"
  swift symbolgraph-extract -module-name "$module" -target "$triple" "${include[@]}" \
    -minimum-access-level public -output-dir "$graphs/$module"
  catalog=()
  if [[ -d Sources/$module/$module.docc ]]; then catalog=("Sources/$module/$module.docc"); fi
  docc convert ${catalog[@]+"${catalog[@]}"} --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.observable.$module" \
    --warnings-as-errors --output-path "$out/$module.doccarchive"
done
echo "DocC archives in $out: ${modules[*]}"
