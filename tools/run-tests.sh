#!/bin/bash
# Builds resized and runs its tests; the README and CI both call this.
#
#   tools/run-tests.sh [-B BUILD_DIR] [--build-only] [MESON_SETUP_OPTION...] [-- MESON_TEST_OPTION...]
#
# --build-only stops after the build. The summary reads the log that meson
# test writes, meson-logs/testlog.json, or the one a --logbase NAME among the
# test options names.
# e.g. tools/run-tests.sh -B build-asan -Db_sanitize=address,undefined \
#          -Db_lundef=false -- --suite unit --suite integration
set -euo pipefail

readonly source_root=$(realpath "$(dirname "${BASH_SOURCE[0]}")/..")
build_dir=build
setup_options=()
test_options=()
build_only=false

while (($# > 0)); do
    case $1 in
        -B)
            build_dir=$2
            shift 2
            ;;
        --build-only)
            build_only=true
            shift
            ;;
        --)
            shift
            test_options=("$@")
            break
            ;;
        *)
            setup_options+=("$1")
            shift
            ;;
    esac
done

"$source_root/tools/setup-deps.sh"

cd "$source_root"
if [[ -f $build_dir/build.ninja ]]; then
    meson setup --reconfigure "$build_dir" "${setup_options[@]}"
else
    meson setup "$build_dir" "${setup_options[@]}"
fi
meson compile -C "$build_dir" -j 2
if $build_only; then
    exit 0
fi
log_base=testlog
for ((i = 0; i < ${#test_options[@]}; i++)); do
    case ${test_options[i]} in
        --logbase) log_base=${test_options[i + 1]:-} ;;
        --logbase=*) log_base=${test_options[i]#--logbase=} ;;
    esac
done
status=0
meson test -C "$build_dir" --print-errorlogs --num-processes 2 "${test_options[@]}" ||
    status=$?
tools/test-summary.py "$build_dir/meson-logs/$log_base.json" || status=1
exit "$status"
