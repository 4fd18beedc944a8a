#!/usr/bin/env bash
# Builds the release observable-server with the Swift runtime linked in statically, so the
# binary runs on a plain Debian without a Swift toolchain, and copies it to an output
# directory. Used by the Dockerfile's build stage and by CI.
#
#   Docker/build-release.sh [output-dir]    (default: .build/release-bundle in the package)
#
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
install -m 0755 -- "$bin_dir/observable-server" "$output_dir/observable-server"
echo "built $output_dir/observable-server"
