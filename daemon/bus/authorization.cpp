#include "bus/authorization.h"

#include <grp.h>
#include <pwd.h>

#include <vector>

#include <sdbus-c++/Error.h>

#include "service/errors.h"

namespace resized::bus {
namespace {

constexpr size_t kRememberedSenders = 1024;

bool userInGroup(uid_t uid, const std::string& groupName)
{
    const group* adminGroup = getgrnam(groupName.c_str());
    const passwd* user = getpwuid(uid);
    if (!adminGroup || !user)
        return false;
    const gid_t wanted = adminGroup->gr_gid;
    int count = 64;
    std::vector<gid_t> groups(static_cast<size_t>(count));
    if (getgrouplist(user->pw_name, user->pw_gid, groups.data(), &count) < 0) {
        groups.resize(static_cast<size_t>(count));
        if (getgrouplist(user->pw_name, user->pw_gid, groups.data(), &count) < 0)
            return false;
    }
    groups.resize(static_cast<size_t>(count));
    for (gid_t gid : groups)
        if (gid == wanted)
            return true;
    return false;
}

}  // namespace

uid_t ChangeAuthorization::requireChangePermission(const sdbus::Message& call)
{
    const uid_t uid = callerUid(call);
    if (uid == 0 || userInGroup(uid, adminGroup_))
        return uid;
    throw service::ResizeError(service::ErrorCode::AccessDenied,
                               "changing limits needs root or membership of group \"" + adminGroup_ + "\"");
}

uid_t ChangeAuthorization::callerUid(const sdbus::Message& call)
{
    const std::string sender = call.getSender();
    if (const auto known = uidBySender_.find(sender); known != uidBySender_.end())
        return known->second;
    uid_t uid = 0;
    try {
        uid = call.getCredsUid();
    } catch (const sdbus::Error&) {
        throw service::ResizeError(service::ErrorCode::AccessDenied,
                                   "the caller's credentials cannot be established");
    }
    // A message without a sender comes from a direct connection: nothing to
    // remember it by.
    if (sender.empty())
        return uid;
    // Names of connections long gone pile up otherwise; forgetting them all
    // at once only costs each live caller one more round trip.
    if (uidBySender_.size() >= kRememberedSenders)
        uidBySender_.clear();
    uidBySender_.emplace(sender, uid);
    return uid;
}

}  // namespace resized::bus
