#!/bin/sh
# Builds the DocC archives of IndefiniteObservable and ObservableClient with the toolchain's
# docc and no package plugin: symbol graphs from the compiler, then docc convert.
set -eu
scratch=.build-docs
out=${1:-.build-docs/archives}
# A fresh build each time: an incremental one emits graphs only for the modules it recompiles.
# It compiles only the two libraries, Locking and swift-log, about a minute on two cores.
rm -rf "$scratch/debug" "$scratch/x86_64-unknown-linux-gnu" "$scratch/symbol-graphs"
mkdir -p "$scratch/symbol-graphs" "$out"
swift build --scratch-path "$scratch" --target ObservableClient \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
  -Xswiftc "$PWD/$scratch/symbol-graphs"
for module in IndefiniteObservable ObservableClient; do
  rm -rf "$scratch/graphs-$module" "$out/$module.doccarchive"
  mkdir -p "$scratch/graphs-$module"
  cp "$scratch/symbol-graphs/$module.symbols.json" "$scratch/graphs-$module/"
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$scratch/graphs-$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.observable.$module" \
    --warnings-as-errors --output-path "$out/$module.doccarchive"
done
