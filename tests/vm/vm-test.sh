#!/bin/bash
# Usage: vm-test.sh BUILD_DIR GUEST_TEST BACKEND_TEST
#
# The 'vm' test of meson: installs the build into a staging folder, which the
# guest copies onto its root (the guest's root is a RAM overlay, so this is a
# real installation there), then boots the VM and runs GUEST_TEST in it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
guest_test=$(realpath "$2")
backend_test=$(realpath "$3")
cache=${RESIZED_VM_CACHE:-/var/tmp/resized-vm-cache}

stage=$build/tests/vm/stage
rm -rf "$stage"
meson install -C "$build" --no-rebuild --quiet --destdir "$stage" >&2

[[ -f $cache/busybox.tar ]] || RESIZED_VM_CACHE=$cache "$here/prepare-guest.sh"
RESIZED_VM_CACHE=$cache exec "$here/run-vm.sh" "$guest_test" "$stage" "$backend_test" "$cache/busybox.tar"
