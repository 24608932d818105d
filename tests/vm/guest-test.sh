#!/bin/bash
# Usage (in the VM guest, as root): guest-test.sh STAGE BACKEND_TEST IMAGE_TAR TOPOLOGY_TEST INTEGRATION_TEST [--gtest_filter=PATTERN]...
#
# resized installed as a real systemd service, end to end: start, bus
# activation, limits written to cgroupfs (v2) and through systemd, the
# watchdog, and the sandbox. STAGE is a `meson install --destdir` of the
# build; the guest's root is a RAM overlay, so copying it onto / installs it.
#
# The gtest programs write their reports into results/ beside this script
# (the exchange folder run-vm.sh copies them from), where each of their
# cases is counted.
set -uo pipefail

stage=$1
backend_test=$2
image=$3
topology_test=$4
# Programs of tests/integration: the CPU manager's tests. A --gtest_filter
# after a program runs only those of its cases.
integration_tests=()
declare -A case_filter=()
for argument in "${@:5}"; do
    if [[ $argument == --gtest_filter=* ]]; then
        case_filter[${integration_tests[-1]}]=$argument
    else
        integration_tests+=("$argument")
    fi
done
results=$(dirname "$(realpath "$0")")/results
mkdir -p "$results"

passed=0
failed=0

# Each section says when it began (seconds since this script started), so
# that a slow one shows in the console's log.
section() { printf '== %s (at %d s)\n' "$1" "$SECONDS"; }

check() {
    local what=$1
    shift
    if "$@"; then
        echo "PASS: $what"
        passed=$((passed + 1))
    else
        echo "FAIL: $what"
        failed=$((failed + 1))
    fi
}

# Polls COMMAND every 0.2 s for at most SECONDS (the guest is emulated and
# shares the host's CPUs: generous bounds, never a blind sleep).
wait_until() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}

equals() { [[ $1 == "$2" ]] || { echo "  expected '$2', got '$1'"; return 1; }; }

manager() { busctl --timeout=120 "$@"; }
update() { manager call io.resized1 /io/resized1 io.resized1.Manager UpdateResources 'sa{sv}a{sv}' "$@"; }

container_cgroup() { podman inspect --format '{{.State.CgroupPath}}' "$1"; }
cgroup_file() { cat "/sys/fs/cgroup$1/$2"; }
counter() { awk -v key="$3" '$1 == key { print $2 }' "/sys/fs/cgroup$1/$2"; }

# run_container NAME [PODMAN OPTION...]
# use_driver auto|systemd|cgroupfs: resized.conf's [Cgroup] Driver=, then a restart.
use_driver() {
    mkdir -p /etc/resized
    printf '[Cgroup]\nDriver=%s\n' "$1" > /etc/resized/resized.conf
    systemctl restart resized
}

run_container() {
    podman "${@:2}" run -d --name "$1" localhost/busybox \
        sh -c 'trap "exit 0" TERM; while :; do sleep 1; done' > /dev/null
}

# run_member NAME POD: a container in the pod (which it starts).
run_member() {
    podman run -d --name "$1" --pod "$2" localhost/busybox \
        sh -c 'trap "exit 0" TERM; while :; do sleep 1; done' > /dev/null
}

echo "== guest: PID 1 $(cat /proc/1/comm), kernel $(uname -r), $(nproc) CPUs," \
    "cgroup $(stat -fc %T /sys/fs/cgroup): $(cat /sys/fs/cgroup/cgroup.controllers)"

section "install"
# Nothing after this can pass without the installation: stop at once rather
# than spend minutes of emulation on failures that say nothing new.
for input in "$stage" "$backend_test" "$image" "$topology_test" "${integration_tests[@]}"; do
    [[ -e $input ]] || { echo "FAIL: $input is not visible in the guest"; exit 1; }
done
# Debian's /lib is a symlink to usr/lib: keep it one.
tar -C "$stage" -cf - . | tar -C / -xf - --keep-directory-symlink
systemctl daemon-reload
busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
unit_file=$(systemctl show -P FragmentPath resized.service)
echo "unit: $unit_file"
check "the unit is installed where systemd finds it" test -n "$unit_file"
check "the bus policy is installed where dbus-daemon reads it" \
    test -f /usr/share/dbus-1/system.d/io.resized1.conf -o -f /etc/dbus-1/system.d/io.resized1.conf
check "the activation file is installed where dbus-daemon reads it" \
    test -f /usr/share/dbus-1/system-services/io.resized1.service -o \
    -f /usr/local/share/dbus-1/system-services/io.resized1.service
check "systemd-sysusers makes the group of the bus policy" \
    sh -c 'systemd-sysusers resized.conf && getent group resized > /dev/null'
daemon=$(systemctl show -P ExecStart resized.service | sed -n 's/.*path=\([^ ;]*\).*/\1/p')
check "ExecStart names the installed daemon" test -x "$daemon"
systemctl start podman.socket
podman import -q "$image" localhost/busybox > /dev/null

section "(a) systemctl start"
check "systemctl start resized returns after READY=1" systemctl start resized
check "resized is active" systemctl is-active -q resized
check "io.resized1 answers Introspect" sh -c \
    'busctl introspect io.resized1 /io/resized1 | grep -c "^io.resized1.Manager " > /dev/null'
check "CgroupVersion is v2" equals "$(busctl get-property io.resized1 /io/resized1 io.resized1.Manager CgroupVersion)" 's "v2"'
check "RuntimeConnected (Podman through its socket, from the sandbox)" \
    equals "$(busctl get-property io.resized1 /io/resized1 io.resized1.Manager RuntimeConnected)" "b true"

section "(a2) systemctl reload"
# systemctl reload returns once SIGHUP is sent, not once it was handled.
capacity_is() { equals "$(busctl get-property io.resized1 /io/resized1 io.resized1.Manager CpuCapacityMillis)" "t $1"; }
main_pid=$(systemctl show -P MainPID resized)
mkdir -p /etc/resized
printf '[Node]\nReservedCPU=300m\n' > /etc/resized/resized.conf
check "systemctl reload resized returns" systemctl reload resized
check "the reload takes the new system reserve" wait_until 30 capacity_is $(( $(nproc) * 1000 - 300 ))
check "a reload keeps the same process" equals "$(systemctl show -P MainPID resized)" "$main_pid"
rm /etc/resized/resized.conf
systemctl reload resized

section "(b) bus activation"
systemctl stop resized
check "resized is stopped" sh -c '! systemctl is-active -q resized'
check "a method call succeeds while it is stopped" \
    manager call io.resized1 /io/resized1 io.resized1.Manager ListWorkloads
check "the call started resized.service" systemctl is-active -q resized

section "(c) cgroupfs v2 writer: Podman with cgroup_manager=cgroupfs"
use_driver cgroupfs
run_container cfs --cgroup-manager=cgroupfs
cfs=$(container_cgroup cfs)
echo "cgroup: $cfs"
status=$(update cfs 2 CpuMillis t 250 MemoryMax t 67108864 0)
echo "$status" | cut -c1-300
check "the status names the cgroupfs-v2 driver" grep -q '"Driver" s "cgroupfs-v2"' <<< "$status"
check "cpu.max is 25000 100000" equals "$(cgroup_file "$cfs" cpu.max)" "25000 100000"
check "memory.max is 64 MiB" equals "$(cgroup_file "$cfs" memory.max)" 67108864
podman exec -d cfs sh -c 'while :; do :; done'
check "the kernel throttles a busy loop to the quota" \
    wait_until 60 sh -c "[ \$(awk '\$1 == \"nr_throttled\" { print \$2 }' /sys/fs/cgroup$cfs/cpu.stat) -gt 0 ]"
podman exec cfs dd if=/dev/zero of=/dev/null bs=100M count=1 2> /dev/null
check "the kernel kills a 100 MiB allocation under memory.max 64 MiB" \
    test "$(counter "$cfs" memory.events oom_kill)" -ge 1
podman rm -f -t 0 cfs > /dev/null

section "(d) systemd writer: Podman with cgroup_manager=systemd"
use_driver auto
run_container sd1
sd1=$(container_cgroup sd1)
scope=${sd1##*/}
echo "cgroup: $sd1"
status=$(update sd1 2 CpuMillis t 500 MemoryMax t 100663296 0)
echo "$status" | cut -c1-300
check "the status names the systemd driver" grep -q '"Driver" s "systemd"' <<< "$status"
journalctl --sync
check "the journal carries the workload as RESIZED_WORKLOAD=" \
    sh -c 'journalctl -u resized RESIZED_WORKLOAD=sd1 -o cat --no-pager | grep -c "sd1: applied" > /dev/null'
check "the scope's CPUQuotaPerSecUSec is 500ms" equals "$(systemctl show -P CPUQuotaPerSecUSec "$scope")" 500ms
check "the scope's MemoryMax is 96 MiB" equals "$(systemctl show -P MemoryMax "$scope")" 100663296
check "cpu.max is 50000 100000" equals "$(cgroup_file "$sd1" cpu.max)" "50000 100000"
check "memory.max is 96 MiB" equals "$(cgroup_file "$sd1" memory.max)" 100663296
systemctl daemon-reload
check "cpu.max still 50000 100000 after daemon-reload" equals "$(cgroup_file "$sd1" cpu.max)" "50000 100000"
check "memory.max still 96 MiB after daemon-reload" equals "$(cgroup_file "$sd1" memory.max)" 100663296
podman rm -f -t 0 sd1 > /dev/null
rm /etc/resized/resized.conf

section "(d2) a systemd service as a workload: unit:NAME"
systemd-run --unit=w1 -p CPUQuota=50% sleep 100000 > /dev/null
w1=$(systemctl show -P ControlGroup w1.service)
echo "cgroup: $w1"
status=$(update unit:w1.service 1 CpuMillis t 300 0)
echo "$status" | cut -c1-300
check "the status of unit:w1.service says Kind unit" grep -q '"Kind" s "unit"' <<< "$status"
check "the unit's CPUQuotaPerSecUSec is 300ms" equals "$(systemctl show -P CPUQuotaPerSecUSec w1.service)" 300ms
check "cpu.max of the unit is 30000 100000" equals "$(cgroup_file "$w1" cpu.max)" "30000 100000"
systemctl daemon-reload
check "cpu.max of the unit still 30000 100000 after daemon-reload" \
    equals "$(cgroup_file "$w1" cpu.max)" "30000 100000"
check "ListWorkloads lists unit:w1.service" sh -c \
    'busctl call io.resized1 /io/resized1 io.resized1.Manager ListWorkloads | grep -c "unit:w1.service" > /dev/null'
systemctl stop w1.service
systemd-run --unit=w1 -p CPUQuota=50% sleep 100000 > /dev/null
w1=$(systemctl show -P ControlGroup w1.service)
manager call io.resized1 /io/resized1 io.resized1.Manager Reconcile s unit:w1.service
check "a unit that ran again gets its desired limits back" \
    wait_until 30 sh -c "[ \"\$(cat /sys/fs/cgroup$w1/cpu.max)\" = '30000 100000' ]"
systemctl stop w1.service

section "(d3) the OCI hook under systemd's cgroup manager"
# Installed under the build's prefix; Podman reads /usr/share/... itself.
installed_hooks=$(dirname "$(find /usr/local/share/containers/oci/hooks.d -name resized.json | head -n 1)")
hook=$(sed -n 's/.*"path": *"\([^"]*\)".*/\1/p' "$installed_hooks/resized.json")
check "resized.json names the installed hook ($hook)" test -x "$hook"
# The installed file with the hook's time limit raised from 200 ms, as in
# the host's test: the emulated guest runs tens of times slower than the
# host, and what is tested is what the container sees, not how fast.
hooks=/run/resized-vm-test/hooks.d
mkdir -p "$hooks"
sed 's|^\( *\)"path": *\("[^"]*"\)|\1"path": \2,\n\1"env": ["RESIZED_HOOK_TIMEOUT_MSEC=3000"]|' \
    "$installed_hooks/resized.json" > "$hooks/resized.json"
# The container prints its own quota as its first instruction, at every start.
run_printing() {
    podman --hooks-dir "$hooks" run -d --name hk --cpus 0.5 localhost/busybox \
        sh -c 'cut -d" " -f1 /sys/fs/cgroup/cpu.max; trap "exit 0" TERM; while :; do sleep 1; done' > /dev/null
}
run_printing
wait_until 30 sh -c '[ "$(podman logs hk | wc -l)" -ge 1 ]'
update hk 1 CpuMillis t 300 0 > /dev/null
for prints in 2 3 4 5 6; do
    podman --hooks-dir "$hooks" restart -t 0 hk > /dev/null
    # `podman restart` returns before the first instruction has run: a next
    # restart right away could kill the container before it prints.
    wait_until 30 sh -c "[ \"\$(podman logs hk | wc -l)\" -ge $prints ]"
done
printed=$(podman logs hk | tr '\n' ' ')
check "the first start, before any update, printed the create-time quota" equals "${printed%% *}" 50000
check "each of 5 restarts printed the desired quota first" equals "${printed#* }" "30000 30000 30000 30000 30000 "
journalctl --sync
echo "what the hook logged:"
journalctl -t resized-oci-hook -o short-monotonic --no-pager | tail -n 8
check "the hook's change went through systemd (the scope's CPUQuotaPerSecUSec is 300ms)" \
    equals "$(systemctl show -P CPUQuotaPerSecUSec "$(basename "$(container_cgroup hk)")")" 300ms
podman rm -f -t 0 hk > /dev/null
run_printing
wait_until 30 sh -c '[ "$(podman logs hk | wc -l)" -ge 1 ]'
check "a container created again under the name printed the desired quota first" \
    equals "$(podman logs hk | head -n 1)" 30000
podman rm -f -t 0 hk > /dev/null

section "the systemd backend in the sandbox of resized.service"
# For once resized.service runs the backend's own test instead of the
# daemon: the same sandbox, so a privilege it lacks shows up here.
# The sandbox's PrivateTmp= hides /tmp and /var/tmp, where the build folder
# may live: the binary runs from a copy outside them. Its report goes to the
# one folder it may write, the state directory.
sandboxed_backend_test=/usr/local/libexec/resized-vm-test/$(basename "$backend_test")
install -D -m 755 "$backend_test" "$sandboxed_backend_test"
systemctl stop resized
mkdir -p /run/systemd/system/resized.service.d
printf '[Service]\nType=oneshot\nExecStart=\nExecStart=%s --gtest_brief=1 --gtest_output=xml:%s\nWatchdogSec=0\nRestart=no\n' \
    "$sandboxed_backend_test" /var/lib/resized/systemd-backend.xml \
    > /run/systemd/system/resized.service.d/backend-test.conf
systemctl daemon-reload
cursor=$(journalctl -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')
check "systemd_backend_test passes inside the sandbox" systemctl start resized
journalctl --sync
journalctl --after-cursor="$cursor" -u resized -o cat --no-pager | grep -E '^\[|Failure|Expected|Which is|exception' | head -n 40
cp /var/lib/resized/systemd-backend.xml "$results/"
rm -r /run/systemd/system/resized.service.d
systemctl daemon-reload

section "(e) the watchdog restarts a hung daemon"
mkdir -p /run/systemd/system/resized.service.d
printf '[Service]\nWatchdogSec=5s\nTimeoutAbortSec=10s\n' > /run/systemd/system/resized.service.d/watchdog.conf
systemctl daemon-reload
systemctl restart resized
hung=$(systemctl show -P MainPID resized)
restarts=$(systemctl show -P NRestarts resized)
kill -STOP "$hung"
restarted() {
    local pid
    pid=$(systemctl show -P MainPID resized)
    [[ $pid != 0 && $pid != "$hung" ]] && systemctl is-active -q resized
}
check "a new daemon runs after the stopped one (pid $hung) missed its watchdog" wait_until 120 restarted
check "NRestarts went up" test "$(systemctl show -P NRestarts resized)" -gt "$restarts"
check "systemd logged the watchdog timeout" sh -c 'journalctl -u resized -o cat --no-pager | grep -c "Watchdog timeout" > /dev/null'
rm -r /run/systemd/system/resized.service.d
systemctl daemon-reload

section "(f) systemd-analyze security resized.service"
security=$(systemd-analyze security --no-pager resized.service 2>&1)
echo "$security"
# docs/systemd.md states the level the unit's hardening reaches.
documented_exposure=0.9
# The arrow before it is "→" or "->", depending on the locale.
exposure=$(sed -n 's/.*Overall exposure level for resized\.service: \([0-9.]*\) .*/\1/p' <<< "$security")
check "the overall exposure level ($exposure) is at most the documented $documented_exposure" \
    awk -v level="$exposure" -v limit="$documented_exposure" \
        'BEGIN { exit !(level != "" && level + 0 <= limit + 0) }'

section "(g) metrics for Prometheus through resized-metrics.socket"
run_container mx
update mx 1 CpuMillis t 200 0 > /dev/null
check "resized-metrics.socket starts" systemctl start resized-metrics.socket
scrape=$(curl --silent --show-error --max-time 60 http://127.0.0.1:9531/metrics)
check "a scrape of 127.0.0.1:9531 gets resized's update counters" \
    grep -q '^resized_update_requests_total{result="success"} ' <<< "$scrape"
check "and the CPU limit of the container it changed" \
    grep -q '^resized_workload_cpu_limit_millicores{workload="mx"} 200$' <<< "$scrape"
check "and its CPU and memory pressure stall times (PSI) from cgroup v2" \
    equals "$(grep -c -e '^resized_workload_cpu_pressure_waiting_seconds_total{workload="mx"} [0-9.e+-]*$' \
        -e '^resized_workload_memory_pressure_stalled_seconds_total{workload="mx"} [0-9.e+-]*$' <<< "$scrape")" 2
check "the exporter runs as the user resized-metrics from sysusers.d" \
    equals "$(systemctl show -P UID resized-metrics.service)" "$(id -u resized-metrics)"
check "another path answers 404" \
    equals "$(curl --silent --output /dev/null --write-out '%{http_code}' http://127.0.0.1:9531/nothing)" 404
journalctl -u resized-metrics.service -o cat --no-pager | tail -n 5
systemd-analyze security --no-pager resized-metrics.service 2>&1 | tail -n 1
systemctl stop resized-metrics.socket resized-metrics.service
podman rm -f -t 0 mx > /dev/null

section "(h) the CPU topology of two emulated NUMA nodes with SMT"
check "the topology read from sysfs and the slices chosen from it" \
    "$topology_test" --gtest_brief=1 --gtest_output=xml:"$results/cpu-topology.xml"
manager_property() { busctl get-property io.resized1 /io/resized1 io.resized1.Manager "$1"; }
check "the daemon sees both NUMA nodes" equals "$(manager_property NumaNodes)" "u 2"
check "and shares every CPU under the policy none" equals "$(manager_property SharedCpus)" 's "0-3"'

section "(i) the CPU manager's static policy: slices packed by the topology"
exclusive() { update "$1" 1 ExclusiveCpus t "$2" 0; }
effective_cpus() { cgroup_file "$(container_cgroup "$1")" cpuset.cpus.effective; }
runs_on() { [[ $(effective_cpus "$1") == "$2" ]]; }
# refused_with NAME COUNT TEXT: ExclusiveCpus=COUNT fails with TEXT in its error.
refused_with() {
    local answer
    answer=$(update "$1" 1 ExclusiveCpus t "$2" 0 2>&1) && return 1
    [[ $answer == *"$3"* ]] || { echo "  answered: $answer"; return 1; }
}
# The earlier sections' containers are gone: their allocations go at once,
# leaving the node's 4 CPUs to the slices.
printf '[CpuManager]\nPolicy=static\n[Workloads]\nRemovedGraceSec=0\n' > /etc/resized/resized.conf
systemctl restart resized
run_container other
run_container ex1
run_container ex2
check "CpuManagerPolicy is static" equals "$(manager_property CpuManagerPolicy)" 's "static"'
exclusive ex1 1 > /dev/null
check "a slice of one CPU is one thread" equals "$(effective_cpus ex1)" 0
check "without a CFS quota" equals "$(cgroup_file "$(container_cgroup ex1)" cpu.max)" "max 100000"
exclusive ex1 2 > /dev/null
check "grown, it keeps its CPU and takes the other thread of its core" equals "$(effective_cpus ex1)" 0-1
check "its memory is on the slice's NUMA node" \
    equals "$(cgroup_file "$(container_cgroup ex1)" cpuset.mems.effective)" 0
exclusive ex2 1 > /dev/null
check "a second slice comes from the other NUMA node" equals "$(effective_cpus ex2)" 2
check "and so does its memory" equals "$(cgroup_file "$(container_cgroup ex2)" cpuset.mems.effective)" 1
check "SharedCpus is what the slices leave" equals "$(manager_property SharedCpus)" 's "3"'
check "ExclusiveCpuSet is their union" equals "$(manager_property ExclusiveCpuSet)" 's "0-2"'
check "a container running before runs on the shared pool" wait_until 30 runs_on other 3
run_container late
check "so does one started after" wait_until 30 runs_on late 3
check "a slice taking the last shared CPU is Infeasible" refused_with ex2 2 'would leave the shared pool empty'
exclusive ex1 1 > /dev/null
check "shrunk, it keeps the CPU it was first granted" equals "$(effective_cpus ex1)" 0
check "and the CPU it gave back is shared again" wait_until 30 runs_on other 1,3
exclusive ex2 0 > /dev/null
exclusive ex1 0 > /dev/null
check "given back, every CPU is shared" equals "$(manager_property ExclusiveCpuSet)" 's ""'
check "and the holder's memory is on every node again" \
    equals "$(cgroup_file "$(container_cgroup ex1)" cpuset.mems.effective)" 0-1
check "and the others run on every CPU again" wait_until 30 runs_on other 0-3
podman pod create --name cap > /dev/null
run_member m1 cap
run_member m2 cap
update pod:cap 1 CpuMillis t 1500 0 > /dev/null
exclusive m1 1 > /dev/null
check "a member of a pod takes a slice from the node" equals "$(effective_cpus m1)" 0
check "and its pod's CPU limit caps the sum of its members' slices" \
    refused_with m2 1 "its members' exclusive CPUs, 2 CPU in all, are more than the pod's 1500m CPU"
exclusive m1 0 > /dev/null
podman pod rm -f -t 0 cap > /dev/null
printf '[CpuManager]\nPolicy=static\nFullPhysicalCpusOnly=yes\n[Workloads]\nRemovedGraceSec=0\n' \
    > /etc/resized/resized.conf
systemctl restart resized
check "FullPhysicalCpusOnly refuses half a core" refused_with ex1 1 'not a multiple of 2 threads per core'
exclusive ex1 2 > /dev/null
check "and gives a whole core" equals "$(effective_cpus ex1)" 0-1
exclusive ex1 0 > /dev/null

section "(j) TopologyScope=pod: a pod's bubble, its members' slices, its shared pool"
printf '[CpuManager]\nPolicy=static\nTopologyScope=pod\n[Workloads]\nRemovedGraceSec=0\n' \
    > /etc/resized/resized.conf
systemctl restart resized
podman pod create --name shop > /dev/null
run_member cart shop
run_member till shop
infra=$(podman pod inspect shop --format '{{.InfraContainerID}}')
pod_cgroup=$(podman pod inspect shop --format '{{.CgroupPath}}')
pod_cgroup=/${pod_cgroup#/}
update pod:shop 1 ExclusiveCpus t 2 0 > /dev/null
check "a bubble of two is a whole NUMA node" equals "$(cgroup_file "$pod_cgroup" cpuset.cpus.effective)" 0-1
check "with its memory" equals "$(cgroup_file "$pod_cgroup" cpuset.mems.effective)" 0
check "without a CFS quota" equals "$(cgroup_file "$pod_cgroup" cpu.max)" "max 100000"
check "ExclusiveCpuSet is the bubble" equals "$(manager_property ExclusiveCpuSet)" 's "0-1"'
check "the rest of the node runs off it" wait_until 30 runs_on other 2-3
exclusive cart 1 > /dev/null
check "a member's slice comes out of the bubble" equals "$(effective_cpus cart)" 0
check "the other member runs on the pod's shared pool" wait_until 30 runs_on till 1
check "and so does the pod's infra container" wait_until 30 runs_on "$infra" 1
run_member joined shop
check "and a member started after" wait_until 30 runs_on joined 1
# For the record, as the cgroup files have it.
show_cpus() {
    echo "  cpuset.cpus.effective: pod $(cgroup_file "$pod_cgroup" cpuset.cpus.effective)," \
        "cart $(effective_cpus cart), till $(effective_cpus till), joined $(effective_cpus joined)," \
        "infra $(effective_cpus "$infra"), other $(effective_cpus other)"
}
show_cpus
check "a slice emptying the pod's shared pool is Infeasible" \
    refused_with till 1 "would leave the shared pool of pod shop empty"
update pod:shop 1 ExclusiveCpus t 3 0 > /dev/null
check "grown, the bubble keeps its CPUs and adds one" \
    equals "$(cgroup_file "$pod_cgroup" cpuset.cpus.effective)" 0-2
check "and the pod's shared pool grows with it" wait_until 30 runs_on till 1-2
check "while the member's slice stays" equals "$(effective_cpus cart)" 0
check "and the rest of the node has what is left" wait_until 30 runs_on other 3
check "SharedCpus is the node's shared pool" equals "$(manager_property SharedCpus)" 's "3"'
show_cpus
podman restart -t 0 cart > /dev/null
check "a member restarted gets its slice back" wait_until 60 runs_on cart 0
check "and the bubble stayed" equals "$(cgroup_file "$pod_cgroup" cpuset.cpus.effective)" 0-2
check "the bubble is not given back while a member holds a slice of it" \
    refused_with pod:shop 0 "hold slices of its bubble (cart)"
exclusive cart 0 > /dev/null
update pod:shop 1 ExclusiveCpus t 0 0 > /dev/null
check "given back, the pod runs on every CPU" equals "$(cgroup_file "$pod_cgroup" cpuset.cpus.effective)" 0-3
check "and so do its members" wait_until 30 runs_on till 0-3
check "all of them" wait_until 30 runs_on joined 0-3
check "and the rest of the node" wait_until 30 runs_on other 0-3
podman pod rm -f -t 0 shop > /dev/null
rm -f /etc/resized/resized.conf
systemctl restart resized
podman rm -f -t 0 other ex1 ex2 late > /dev/null

section "(k) the integration tests of the CPU manager, the OCI hook and the pressure targets on the guest's systemd, Podman, topology and PSI"
# The programs the host runs under tests/integration/with-testenv.sh, here
# against the guest's own system bus, Podman service and systemd: each test
# starts a resized of its own, so the service is stopped, and masked so that
# no bus activation takes io.resized1 while a test restarts its daemon.
systemctl stop resized
systemctl mask --runtime --quiet resized.service
for program in "${integration_tests[@]}"; do
    name=$(basename "$program")
    scratch=$(mktemp -d "/var/tmp/$name.XXXXXX")
    # A copy of the guest's Podman configuration, which a test can add to
    # (the OCI hook's tests add a hooks_dir), as with-testenv.sh's on the
    # host. It must be the one the Podman service reads: with another
    # events_logger the CLI's events never reach the service's stream.
    cp /etc/containers/containers.conf "$scratch/containers.conf"
    check "$name passes against systemd and cgroup v2" \
        env RESIZED_BINARY="$daemon" RESIZED_TEST_DIR="$scratch" RESIZED_TEST_IMAGE=localhost/busybox \
            CONTAINERS_CONF="$scratch/containers.conf" \
            RESIZED_TEST_PODMAN_SOCKET=/run/podman/podman.sock \
            DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket \
            "$program" ${case_filter[$program]:-} --gtest_brief=1 --gtest_output=xml:"$results/$name.xml"
    check "and leaves no container or pod behind" \
        equals "$(podman ps --all --quiet | wc -l) $(podman pod ps --quiet | wc -l)" "0 0"
    rm -rf "$scratch"
done
systemctl unmask --runtime --quiet resized.service
systemctl start resized

section "resized's journal (last lines)"
journalctl -u resized -o short-monotonic --no-pager | tail -n 15

echo "== summary: $passed passed, $failed failed"
((failed == 0))
