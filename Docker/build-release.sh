#!/usr/bin/env bash
# Builds the release observable-server with the Swift runtime linked in statically, so the
# binary runs on a plain Debian without a Swift toolchain, strips it, and copies it to an
# output directory. Used by the Dockerfile's build stage and by CI.
#
#   Docker/build-release.sh [output-dir]    (default: .build/release-bundle in the package)
#
# The output directory gets observable-server (stripped: what ships) and
# observable-server.debug (its symbols and debug information, which gdb and addr2line find
# through the binary's debug link; keep it beside the binary to read a crash's addresses).
# A relative output-dir is taken from the current directory. The last line of output is the
# absolute path of the binary.
set -euo pipefail

package_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
output_dir=$(realpath -m -- "${1:-$package_dir/.build/release-bundle}")
build_flags=(-c release --static-swift-stdlib)

cd -- "$package_dir"
swift build "${build_flags[@]}" --product observable-server
bin_dir=$(swift build "${build_flags[@]}" --show-bin-path)

mkdir -p -- "$output_dir"
binary=$output_dir/observable-server
# The symbols are half the unstripped binary and nothing needs them at run time.
objcopy --only-keep-debug -- "$bin_dir/observable-server" "$binary.debug"
strip --strip-all -o "$binary" -- "$bin_dir/observable-server"
(cd -- "$output_dir" && objcopy --add-gnu-debuglink=observable-server.debug observable-server)
chmod 0755 -- "$binary"
chmod 0644 -- "$binary.debug"
echo "built $binary"
