#!/bin/bash
# Runs one command inside a private, throw-away test environment:
#
#   with-testenv.sh CMD [ARGS...]
#
# For this run only it starts a dbus-daemon acting as the system bus (with the
# project's own bus policy installed as it is), a Podman API service with its
# own configuration and storage, and imports the image localhost/busybox. CMD
# sees them through these variables:
#
#   DBUS_SYSTEM_BUS_ADDRESS      the private system bus
#   RESIZED_TEST_PODMAN_SOCKET   the Podman API socket
#   CONTAINERS_CONF, CONTAINERS_STORAGE_CONF
#                                make every `podman` command use the private
#                                configuration and storage
#   RESIZED_TEST_IMAGE           an image whose /bin has busybox's applets
#   RESIZED_TEST_DIR             a scratch folder of this run; CMD may use it
#
# Everything is torn down when the script ends, whether CMD succeeds, fails or
# the script is interrupted; the script exits with CMD's exit code. A detached
# janitor finishes the teardown if the script itself is killed (meson test
# sends SIGKILL to the whole process group half a second after a timeout).
# Teardown removes, besides what the script started itself, what a killed
# test could not: the cgroups of the run's containers (and their processes),
# the system accounts tests recorded in $RESIZED_TEST_DIR/system-accounts
# (one empty file per account, named user-NAME or group-NAME), and the
# /resized-test-<pid>-* cgroups of test processes that are gone. At start it
# removes those cgroups too, and tears down the environments of runs that
# died with their janitor.
#
# RESIZED_TEST_CACHE names a folder where the image tarball is kept between
# runs (default: /var/tmp/resized-test-cache).
set -euo pipefail

readonly script_path=$(realpath "${BASH_SOURCE[0]}")
readonly source_root=$(realpath "$(dirname "$script_path")/../..")
readonly image_name=localhost/busybox
readonly busybox_applets=(sh sleep cat head tail dd true false echo printf ls
    mkdir rm mv cp ln sync test '[' env id kill ps wc grep sed awk tr seq yes stat
    mount umount touch date hostname uname free top)

log() {
    echo "with-testenv: $*" >&2
}

# Container IDs of this run, read from the private event log, so that cgroup
# cleanup never touches another run's containers.
containers_of_this_run() {
    [[ -f $T/events.log ]] || return 0
    grep -o '"ID":"[0-9a-f]\{64\}"' "$T/events.log" | cut -d'"' -f4 | sort -u
}

# A daemonized process that ended stays a zombie until PID 1 reaps it, which
# PID 1 of these machines does only every second or two.
process_running() {
    local state
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ $state != Z ]]
}

# Whether pid is a live process of the environment in $T: its command line
# names $T (a reused pid does not).
process_of_this_environment() {
    process_running "$1" && grep -qF -- "$T" "/proc/$1/cmdline" 2>/dev/null
}

kill_pid_file() {
    local pid_file=$1 pid
    [[ -f $pid_file ]] || return 0
    pid=$(<"$pid_file")
    if process_of_this_environment "$pid" && kill "$pid" 2>/dev/null; then
        for _ in $(seq 50); do
            process_running "$pid" || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pid_file"
}

mounts_under() {
    awk -v prefix="$1/" 'index($5, prefix) == 1 { print $5 }' /proc/self/mountinfo
}

# Removes a cgroup folder and those below it, children first (runc may
# leave nested cgroups behind); a cgroup refuses while a process of it is
# still exiting, so it is retried for a while.
remove_cgroup_tree() {
    local dir=$1
    for _ in $(seq 50); do
        [[ -d $dir ]] || return 0
        find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null && return 0
        sleep 0.1
    done
    log "warning: cannot remove cgroup $dir"
    return 1
}

# The cgroup folders of a container and of its conmon, in every hierarchy:
# under /libpod_parent, a pod's cgroup or a test's --cgroup-parent.
cgroups_of_container() {
    find /sys/fs/cgroup/*/ -maxdepth 4 -type d \
        \( -name "libpod-$1" -o -name "libpod-conmon-$1" \) 2>/dev/null
}

# The container processes Podman could not stop (it may be gone itself):
# they are this run's, found through their cgroups.
kill_container_processes() {
    local id dir pid
    for id in $(containers_of_this_run); do
        for dir in $(cgroups_of_container "$id"); do
            for pid in $(cat "$dir/cgroup.procs" 2>/dev/null); do
                kill -KILL "$pid" 2>/dev/null
            done
        done
    done
}

remove_container_cgroups() {
    local id dir
    for id in $(containers_of_this_run); do
        for dir in $(cgroups_of_container "$id"); do
            remove_cgroup_tree "$dir"
        done
    done
}

# The cgroups /resized-test-<pid>-* that tests make (tests/unit/cgroup's
# V1TestCgroup, ScopedCgroupParent) and remove themselves, unless they are
# killed: those of test processes that are gone.
remove_stale_test_cgroups() {
    local dir pid
    for dir in /sys/fs/cgroup/*/resized-test-*; do
        [[ -d $dir ]] || continue
        pid=${dir##*/resized-test-}
        pid=${pid%%-*}
        [[ $pid =~ ^[0-9]+$ ]] || continue
        process_running "$pid" && continue
        # A cgroup that stays is reported; it must not end the run.
        remove_cgroup_tree "$dir" || true
    done
}

# The system users and groups tests made and recorded (see the top), users
# first: groupdel refuses a group that is still a user's primary group.
remove_recorded_accounts() {
    local record account
    for record in "$T"/system-accounts/user-* "$T"/system-accounts/group-*; do
        [[ -f $record ]] || continue
        account=${record##*/}
        case $account in
        user-*)
            ! getent passwd "${account#user-}" >/dev/null ||
                userdel "${account#user-}" || log "warning: cannot remove user ${account#user-}"
            ;;
        group-*)
            ! getent group "${account#group-}" >/dev/null ||
                groupdel "${account#group-}" || log "warning: cannot remove group ${account#group-}"
            ;;
        esac
        rm -f "$record"
    done
}

report_leftovers() {
    local id leftovers=0
    for id in $(containers_of_this_run); do
        if pgrep -f -- "$id" >/dev/null; then
            log "warning: a process of container $id is still running"
            leftovers=1
        fi
        if [[ -n $(cgroups_of_container "$id") ]]; then
            log "warning: cgroup of container $id is left"
            leftovers=1
        fi
    done
    if [[ -n $(mounts_under "$T") ]]; then
        log "warning: mounts left under $T:" $(mounts_under "$T")
        leftovers=1
    fi
    return $leftovers
}

teardown() {
    [[ -d ${T:-} ]] || return 0
    # Best effort from here on: one failing step must not skip the others.
    set +e
    trap '' INT TERM
    if [[ -n ${cmd_pid:-} ]]; then
        kill "$cmd_pid" 2>/dev/null
        wait "$cmd_pid" 2>/dev/null
    fi
    if [[ -f $T/containers.conf ]]; then
        export CONTAINERS_CONF=$T/containers.conf
        export CONTAINERS_STORAGE_CONF=$T/storage.conf
        podman rm --all --force --time 0 >/dev/null 2>&1 ||
            log "warning: podman rm failed"
        podman pod rm --all --force >/dev/null 2>&1
    fi
    kill_pid_file "$T/podman-service.pid"
    kill_pid_file "$T/dbus.pid"
    kill_container_processes
    remove_container_cgroups
    remove_stale_test_cgroups
    remove_recorded_accounts
    local mount_point
    for mount_point in $(mounts_under "$T" | sort -r); do
        umount --lazy "$mount_point" ||
            log "warning: cannot unmount $mount_point"
    done
    report_leftovers
    rm -rf --one-file-system "$T"
}

# Runs detached from the process group; finishes the teardown if the main
# script dies before it did it itself.
run_janitor() {
    local watched_pid=$1
    T=$2
    while process_running "$watched_pid"; do
        sleep 0.5
    done
    teardown
}

# The environments of earlier runs whose script and janitor both died (a
# kill of everything): torn down as their janitor would have. A run is alive
# while its script (the pid in owner.pid) or its janitor runs.
tear_down_dead_environments() {
    local dir owner
    for dir in "${TMPDIR:-/var/tmp}"/resized-testenv.*; do
        [[ -f $dir/owner.pid ]] || continue
        owner=$(<"$dir/owner.pid")
        if process_running "$owner" && grep -qF with-testenv "/proc/$owner/cmdline" 2>/dev/null; then
            continue
        fi
        pgrep -f -- "--janitor [0-9]+ $dir\$" >/dev/null && continue
        log "tearing down the environment of a dead run: $dir"
        (T=$dir teardown)
    done
}

write_bus_config() {
    mkdir -p "$T/system.d"
    cp "$source_root/dbus/io.resized1.conf" "$T/system.d/"
    # The deny-by-default policy of Debian's /usr/share/dbus-1/system.conf, with
    # no <user> (the test runs as root and the daemon must stay root), no
    # activation and no syslog.
    cat >"$T/system.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <auth>EXTERNAL</auth>
  <listen>unix:path=$T/bus.sock</listen>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Properties"/>
    <deny send_destination="org.freedesktop.DBus"
          send_interface="org.freedesktop.DBus"
          send_member="UpdateActivationEnvironment"/>
    <deny send_destination="org.freedesktop.DBus"
          send_interface="org.freedesktop.DBus.Debug.Stats"/>
  </policy>
  <policy user="root">
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Monitoring"/>
  </policy>
  <includedir>$T/system.d</includedir>
</busconfig>
EOF
}

start_bus() {
    write_bus_config
    local output
    output=$(dbus-daemon --config-file="$T/system.conf" --fork \
        --print-pid=1 --print-address=1 2>"$T/dbus.log") || {
        cat "$T/dbus.log" >&2
        return 1
    }
    # --print-address comes first, then --print-pid.
    sed -n 2p <<<"$output" >"$T/dbus.pid"
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/bus.sock
}

write_podman_config() {
    mkdir -p "$T/tmp"
    cat >"$T/containers.conf" <<EOF
[containers]
# Podman's defaults (nofile 1048576) exceed this host's hard limit.
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
netns = "none"

[network]
network_config_dir = "$T/networks"

[engine]
# crun refuses the host's hybrid cgroups; PID 1 is not systemd.
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$T/events.log"
tmp_dir = "$T/libpod"
static_dir = "$T/graph/libpod"
volume_path = "$T/graph/volumes"
image_copy_tmp_dir = "$T/tmp"
# Shared-memory locks would be shared with every other Podman on the host.
lock_type = "file"
EOF
    cat >"$T/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$T/graph"
runroot = "$T/run"
EOF
    export CONTAINERS_CONF=$T/containers.conf
    export CONTAINERS_STORAGE_CONF=$T/storage.conf
}

start_podman_service() {
    podman system service --time=0 "unix://$T/podman.sock" \
        >"$T/podman-service.log" 2>&1 &
    echo $! >"$T/podman-service.pid"
    export RESIZED_TEST_PODMAN_SOCKET=$T/podman.sock
}

wait_for_podman_service() {
    for _ in $(seq 300); do
        if curl --silent --fail --unix-socket "$T/podman.sock" \
            http://d/_ping >/dev/null 2>&1; then
            return 0
        fi
        process_running "$(<"$T/podman-service.pid")" || break
        sleep 0.1
    done
    log "the Podman API service did not come up:"
    cat "$T/podman-service.log" >&2
    return 1
}

# The busybox image as a tarball; rebuilt when busybox or this script change.
image_tarball() {
    local cache=${RESIZED_TEST_CACHE:-/var/tmp/resized-test-cache}
    local tarball=$cache/busybox-rootfs.tar
    local busybox
    # Without it the image would be built empty, and kept as if it were good.
    busybox=$(command -v busybox) || {
        log "busybox is not installed (tools/setup-deps.sh installs it)"
        return 1
    }
    if [[ -f $tarball && $tarball -nt $busybox && $tarball -nt $script_path ]]; then
        echo "$tarball"
        return 0
    fi
    mkdir -p "$cache"
    local rootfs=$T/rootfs applet partial
    mkdir -p "$rootfs"/{bin,dev,etc,proc,run,sys,tmp,var}
    cp "$busybox" "$rootfs/bin/busybox"
    for applet in "${busybox_applets[@]}"; do
        ln -s busybox "$rootfs/bin/$applet"
    done
    # Runs in parallel build trees may share the cache: rename atomically.
    partial=$(mktemp "$tarball.XXXXXX")
    tar -C "$rootfs" -cf "$partial" .
    mv "$partial" "$tarball"
    rm -rf "$rootfs"
    echo "$tarball"
}

import_image() {
    podman import --quiet "$(image_tarball)" "$image_name" >/dev/null
    export RESIZED_TEST_IMAGE=$image_name
}

main() {
    if (($# == 0)); then
        echo "usage: $0 CMD [ARGS...]" >&2
        exit 2
    fi
    tear_down_dead_environments
    remove_stale_test_cgroups
    T=$(mktemp -d "${TMPDIR:-/var/tmp}/resized-testenv.XXXXXX")
    echo $$ >"$T/owner.pid"
    # An unprivileged caller (runuser -u nobody) must reach the bus socket.
    chmod 0755 "$T"
    export RESIZED_TEST_DIR=$T
    trap teardown EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    setsid --fork bash "$script_path" --janitor $$ "$T" \
        </dev/null >/dev/null 2>&1

    start_bus
    write_podman_config
    start_podman_service
    import_image
    wait_for_podman_service

    # CMD runs in the background so that a signal reaches the traps at once.
    local status=0
    "$@" &
    cmd_pid=$!
    wait "$cmd_pid" || status=$?
    cmd_pid=
    exit "$status"
}

if [[ ${1:-} == --janitor ]]; then
    run_janitor "$2" "$3"
else
    main "$@"
fi
