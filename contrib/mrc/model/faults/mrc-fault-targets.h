/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_TARGETS_H
#define MRC_FAULT_TARGETS_H

#include "ns3/mrc-net-device.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class MrcChannel;
class MrcSwitchNetDevice;

/**
 * @ingroup mrc
 * @brief What faults act on: the cables of a multi-plane Clos fabric, by position.
 *
 * MrcFaultHelper resolves fault targets (host<H>/plane<P>, plane<P>/t0-<I>/t1-<J>, a switch ...)
 * through this interface and sets the cables' state, so that the same fault schedule, fault
 * file and flap processes drive the packet-level fabric (MrcClosTopology) and the flow-level one
 * (MrcFluidNetwork). Indices are as MrcClosTopology documents them.
 */
class MrcFaultTargets
{
public:
    virtual ~MrcFaultTargets() = default;

    /** @return hosts */
    virtual uint32_t GetNHosts() const = 0;
    /** @return planes */
    virtual uint32_t GetNPlanes() const = 0;
    /** @return T0s per plane */
    virtual uint32_t GetNT0() const = 0;
    /** @return T1s per plane */
    virtual uint32_t GetNT1() const = 0;
    /** @return T2s per plane (0 with two tiers) */
    virtual uint32_t GetNT2() const = 0;
    /** @return hosts per T0 */
    virtual uint32_t GetHostsPerT0() const = 0;
    /**
     * @param plane plane
     * @param t0 T0 index
     * @return the T0's uplinks (one per T1 of its pod)
     */
    virtual uint32_t GetNUplinks(uint32_t plane, uint32_t t0) const = 0;
    /**
     * @param h host
     * @param plane plane
     * @return the cable between the host's NIC port and its T0 on that plane
     */
    virtual Ptr<MrcChannel> GetHostLink(uint32_t h, uint32_t plane) const = 0;
    /**
     * @param h host
     * @param plane plane
     * @return the host's NIC port on that plane, or null where the fabric has none (flow
     * level: no receive loss)
     */
    virtual Ptr<MrcNetDevice> GetHostPort(uint32_t h, uint32_t plane) const
    {
        return nullptr;
    }
    /**
     * @param plane plane
     * @param i T0 index
     * @param j uplink index (< GetNUplinks)
     * @return the cable
     */
    virtual Ptr<MrcChannel> GetUplink(uint32_t plane, uint32_t i, uint32_t j) const = 0;
    /**
     * @param plane plane
     * @param t1 T1 index
     * @param k T2 index
     * @return the cable (three tiers)
     */
    virtual Ptr<MrcChannel> GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const = 0;
    /**
     * @param plane plane
     * @param tier 0 (T0), 1 (T1) or 2 (T2)
     * @param i index within the tier
     * @return every cable of the switch
     */
    virtual std::vector<Ptr<MrcChannel>> GetSwitchLinks(uint32_t plane,
                                                        uint32_t tier,
                                                        uint32_t i) const = 0;
    /**
     * @param plane plane
     * @param tier 0, 1 or 2
     * @param i index within the tier
     * @return the switch device, or null where the fabric has none (flow level: no blackhole)
     */
    virtual Ptr<MrcSwitchNetDevice> GetSwitchDevice(uint32_t plane,
                                                    uint32_t tier,
                                                    uint32_t i) const = 0;
};

} // namespace ns3

#endif /* MRC_FAULT_TARGETS_H */
