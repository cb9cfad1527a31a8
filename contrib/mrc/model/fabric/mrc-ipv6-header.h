/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_HEADER_H
#define MRC_IPV6_HEADER_H

#include "ns3/mrc-ipv6-fields.h"

#include "ns3/header.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The IPv6 fixed header (RFC 8200) as a packet header, written from MrcIpv6Fields.
 *
 * A frame crosses the fabric with its IPv6 fields beside the packet (MrcIpv6Fields); this
 * header puts them on the wire where a whole IPv6 packet is wanted: the Sniffer trace (pcap),
 * the receive callback of a port with no MrcFrameReceiver, and MrcNetDevice::Send, which takes a
 * packet that starts with an IPv6 header. Its 40 bytes are those ns3::Ipv6Header writes for the
 * same fields, so a program that links the internet module may read them with
 * `PeekHeader(Ipv6Header)`; the MRC module itself does not need that module.
 */
class MrcIpv6Header : public Header
{
public:
    /** Serialized size in bytes. */
    static constexpr uint32_t SIZE = MrcIpv6Fields::HEADER_BYTES;

    /** A header of default fields (MrcIpv6Fields()). */
    MrcIpv6Header();

    /** @param fields the fields to write */
    explicit MrcIpv6Header(const MrcIpv6Fields& fields);

    /** @return the fields */
    const MrcIpv6Fields& GetFields() const;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Reads the fields; the flow label keeps its 20 bits.
     * @param start where the header starts
     * @return SIZE, or 0 (fields unchanged) if the version nibble is not 6
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

private:
    MrcIpv6Fields m_fields; //!< the fields
};

} // namespace ns3

#endif /* MRC_IPV6_HEADER_H */
