/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DSCP_H
#define MRC_DSCP_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Traffic classes carried in the IPv6 Traffic Class field (DSCP in the upper six bits,
 * ECN in the lower two).
 *
 * Switches queue DATA in the data class and everything else in the strict-priority control class.
 * A switch that trims a data packet rewrites its DSCP to TRIMMED (mid-fabric) or TRIMMED_LAST_HOP
 * (on a host-facing port), as UEC switches do, so receivers can tell the two apart without any
 * extra header field.
 */
class MrcDscp
{
public:
    static constexpr uint8_t DATA = 10;             //!< Data packets (AF11), trimmable
    static constexpr uint8_t CONTROL = 46;          //!< ACK, SACK, NACK, probes (EF)
    static constexpr uint8_t TRIMMED = 12;          //!< Header of a packet trimmed mid-fabric
    static constexpr uint8_t TRIMMED_LAST_HOP = 14; //!< Header of a packet trimmed on the last hop

    static constexpr uint8_t ECN_NOT_ECT = 0; //!< ECN field: not ECN-capable
    static constexpr uint8_t ECN_ECT1 = 1;    //!< ECN field: ECT(1)
    static constexpr uint8_t ECN_ECT0 = 2;    //!< ECN field: ECT(0)
    static constexpr uint8_t ECN_CE = 3;      //!< ECN field: congestion experienced

    /**
     * @param dscp DSCP value
     * @param ecn ECN codepoint
     * @return the Traffic Class octet
     */
    static constexpr uint8_t TrafficClass(uint8_t dscp, uint8_t ecn)
    {
        return static_cast<uint8_t>((dscp << 2) | (ecn & 3));
    }

    /**
     * @param tc Traffic Class octet
     * @return its DSCP
     */
    static constexpr uint8_t Dscp(uint8_t tc)
    {
        return tc >> 2;
    }

    /**
     * @param tc Traffic Class octet
     * @return its ECN codepoint
     */
    static constexpr uint8_t Ecn(uint8_t tc)
    {
        return tc & 3;
    }
};

} // namespace ns3

#endif /* MRC_DSCP_H */
