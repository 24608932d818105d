#!/bin/bash
# Installs the Debian packages needed to build resized and run all its tests.
# Idempotent and quiet; does nothing (not even `apt-get update`) when every
# package is already installed.
set -euo pipefail

build_packages=(
    meson ninja-build pkg-config g++
    libsdbus-c++-dev libsdbus-c++-bin libsystemd-dev libsqlite3-dev
    libspdlog-dev libgtest-dev libgmock-dev nlohmann-json3-dev
    libcurl4-openssl-dev libcli11-dev libinih-dev libmicrohttpd-dev libhowardhinnant-date-dev
    libdbus-1-dev systemd
)

# tests/integration/with-testenv.sh: a private system bus, Podman (as root,
# without networking: no slirp4netns, fuse-overlayfs or uidmap needed) and the
# busybox image; `runuser` and `pgrep` come with Debian's essential packages.
integration_test_packages=(
    dbus podman runc conmon catatonit busybox-static sqlite3 curl
)

# tests/integration/resizectl/manuals_test.py renders every manual with
# `man --warnings`.
manual_test_packages=(man-db groff-base)

# The QEMU guest of the VM suite (-Dvm_tests=true).
vm_test_packages=(qemu-system-x86 kmod)

# tests/fuzz: libFuzzer targets, built with clang.
fuzz_test_packages=(clang libclang-rt-14-dev)

packages=("${build_packages[@]}" "${integration_test_packages[@]}" "${manual_test_packages[@]}"
    "${vm_test_packages[@]}" "${fuzz_test_packages[@]}")

missing_packages() {
    local package status
    for package in "${packages[@]}"; do
        status=$(dpkg-query --show --showformat='${db:Status-Status}' \
            "$package" 2>/dev/null || true)
        [[ $status == installed ]] || echo "$package"
    done
}

mapfile -t missing < <(missing_packages)
if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
