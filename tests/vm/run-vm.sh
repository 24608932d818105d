#!/bin/bash
# Usage: run-vm.sh SCRIPT [ARGS...]
#
# Boots a QEMU guest whose root is this machine's root file system (read-only
# over 9p, under a RAM overlay), with systemd as PID 1 and a pure cgroup v2
# hierarchy, runs SCRIPT in it as root, prints what SCRIPT printed and exits
# with its exit code: 124 when the guest timed out, 125 when it ended without
# a result. ARGS are split on white space in the guest.
#
# Software emulation (TCG): the guest boots in ~15 s and runs 3-6x slower
# than the host. Host paths are visible read-only at the same place in the
# guest, so ARGS may name files of a build directory.
#
# Environment: RESIZED_VM_CACHE (/var/tmp/resized-vm-cache), RESIZED_VM_CPUS
# (2; a full -smp value such as 4,sockets=2,cores=1,threads=2 is taken as
# it is), RESIZED_VM_CPU_MODEL (max), RESIZED_VM_QEMU_ARGS (more QEMU
# arguments, split on white space: -numa nodes and their memory backends),
# RESIZED_VM_MEMORY (MiB, 2048), RESIZED_VM_TIMEOUT (s, 600),
# RESIZED_VM_KEEP=1 (keep the run folder with the console log),
# RESIZED_VM_RESULTS (a folder: what SCRIPT left in the folder results/
# beside itself in the guest, such as gtest reports, is copied there).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${RESIZED_VM_CACHE:-/var/tmp/resized-vm-cache}
cpus=${RESIZED_VM_CPUS:-2}
cpu_model=${RESIZED_VM_CPU_MODEL:-max}
read -r -d "" -a qemu_args <<< "${RESIZED_VM_QEMU_ARGS:-}" || true
memory=${RESIZED_VM_MEMORY:-2048}
timeout=${RESIZED_VM_TIMEOUT:-600}

if (($# < 1)) || [[ ! -f $1 ]]; then
    sed -n '2,/^set /p' "$0" | sed '$d' >&2
    exit 2
fi
script=$1
shift

[[ -f $cache/initramfs.img && -f $cache/busybox.tar ]] || "$here/prepare-guest.sh"
kernel=$cache/kernel/boot/vmlinuz-$(cat "$cache/kernel.version")

run=$(mktemp -d "${TMPDIR:-/tmp}/resized-vm.XXXXXX")
exchange=$run/exchange
mkdir -p "$exchange" "$run/root"
install -m 755 "$script" "$exchange/script"
printf '%s ' "$@" > "$exchange/args"

qemu_pid=
cleanup() {
    [[ -n $qemu_pid ]] && kill "$qemu_pid" 2>/dev/null
    [[ ${RESIZED_VM_KEEP:-0} == 1 ]] || rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cmdline=(console=ttyS0 loglevel=4 panic=-1 rdinit=/init
    systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all psi=1
    systemd.unit=resized-vm.target systemd.show_status=0
    random.trust_cpu=on tsc=reliable no_timer_check)

# The mount points other than / that path lies under, outermost first.
mounts_under() {
    local path=$1 target
    while target=$(findmnt --noheadings --output TARGET --target "$path") && [[ $target != / ]]; do
        echo "$target"
        path=$(dirname "$target")
    done
}

# The guest sees the root file system, and the mounts that hold the cache
# and the files named by ARGS (a build directory may be on a mount of its
# own, as CI's is).
binds=$(for path in "$cache" "$@"; do
    [[ -e $path ]] && mounts_under "$(realpath "$path")"
done | sort -u)

started=$(date +%s.%N)
# A private mount namespace exports only those: a non-recursive bind of /
# leaves out /proc, /sys, /dev and every other mount, and nothing is mounted
# in the host's namespace.
RESIZED_VM_BINDS=$binds unshare --mount --propagation private -- /bin/sh -c '
    root=$1
    shift
    mount --bind / "$root" && mount -o remount,bind,ro "$root" || exit 125
    IFS="
"
    for dir in $RESIZED_VM_BINDS; do
        mount --bind "$dir" "$root$dir" && mount -o remount,bind,ro "$root$dir" || {
            echo "run-vm: cannot show $dir to the guest" >&2
            exit 125
        }
    done
    exec "$@"' sh "$run/root" \
    timeout -k 5 "$timeout" qemu-system-x86_64 \
        -accel tcg,thread=multi -cpu "$cpu_model" -smp "$cpus" -m "$memory" "${qemu_args[@]}" \
        -M pc -nodefaults -no-user-config -display none -no-reboot -monitor none \
        -serial "file:$run/console.log" \
        -kernel "$kernel" -initrd "$cache/initramfs.img" -append "${cmdline[*]}" \
        -virtfs "local,path=$run/root,mount_tag=hostroot,security_model=passthrough,readonly=on,multidevs=remap" \
        -virtfs "local,path=$exchange,mount_tag=exchange,security_model=passthrough,multidevs=remap" \
        -device virtio-rng-pci > "$run/qemu.log" 2>&1 &
qemu_pid=$!
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
ended=$(date +%s.%N)

if [[ -n ${RESIZED_VM_RESULTS:-} && -d $exchange/results ]]; then
    cp -R "$exchange/results/." "$RESIZED_VM_RESULTS"
fi

[[ -f $exchange/output ]] && cat "$exchange/output"
{
    printf 'run-vm: %.1f s in all' "$(echo "$ended - $started" | bc)"
    [[ -f $exchange/uptime-at-start ]] && printf ', boot %s s' "$(cat "$exchange/uptime-at-start")"
    [[ -f $exchange/uptime-at-end ]] && printf ', guest uptime at the end %s s' "$(cat "$exchange/uptime-at-end")"
    [[ ${RESIZED_VM_KEEP:-0} == 1 ]] && printf ', run folder %s' "$run"
    echo
} >&2
if [[ -f $exchange/rc ]]; then
    exit "$(cat "$exchange/rc")"
fi
if ((qemu_rc == 124 || qemu_rc == 137)); then
    echo "run-vm: timed out after $timeout s; the console's last lines:" >&2
    tail -n 40 "$run/console.log" >&2
    exit 124
fi
echo "run-vm: the guest ended without a result (qemu exit code $qemu_rc)" >&2
tail -n 60 "$run/console.log" >&2
cat "$run/qemu.log" >&2
exit 125
