/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CONGESTION_OPS_H
#define MRC_CONGESTION_OPS_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Congestion control of a queue pair, pluggable like ns-3's TcpCongestionOps: a window
 * in bytes that the sender keeps its bytes in flight under.
 */
class MrcCongestionOps : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcCongestionOps();
    ~MrcCongestionOps() override;

    /**
     * A copy of this object as it is (CopyObject), for another queue pair: MrcL4Protocol makes
     * one object from its factory and forks it for each queue pair, which skips ns-3's
     * attribute construction per object (as TcpCongestionOps::Fork gives each socket a copy).
     * Forked only before use (before Init). A subclass forks by overriding this (MrcForkAs);
     * the default, null, has the protocol make each object from the factory.
     * @return the copy, or null
     */
    virtual Ptr<MrcCongestionOps> Fork() const;

    /**
     * Called once when the queue pair is connected.
     * @param bdp bandwidth-delay product of the connection (NIC rate x base RTT), bytes
     * @param baseRtt base round-trip time
     * @param mss payload bytes per packet
     */
    virtual void Init(uint32_t bdp, Time baseRtt, uint32_t mss);
    /** @return the window in bytes */
    virtual uint32_t GetCwnd() const = 0;
    /**
     * Bytes were acknowledged.
     * @param bytes newly acknowledged bytes
     * @param rtt round-trip time sample (zero if none)
     * @param ecn the ACK echoed an ECN mark
     */
    virtual void OnAck(uint32_t bytes, Time rtt, bool ecn) = 0;
    /**
     * A NACK reported a trimmed packet.
     * @param bytes its payload bytes
     * @param lastHop trimmed on the last hop
     */
    virtual void OnNack(uint32_t bytes, bool lastHop) = 0;
    /** A retransmission timeout fired. */
    virtual void OnTimeout() = 0;
    /**
     * A congestion notification packet (CNP) arrived: the receiver saw ECN marks (RoCEv2's
     * notification point sends at most one per CnpInterval). The default treats it as an ECN
     * echo carried by an ACK of no bytes.
     */
    virtual void OnCnp();
    /**
     * A data packet left (the byte counter of rate-based algorithms).
     * @param bytes its payload bytes
     */
    virtual void OnSent(uint32_t bytes);
    /** @return a short name */
    virtual std::string GetName() const = 0;
    /**
     * @return the pacing rate in bit/s for rate-based algorithms (DCQCN), or 0 when the window
     * alone limits the sender
     */
    virtual uint64_t GetPacingRate() const;
    /**
     * Be told when the pacing rate goes up (a rate-based algorithm's increase), so that a
     * sender paced at the old rate can leave earlier, as a NIC's rate limiter does.
     * @param cb the callback (the queue pair's)
     */
    void SetRateIncreaseCallback(Callback<void> cb);

protected:
    void DoDispose() override;
    /** For subclasses: the pacing rate went up. */
    void NotifyRateIncrease();

private:
    Callback<void> m_rateIncrease; //!< SetRateIncreaseCallback
};

} // namespace ns3

#endif /* MRC_CONGESTION_OPS_H */
