#pragma once

#include <sdbus-c++/Error.h>

#include "cgroup/limits_backend.h"
#include "service/errors.h"
#include "store/database.h"

namespace resized::bus {

// io.resized1.Error.<class>, or org.freedesktop.DBus.Error.AccessDenied.
std::string dbusErrorName(service::ErrorCode code);

sdbus::Error toDbusError(const service::ResizeError& error);

// Runs `body`, turning the daemon's exceptions into the D-Bus errors of the
// contract, so every method answers with a documented error and never
// escapes with an unknown one.
template <typename Body>
auto translatingErrors(Body&& body) -> decltype(body())
{
    try {
        return body();
    } catch (const service::ResizeError& error) {
        throw toDbusError(error);
    } catch (const cgroup::CgroupError& error) {
        throw sdbus::Error(dbusErrorName(service::ErrorCode::ApplyFailed), error.what());
    } catch (const store::StoreError& error) {
        throw sdbus::Error("org.freedesktop.DBus.Error.Failed", error.what());
    } catch (const sdbus::Error&) {
        throw;
    } catch (const std::exception& error) {
        throw sdbus::Error("org.freedesktop.DBus.Error.Failed", error.what());
    }
}

}  // namespace resized::bus
