/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-frame.h"

#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-packet-prefetch.h"

#include <algorithm>

namespace ns3
{

void
MrcFrame::TrimTo(uint32_t size)
{
    if (m_bits & COMPACT)
    {
        Body* b = GetBody();
        b->size = std::min(b->size, size);
    }
    else if (Packet* p = GetPacketObject(); p != nullptr && p->GetSize() > size)
    {
        p->RemoveAtEnd(p->GetSize() - size);
    }
}

Packet*
MrcFrame::MakePacket()
{
    Body* b = GetBody();
    Ptr<Packet> p;
    if (b->size >= MrcHeader::SIZE)
    {
        MrcHeader h;
        h.Parse(b->bytes);
        p = Create<Packet>(b->size - MrcHeader::SIZE);
        p->AddHeader(h);
    }
    else
    {
        p = Create<Packet>(b->bytes, b->size); // trimmed into the header: its first bytes
    }
    delete b;
    Packet* raw = PeekPointer(p);
    raw->Ref(); // the frame's own reference; p's goes with p
    m_bits = reinterpret_cast<uintptr_t>(raw);
    return raw;
}

const uint8_t*
MrcFrame::PeekHeaderBytes() const
{
    if (m_bits & COMPACT)
    {
        const Body* b = GetBody();
        return b->size >= MrcHeader::SIZE ? b->bytes : nullptr;
    }
    const Packet* p = GetPacketObject();
    if (p == nullptr || p->GetSize() < MrcHeader::SIZE)
    {
        return nullptr;
    }
    return MrcPacketPrefetch::FirstByte(*p);
}

void
MrcFrame::Prefetch() const
{
    if (m_bits & COMPACT)
    {
        const Body* b = GetBody();
        MrcEventPrefetch::Lines(b, b + 1);
    }
    else if (const Packet* p = GetPacketObject(); p != nullptr)
    {
        MrcEventPrefetch::Lines(p, p + 1);
    }
}

void
MrcFrame::PrefetchInsides() const
{
    if (m_bits != 0 && !(m_bits & COMPACT))
    {
        // All of the transport header's lines: a host's protocol reads it whole.
        MrcPacketPrefetch::Insides(GetPacketObject(), MrcHeader::SIZE);
    }
}

} // namespace ns3
