/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PACKET_PREFETCH_H
#define MRC_PACKET_PREFETCH_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Where an ns-3 Packet keeps its bytes and its metadata, for prefetching only.
 *
 * A packet's first bytes (the headers added last) and its metadata's storage are two separate
 * allocations behind the Packet object. A host's protocol reads the first when it takes the
 * frame's header off, and the second when the packet is freed; on a large fabric both are out
 * of the cache by the time the packet arrives, two loads that wait on the Packet object's.
 * ns-3's Packet gives no address of either, so this class reads them from Packet's private
 * members (`Packet::m_buffer`, `Buffer::m_data` and `m_start`, `Packet::m_metadata`,
 * `PacketMetadata::m_data`, the same in ns-3.37 and ns-3-dev), by the rule that access is not
 * checked in an explicit template instantiation. A renamed member fails the build, and the
 * unit test (mrc-scheduler) holds the addresses to the bytes Packet::CopyData gives and to
 * the metadata shared by a copy. Nothing is written, and a prefetch never changes a result.
 */
class MrcPacketPrefetch
{
public:
    /**
     * Start loading a packet's first bytes and its metadata storage (the Packet object's lines
     * are loaded: it reads them).
     * @param packet the packet
     * @param bytes how many of its first bytes (those held in memory), in as many cache lines
     *        as they span: a header read whole needs all of its lines
     */
    static void Insides(const Packet* packet, uint32_t bytes = 1);

    /**
     * @param packet a packet
     * @return the address of its first byte, where it is held in memory, or null if its first
     * byte is in the buffer's zero area (a packet made of a size and no headers)
     */
    static const uint8_t* FirstByte(const Packet& packet);

    /**
     * @param packet a packet
     * @return the address of its metadata's storage (shared by a packet's copies)
     */
    static const void* MetadataStorage(const Packet& packet);
};

} // namespace ns3

#endif /* MRC_PACKET_PREFETCH_H */
