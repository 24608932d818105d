#!/bin/bash
# Shows resized doing its main job on a fresh Debian 12 machine: installs what
# is missing, builds, then — on a private system bus with a private Podman,
# nothing of the host's touched — starts resized, runs a real container and
# resizes it in place, reading the limits from the cgroup files before and
# after. Everything it starts is stopped again when it ends.
#
#   tools/demo.sh [BUILD_DIR]
set -euo pipefail

readonly source_root=$(realpath "$(dirname "${BASH_SOURCE[0]}")/..")
build_dir=$(realpath -m "${1:-$source_root/build}")

"$source_root/tools/setup-deps.sh"
if [[ ! -f $build_dir/build.ninja ]]; then
    meson setup "$build_dir" "$source_root" >/dev/null
fi
meson compile -C "$build_dir" -j 2 daemon/resized >/dev/null

export RESIZED_BINARY=$build_dir/daemon/resized
exec "$source_root/tests/integration/with-testenv.sh" "$source_root/tools/demo-steps.sh"
