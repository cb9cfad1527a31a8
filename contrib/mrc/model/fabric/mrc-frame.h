/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FRAME_H
#define MRC_FRAME_H

#include "ns3/mrc-header.h"

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A frame on its way through the fabric: the IPv6 payload, owned by the frame, moving
 * from queue to wire to queue without being touched.
 *
 * A frame holds one of two things:
 * - an ns-3 Packet (one reference to it), as any sender may give;
 * - a compact frame: an MRC header's SIZE serialized bytes and the frame's size, in one small
 *   heap block (FromHeader). MRC's queue pairs send their data packets and acknowledgements
 *   this way: their payload is never read, only its size matters, and the header is all a
 *   receiving host reads. A Packet (its object, its buffer and its metadata: three heap blocks)
 *   is made for the frame only when something asks for one: GetPacket and Release (trace
 *   sources, pcap, a receiver that takes packets, a drop whose trace is connected). From then
 *   on the frame holds that Packet, so every later trace of the frame sees the same one. The
 *   Packet made is the one the sender would have made: a payload of the frame's size less the
 *   header, with the header added (a frame trimmed shorter than the header: its bytes).
 *
 * A switch forwards a frame by its MrcIpv6Fields alone, so neither kind is touched on the way.
 * Every copy of a `Ptr<Packet>` writes the packet's reference count, and in a large fabric a
 * packet that waited in a queue is out of the cache: in ns-3.37, whose `Ptr` has no move
 * operations, that first touch per hop was the costliest instruction of a 1024-host run.
 * MrcFrame moves instead (the moved-from frame is empty). Frame sizes come from
 * MrcIpv6Fields::payloadLength, which the `Ptr<Packet>` entry points (MrcNetDevice::SendFrame
 * and MrcTrimmingQueue::Enqueue) set from the packet and MrcL4Protocol::SendFrame from the frame
 * (Debug builds assert at each queue that the two agree).
 */
class MrcFrame
{
public:
    /** An empty frame. */
    MrcFrame()
        : m_bits(0)
    {
    }

    /**
     * Take a new reference to a packet.
     * @param packet the packet (may be null)
     */
    explicit MrcFrame(const Ptr<Packet>& packet)
        : m_bits(reinterpret_cast<uintptr_t>(PeekPointer(packet)))
    {
        if (packet != nullptr)
        {
            packet->Ref();
        }
    }

    /**
     * A compact frame: the header's bytes and a payload of the given size, without a Packet.
     * @param header the MRC header
     * @param payloadBytes bytes after the header (not stored: only their number)
     * @return the frame
     */
    static MrcFrame FromHeader(const MrcHeader& header, uint32_t payloadBytes)
    {
        auto* body = new Body;
        body->size = MrcHeader::SIZE + payloadBytes;
        header.Write(body->bytes);
        MrcFrame f;
        f.m_bits = reinterpret_cast<uintptr_t>(body) | COMPACT;
        return f;
    }

    /**
     * Move: the content passes over, the other frame is left empty.
     * @param o the other frame
     */
    MrcFrame(MrcFrame&& o) noexcept
        : m_bits(o.m_bits)
    {
        o.m_bits = 0;
    }

    /**
     * Move-assign: drop this frame's content, take the other's.
     * @param o the other frame
     * @return this frame
     */
    MrcFrame& operator=(MrcFrame&& o) noexcept
    {
        if (this != &o)
        {
            Reset();
            m_bits = o.m_bits;
            o.m_bits = 0;
        }
        return *this;
    }

    /**
     * Take the other frame's content into this frame, which must be empty, without reading
     * this frame: filling a queue slot that has been out of the cache is then only a store,
     * which the processor does not wait for (a move-assignment first loads the slot to drop
     * its content).
     * @param o the other frame (left empty)
     */
    void FillEmpty(MrcFrame&& o) noexcept
    {
        NS_ASSERT_MSG(m_bits == 0, "MrcFrame::FillEmpty: the frame is not empty");
        m_bits = o.m_bits;
        o.m_bits = 0;
    }

    MrcFrame(const MrcFrame&) = delete;
    MrcFrame& operator=(const MrcFrame&) = delete;

    ~MrcFrame()
    {
        Reset();
    }

    /** Drop the content (if any); the frame is empty afterwards. */
    void Reset()
    {
        if (m_bits & COMPACT)
        {
            delete GetBody();
        }
        else if (m_bits != 0)
        {
            GetPacketObject()->Unref();
        }
        m_bits = 0;
    }

    /** @return true if the frame holds nothing */
    bool IsEmpty() const
    {
        return m_bits == 0;
    }

    /** @return true if the frame is compact (holds no Packet yet) */
    bool IsCompact() const
    {
        return (m_bits & COMPACT) != 0;
    }

    /** @return the frame's size in bytes (the IPv6 payload); 0 when empty */
    uint32_t GetSize() const
    {
        if (m_bits & COMPACT)
        {
            return GetBody()->size;
        }
        return m_bits != 0 ? GetPacketObject()->GetSize() : 0;
    }

    /**
     * Cut the frame to a size (a trimming queue keeping the transport header).
     * @param size the new size, if smaller than the frame's
     */
    void TrimTo(uint32_t size);

    /**
     * The frame's packet, made now if the frame is compact (the frame keeps it, so later calls
     * give the same packet). Without a reference of its own: for trace sources and inspection.
     * @return the packet, or null when empty
     */
    Packet* GetPacket()
    {
        return (m_bits & COMPACT) ? MakePacket() : GetPacketObject();
    }

    /**
     * Hand the content over as a Ptr (made now if the frame is compact); the frame is empty
     * afterwards.
     * @return the packet, or null when empty
     */
    Ptr<Packet> Release()
    {
        Packet* p = GetPacket();
        m_bits = 0;
        return Ptr<Packet>(p, false);
    }

    /**
     * The frame's first SIZE bytes, where they can be read without changing anything: a compact
     * frame's, or a packet's first bytes when it holds them (MrcPacketPrefetch::FirstByte).
     * @return the header's bytes, or null (empty, shorter than the header, or not at hand)
     */
    const uint8_t* PeekHeaderBytes() const;

    /**
     * Start loading what the frame is (MrcEventPrefetch): the compact frame's block, or the
     * Packet object. A hint: nothing is changed.
     */
    void Prefetch() const;

    /**
     * Start loading, one level beyond Prefetch (which ran an event earlier), the header's bytes
     * where they are behind the Packet object (MrcPacketPrefetch::Insides); a compact frame's
     * are in its block already. A hint: nothing is changed.
     */
    void PrefetchInsides() const;

private:
    /** A compact frame's block: the frame's size and the MRC header's bytes. */
    struct Body
    {
        uint32_t size;                  //!< the frame's size (header and payload)
        uint8_t bytes[MrcHeader::SIZE]; //!< the header, as MrcHeader::Write wrote it
    };

    /** Low bit of m_bits: the pointer is a Body. */
    static constexpr uintptr_t COMPACT = 1;

    /** @return the Body of a compact frame */
    Body* GetBody() const
    {
        return reinterpret_cast<Body*>(m_bits & ~COMPACT);
    }

    /** @return the Packet of a frame that holds one (or null) */
    Packet* GetPacketObject() const
    {
        return reinterpret_cast<Packet*>(m_bits);
    }

    /**
     * Make a compact frame's Packet and keep it in place of the block.
     * @return the packet
     */
    Packet* MakePacket();

    uintptr_t m_bits; //!< a Packet* holding one reference, a Body* | COMPACT, or 0
};

} // namespace ns3

#endif /* MRC_FRAME_H */
