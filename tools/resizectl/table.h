#pragma once

#include <string>
#include <vector>

namespace resized::ctl {

// Columns padded to their widest cell, headers in capitals, as systemctl
// list-units prints them. The last column is not padded, so lines carry no
// trailing blanks.
class Table {
public:
    explicit Table(std::vector<std::string> headers);

    void addRow(std::vector<std::string> cells);
    size_t rowCount() const { return rows_.size(); }

    // Without the legend only the rows are printed, for scripts (--no-legend).
    std::string render(bool withLegend) const;

private:
    std::vector<std::string> headers_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace resized::ctl
