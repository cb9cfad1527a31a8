/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TEXT_H
#define MRC_TEXT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Text helpers shared by the module's file readers (workload CSV, fault schedules).
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
