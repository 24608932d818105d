#!/bin/bash
# Usage: vm-test.sh BUILD_DIR GUEST_TEST BACKEND_TEST TOPOLOGY_TEST INTEGRATION_TEST [--gtest_filter=PATTERN]... [--gtest_output=xml:REPORT]
#
# The 'vm' test of meson: installs the build into a staging folder, which the
# guest copies onto its root (the guest's root is a RAM overlay, so this is a
# real installation there), then boots the VM and runs GUEST_TEST in it.
#
# The guest has two NUMA nodes of one core with two threads each, the shape
# of a small dual-socket machine with SMT, for the CPU topology. QEMU shows
# SMT siblings to the guest only for an Intel vendor.
#
# INTEGRATION_TEST... are programs of tests/integration that the guest runs
# against its own systemd, Podman and CPU topology. The gtest programs run in
# the guest report their cases back; meson (protocol 'gtest') appends
# --gtest_output=xml:REPORT, where they are written as one report. A
# --gtest_filter after a program runs only those of its cases in the guest
# (tools/test-summary.py counts the cases it selects).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
guest_test=$(realpath "$2")
backend_test=$(realpath "$3")
topology_test=$(realpath "$4")
shift 4
integration_tests=()
report=
for argument in "$@"; do
    if [[ $argument == --gtest_output=xml:* ]]; then
        report=$(realpath -m "${argument#--gtest_output=xml:}")
    elif [[ $argument == --gtest_filter=* ]]; then
        integration_tests+=("$argument")
    else
        integration_tests+=("$(realpath "$argument")")
    fi
done
cache=${RESIZED_VM_CACHE:-/var/tmp/resized-vm-cache}

stage=$build/tests/vm/stage
rm -rf "$stage"
meson install -C "$build" --no-rebuild --quiet --destdir "$stage" >&2

results=$build/tests/vm/results
rm -rf "$results"
mkdir -p "$results"

[[ -f $cache/busybox.tar ]] || RESIZED_VM_CACHE=$cache "$here/prepare-guest.sh"
memory=${RESIZED_VM_MEMORY:-2048}
node_memory=$((memory / 2))
status=0
# The guest's own bound stays inside meson's 1800 s, so that a hung guest
# still brings back the reports of what ran.
RESIZED_VM_CACHE=$cache RESIZED_VM_MEMORY=$((node_memory * 2)) RESIZED_VM_RESULTS=$results \
    RESIZED_VM_TIMEOUT=${RESIZED_VM_TIMEOUT:-1680} \
    RESIZED_VM_CPU_MODEL=max,vendor=GenuineIntel RESIZED_VM_CPUS=4,sockets=2,cores=1,threads=2 \
    RESIZED_VM_QEMU_ARGS="-object memory-backend-ram,id=m0,size=${node_memory}M
        -object memory-backend-ram,id=m1,size=${node_memory}M
        -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1" \
    "$here/run-vm.sh" "$guest_test" "$stage" "$backend_test" "$cache/busybox.tar" "$topology_test" \
    "${integration_tests[@]}" || status=$?

if [[ -n $report ]]; then
    shopt -s nullglob
    "$here/merge-gtest-reports.py" "$report" "$results"/*.xml
fi
exit "$status"
