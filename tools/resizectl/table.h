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

    // Columns at least this wide, so that a table redrawn with new values
    // (top) keeps its columns where they were; ignored unless there is one
    // width per column.
    void setMinimumWidths(std::vector<size_t> widths);
    // The width of each column as render() pads it.
    std::vector<size_t> columnWidths(bool withLegend) const;

    // Without the legend only the rows are printed, for scripts (--no-legend).
    std::string render(bool withLegend) const;

private:
    std::vector<std::string> headers_;
    std::vector<size_t> minimumWidths_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace resized::ctl
