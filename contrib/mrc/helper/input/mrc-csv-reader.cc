/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-csv-reader.h"

#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-text.h"

#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * @param fields column names or fields
 * @return them joined by ','
 */
std::string
Join(const std::vector<std::string>& fields)
{
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i)
    {
        out += (i > 0 ? "," : "") + fields[i];
    }
    return out;
}

} // namespace

MrcCsvReader::MrcCsvReader(const std::string& text, const std::string& file)
    : m_lines(MrcText::Split(text, '\n'))
    , m_file(file)
    , m_next(0)
    , m_line(0)
{
}

bool
MrcCsvReader::ReadFile(const std::string& path, std::string& text, std::string& error)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    if (in)
    {
        os << in.rdbuf();
    }
    if (!in || in.bad())
    {
        error = MrcText::Locate(path, 0, "", "cannot read the file");
        return false;
    }
    text = os.str();
    return true;
}

bool
MrcCsvReader::Advance()
{
    while (m_next < m_lines.size())
    {
        std::string line = m_lines[m_next++];
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        if (MrcText::Trim(line).empty())
        {
            continue;
        }
        m_line = static_cast<uint32_t>(m_next);
        m_fields = MrcText::Split(line, ',');
        for (auto& f : m_fields)
        {
            f = MrcText::Trim(f);
        }
        return true;
    }
    m_fields.clear();
    return false;
}

bool
MrcCsvReader::ReadHeader(const std::vector<std::vector<std::string>>& accepted, std::string& error)
{
    std::string expected;
    for (const auto& h : accepted)
    {
        expected += (expected.empty() ? "'" : " or '") + Join(h) + "'";
    }
    if (!Advance())
    {
        return FailAt(1, "header", "missing (expected " + expected + ")", error);
    }
    for (const auto& h : accepted)
    {
        if (m_fields == h)
        {
            m_header = h;
            return true;
        }
    }
    return Fail("header", "expected " + expected + " (got '" + Join(m_fields) + "')", error);
}

const std::vector<std::string>&
MrcCsvReader::GetHeader() const
{
    return m_header;
}

bool
MrcCsvReader::NextRow()
{
    return Advance();
}

std::size_t
MrcCsvReader::GetNFields() const
{
    return m_fields.size();
}

const std::string&
MrcCsvReader::GetField(std::size_t column) const
{
    static const std::string none;
    return column < m_fields.size() ? m_fields[column] : none;
}

uint32_t
MrcCsvReader::GetLine() const
{
    return m_line;
}

uint32_t
MrcCsvReader::GetNLines() const
{
    return static_cast<uint32_t>(m_lines.size());
}

const std::string&
MrcCsvReader::GetColumnName(std::size_t column) const
{
    static const std::string none;
    return column < m_header.size() ? m_header[column] : none;
}

bool
MrcCsvReader::CheckNFields(std::size_t least, std::string& error) const
{
    const std::size_t most = m_header.size();
    if (m_fields.size() >= least && m_fields.size() <= most)
    {
        return true;
    }
    const std::string count = least == most ? std::to_string(most)
                                            : std::to_string(least) + " to " + std::to_string(most);
    return Fail("row",
                "expected " + count + " fields (" + Join(m_header) + "), got "
                    + std::to_string(m_fields.size()),
                error);
}

bool
MrcCsvReader::ReadUnsigned(
    std::size_t column, uint64_t lo, uint64_t hi, uint64_t& out, std::string& error) const
{
    std::string why;
    return MrcNumberParser::ParseUnsigned(GetField(column), lo, hi, out, why)
        || Fail(GetColumnName(column), why, error);
}

bool
MrcCsvReader::ReadReal(
    std::size_t column, double lo, double hi, double& out, std::string& error) const
{
    std::string why;
    return MrcNumberParser::ParseReal(GetField(column), lo, hi, out, why)
        || Fail(GetColumnName(column), why, error);
}

bool
MrcCsvReader::Fail(const std::string& field, const std::string& message, std::string& error) const
{
    return FailAt(m_line, field, message, error);
}

bool
MrcCsvReader::FailAt(uint32_t line,
                     const std::string& field,
                     const std::string& message,
                     std::string& error) const
{
    error = MrcText::Locate(m_file, line, field, message);
    return false;
}

} // namespace ns3
