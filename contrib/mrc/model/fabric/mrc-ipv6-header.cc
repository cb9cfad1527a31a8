/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ipv6-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6Header);

namespace
{
/** The flow label field's bits (RFC 8200, section 3). */
constexpr uint32_t FLOW_LABEL_MASK = 0xfffff;
} // namespace

MrcIpv6Header::MrcIpv6Header()
    : m_fields()
{
}

MrcIpv6Header::MrcIpv6Header(const MrcIpv6Fields& fields)
    : m_fields(fields)
{
}

const MrcIpv6Fields&
MrcIpv6Header::GetFields() const
{
    return m_fields;
}

TypeId
MrcIpv6Header::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcIpv6Header")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcIpv6Header>();
    return tid;
}

TypeId
MrcIpv6Header::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
MrcIpv6Header::Print(std::ostream& os) const
{
    os << "IPv6 tc=0x" << std::hex << unsigned(m_fields.trafficClass) << " label=0x"
       << (m_fields.flowLabel & FLOW_LABEL_MASK) << std::dec << " length=" << m_fields.payloadLength
       << " next=" << unsigned(m_fields.nextHeader) << " hops=" << unsigned(m_fields.hopLimit)
       << " " << m_fields.GetSource() << " > " << m_fields.GetDestination();
}

uint32_t
MrcIpv6Header::GetSerializedSize() const
{
    return SIZE;
}

void
MrcIpv6Header::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((6U << 28) | (uint32_t(m_fields.trafficClass) << 20)
                       | (m_fields.flowLabel & FLOW_LABEL_MASK));
    start.WriteHtonU16(m_fields.payloadLength);
    start.WriteU8(m_fields.nextHeader);
    start.WriteU8(m_fields.hopLimit);
    start.Write(m_fields.src, sizeof(m_fields.src));
    start.Write(m_fields.dst, sizeof(m_fields.dst));
}

uint32_t
MrcIpv6Header::Deserialize(Buffer::Iterator start)
{
    const uint32_t first = start.ReadNtohU32();
    if ((first >> 28) != 6)
    {
        return 0;
    }
    m_fields.trafficClass = static_cast<uint8_t>(first >> 20);
    m_fields.flowLabel = first & FLOW_LABEL_MASK;
    m_fields.payloadLength = start.ReadNtohU16();
    m_fields.nextHeader = start.ReadU8();
    m_fields.hopLimit = start.ReadU8();
    start.Read(m_fields.src, sizeof(m_fields.src));
    start.Read(m_fields.dst, sizeof(m_fields.dst));
    return SIZE;
}

} // namespace ns3
