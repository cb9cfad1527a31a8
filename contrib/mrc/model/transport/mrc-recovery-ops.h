/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECOVERY_OPS_H
#define MRC_RECOVERY_OPS_H

#include "ns3/mrc-header.h"
#include "ns3/mrc-send-state.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

class MrcQueuePair;
class MrcPathSelector;
class MrcCongestionOps;

/**
 * @ingroup mrc
 * @brief Loss recovery of a queue pair, pluggable the way ns-3's TcpRecoveryOps is: the queue
 * pair keeps the send window and the timers in an MrcSendState it shares with its recovery,
 * and the recovery decides what every loss signal means (loss detection included).
 *
 * A recovery also fixes what the responder does (the two ends of a connection use the same
 * one): whether it accepts packets out of order and whether it understands trimming.
 * ``MrcSelectiveRecovery`` is MRC's, ``MrcGoBackNRecovery`` RoCE's; MrcL4Protocol's
 * ``LossRecovery`` attribute names one by TypeId. One object serves one queue pair, which
 * calls Init before anything else. It acts on the queue pair through its public interface
 * (MrcQueuePair::AckPsn, CompleteSends, TrySend) and on the shared state directly.
 */
class MrcRecoveryOps : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcRecoveryOps();
    ~MrcRecoveryOps() override;

    /**
     * A copy of this object as it is (CopyObject), for another queue pair: MrcL4Protocol makes
     * one object from its factory and forks it for each queue pair, which skips ns-3's
     * attribute construction per object (as TcpCongestionOps::Fork gives each socket a copy).
     * Forked only before use (before Init). A subclass forks by overriding this (MrcForkAs);
     * the default, null, has the protocol make each object from the factory.
     * @return the copy, or null
     */
    virtual Ptr<MrcRecoveryOps> Fork() const;

    /**
     * Bind to a queue pair (called once, by MrcQueuePair::Setup).
     * @param qp the queue pair (owns this object)
     * @param state its send state
     * @param bdp the bandwidth-delay product, bytes
     * @param payloadSize payload bytes per packet
     */
    void Init(MrcQueuePair* qp, Ptr<MrcSendState> state, uint32_t bdp, uint32_t payloadSize);

    /** @return a short name ("selective", "go-back-n") */
    virtual std::string GetName() const = 0;
    /** @return true if the responder accepts only the expected PSN and NAKs every gap */
    virtual bool IsInOrder() const = 0;
    /** @return true if the responder answers a trimmed header with a NACK */
    virtual bool UnderstandsTrim() const = 0;

    /**
     * A PSN in the send window was acknowledged for the first time (its bytes are counted and
     * the send-order mark moved already).
     * @param psn the PSN
     * @param p its packet
     * @param latest the acknowledgement is known to answer its latest transmission
     * @param echoedTimestamp the send timestamp the ACK echoes if this PSN triggered it, else 0
     * @param duplicate this PSN triggered the ACK and the receiver had it already
     */
    virtual void OnPacketAcked(uint32_t psn,
                               MrcSendState::TxPkt& p,
                               bool latest,
                               uint64_t echoedTimestamp,
                               bool duplicate);
    /**
     * The receiver reports a second copy of a PSN acknowledged before (it was sent more than
     * once).
     * @param psn the PSN
     * @param p its packet
     */
    virtual void OnPacketAckedAgain(uint32_t psn, MrcSendState::TxPkt& p);
    /**
     * A packet sent more than once leaves the send window, acknowledged.
     * @param psn its PSN
     * @param p the packet
     */
    virtual void OnPacketReleased(uint32_t psn, const MrcSendState::TxPkt& p);
    /**
     * The receiver reports a second copy of a PSN that has left the send window (D-SACK).
     * @param psn the PSN
     */
    virtual void OnReleasedDuplicate(uint32_t psn);
    /**
     * An ACK measured an RTT (after MrcSendState::OnRttSample).
     * @param rtt the sample (> 0)
     */
    virtual void OnRttSample(Time rtt);
    /**
     * An ACK was processed (its PSNs acknowledged, the RTT sampled).
     * @param h the ACK
     */
    virtual void OnAckProcessed(const MrcHeader& h) = 0;
    /**
     * A NACK arrived (any reason; the peer's port status is read already). The recovery
     * sends again what it decides to (MrcQueuePair::TrySend).
     * @param h the NACK
     */
    virtual void OnNack(const MrcHeader& h) = 0;
    /**
     * The oldest transmission in flight timed out (its retry budget is not spent yet).
     * @param psn its PSN
     * @return true if the timer scan stops here (nothing older is left to examine)
     */
    virtual bool OnTimeout(uint32_t psn) = 0;
    /** The queue pair failed: drop what waits for a decision. */
    virtual void OnQpError();

    /** @return packets declared lost by out-of-order (SACK) detection */
    virtual uint64_t GetSackLosses() const;
    /** @return out-of-order losses during an incast, which did not retire their EV */
    virtual uint64_t GetIncastLosses() const;
    /** @return retransmissions found unnecessary (the original arrived) */
    virtual uint64_t GetSpuriousRetransmissions() const;

protected:
    void DoDispose() override;
    /**
     * Init's work for a subclass (m_qp, m_state, m_selector and m_cc are set).
     * @param bdp the bandwidth-delay product, bytes
     * @param payloadSize payload bytes per packet
     */
    virtual void DoInit(uint32_t bdp, uint32_t payloadSize);
    /**
     * @param p a packet in the send window
     * @return true if feedback about p may change its EV's state (the EV slot still names the
     * path it took)
     */
    bool EvIsCurrent(const MrcSendState::TxPkt& p) const;
    /**
     * A NACK for a trimmed packet, or one the responder could not take (out of its window):
     * if it is about the packet's latest transmission, that packet is lost. A trim also
     * reaches the path selector (the EV's state) and the congestion control. Nothing is sent.
     * @param h the NACK
     * @param lastHop it was trimmed on the last hop
     */
    void DeclareNackedLost(const MrcHeader& h, bool lastHop);

    MrcQueuePair* m_qp{nullptr};     //!< the queue pair
    Ptr<MrcSendState> m_state;       //!< its send state
    Ptr<MrcPathSelector> m_selector; //!< its path selector
    Ptr<MrcCongestionOps> m_cc;      //!< its congestion control
};

} // namespace ns3

#endif /* MRC_RECOVERY_OPS_H */
