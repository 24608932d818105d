#include "cpu_list.h"

namespace resized::integration
{

std::set<unsigned> parseCpuList(const std::string& list)
{
    std::set<unsigned> cpus;
    std::size_t position = 0;
    while (position < list.size())
    {
        const std::size_t end = std::min(list.find(',', position), list.size());
        const std::string range = list.substr(position, end - position);
        const std::size_t dash = range.find('-');
        const unsigned first = static_cast<unsigned>(std::stoul(range));
        const unsigned last = dash == std::string::npos ? first : static_cast<unsigned>(std::stoul(range.substr(dash + 1)));
        for (unsigned cpu = first; cpu <= last; ++cpu)
        {
            cpus.insert(cpu);
        }
        position = end + 1;
    }
    return cpus;
}

} // namespace resized::integration
