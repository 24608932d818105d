#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace resized::core {

// What a workload is, and so where its limits land (design.md §1b).
enum class WorkloadKind { Container, Pod, Unit };

std::string_view toString(WorkloadKind kind);
std::optional<WorkloadKind> parseWorkloadKind(std::string_view text);

// A workload as a caller names it: `web` or `container:web`, `pod:shop`,
// `unit:nginx.service`.
struct WorkloadName {
    WorkloadKind kind = WorkloadKind::Container;
    std::string name;  // without the prefix

    // The one spelling resized keys its state by: containers bare, pods and
    // units with their prefix.
    std::string canonical() const;

    bool operator==(const WorkloadName&) const = default;
};

// nullopt for an empty name, an unknown prefix or a prefix with no name.
// Only the prefixes of the contract are prefixes: a container name cannot
// contain a colon, so "x:y" with another x is refused rather than guessed.
std::optional<WorkloadName> parseWorkloadName(std::string_view text);

}  // namespace resized::core
