/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_FIELDS_H
#define MRC_IPV6_FIELDS_H

#include "ns3/ipv6-address.h"

#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The fields of a frame's IPv6 header, carried beside the packet through the fabric.
 *
 * Frames cross the fabric with their IPv6 header parsed, never serialized: switches read and
 * rewrite these fields (the uSID shift works on the 16 destination bytes in place, the hop
 * limit, the traffic class), and only a pcap or an ns-3 receive callback writes them as bytes
 * (MrcIpv6Header). Unlike ns3::Ipv6Header, this is a plain, trivially copyable struct (no
 * virtual destructor, no Ipv6Address members), so the per-hop copies into queues and events
 * cost a memcpy.
 *
 * The accessors are named as Ipv6Header's.
 */
struct MrcIpv6Fields
{
    /** Bytes of the IPv6 fixed header every frame carries (counted in queue and wire sizes). */
    static constexpr uint32_t HEADER_BYTES = 40;

    uint8_t dst[16];        //!< destination address (the uSID carrier on MRC's fabric)
    uint8_t src[16];        //!< source address
    uint32_t flowLabel;     //!< flow label (the EV, or the ECMP hash input)
    uint16_t payloadLength; //!< payload length, bytes
    uint8_t trafficClass;   //!< DSCP and ECN
    uint8_t hopLimit;       //!< hop limit
    uint8_t nextHeader;     //!< next header (17: UDP, the L4 protocol's number)

    MrcIpv6Fields()
        : dst{}
        , src{}
        , flowLabel(0)
        , payloadLength(0)
        , trafficClass(0)
        , hopLimit(64)
        , nextHeader(17)
    {
    }

    /**
     * The header of a frame a host sends: next header 17 (UDP, the L4 protocol's number), hop
     * limit 64.
     * @param source source address
     * @param destination destination address
     * @param label flow label
     * @param tc traffic class (DSCP and ECN)
     * @param payload payload length, bytes
     */
    MrcIpv6Fields(const Ipv6Address& source,
                  const Ipv6Address& destination,
                  uint32_t label,
                  uint8_t tc,
                  uint16_t payload)
        : MrcIpv6Fields()
    {
        SetSource(source);
        SetDestination(destination);
        flowLabel = label;
        trafficClass = tc;
        payloadLength = payload;
    }

    /** @return the destination address */
    Ipv6Address GetDestination() const
    {
        return Ipv6Address(const_cast<uint8_t*>(dst));
    }

    /** @param a the destination address */
    void SetDestination(const Ipv6Address& a)
    {
        a.GetBytes(dst);
    }

    /** @return the source address */
    Ipv6Address GetSource() const
    {
        return Ipv6Address(const_cast<uint8_t*>(src));
    }

    /** @param a the source address */
    void SetSource(const Ipv6Address& a)
    {
        a.GetBytes(src);
    }

    /** @return the traffic class (DSCP and ECN) */
    uint8_t GetTrafficClass() const
    {
        return trafficClass;
    }

    /** @param tc the traffic class */
    void SetTrafficClass(uint8_t tc)
    {
        trafficClass = tc;
    }

    /** @return the hop limit */
    uint8_t GetHopLimit() const
    {
        return hopLimit;
    }

    /** @param limit the hop limit */
    void SetHopLimit(uint8_t limit)
    {
        hopLimit = limit;
    }

    /** @return the flow label */
    uint32_t GetFlowLabel() const
    {
        return flowLabel;
    }

    /** @param label the flow label (stored as given, as Ipv6Header does) */
    void SetFlowLabel(uint32_t label)
    {
        flowLabel = label;
    }

    /** @return the payload length, bytes */
    uint16_t GetPayloadLength() const
    {
        return payloadLength;
    }

    /** @param len the payload length, bytes */
    void SetPayloadLength(uint16_t len)
    {
        payloadLength = len;
    }

    /** @return the next header */
    uint8_t GetNextHeader() const
    {
        return nextHeader;
    }

    /** @param next the next header */
    void SetNextHeader(uint8_t next)
    {
        nextHeader = next;
    }
};

} // namespace ns3

#endif /* MRC_IPV6_FIELDS_H */
