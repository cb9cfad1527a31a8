/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ecmp-table.h"

#include <algorithm>
#include <map>

namespace ns3
{

void
MrcEcmpTable::SetRoutes(std::vector<uint32_t> hostGroup,
                        std::vector<std::vector<uint16_t>> groups,
                        std::size_t ports)
{
    m_portUsable.resize(ports, 1);
    if (!m_resilient || m_baseGroups.empty())
    {
        // Modulo hashing, or the first routes: the groups as given.
        if (m_baseGroups.empty())
        {
            m_baseHostGroup = hostGroup;
            m_baseGroups = groups;
        }
        m_groupMask.clear();
        for (const auto& g : groups)
        {
            m_groupMask.emplace_back(g.size(), 1);
        }
        m_hostGroup = std::move(hostGroup);
        m_groups = std::move(groups);
        return;
    }
    // Resilient hashing across reconvergence: a destination whose new group is a subset of its
    // first group keeps the first group's member order, with the withdrawn members masked, so
    // that only their flows move.
    std::map<std::pair<uint32_t, std::vector<uint8_t>>, uint32_t> index;
    std::vector<std::vector<uint16_t>> outGroups;
    std::vector<std::vector<uint8_t>> outMasks;
    std::vector<uint32_t> outHostGroup(hostGroup.size());
    for (std::size_t host = 0; host < hostGroup.size(); ++host)
    {
        const std::vector<uint16_t>& now = groups[hostGroup[host]];
        uint32_t base = host < m_baseHostGroup.size() ? m_baseHostGroup[host] : UINT32_MAX;
        std::vector<uint8_t> mask;
        if (base != UINT32_MAX)
        {
            const std::vector<uint16_t>& first = m_baseGroups[base];
            mask.assign(first.size(), 0);
            for (uint16_t p : now)
            {
                auto it = std::find(first.begin(), first.end(), p);
                if (it == first.end())
                {
                    base = UINT32_MAX; // a member the first routes did not have
                    break;
                }
                mask[it - first.begin()] = 1;
            }
        }
        if (base == UINT32_MAX)
        {
            outHostGroup[host] = static_cast<uint32_t>(outGroups.size());
            outGroups.push_back(now);
            outMasks.emplace_back(now.size(), 1);
            continue;
        }
        auto key = std::make_pair(base, mask);
        auto it = index.find(key);
        if (it == index.end())
        {
            it = index.emplace(key, static_cast<uint32_t>(outGroups.size())).first;
            outGroups.push_back(m_baseGroups[base]);
            outMasks.push_back(std::move(mask));
        }
        outHostGroup[host] = it->second;
    }
    m_hostGroup = std::move(outHostGroup);
    m_groups = std::move(outGroups);
    m_groupMask = std::move(outMasks);
}

void
MrcEcmpTable::SetPortUsable(uint32_t port, bool usable, std::size_t ports)
{
    m_portUsable.resize(ports, 1);
    m_portUsable.at(port) = usable ? 1 : 0;
}

uint16_t
MrcEcmpTable::Lookup(uint32_t srcHost, uint32_t dstHost, uint32_t flowLabel) const
{
    // The flow hash: source, destination and flow label (which carries the per-QP entropy, as
    // the UDP source port does on a real RoCEv2 fabric), salted per switch against
    // polarisation.
    uint64_t h = (uint64_t(srcHost) << 32) ^ dstHost;
    h ^= uint64_t(flowLabel) * 0x9E3779B97F4A7C15ULL;
    h ^= m_seed;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    const uint32_t g = m_hostGroup[dstHost];
    const std::vector<uint16_t>& group = m_groups[g];
    const std::vector<uint8_t>& mask = m_groupMask[g];
    const auto n = static_cast<uint32_t>(group.size());
    if (m_resilient)
    {
        // The flow's home member, if it is still in the route and usable.
        const uint32_t home = static_cast<uint32_t>(h % n);
        if (mask[home] && m_portUsable[group[home]])
        {
            return group[home];
        }
        h /= n; // the rest of the hash spreads the lost member's flows
    }
    uint32_t usable = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        usable += mask[i] & m_portUsable[group[i]];
    }
    if (usable == 0)
    {
        return NO_PORT;
    }
    uint32_t k = static_cast<uint32_t>(h % usable);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (mask[i] && m_portUsable[group[i]] && k-- == 0)
        {
            return group[i];
        }
    }
    return NO_PORT;
}

} // namespace ns3
