#pragma once

#include <filesystem>
#include <vector>

#include "store/state_store.h"

namespace resized {

// The pools declared in `directory` (design.md §1b), for operators who keep
// a node's setup in files: DIRECTORY/NAME.conf declares the pool NAME, in
// lexical order of the files; a missing folder declares none. A file holds
//
//   [Pool]
//   CPU=4                 # cap on the members' CPU, as Node.ReservedCPU; max: none
//   Memory=8G             # cap on their memory; max: none
//
//   [Budget office-hours] # any number of budgets, each named
//   Value=0               # as SetPool's Budgets: "2" or "25%"
//   PeriodSec=10min       # a time span; default 0
//   Reasons=manual plan   # default: all
//   Schedule=0 9 * * mon-fri
//   DurationSec=8h
//   TimeZone=Europe/Berlin
//
// Each pool comes back with `declaredIn` set to its file. Throws
// ConfigError naming the file (and line) for a name that is no pool's, an
// unknown section or key, or a bad value.
std::vector<store::PoolRecord> loadPoolFiles(const std::filesystem::path& directory);

}  // namespace resized
