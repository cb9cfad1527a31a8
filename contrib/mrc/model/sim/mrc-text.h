/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TEXT_H
#define MRC_TEXT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Text helpers shared by the module's file readers (MrcCsvReader, the JSON workload
 * reader), and the one format of their error messages (Locate).
 */
struct MrcText
{
    /**
     * @param s a string
     * @return it without leading and trailing blanks (space, tab, carriage return)
     */
    static std::string Trim(const std::string& s)
    {
        const std::size_t b = s.find_first_not_of(" \t\r");
        if (b == std::string::npos)
        {
            return "";
        }
        const std::size_t e = s.find_last_not_of(" \t\r");
        return s.substr(b, e - b + 1);
    }

    /**
     * Where an input error is, and what it is, in the one format of the module's readers:
     * `file:line: field: message` (`file: message` without a line or field, e.g. a file that
     * cannot be read; `line N: field: message` or `field: message` without a file, for input
     * that came from no file). Line breaks in the parts (quoted input) become spaces, so the
     * message stays one line.
     * @param file the file's name, as the user gave it (empty: none)
     * @param line the line, from 1 (0: none)
     * @param field the field: a CSV column, a JSON path, "header", "row" (empty: none)
     * @param message what is wrong and what is accepted
     * @return the message
     */
    static std::string Locate(const std::string& file,
                              uint32_t line,
                              const std::string& field,
                              const std::string& message)
    {
        std::string out = file;
        if (line > 0)
        {
            out += (file.empty() ? "line " : ":") + std::to_string(line);
        }
        out += out.empty() ? "" : ": ";
        if (!field.empty())
        {
            out += field + ": ";
        }
        out += message;
        for (char& c : out)
        {
            c = (c == '\n' || c == '\r') ? ' ' : c;
        }
        return out;
    }

    /**
     * @param s a string
     * @param sep a separator
     * @return its fields (n separators give n + 1 fields, empty ones included)
     */
    static std::vector<std::string> Split(const std::string& s, char sep)
    {
        std::vector<std::string> out;
        std::size_t start = 0;
        while (true)
        {
            const std::size_t e = s.find(sep, start);
            out.push_back(s.substr(start, e == std::string::npos ? std::string::npos : e - start));
            if (e == std::string::npos)
            {
                return out;
            }
            start = e + 1;
        }
    }
};

} // namespace ns3

#endif /* MRC_TEXT_H */
