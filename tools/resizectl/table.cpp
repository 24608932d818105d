#include "table.h"

#include <algorithm>
#include <stdexcept>

namespace resized::ctl {

namespace {

void appendLine(std::string& out, const std::vector<std::string>& cells, const std::vector<size_t>& widths)
{
    for (size_t column = 0; column < cells.size(); ++column) {
        out += cells[column];
        if (column + 1 < cells.size())
            out.append(widths[column] - cells[column].size() + 1, ' ');
    }
    out += '\n';
}

}  // namespace

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::addRow(std::vector<std::string> cells)
{
    if (cells.size() != headers_.size())
        throw std::logic_error("table row has the wrong number of cells");
    rows_.push_back(std::move(cells));
}

void Table::setMinimumWidths(std::vector<size_t> widths)
{
    minimumWidths_ = std::move(widths);
}

std::vector<size_t> Table::columnWidths(bool withLegend) const
{
    std::vector<size_t> widths(headers_.size(), 0);
    if (minimumWidths_.size() == widths.size())
        widths = minimumWidths_;
    auto widen = [&widths](const std::vector<std::string>& cells) {
        for (size_t column = 0; column < cells.size(); ++column)
            widths[column] = std::max(widths[column], cells[column].size());
    };
    if (withLegend)
        widen(headers_);
    for (const auto& row : rows_)
        widen(row);
    return widths;
}

std::string Table::render(bool withLegend) const
{
    const std::vector<size_t> widths = columnWidths(withLegend);
    std::string out;
    if (withLegend)
        appendLine(out, headers_, widths);
    for (const auto& row : rows_)
        appendLine(out, row, widths);
    return out;
}

}  // namespace resized::ctl
