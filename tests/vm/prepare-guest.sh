#!/bin/bash
# Prepares what run-vm.sh boots, once, in the cache directory:
#   kernel/        Debian's generic kernel package, unpacked (not installed)
#   initramfs.img  busybox + the modules to mount the host root over 9p
#   busybox.tar    a root file system to `podman import` in the guest
# Idempotent: a second run only rebuilds the initramfs and image (< 1 s).
#
# Needs: qemu-system-x86 kmod busybox-static cpio-capable busybox, apt access
# to Debian's archive (for `apt-get download`).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${RESIZED_VM_CACHE:-/var/tmp/resized-vm-cache}
mkdir -p "$cache"

die() { echo "prepare-guest: $*" >&2; exit 1; }

for tool in qemu-system-x86_64 depmod modprobe dpkg-deb; do
    command -v "$tool" >/dev/null || die "$tool missing (packages: qemu-system-x86 kmod)"
done
# Captured first: piping `busybox --list` into a quiet grep under pipefail fails when
# grep exits at its match before busybox has written the rest (SIGPIPE).
busybox_applets=$(/bin/busybox --list 2>/dev/null) || true
grep -qx cpio <<< "$busybox_applets" || die "/bin/busybox missing or without cpio (package busybox-static)"

# The generic flavour: the cloud flavour has no 9p.
kernel_package=${RESIZED_VM_KERNEL_PACKAGE:-$(apt-cache depends linux-image-amd64 2>/dev/null \
    | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')}
[[ -n $kernel_package ]] || die "cannot find Debian's kernel package (apt-get update?)"

kernel_dir=$cache/$kernel_package
if [[ ! -f $kernel_dir/.unpacked ]]; then
    echo "prepare-guest: downloading $kernel_package" >&2
    rm -rf "$kernel_dir" "$cache/download"
    mkdir -p "$kernel_dir" "$cache/download"
    # apt-get download drops privileges to _apt: the folder must be writable.
    chmod 777 "$cache/download"
    (cd "$cache/download" && apt-get download -q "$kernel_package" >&2)
    dpkg-deb -x "$cache/download/${kernel_package}"_*.deb "$kernel_dir"
    rm -rf "$cache/download"
    depmod -b "$kernel_dir" "$(ls "$kernel_dir/lib/modules")"
    touch "$kernel_dir/.unpacked"
fi
kernel_version=$(ls "$kernel_dir/lib/modules")
ln -sfn "$kernel_package" "$cache/kernel"
echo "$kernel_version" > "$cache/kernel.version"

# initramfs: busybox, the modules (with their dependencies, in load order),
# /init and the guest's systemd units.
staging=$(mktemp -d "$cache/initramfs.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging"/{bin,dev,proc,sys,lower,rw,newroot,modules,guest}
cp /bin/busybox "$staging/bin/busybox"
: > "$staging/modules.order"
for module in virtio_pci virtio_rng 9pnet_virtio 9p overlay; do
    modprobe -d "$kernel_dir" -S "$kernel_version" --show-depends "$module" \
        | awk '$1 == "insmod" { print $2 }' | while read -r file; do
            name=$(basename "$file")
            grep -qx "$name" "$staging/modules.order" && continue
            cp "$file" "$staging/modules/$name"
            echo "$name" >> "$staging/modules.order"
        done
done
install -m 755 "$here/initramfs-init" "$staging/init"
cp "$here"/guest/* "$staging/guest/"
echo "$kernel_dir/lib/modules/$kernel_version" > "$staging/guest/module-dir"
(cd "$staging" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) > "$cache/initramfs.img.new"
mv "$cache/initramfs.img.new" "$cache/initramfs.img"

# No registry is reachable from the guest: an image made of busybox alone.
rootfs=$staging/busybox-rootfs
mkdir -p "$rootfs/bin"
cp /bin/busybox "$rootfs/bin/busybox"
for applet in sh sleep dd cat head true; do ln -s busybox "$rootfs/bin/$applet"; done
tar -C "$rootfs" -cf "$cache/busybox.tar.new" .
mv "$cache/busybox.tar.new" "$cache/busybox.tar"

echo "prepare-guest: kernel $kernel_version, cache $cache" >&2
