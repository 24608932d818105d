#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "verbs/verb.h"

namespace resized::ctl {

namespace {

// The daemon resolves a container ID from 12 hex digits on (design §1b).
constexpr size_t kDaemonIdPrefixLength = 12;

bool isShortIdPrefix(const std::string& typed)
{
    return !typed.empty() && typed.size() < kDaemonIdPrefixLength &&
           std::all_of(typed.begin(), typed.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) &&
                                                                        !std::isupper(static_cast<unsigned char>(c)); });
}

}  // namespace

Client& Session::client()
{
    if (!client_)
        client_ = std::make_unique<Client>(options_.target);
    return *client_;
}

std::string Session::workloadNamed(const std::string& typed)
{
    if (!isShortIdPrefix(typed))
        return typed;
    Client& daemon = client();
    const auto listed = daemon.call([](ManagerProxy& manager) { return manager.ListWorkloads(); });
    // (name, container ID) of each workload whose ID begins with `typed`.
    std::vector<std::pair<std::string, std::string>> matches;
    for (const auto& workload : listed) {
        const std::string& name = workload.get<0>();
        if (name == typed)
            return typed;
        const auto status = findStatus(daemon, name);
        const auto id = status ? find<std::string>(*status, "ContainerId") : std::nullopt;
        if (id && id->starts_with(typed))
            matches.emplace_back(name, *id);
    }
    if (matches.size() > 1) {
        std::string names;
        for (const auto& [name, id] : matches)
            names += (names.empty() ? "" : ", ") + name + " (" + id.substr(0, kDaemonIdPrefixLength) + ")";
        throw CommandError(ExitStatus::InvalidArgument,
                           "'" + typed + "' begins the IDs of several containers: " + names + "; give more digits");
    }
    if (matches.empty())
        return typed;
    const auto& [name, id] = matches.front();
    printNote("'" + typed + "' is the container " + name + " (" + id.substr(0, kDaemonIdPrefixLength) + ")");
    return name;
}

}  // namespace resized::ctl
