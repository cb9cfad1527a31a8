/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_PROVIDER_H
#define MRC_PATH_PROVIDER_H

#include "ns3/ipv6-address.h"
#include "ns3/object.h"

#include <cstring>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The paths between two hosts in one plane, in constant space.
 *
 * Path i's destination address is `base` with the 16-bit big-endian field at byte `varByte`
 * increased by i (in a two-tier SRv6 fabric, the T1's uSID); with `varByte` negative every path
 * has the base address (a destination-routed fabric, where the EV alone steers, or hosts under
 * one T0). A queue pair keeps one per plane instead of a list of addresses, so its memory does
 * not grow with the number of T1s (256 per plane on the paper's fabric).
 */
struct MrcPathSet
{
    uint8_t base[16] = {}; //!< path 0's address
    uint32_t count = 0;    //!< number of paths
    int8_t varByte = -1;   //!< byte offset of the field that names the path, or -1

    /**
     * @param path a path index below count
     * @return its destination address
     */
    Ipv6Address Get(uint32_t path) const
    {
        uint8_t b[16];
        GetBytes(path, b);
        return Ipv6Address(b);
    }

    /**
     * The destination address of a path as 16 bytes (no ns-3 Ipv6Address is made: the per-packet
     * path writes it straight into the frame's header).
     * @param path a path index below count
     * @param out the address's bytes
     */
    void GetBytes(uint32_t path, uint8_t out[16]) const
    {
        std::memcpy(out, base, 16);
        if (varByte >= 0)
        {
            const uint32_t v = ((uint32_t(out[varByte]) << 8) | out[varByte + 1]) + path;
            out[varByte] = static_cast<uint8_t>(v >> 8);
            out[varByte + 1] = static_cast<uint8_t>(v);
        }
    }
};

/**
 * @ingroup mrc
 * @brief What the MRC transport needs to know of a fabric: its planes, the hosts' addresses,
 * and the destination addresses that steer a packet along each path.
 *
 * For an SRv6 fabric a path's address is a uSID carrier; for a destination-routed (ECMP)
 * fabric every path's address is the destination host's own and the EV alone (flow label)
 * spreads the packets. Contract: path i from A to B and path i from B to A cross the same
 * switches in opposite directions, so a receiver can answer on the reverse path.
 */
class MrcPathProvider : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();

    /** @return number of planes (NIC ports per host) */
    virtual uint32_t GetNPlanes() const = 0;
    /** @return number of hosts */
    virtual uint32_t GetNHosts() const = 0;
    /**
     * @param src source host
     * @param dst destination host
     * @param plane plane
     * @param out filled with one destination address per path (index = path index)
     */
    void GetPlanePaths(uint32_t src,
                       uint32_t dst,
                       uint32_t plane,
                       std::vector<Ipv6Address>& out) const;
    /**
     * @param src source host
     * @param dst destination host
     * @param plane plane
     * @return the paths, in constant space (path index = index in GetPlanePaths)
     */
    virtual MrcPathSet GetPathSet(uint32_t src, uint32_t dst, uint32_t plane) const = 0;
    /**
     * @param h host
     * @param plane plane
     * @return the host's address on that plane
     */
    virtual Ipv6Address GetHostAddress(uint32_t h, uint32_t plane) const = 0;
};

} // namespace ns3

#endif /* MRC_PATH_PROVIDER_H */
