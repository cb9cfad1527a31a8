/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FRAME_H
#define MRC_FRAME_H

#include "ns3/packet.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A frame's packet on its way through the fabric: owns one reference to it and moves
 * from queue to wire to queue without touching it.
 *
 * A switch forwards a frame by its MrcIpv6Fields alone; the packet object (its reference count,
 * its buffer) is not needed until the frame reaches a host. But every copy of a `Ptr<Packet>`
 * writes the packet's reference count, and in a large fabric a packet that waited in a queue
 * is out of the cache: in ns-3.37, whose `Ptr` has no move operations, that first touch per hop
 * was the costliest instruction of a 1024-host run. MrcFrame moves the reference instead (the
 * moved-from frame is empty), so a frame crosses ports, channels and switches without one
 * access to the packet. Frame sizes come from MrcIpv6Fields::payloadLength, which the entry
 * points (MrcNetDevice::SendFrame and MrcTrimmingQueue::Enqueue with a `Ptr<Packet>`) set from
 * the packet.
 */
class MrcFrame
{
public:
    /** An empty frame. */
    MrcFrame()
        : m_packet(nullptr)
    {
    }

    /**
     * Take a new reference to a packet.
     * @param packet the packet (may be null)
     */
    explicit MrcFrame(const Ptr<Packet>& packet)
        : m_packet(PeekPointer(packet))
    {
        if (m_packet != nullptr)
        {
            m_packet->Ref();
        }
    }

    /**
     * Move: the reference passes over, the other frame is left empty.
     * @param o the other frame
     */
    MrcFrame(MrcFrame&& o) noexcept
        : m_packet(o.m_packet)
    {
        o.m_packet = nullptr;
    }

    /**
     * Move-assign: drop this frame's reference, take the other's.
     * @param o the other frame
     * @return this frame
     */
    MrcFrame& operator=(MrcFrame&& o) noexcept
    {
        if (this != &o)
        {
            Reset();
            m_packet = o.m_packet;
            o.m_packet = nullptr;
        }
        return *this;
    }

    /**
     * Take the other frame's reference into this frame, which must be empty, without reading
     * this frame: filling a queue slot that has been out of the cache is then only a store,
     * which the processor does not wait for (a move-assignment first loads the slot to drop
     * its reference).
     * @param o the other frame (left empty)
     */
    void FillEmpty(MrcFrame&& o) noexcept
    {
        NS_ASSERT_MSG(m_packet == nullptr, "MrcFrame::FillEmpty: the frame holds a packet");
        m_packet = o.m_packet;
        o.m_packet = nullptr;
    }

    MrcFrame(const MrcFrame&) = delete;
    MrcFrame& operator=(const MrcFrame&) = delete;

    ~MrcFrame()
    {
        Reset();
    }

    /** Drop the reference (if any); the frame is empty afterwards. */
    void Reset()
    {
        if (m_packet != nullptr)
        {
            m_packet->Unref();
            m_packet = nullptr;
        }
    }

    /**
     * Hand the reference over as a Ptr; the frame is empty afterwards.
     * @return the packet
     */
    Ptr<Packet> Release()
    {
        Packet* p = m_packet;
        m_packet = nullptr;
        return Ptr<Packet>(p, false);
    }

    /**
     * @return the packet, without a reference of its own (for trace sources and inspection)
     */
    Packet* Peek() const
    {
        return m_packet;
    }

private:
    Packet* m_packet; //!< the owned reference, or null
};

} // namespace ns3

#endif /* MRC_FRAME_H */
