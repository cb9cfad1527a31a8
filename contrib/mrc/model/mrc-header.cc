/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-header.h"

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
    // UDP
    i.WriteHtonU16(static_cast<uint16_t>(0xC000 | (m_ev & 0x3fff)));
    i.WriteHtonU16(UDP_PORT);
    i.WriteHtonU16(static_cast<uint16_t>(SIZE + m_payloadLen));
    i.WriteHtonU16(0);
    // MRC
    i.WriteU8(m_opcode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_ev);
    i.WriteHtonU32(m_dstQpn);
    i.WriteHtonU32(m_srcQpn);
    i.WriteHtonU32(m_psn);
    i.WriteHtonU32(m_cumAck);
    i.WriteHtonU32(m_sackBase);
    i.WriteHtonU64(m_sackBitmap);
    i.WriteHtonU64(m_offset);
    i.WriteHtonU32(m_msn);
    i.WriteHtonU32(m_msgLen);
    i.WriteHtonU64(m_timestamp);
    i.WriteHtonU32(m_recvBytes);
    i.WriteU8(m_nackReason);
    i.WriteU8(m_plane);
    i.WriteHtonU16(m_path);
    i.WriteHtonU16(m_payloadLen);
    i.WriteHtonU16(0);
}

uint32_t
MrcHeader::Deserialize(Buffer::Iterator i)
{
    i.Next(8);
    m_opcode = i.ReadU8();
    m_flags = i.ReadU8();
    m_ev = i.ReadNtohU16();
    m_dstQpn = i.ReadNtohU32();
    m_srcQpn = i.ReadNtohU32();
    m_psn = i.ReadNtohU32();
    m_cumAck = i.ReadNtohU32();
    m_sackBase = i.ReadNtohU32();
    m_sackBitmap = i.ReadNtohU64();
    m_offset = i.ReadNtohU64();
    m_msn = i.ReadNtohU32();
    m_msgLen = i.ReadNtohU32();
    m_timestamp = i.ReadNtohU64();
    m_recvBytes = i.ReadNtohU32();
    m_nackReason = i.ReadU8();
    m_plane = i.ReadU8();
    m_path = i.ReadNtohU16();
    m_payloadLen = i.ReadNtohU16();
    i.Next(2);
    return SIZE;
}

} // namespace ns3
