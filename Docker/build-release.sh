#!/usr/bin/env bash
# Builds the release observable-server, and the observable command, with the Swift runtime
# linked in statically, so the binaries run on a plain Debian without a Swift toolchain (and
# the command starts on about a third less CPU than a build on the toolchain's shared
# libraries), strips them, and copies them to an output directory. Used by the Dockerfile's
# build stage and by CI.
#
#   Docker/build-release.sh [output-dir]    (default: .build/release-bundle in the package)
#
# The output directory gets observable-server and observable (stripped: what ships) and
# observable-server.debug and observable.debug (their symbols and debug information, which gdb
# and addr2line find through each binary's debug link; keep them beside the binaries to read a
# crash's addresses). A relative output-dir is taken from the current directory. The last line
# of output is the absolute path of the server binary.
set -euo pipefail

package_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
output_dir=$(realpath -m -- "${1:-$package_dir/.build/release-bundle}")
build_flags=(-c release --static-swift-stdlib)

cd -- "$package_dir"
swift build "${build_flags[@]}" --product observable-server
swift build "${build_flags[@]}" --product observable
bin_dir=$(swift build "${build_flags[@]}" --show-bin-path)

mkdir -p -- "$output_dir"
for product in observable observable-server; do
  binary=$output_dir/$product
  # The symbols are half the unstripped binary and nothing needs them at run time.
  objcopy --only-keep-debug -- "$bin_dir/$product" "$binary.debug"
  strip --strip-all -o "$binary" -- "$bin_dir/$product"
  (cd -- "$output_dir" && objcopy --add-gnu-debuglink="$product.debug" "$product")
  chmod 0755 -- "$binary"
  chmod 0644 -- "$binary.debug"
done
echo "built $output_dir/observable"
echo "built $output_dir/observable-server"
