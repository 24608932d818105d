#pragma once

#include <sys/types.h>

#include <string>
#include <unordered_map>

#include <sdbus-c++/Message.h>

namespace resized::bus {

// Changes are for root and the members of one group. The bus policy already
// says so; the daemon checks again from the caller's credentials so that a
// lax policy file cannot open it up.
class ChangeAuthorization {
public:
    explicit ChangeAuthorization(std::string adminGroup) : adminGroup_(std::move(adminGroup)) {}

    void setAdminGroup(std::string group) { adminGroup_ = std::move(group); }

    // The caller's UID, when it may change limits; throws
    // service::ResizeError(AccessDenied) when it may not.
    uid_t requireChangePermission(const sdbus::Message& call);

private:
    uid_t callerUid(const sdbus::Message& call);

    std::string adminGroup_;
    // dbus-daemon attaches no credentials to messages: asking for them is a
    // round trip to the bus. A unique name is never reused on a bus, so the
    // UID found for one stays true while it exists. Group membership is
    // looked up afresh every time: an administrator may change it.
    std::unordered_map<std::string, uid_t> uidBySender_;
};

}  // namespace resized::bus
