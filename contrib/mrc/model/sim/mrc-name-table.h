/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NAME_TABLE_H
#define MRC_NAME_TABLE_H

#include "ns3/abort.h"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The one table of the names of an enumeration's values, both ways: the name a value is
 * written with (in output files, events, messages) and the value a name in an input means.
 *
 * Each vocabulary of the module (link tiers, fault actions, fault event kinds and states) has
 * exactly one such table, next to its enumeration; readers parse with it, writers write with
 * it, and messages list the accepted words from it, so a word is defined in one place.
 *
 * @tparam E the enumeration
 */
template<typename E>
class MrcNameTable
{
public:
    /**
     * @param entries every value with its name, in the order messages list them
     */
    MrcNameTable(std::initializer_list<std::pair<E, const char*>> entries)
    {
        for (const auto& e : entries)
        {
            m_entries.emplace_back(e.first, e.second);
        }
    }

    /**
     * @param value a value of the enumeration
     * @return its name (aborts for a value the table lacks: a programming error)
     */
    const std::string& GetName(E value) const
    {
        for (const auto& e : m_entries)
        {
            if (e.first == value)
            {
                return e.second;
            }
        }
        NS_FATAL_ERROR("MrcNameTable: a value without a name (" << static_cast<int>(value) << ")");
    }

    /**
     * @param name a name, as written in an input
     * @param value set to the value it names (left alone if none)
     * @return whether it names one
     */
    bool Parse(const std::string& name, E& value) const
    {
        for (const auto& e : m_entries)
        {
            if (e.second == name)
            {
                value = e.first;
                return true;
            }
        }
        return false;
    }

    /**
     * @return every name, in the table's order, joined by ", " (for messages)
     */
    std::string GetNames() const
    {
        return GetNamesWhere(
            [](E)
            {
                return true;
            });
    }

    /**
     * @tparam Keep a predicate on values
     * @param keep which values to list
     * @return the names of those values, in the table's order, joined by ", "
     */
    template<typename Keep>
    std::string GetNamesWhere(Keep keep) const
    {
        std::string out;
        for (const auto& e : m_entries)
        {
            if (keep(e.first))
            {
                out += (out.empty() ? "" : ", ") + e.second;
            }
        }
        return out;
    }

    /** @return every value with its name, in the table's order */
    const std::vector<std::pair<E, std::string>>& GetEntries() const
    {
        return m_entries;
    }

private:
    std::vector<std::pair<E, std::string>> m_entries; //!< values and their names
};

} // namespace ns3

#endif /* MRC_NAME_TABLE_H */
