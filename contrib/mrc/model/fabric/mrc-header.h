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
 * @defgroup mrc MRC (Multipath Reliable Connection)
 *
 * The MRC module: the MRC transport (queue pairs spraying packets over entropy values across
 * network planes, per-path state, SACK/NACK selective retransmission, NSCC), SRv6 uSID switches
 * with static tables and trimming queues, multi-plane Clos fabrics, the routed RoCE baseline as
 * deployed (PFC, resilient ECMP, DCQCN, InfiniBand timeouts), fault injection, training
 * workloads and a recorder. See the module documentation (doc/mrc.rst and its topic pages; the
 * wire format is in doc/mrc-transport.rst).
 */

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
        PROBE_ACK = 5, //!< probe answer
        CNP = 6        //!< congestion notification (RoCEv2 notification point)
    };

    /** Flag bits. */
    enum Flags : uint8_t
    {
        FLAG_LAST = 1,      //!< last packet of its message
        FLAG_RETX = 2,      //!< retransmission
        FLAG_ECN_ECHO = 4,  //!< ACK: the triggering packet arrived CE-marked
        FLAG_ACK_REQ = 8,   //!< data: the receiver should acknowledge at once
        FLAG_DUPLICATE = 16 //!< ACK: the triggering PSN had arrived before (a D-SACK, RFC 2883)
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
    /** PSNs one SACK bitmap reports, from its base. */
    static constexpr uint32_t SACK_BITS = 64;
    /** Serialized size in bytes. */
    static constexpr uint32_t SIZE = 76;
    /** Where the destination QPN sits in the serialized header (after UDP's 8 bytes, the
     * opcode, the flags and the entropy value) */
    static constexpr uint32_t DST_QPN_OFFSET = 12;
    /** Where the opcode sits in the serialized header (after UDP's 8 bytes) */
    static constexpr uint32_t OPCODE_OFFSET = 8;
    /** Where the PSN sits in the serialized header (after the source QPN) */
    static constexpr uint32_t PSN_OFFSET = 20;
    /** Where the MSN sits in the serialized header (after the offset) */
    static constexpr uint32_t MSN_OFFSET = 48;

    /**
     * The destination QPN of a serialized header, read from its bytes (for prefetching the
     * queue pair before the header is deserialized).
     * @param bytes the header's first SIZE bytes, as Serialize wrote them
     * @return what GetDstQpn gives once the header is deserialized
     */
    static uint32_t PeekDstQpn(const uint8_t* bytes)
    {
        return PeekU32(bytes + DST_QPN_OFFSET);
    }

    /**
     * The opcode of a serialized header, read from its bytes (for prefetching).
     * @param bytes the header's first SIZE bytes, as Serialize wrote them
     * @return what GetOpcode gives once the header is deserialized
     */
    static uint8_t PeekOpcode(const uint8_t* bytes)
    {
        return bytes[OPCODE_OFFSET];
    }

    /**
     * The PSN of a serialized header, read from its bytes (for prefetching).
     * @param bytes the header's first SIZE bytes, as Serialize wrote them
     * @return what GetPsn gives once the header is deserialized
     */
    static uint32_t PeekPsn(const uint8_t* bytes)
    {
        return PeekU32(bytes + PSN_OFFSET);
    }

    /**
     * The MSN of a serialized header, read from its bytes (for prefetching).
     * @param bytes the header's first SIZE bytes, as Serialize wrote them
     * @return what GetMsn gives once the header is deserialized
     */
    static uint32_t PeekMsn(const uint8_t* bytes)
    {
        return PeekU32(bytes + MSN_OFFSET);
    }

    MrcHeader();
    /** @return the TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Set every field from a serialized header's bytes: what Deserialize reads, without
     * Buffer::Iterator's checks per field (a receiving host copies the header's bytes out of
     * the packet once, with Packet::CopyData, and parses them here).
     * @param bytes the header's first SIZE bytes, as Serialize wrote them
     */
    void Parse(const uint8_t* bytes);

    /**
     * Write the header's SIZE bytes, as Serialize does, into plain memory (a frame that carries
     * its header without an ns-3 Packet: MrcFrame::FromHeader).
     * @param bytes where to write SIZE bytes
     */
    void Write(uint8_t* bytes) const;

    /** @return the Opcode */
    uint8_t GetOpcode() const
    {
        return m_opcode;
    }

    /** @param v the Opcode */
    void SetOpcode(uint8_t v)
    {
        m_opcode = v;
    }

    /** @return the Flags bits */
    uint8_t GetFlags() const
    {
        return m_flags;
    }

    /** @param v the Flags bits */
    void SetFlags(uint8_t v)
    {
        m_flags = v;
    }

    /** @return the EV slot (sent or reflected) */
    uint16_t GetEv() const
    {
        return m_ev;
    }

    /** @param v the EV slot (sent or reflected) */
    void SetEv(uint16_t v)
    {
        m_ev = v;
    }

    /** @return the destination QPN */
    uint32_t GetDstQpn() const
    {
        return m_dstQpn;
    }

    /** @param v the destination QPN */
    void SetDstQpn(uint32_t v)
    {
        m_dstQpn = v;
    }

    /** @return the source QPN */
    uint32_t GetSrcQpn() const
    {
        return m_srcQpn;
    }

    /** @param v the source QPN */
    void SetSrcQpn(uint32_t v)
    {
        m_srcQpn = v;
    }

    /** @return the PSN */
    uint32_t GetPsn() const
    {
        return m_psn;
    }

    /** @param v the PSN */
    void SetPsn(uint32_t v)
    {
        m_psn = v;
    }

    /** @return the cumulative ACK (ACK) */
    uint32_t GetCumAck() const
    {
        return m_cumAck;
    }

    /** @param v the cumulative ACK (ACK) */
    void SetCumAck(uint32_t v)
    {
        m_cumAck = v;
    }

    /**
     * @return the immediate value (data packets of a Write-with-Immediate; 0 for a plain Write),
     * carried in the cumulative ACK field
     */
    uint32_t GetImmediate() const
    {
        return m_cumAck;
    }

    /** @param v the immediate value (data packets), carried in the cumulative ACK field */
    void SetImmediate(uint32_t v)
    {
        m_cumAck = v;
    }

    /** @return the SACK bitmap base PSN (ACK) */
    uint32_t GetSackBase() const
    {
        return m_sackBase;
    }

    /** @param v the SACK bitmap base PSN (ACK) */
    void SetSackBase(uint32_t v)
    {
        m_sackBase = v;
    }

    /** @return the packet's index in its message (data packets), carried in the SACK base field */
    uint32_t GetPacketIndex() const
    {
        return m_sackBase;
    }

    /** @param v the packet's index in its message (data packets), in the SACK base field */
    void SetPacketIndex(uint32_t v)
    {
        m_sackBase = v;
    }

    /** @return the SACK bitmap */
    uint64_t GetSackBitmap() const
    {
        return m_sackBitmap;
    }

    /** @param v the SACK bitmap */
    void SetSackBitmap(uint64_t v)
    {
        m_sackBitmap = v;
    }

    /** @return the remote offset (data packets) */
    uint64_t GetOffset() const
    {
        return m_offset;
    }

    /** @param v the remote offset (data packets) */
    void SetOffset(uint64_t v)
    {
        m_offset = v;
    }

    /**
     * @return the sender's port-status bitmap (ACK, NACK, PROBE_ACK: bit p set when its NIC
     * port p is up; 0 when not set), carried in the offset field
     */
    uint64_t GetPortStatus() const
    {
        return m_offset;
    }

    /** @param v the sender's port-status bitmap (control packets), carried in the offset field */
    void SetPortStatus(uint64_t v)
    {
        m_offset = v;
    }

    /** @return the message sequence number */
    uint32_t GetMsn() const
    {
        return m_msn;
    }

    /** @param v the message sequence number */
    void SetMsn(uint32_t v)
    {
        m_msn = v;
    }

    /** @return the message length */
    uint32_t GetMsgLen() const
    {
        return m_msgLen;
    }

    /** @param v the message length */
    void SetMsgLen(uint32_t v)
    {
        m_msgLen = v;
    }

    /** @return the send time in ns (data, probe) or its echo */
    uint64_t GetTimestamp() const
    {
        return m_timestamp;
    }

    /** @param v the send time in ns (data, probe) or its echo */
    void SetTimestamp(uint64_t v)
    {
        m_timestamp = v;
    }

    /** @return the bytes received so far (ACK) */
    uint32_t GetRecvBytes() const
    {
        return m_recvBytes;
    }

    /** @param v the bytes received so far (ACK) */
    void SetRecvBytes(uint32_t v)
    {
        m_recvBytes = v;
    }

    /** @return the NackReason */
    uint8_t GetNackReason() const
    {
        return m_nackReason;
    }

    /** @param v the NackReason */
    void SetNackReason(uint8_t v)
    {
        m_nackReason = v;
    }

    /** @return the plane used */
    uint8_t GetPlane() const
    {
        return m_plane;
    }

    /** @param v the plane used */
    void SetPlane(uint8_t v)
    {
        m_plane = v;
    }

    /** @return the path index within the plane */
    uint16_t GetPath() const
    {
        return m_path;
    }

    /** @param v the path index within the plane */
    void SetPath(uint16_t v)
    {
        m_path = v;
    }

    /** @return the payload bytes (data) */
    uint16_t GetPayloadLen() const
    {
        return m_payloadLen;
    }

    /** @param v the payload bytes (data) */
    void SetPayloadLen(uint16_t v)
    {
        m_payloadLen = v;
    }

private:
    /**
     * A big-endian 32-bit field of a serialized header.
     * @param b its first byte
     * @return the value
     */
    static uint32_t PeekU32(const uint8_t* b)
    {
        return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
    }

    /**
     * A big-endian 16-bit field of a serialized header.
     * @param b its first byte
     * @return the value
     */
    static uint16_t PeekU16(const uint8_t* b)
    {
        return static_cast<uint16_t>((b[0] << 8) | b[1]);
    }

    /**
     * A big-endian 64-bit field of a serialized header.
     * @param b its first byte
     * @return the value
     */
    static uint64_t PeekU64(const uint8_t* b)
    {
        return (uint64_t(PeekU32(b)) << 32) | PeekU32(b + 4);
    }

    uint8_t m_opcode;      //!< the Opcode
    uint8_t m_flags;       //!< the Flags bits
    uint16_t m_ev;         //!< the EV slot (sent or reflected)
    uint32_t m_dstQpn;     //!< the destination QPN
    uint32_t m_srcQpn;     //!< the source QPN
    uint32_t m_psn;        //!< the PSN
    uint32_t m_cumAck;     //!< the cumulative ACK (ACK) or immediate data (data)
    uint32_t m_sackBase;   //!< the SACK bitmap base PSN (ACK) or packet index in the message (data)
    uint64_t m_sackBitmap; //!< the SACK bitmap
    uint64_t m_offset;    //!< the remote offset (data) or port-status bitmap (ACK, NACK, PROBE_ACK)
    uint32_t m_msn;       //!< the message sequence number
    uint32_t m_msgLen;    //!< the message length
    uint64_t m_timestamp; //!< the send time in ns (data, probe) or its echo
    uint32_t m_recvBytes; //!< the bytes received so far (ACK)
    uint8_t m_nackReason; //!< the NackReason
    uint8_t m_plane;      //!< the plane used
    uint16_t m_path;      //!< the path index within the plane
    uint16_t m_payloadLen; //!< the payload bytes (data)
};

} // namespace ns3

#endif /* MRC_HEADER_H */
