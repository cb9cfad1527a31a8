/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CSV_READER_H
#define MRC_CSV_READER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The module's one reader of CSV input files (fault schedules, transfer lists): one
 * comment rule, one header rule, one error format.
 *
 * - `#` starts a comment that runs to the end of its line, wherever it stands;
 * - a line that is blank once its comment is removed is skipped (it is no row);
 * - fields are separated by `,` (no quoting: no field holds a comma) and trimmed of spaces,
 *   tabs and carriage returns, so CRLF files read the same;
 * - the first row is the header, and must be one of the headers the format accepts;
 * - lines count from 1 over the whole text, skipped ones included.
 *
 * Every error is one line, `file:line: field: message` (MrcText::Locate), the field being the
 * column's name in the header, `header`, or `row` for a row with the wrong number of fields:
 * @verbatim
   faults.csv:3: action: unknown action 'explode' (accepted: link_down, ...)
   trace.csv:2: bytes: must be a whole number from 1 to 4294967295 (got '0')
   @endverbatim
 *
 * Use: ReadHeader, then NextRow until it returns false, reading fields by column
 * (ReadUnsigned, ReadReal, GetField) and reporting problems with Fail.
 */
class MrcCsvReader
{
public:
    /**
     * @param text the file's contents
     * @param file its name, for messages
     */
    MrcCsvReader(const std::string& text, const std::string& file);

    /**
     * Read a whole input file, of any format (the JSON workload reader reads through it too,
     * so that every reader reports a missing file alike).
     * @param path the file
     * @param text set to its contents
     * @param error set to "path: cannot read the file" on failure
     * @return false if it cannot be read
     */
    static bool ReadFile(const std::string& path, std::string& text, std::string& error);

    /**
     * Read the first row as the header.
     * @param accepted the headers the format accepts, each a list of column names
     * @param error set to "file:line: header: expected 'a,b' or 'a,b,c' (got '...')", or to
     *        "file:1: header: missing (expected ...)" when the text has no row
     * @return false if the first row is none of them
     */
    bool ReadHeader(const std::vector<std::vector<std::string>>& accepted, std::string& error);
    /** @return the header's column names (empty before ReadHeader) */
    const std::vector<std::string>& GetHeader() const;

    /**
     * Move to the next row.
     * @return false at the end of the text
     */
    bool NextRow();
    /** @return the current row's number of fields */
    std::size_t GetNFields() const;
    /**
     * @param column a column, from 0
     * @return the current row's field there, trimmed ("" past the row's end)
     */
    const std::string& GetField(std::size_t column) const;
    /** @return the line of the current row (of the header after ReadHeader), from 1 */
    uint32_t GetLine() const;
    /** @return the text's number of lines (its last line's number) */
    uint32_t GetNLines() const;

    /**
     * Check the current row's number of fields: from least to the header's.
     * @param least the fewest fields a row may have (trailing columns left out)
     * @param error set to "file:line: row: expected N fields (a,b,c), got M" on failure
     * @return false if it has fewer or more
     */
    bool CheckNFields(std::size_t least, std::string& error) const;

    /**
     * Read a whole number from a field (MrcNumberParser::ParseUnsigned).
     * @param column the column
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param out set to the value
     * @param error set to "file:line: column: must be a whole number ..." on failure
     * @return false if it is not one, or outside [lo, hi]
     */
    bool ReadUnsigned(
        std::size_t column, uint64_t lo, uint64_t hi, uint64_t& out, std::string& error) const;
    /**
     * Read a number from a field (MrcNumberParser::ParseReal).
     * @param column the column
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param out set to the value
     * @param error set to "file:line: column: must be a number ..." on failure
     * @return false if it is not one, or outside [lo, hi]
     */
    bool ReadReal(std::size_t column, double lo, double hi, double& out, std::string& error) const;

    /**
     * Report a problem with the current row.
     * @param field the column's name (GetColumnName), or "row", or "" for none
     * @param message what is wrong and what is accepted
     * @param error set to "file:line: field: message"
     * @return false
     */
    bool Fail(const std::string& field, const std::string& message, std::string& error) const;
    /**
     * Report a problem on a given line.
     * @param line the line (0: none)
     * @param field the field, or ""
     * @param message what is wrong
     * @param error set to "file:line: field: message"
     * @return false
     */
    bool FailAt(uint32_t line,
                const std::string& field,
                const std::string& message,
                std::string& error) const;
    /**
     * @param column a column
     * @return its name in the header
     */
    const std::string& GetColumnName(std::size_t column) const;

private:
    /**
     * Move to the next line that holds a row and split it.
     * @return false at the end of the text
     */
    bool Advance();

    std::vector<std::string> m_lines;  //!< the text's lines
    std::string m_file;                //!< its name, for messages
    std::size_t m_next;                //!< index of the next line to read
    uint32_t m_line;                   //!< the current row's line, from 1 (0: none yet)
    std::vector<std::string> m_fields; //!< the current row's fields
    std::vector<std::string> m_header; //!< the header's column names
};

} // namespace ns3

#endif /* MRC_CSV_READER_H */
