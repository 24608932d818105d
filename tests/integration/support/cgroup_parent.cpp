#include "support/cgroup_parent.h"

#include "support/wait.h"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace resized::integration
{

namespace
{

// Every folder of the tree below (and with) top, children first.
std::vector<std::filesystem::path> foldersDeepestFirst(const std::filesystem::path& top)
{
    std::vector<std::filesystem::path> folders{top};
    std::error_code error;
    for (std::filesystem::recursive_directory_iterator it(top, error), end; !error && it != end;
         it.increment(error))
    {
        if (it->is_directory(error))
        {
            folders.push_back(it->path());
        }
    }
    return {folders.rbegin(), folders.rend()};
}

// A cgroup folder goes with rmdir alone (its files are not files); it
// refuses while a process of it is still exiting, so it is retried.
bool removeCgroupTree(const std::filesystem::path& top)
{
    return waitUntil(
        [&] {
            for (const auto& folder : foldersDeepestFirst(top))
            {
                if (::rmdir(folder.c_str()) != 0 && errno != ENOENT)
                {
                    return false;
                }
            }
            return true;
        },
        std::chrono::seconds(10), std::chrono::milliseconds(100));
}

} // namespace

ScopedCgroupParent::ScopedCgroupParent(const std::string& label, std::filesystem::path root) :
    path_("/resized-test-" + std::to_string(::getpid()) + "-" + label), root_(std::move(root))
{}

ScopedCgroupParent::~ScopedCgroupParent()
{
    std::error_code error;
    for (const auto& hierarchy : std::filesystem::directory_iterator(root_, error))
    {
        const auto top = hierarchy.path() / std::filesystem::path(path_).relative_path();
        if (std::filesystem::exists(top, error) && !removeCgroupTree(top))
        {
            std::cerr << "warning: cannot remove the cgroup " << top << "\n";
        }
    }
}

std::filesystem::path ScopedCgroupParent::directory(const std::string& controller) const
{
    return root_ / controller / std::filesystem::path(path_).relative_path();
}

void ScopedCgroupParent::write(const std::string& controller, const std::string& file,
                               const std::string& value) const
{
    const auto path = directory(controller) / file;
    std::ofstream stream(path);
    stream << value;
    if (!stream.flush())
    {
        throw std::runtime_error("cannot write " + value + " into " + path.string());
    }
}

} // namespace resized::integration
