#include "verbs/verb.h"

namespace resized::ctl {

Client& Session::client()
{
    if (!client_)
        client_ = std::make_unique<Client>(options_.target);
    return *client_;
}

}  // namespace resized::ctl
