#pragma once

// Podman's rules for naming a container or a pod, and resized's stricter rule
// for when a string names one: pure functions, no I/O.

#include <cstddef>
#include <string_view>

namespace resized::runtime {

// The shortest ID prefix that names a container or pod. Podman takes any
// unique prefix, so "db", "b3" or "42" would land on whatever container's
// ID starts that way; twelve hex digits (what `podman ps` shows) cannot be
// mistaken for a name by accident.
inline constexpr size_t kShortestIdPrefix = 12;

// Podman accepts only names of the form [a-zA-Z0-9][a-zA-Z0-9_.-]* (for
// containers and pods alike) and IDs are hex, so nothing else can name one.
bool couldNameContainerOrPod(std::string_view nameOrId);

// Whether nameOrId may be an ID prefix resized accepts: at least
// kShortestIdPrefix lowercase hex digits.
bool couldBeIdPrefix(std::string_view nameOrId);

// Whether text is a whole container or pod ID: 64 lowercase hex digits.
bool isFullId(std::string_view text);

// Whether nameOrId names the container or pod with this ID and name exactly:
// it is the name, the full ID, or a prefix of the ID that couldBeIdPrefix().
// (Uniqueness of the prefix is Podman's to check.)
bool namesExactly(std::string_view nameOrId, std::string_view id, std::string_view name);

}  // namespace resized::runtime
