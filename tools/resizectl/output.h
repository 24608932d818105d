#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bus_target.h"
#include "dictionary.h"
#include "status_format.h"
#include "table.h"

namespace resized::ctl {

struct GlobalOptions {
    bool json = false;
    bool legend = true;
    BusTarget target;
};

// "resizectl: <message>" on stderr, the one way errors are reported.
void printError(std::string_view message);
// "resizectl: note: <message>" on stderr: what resizectl adjusted in a
// request it accepted, so that scripts reading stdout are not disturbed.
void printNote(std::string_view message);

void printJson(const nlohmann::json& value);

// The table, then "N <noun>s listed." as systemctl ends its lists; --no-legend
// leaves only the rows.
void printTable(const Table& table, const GlobalOptions& options, std::string_view noun);

// The lines of `resizectl list`: a table, or one JSON array with --json.
void printListing(const std::vector<ListedWorkload>& workloads, const GlobalOptions& options);

// Objects as a List method names them (pools, plans): `table`, or one JSON
// array of their properties and object paths with --json.
void printObjects(const std::vector<BusObject>& objects, const Table& table, const GlobalOptions& options,
                  std::string_view noun);

// One status dictionary: a detailed block, or one JSON object with --json.
void printStatus(const Dictionary& status, const GlobalOptions& options);

// Status dictionaries: detailed blocks separated by blank lines, or one JSON
// array with --json.
void printStatuses(const std::vector<Dictionary>& statuses, const GlobalOptions& options);

}  // namespace resized::ctl
