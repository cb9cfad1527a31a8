/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcHeader);

MrcHeader::MrcHeader()
    : opcode(WRITE)
    , flags(0)
    , ev(0)
    , dstQpn(0)
    , srcQpn(0)
    , psn(0)
    , cumAck(0)
    , sackBase(0)
    , sackBitmap(0)
    , offset(0)
    , msn(0)
    , msgLen(0)
    , timestamp(0)
    , recvBytes(0)
    , nackReason(NACK_NONE)
    , plane(0)
    , path(0)
    , payloadLen(0)
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
    static const char* names[] = {"WRITE", "WRITE_IMM", "ACK", "NACK", "PROBE", "PROBE_ACK"};
    os << (opcode < 6 ? names[opcode] : "?") << " ev=" << ev << " qpn=" << srcQpn << "->" << dstQpn
       << " psn=" << psn;
    if (opcode == ACK)
    {
        os << " cum=" << cumAck << " sack=" << sackBase << "/" << std::hex << sackBitmap
           << std::dec;
    }
    else if (opcode == NACK)
    {
        os << " reason=" << unsigned(nackReason);
    }
    else
    {
        os << " msn=" << msn << " off=" << offset << " len=" << payloadLen;
    }
    os << " flags=" << unsigned(flags);
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
    i.WriteHtonU16(static_cast<uint16_t>(0xC000 | (ev & 0x3fff)));
    i.WriteHtonU16(UDP_PORT);
    i.WriteHtonU16(static_cast<uint16_t>(SIZE + payloadLen));
    i.WriteHtonU16(0);
    // MRC
    i.WriteU8(opcode);
    i.WriteU8(flags);
    i.WriteHtonU16(ev);
    i.WriteHtonU32(dstQpn);
    i.WriteHtonU32(srcQpn);
    i.WriteHtonU32(psn);
    i.WriteHtonU32(cumAck);
    i.WriteHtonU32(sackBase);
    i.WriteHtonU64(sackBitmap);
    i.WriteHtonU64(offset);
    i.WriteHtonU32(msn);
    i.WriteHtonU32(msgLen);
    i.WriteHtonU64(timestamp);
    i.WriteHtonU32(recvBytes);
    i.WriteU8(nackReason);
    i.WriteU8(plane);
    i.WriteHtonU16(path);
    i.WriteHtonU16(payloadLen);
    i.WriteHtonU16(0);
}

uint32_t
MrcHeader::Deserialize(Buffer::Iterator i)
{
    i.Next(8);
    opcode = i.ReadU8();
    flags = i.ReadU8();
    ev = i.ReadNtohU16();
    dstQpn = i.ReadNtohU32();
    srcQpn = i.ReadNtohU32();
    psn = i.ReadNtohU32();
    cumAck = i.ReadNtohU32();
    sackBase = i.ReadNtohU32();
    sackBitmap = i.ReadNtohU64();
    offset = i.ReadNtohU64();
    msn = i.ReadNtohU32();
    msgLen = i.ReadNtohU32();
    timestamp = i.ReadNtohU64();
    recvBytes = i.ReadNtohU32();
    nackReason = i.ReadU8();
    plane = i.ReadU8();
    path = i.ReadNtohU16();
    payloadLen = i.ReadNtohU16();
    i.Next(2);
    return SIZE;
}

} // namespace ns3
