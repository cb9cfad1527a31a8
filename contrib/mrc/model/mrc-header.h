/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HEADER_H
#define MRC_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The MRC transport header: a UDP header followed by a fixed 68-byte MRC header.
 *
 * Wire format (network byte order), the IPv6 payload of every MRC packet:
 *
 *     0        8      UDP: source port = 0xC000 | EV (the entropy value), destination port
 *                     4793, length, checksum 0
 *     8        1      opcode (Opcode)
 *     9        1      flags (Flags)
 *    10        2      EV: the sender's EV slot (data, probe) or the reflected one (ACK, NACK)
 *    12        4      destination QPN
 *    16        4      source QPN
 *    20        4      PSN (data, probe: this packet's; ACK, NACK: the PSN that triggered it)
 *    24        4      cumulative ACK: every PSN below it was received (ACK); immediate
 *                     data (data packets of a Write-with-Immediate)
 *    28        4      SACK base: bit i of the bitmap is PSN base + i (ACK); the packet's
 *                     index within its message (data)
 *    32        8      SACK bitmap (ACK)
 *    40        8      remote offset of this packet's payload (data); the sender's port-status
 *                     bitmap, bit p = plane p up (ACK, NACK, PROBE_ACK)
 *    48        4      message sequence number (data)
 *    52        4      message length (data)
 *    56        8      timestamp (data, probe: send time in ns; ACK, NACK: echoed)
 *    64        4      bytes received so far by the QP (ACK: congestion state)
 *    68        1      NACK reason (NackReason)
 *    69        1      plane the packet was sent on
 *    70        2      path index within the plane (the receiver answers on the reverse path)
 *    72        2      payload length (data)
 *    74        2      reserved
 *
 * so a trimmed packet keeps exactly GetSerializedSize() = 76 bytes of IPv6 payload. The IPv6 flow
 * label carries a 20-bit hash of (QPN, peer, EV), as RoCEv2's UDP source port does, so
 * that an ECMP fabric spreads queue pairs and EVs; SRv6 shifting erases the path, the EV in
 * this header survives.
 */
class MrcHeader : public Header
{
public:
    /** Packet kinds. */
    enum Opcode : uint8_t
    {
        WRITE = 0,     //!< RDMA Write data
        WRITE_IMM = 1, //!< RDMA Write-with-Immediate data
        ACK = 2,       //!< SACK
        NACK = 3,      //!< negative acknowledgement
        PROBE = 4,     //!< path probe
        PROBE_ACK = 5  //!< probe answer
    };

    /** Flag bits. */
    enum Flags : uint8_t
    {
        FLAG_LAST = 1,     //!< last packet of its message
        FLAG_RETX = 2,     //!< retransmission
        FLAG_ECN_ECHO = 4, //!< ACK: the triggering packet arrived CE-marked
        FLAG_ACK_REQ = 8   //!< data: the receiver should acknowledge at once
    };

    /** NACK reasons. */
    enum NackReason : uint8_t
    {
        NACK_NONE = 0,             //!< not a NACK
        NACK_TRIMMED = 1,          //!< trimmed mid-fabric
        NACK_TRIMMED_LAST_HOP = 2, //!< trimmed on the last hop (incast)
        NACK_OUT_OF_WINDOW = 3,    //!< PSN outside the receive window
        NACK_SEQUENCE_ERROR = 4    //!< go-back-N: expected PSN not received (psn = expected)
    };

    /** UDP destination port of MRC packets. */
    static constexpr uint16_t UDP_PORT = 4793;
    /** Serialized size in bytes. */
    static constexpr uint32_t SIZE = 76;

    MrcHeader();
    /** @return the TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint8_t opcode;      //!< Opcode
    uint8_t flags;       //!< Flags
    uint16_t ev;         //!< EV slot (sent or reflected)
    uint32_t dstQpn;     //!< destination QPN
    uint32_t srcQpn;     //!< source QPN
    uint32_t psn;        //!< PSN
    uint32_t cumAck;     //!< cumulative ACK
    uint32_t sackBase;   //!< SACK bitmap base PSN
    uint64_t sackBitmap; //!< SACK bitmap
    uint64_t offset;     //!< remote offset
    uint32_t msn;        //!< message sequence number
    uint32_t msgLen;     //!< message length or immediate
    uint64_t timestamp;  //!< send time (ns) or echo
    uint32_t recvBytes;  //!< bytes received (ACK)
    uint8_t nackReason;  //!< NackReason
    uint8_t plane;       //!< plane used
    uint16_t path;       //!< path index within the plane
    uint16_t payloadLen; //!< payload bytes (data)
};

} // namespace ns3

#endif /* MRC_HEADER_H */
