/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_PROVIDER_H
#define MRC_PATH_PROVIDER_H

#include "ns3/ipv6-address.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

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
    virtual void GetPlanePaths(uint32_t src,
                               uint32_t dst,
                               uint32_t plane,
                               std::vector<Ipv6Address>& out) const = 0;
    /**
     * @param h host
     * @param plane plane
     * @return the host's address on that plane
     */
    virtual Ipv6Address GetHostAddress(uint32_t h, uint32_t plane) const = 0;
};

} // namespace ns3

#endif /* MRC_PATH_PROVIDER_H */
