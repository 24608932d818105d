#!/bin/bash
# The demo itself, run by tools/demo.sh inside the private test environment
# of tests/integration/with-testenv.sh.
set -euo pipefail

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
manager() { # VERB [ARGS...]
    local verb=$1
    shift
    busctl --system "$verb" io.resized1 /io/resized1 io.resized1.Manager "$@"
}

container=demo-web
cgroup_file() { # CONTROLLER FILE
    cat "/sys/fs/cgroup/$1$(podman inspect --format '{{.State.CgroupPath}}' "$container")/$2"
}
show_limits() {
    printf '  cpu.cfs_quota_us       %s (period %s)\n' "$(cgroup_file cpu cpu.cfs_quota_us)" \
        "$(cgroup_file cpu cpu.cfs_period_us)"
    printf '  memory.limit_in_bytes  %s\n' "$(cgroup_file memory memory.limit_in_bytes)"
}

"$RESIZED_BINARY" --state-dir "$RESIZED_TEST_DIR/state" \
    --podman-socket "$RESIZED_TEST_PODMAN_SOCKET" --config /dev/null/none \
    2>"$RESIZED_TEST_DIR/resized.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    busctl --system status io.resized1 >/dev/null 2>&1 && break
    sleep 0.1
done

step "resized is on the (private) system bus"
busctl --system introspect io.resized1 /io/resized1 io.resized1.Manager | grep -E '^\.(Update|Validate|Get|List|Cpu|Memory)'

step "a real container, created with --cpus 0.5 --memory 64m"
podman run -d --name "$container" --cpus 0.5 --memory 64m "$RESIZED_TEST_IMAGE" \
    sh -c 'trap "exit 0" TERM; while :; do sleep 1; done' >/dev/null
show_limits

step "UpdateResources($container, CpuMillis=1500, MemoryMax=256Mi) — no restart"
busctl --system --json=short call io.resized1 /io/resized1 io.resized1.Manager UpdateResources 'sa{sv}a{sv}' "$container" 2 CpuMillis t 1500 MemoryMax t $((256 << 20)) 0 |
    python3 -c '
import json, sys
status = json.load(sys.stdin)["data"][0]
for key in ("SyncState", "UpdateState", "Generation", "Desired", "Actual"):
    value = status[key]["data"]
    if isinstance(value, dict):
        value = ", ".join(k + "=" + str(v["data"]) for k, v in sorted(value.items()))
    print(f"  {key:12} {value}")'
echo
echo "after, read from the cgroup files:"
show_limits

step "the node's budget after the change"
for property in CpuCapacityMillis CpuAllocatedMillis CpuAvailableMillis; do
    printf '  %-20s %s\n' "$property" "$(manager get-property "$property" | cut -d' ' -f2)"
done

step "asking for more CPU than the node has is refused, and changes nothing"
manager call UpdateResources 'sa{sv}a{sv}' "$container" 1 CpuMillis t 64000 0 2>&1 | sed 's/^/  /' || true
show_limits

step "podman restart brings back the create-time limits; resized puts the desired ones back on the start event"
podman restart -t 0 "$container" >/dev/null
for _ in $(seq 100); do
    [[ $(cgroup_file cpu cpu.cfs_quota_us) == 150000 ]] && break
    sleep 0.02
done
show_limits
