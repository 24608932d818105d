#include "id_prefix.h"
#include "verbs/verb.h"

namespace resized::ctl {

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
    const auto matches = idPrefixMatches(typed, client().workloadContainerIds());
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
