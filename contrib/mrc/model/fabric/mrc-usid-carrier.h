/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_USID_CARRIER_H
#define MRC_USID_CARRIER_H

#include "ns3/ipv6-address.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An SRv6 micro-SID (uSID) carrier: an IPv6 destination address holding a locator block
 * followed by a list of 16-bit uSIDs (RFC 9800).
 *
 * With the default 32-bit block (e.g. fcbb:bbbb::/32) an address holds up to six uSIDs. The first
 * uSID after the block is the *active* one; a 0000 uSID ends the carrier. A node whose own uSID is
 * active performs "shift and forward": the uSIDs after the active one move left by 16 bits and
 * the freed low 16 bits become 0000. For example
 * `fcbb:bbbb:1:1001:2:b001:fe09::` becomes `fcbb:bbbb:1001:2:b001:fe09::`.
 *
 * The static functions work on raw 16-byte addresses for the switch's per-packet path.
 */
class MrcUsidCarrier
{
public:
    /** A carrier with an all-zero address and a 32-bit block. */
    MrcUsidCarrier();

    /**
     * Build a carrier.
     * @param block the locator block (only its first blockBits bits are used)
     * @param blockBits block length in bits: 16, 32, 48, 64, 80 or 96
     * @param usids the uSID list, active first; at most (128 - blockBits) / 16 entries, none zero
     */
    MrcUsidCarrier(Ipv6Address block, uint8_t blockBits, const std::vector<uint16_t>& usids);

    /**
     * Read a carrier from an address.
     * @param address the address
     * @param blockBits block length in bits
     * @return the carrier
     */
    static MrcUsidCarrier FromAddress(Ipv6Address address, uint8_t blockBits);

    /** @return true if blockBits is an accepted block length */
    static bool IsValidBlockBits(uint32_t blockBits);

    /** @return the address */
    Ipv6Address GetAddress() const;
    /** @return the block length in bits */
    uint8_t GetBlockBits() const;
    /** @return how many uSIDs fit after the block */
    uint8_t GetCapacity() const;
    /** @return the active uSID (0 at the end of the carrier) */
    uint16_t GetActive() const;
    /** @return the uSIDs from the active one to the end of the carrier */
    std::vector<uint16_t> GetUsids() const;
    /** Shift and forward: drop the active uSID. */
    void Shift();
    /** @return true when no uSID is left */
    bool IsEnd() const;

    /**
     * @param addr 16 address bytes
     * @param blockBytes block length in bytes
     * @return the active uSID
     */
    static uint16_t ActiveOf(const uint8_t* addr, uint32_t blockBytes)
    {
        return static_cast<uint16_t>((addr[blockBytes] << 8) | addr[blockBytes + 1]);
    }

    /**
     * Shift and forward on raw address bytes.
     * @param addr 16 address bytes, modified in place
     * @param blockBytes block length in bytes
     */
    static void ShiftBytes(uint8_t* addr, uint32_t blockBytes);

    /**
     * @param other another carrier
     * @return true if both have the same address and block length
     */
    bool operator==(const MrcUsidCarrier& other) const;

private:
    uint8_t m_bytes[16]; //!< address bytes, network order
    uint8_t m_blockBits; //!< locator block length in bits
};

/**
 * @param os output stream
 * @param c carrier
 * @return the stream
 */
std::ostream& operator<<(std::ostream& os, const MrcUsidCarrier& c);

} // namespace ns3

#endif /* MRC_USID_CARRIER_H */
