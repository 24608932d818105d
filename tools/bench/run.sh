#!/bin/bash
# Builds resized and resized-bench if needed and runs the benchmark in a
# private environment (tests/integration/with-testenv.sh: its own system bus,
# Podman service and image), printing the report as Markdown:
#
#   tools/bench/run.sh [--quick] [BUILD_DIR]      (default: build; about 2 minutes)
#
# --quick runs every phase with small counts and short waits
# (RESIZED_BENCH_QUICK=1): what CI runs, so that the benchmark cannot rot.
# Its figures are printed but mean little.
#
# RESIZED_BENCH_RUNNING_CONTAINERS=N adds a scale row with N real running
# containers, all managed (1,000 take this machine about 15 minutes more).
#
# Everything it starts, containers and daemons, is gone when it ends.
set -euo pipefail

readonly source_root=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../..")
if [[ ${1:-} == --quick ]]; then
    export RESIZED_BENCH_QUICK=1
    shift
fi
readonly build_dir=$(realpath -m "${1:-build}")

if [[ ! -f $build_dir/build.ninja ]]; then
    meson setup "$build_dir" "$source_root" -Dtests=true >&2
fi
if ! ninja -C "$build_dir" -t query tools/bench/resized-bench >/dev/null 2>&1; then
    echo "run.sh: $build_dir has no resized-bench: configure it with -Dtests=true -Dbench=true" >&2
    exit 1
fi
ninja -C "$build_dir" daemon/resized tools/oci-hook/resized-oci-hook tools/bench/resized-bench >&2

RESIZED_BINARY=$build_dir/daemon/resized \
    exec "$source_root/tests/integration/with-testenv.sh" \
    "$build_dir/tools/bench/resized-bench"
