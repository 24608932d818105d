#include "bus/authorization.h"

#include <grp.h>
#include <pwd.h>

#include <vector>

#include <sdbus-c++/Error.h>

#include "service/errors.h"

namespace resized::bus {
namespace {

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

void requireChangePermission(const sdbus::Message& call, const std::string& adminGroup)
{
    uid_t uid = 0;
    try {
        uid = call.getCredsUid();
    } catch (const sdbus::Error&) {
        throw service::ResizeError(service::ErrorCode::AccessDenied,
                                   "the caller's credentials cannot be established");
    }
    if (uid == 0 || userInGroup(uid, adminGroup))
        return;
    throw service::ResizeError(service::ErrorCode::AccessDenied,
                               "changing limits needs root or membership of group \"" + adminGroup + "\"");
}

}  // namespace resized::bus
