/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcHeader);

MrcHeader::MrcHeader()
    : m_opcode(WRITE)
    , m_flags(0)
    , m_ev(0)
    , m_dstQpn(0)
    , m_srcQpn(0)
    , m_psn(0)
    , m_cumAck(0)
    , m_sackBase(0)
    , m_sackBitmap(0)
    , m_offset(0)
    , m_msn(0)
    , m_msgLen(0)
    , m_timestamp(0)
    , m_recvBytes(0)
    , m_nackReason(NACK_NONE)
    , m_plane(0)
    , m_path(0)
    , m_payloadLen(0)
{
}

TypeId
MrcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcHeader>();
    return tid;
}

TypeId
MrcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
MrcHeader::Print(std::ostream& os) const
{
    static const char* names[] = {"WRITE", "WRITE_IMM", "ACK", "NACK", "PROBE", "PROBE_ACK", "CNP"};
    os << (m_opcode < 7 ? names[m_opcode] : "?") << " m_ev=" << m_ev << " qpn=" << m_srcQpn << "->"
       << m_dstQpn << " m_psn=" << m_psn;
    if (m_opcode == ACK)
    {
        os << " cum=" << m_cumAck << " sack=" << m_sackBase << "/" << std::hex << m_sackBitmap
           << std::dec;
    }
    else if (m_opcode == NACK)
    {
        os << " reason=" << unsigned(m_nackReason);
    }
    else
    {
        os << " m_msn=" << m_msn << " off=" << m_offset << " len=" << m_payloadLen;
    }
    os << " m_flags=" << unsigned(m_flags);
}

uint32_t
MrcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcHeader::Serialize(Buffer::Iterator i) const
{
    // Encoded by Write and written with one copy: Buffer::Iterator's WriteHtonU64 goes byte by
    // byte through checks.
    uint8_t b[SIZE];
    Write(b);
    i.Write(b, SIZE);
}

void
MrcHeader::Write(uint8_t* b) const
{
    uint8_t* p = b;
    auto put8 = [&p](uint8_t v)
    {
        *p++ = v;
    };
    auto put16 = [&p](uint16_t v)
    {
        *p++ = static_cast<uint8_t>(v >> 8);
        *p++ = static_cast<uint8_t>(v);
    };
    auto put32 = [&p](uint32_t v)
    {
        for (int shift = 24; shift >= 0; shift -= 8)
        {
            *p++ = static_cast<uint8_t>(v >> shift);
        }
    };
    auto put64 = [&p](uint64_t v)
    {
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            *p++ = static_cast<uint8_t>(v >> shift);
        }
    };
    // UDP
    put16(static_cast<uint16_t>(0xC000 | (m_ev & 0x3fff)));
    put16(UDP_PORT);
    put16(static_cast<uint16_t>(SIZE + m_payloadLen));
    put16(0);
    // MRC
    put8(m_opcode);
    put8(m_flags);
    put16(m_ev);
    put32(m_dstQpn);
    put32(m_srcQpn);
    put32(m_psn);
    put32(m_cumAck);
    put32(m_sackBase);
    put64(m_sackBitmap);
    put64(m_offset);
    put32(m_msn);
    put32(m_msgLen);
    put64(m_timestamp);
    put32(m_recvBytes);
    put8(m_nackReason);
    put8(m_plane);
    put16(m_path);
    put16(m_payloadLen);
    put16(0);
    NS_ASSERT(p == b + SIZE);
}

uint32_t
MrcHeader::Deserialize(Buffer::Iterator i)
{
    uint8_t b[SIZE];
    i.Read(b, SIZE);
    Parse(b);
    return SIZE;
}

void
MrcHeader::Parse(const uint8_t* b)
{
    // Offsets as Serialize writes them; UDP's 8 bytes first.
    m_opcode = b[OPCODE_OFFSET];
    m_flags = b[9];
    m_ev = PeekU16(b + 10);
    m_dstQpn = PeekU32(b + DST_QPN_OFFSET);
    m_srcQpn = PeekU32(b + 16);
    m_psn = PeekU32(b + PSN_OFFSET);
    m_cumAck = PeekU32(b + 24);
    m_sackBase = PeekU32(b + 28);
    m_sackBitmap = PeekU64(b + 32);
    m_offset = PeekU64(b + 40);
    m_msn = PeekU32(b + MSN_OFFSET);
    m_msgLen = PeekU32(b + 52);
    m_timestamp = PeekU64(b + 56);
    m_recvBytes = PeekU32(b + 64);
    m_nackReason = b[68];
    m_plane = b[69];
    m_path = PeekU16(b + 70);
    m_payloadLen = PeekU16(b + 72);
}

} // namespace ns3
