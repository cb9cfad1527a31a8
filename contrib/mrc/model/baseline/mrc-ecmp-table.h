/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_TABLE_H
#define MRC_ECMP_TABLE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A routed switch's destination-based ECMP table: for each destination host a next-hop
 * group (a list of egress ports), the local usability of each port, and the flow hash.
 *
 * A flow (source host, destination host, flow label: the flow label carries a per-QP value, as
 * RoCEv2's UDP source port does) hashes onto one member of its destination's group, salted per
 * switch against polarisation. Resilient hashing (the default) gives each flow a home member;
 * when a member is lost (SetPortUsable, or a route withdrawn by SetRoutes) only that member's
 * flows move, spread over the others, and they return when it comes back. Modulo hashing
 * rehashes every flow over the usable members.
 *
 * MrcSwitchNetDevice owns one in ECMP mode; MrcEcmpControlPlane writes its routes.
 */
class MrcEcmpTable
{
public:
    /** Returned when no usable member exists. */
    static constexpr uint16_t NO_PORT = 0xffff;

    /**
     * @param resilient resilient (true) or modulo (false) hashing
     */
    void SetResilient(bool resilient)
    {
        m_resilient = resilient;
    }

    /** @return true for resilient hashing */
    bool IsResilient() const
    {
        return m_resilient;
    }

    /**
     * @param seed the switch's hash salt
     */
    void SetSeed(uint32_t seed)
    {
        m_seed = seed;
    }

    /**
     * Install routes (what BGP would have computed). With resilient hashing, a destination
     * whose new group is a subset of its first group keeps the first group's member order,
     * with the withdrawn members masked, so that only their flows move.
     * @param hostGroup for each destination host id, the index of its next-hop group
     * @param groups the next-hop groups (port lists)
     * @param ports the switch's port count
     */
    void SetRoutes(std::vector<uint32_t> hostGroup,
                   std::vector<std::vector<uint16_t>> groups,
                   std::size_t ports);

    /**
     * Local failure detection (BFD-like): stop or resume hashing onto a port.
     * @param port the port
     * @param usable false to exclude it from every group
     * @param ports the switch's port count
     */
    void SetPortUsable(uint32_t port, bool usable, std::size_t ports);

    /**
     * @param port a port
     * @return whether flows may hash onto it
     */
    bool IsPortUsable(uint32_t port) const
    {
        return port >= m_portUsable.size() || m_portUsable[port] != 0;
    }

    /**
     * @param dstHost a destination host id
     * @return true if the table has a group for it
     */
    bool HasRoute(uint32_t dstHost) const
    {
        return dstHost < m_hostGroup.size();
    }

    /**
     * The egress port of a flow.
     * @param srcHost source host id
     * @param dstHost destination host id (HasRoute)
     * @param flowLabel flow label
     * @return the port, or NO_PORT if no member of its group is usable
     */
    uint16_t Lookup(uint32_t srcHost, uint32_t dstHost, uint32_t flowLabel) const;

private:
    uint32_t m_seed{12345};                          //!< hash salt (per switch)
    bool m_resilient{true};                          //!< resilient (true) or modulo hashing
    std::vector<uint32_t> m_hostGroup;               //!< host id -> group
    std::vector<std::vector<uint16_t>> m_groups;     //!< next-hop groups (members)
    std::vector<std::vector<uint8_t>> m_groupMask;   //!< member in the route now
    std::vector<uint32_t> m_baseHostGroup;           //!< first routes (resilient)
    std::vector<std::vector<uint16_t>> m_baseGroups; //!< first groups (resilient)
    std::vector<uint8_t> m_portUsable;               //!< local detection state per port
};

} // namespace ns3

#endif /* MRC_ECMP_TABLE_H */
