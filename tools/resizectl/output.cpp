#include "output.h"

#include <iostream>

namespace resized::ctl {

void printError(std::string_view message)
{
    std::cerr << "resizectl: " << message << '\n';
}

void printNote(std::string_view message)
{
    std::cerr << "resizectl: note: " << message << '\n';
}

void printJson(const nlohmann::json& value)
{
    std::cout << value.dump() << '\n';
}

void printTable(const Table& table, const GlobalOptions& options, std::string_view noun)
{
    std::cout << table.render(options.legend);
    if (options.legend)
        std::cout << '\n' << table.rowCount() << ' ' << noun << (table.rowCount() == 1 ? "" : "s") << " listed.\n";
}

void printListing(const std::vector<ListedWorkload>& workloads, const GlobalOptions& options)
{
    if (!options.json) {
        printTable(makeListTable(workloads), options, "workload");
        return;
    }
    nlohmann::json array = nlohmann::json::array();
    for (const auto& workload : workloads)
        array.push_back(toJson(workload));
    printJson(array);
}

void printObjects(const std::vector<BusObject>& objects, const Table& table, const GlobalOptions& options,
                  std::string_view noun)
{
    if (!options.json) {
        printTable(table, options, noun);
        return;
    }
    nlohmann::json array = nlohmann::json::array();
    for (const auto& object : objects)
        array.push_back(toJson(object));
    printJson(array);
}

void printStatus(const Dictionary& status, const GlobalOptions& options)
{
    if (options.json)
        printJson(toJson(status));
    else
        std::cout << formatStatusBlock(status, Clock::now());
}

void printStatuses(const std::vector<Dictionary>& statuses, const GlobalOptions& options)
{
    if (options.json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& status : statuses)
            array.push_back(toJson(status));
        printJson(array);
        return;
    }
    const auto now = Clock::now();
    for (size_t index = 0; index < statuses.size(); ++index) {
        if (index > 0)
            std::cout << '\n';
        std::cout << formatStatusBlock(statuses[index], now);
    }
}

}  // namespace resized::ctl
