/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SELECTIVE_RECOVERY_H
#define MRC_SELECTIVE_RECOVERY_H

#include "ns3/mrc-recovery-ops.h"
#include "ns3/mrc-ring-deque.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief MRC's selective loss recovery: only lost packets are resent, and a loss says
 * something about the path (EV) it was sent on.
 *
 * - A NACK for a trimmed packet retransmits exactly that packet.
 * - Out-of-order detection (as UEC's), after every ACK: a transmission is lost once a packet
 *   sent ReorderThreshold transmissions after it is acknowledged (by default adaptive: one
 *   bandwidth-delay product of packets, raised after a spurious retransmission to the distance
 *   the late original was overtaken by, up to four BDPs; the *count rule*), or once something
 *   sent after it is acknowledged and it is older than the largest recent RTT plus
 *   ReorderWindow (by default adaptive, as RACK's; the *time rule*, which finds losses near the
 *   end of a message, where too few packets follow). The count rule retires the EV at once; the
 *   time rule holds it until a verdict (the original's late acknowledgement clears it, the
 *   retransmission's acknowledgement starts one more deadline for it).
 * - A timeout declares exactly the timed-out transmission lost and retires its EV.
 * - PathFlush: what else in flight on a retired (or held) EV is resent with it.
 * - IncastLossGuard: during an incast, out-of-order losses do not retire EVs.
 * Retransmissions later found unnecessary are counted, and widen the loss detector.
 * The responder places packets out of order and NACKs trimmed headers. Sequence-error NACKs
 * (a go-back-N responder's) are ignored.
 */
class MrcSelectiveRecovery : public MrcRecoveryOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSelectiveRecovery();
    ~MrcSelectiveRecovery() override;

    /**
     * @copydoc MrcRecoveryOps::Fork
     */
    Ptr<MrcRecoveryOps> Fork() const override;

    std::string GetName() const override;
    bool IsInOrder() const override;
    bool UnderstandsTrim() const override;
    void OnPacketAcked(uint32_t psn,
                       MrcSendState::TxPkt& p,
                       bool latest,
                       uint64_t echoedTimestamp,
                       bool duplicate) override;
    void OnPacketAckedAgain(uint32_t psn, MrcSendState::TxPkt& p) override;
    void OnPacketReleased(uint32_t psn, const MrcSendState::TxPkt& p) override;
    void OnReleasedDuplicate(uint32_t psn) override;
    void OnRttSample(Time rtt) override;
    void OnAckProcessed(const MrcHeader& h) override;
    void OnNack(const MrcHeader& h) override;
    bool OnTimeout(uint32_t psn) override;
    void OnQpError() override;
    uint64_t GetSackLosses() const override;
    uint64_t GetIncastLosses() const override;
    uint64_t GetSpuriousRetransmissions() const override;

    /** @return the time rule's reorder window in force */
    Time GetReorderWindow() const;
    /** @return the count rule's threshold in force, packets */
    uint32_t GetReorderThreshold() const;

protected:
    void DoDispose() override;
    void DoInit(uint32_t bdp, uint32_t payloadSize) override;

private:
    /**
     * Out-of-order loss detection: every transmission that was followed by ReorderThreshold
     * later transmissions, one of which is acknowledged, is lost; so is one older than the
     * recent RTT plus the reorder window, once something sent after it is acknowledged.
     * @param ack the acknowledgement just processed (null: the time rule's timer fired)
     */
    void DetectLosses(const MrcHeader* ack);
    /** The time rule's deadline came: look for losses again. */
    void OnReorderTimer();
    /** @return the out-of-order time rule's allowance beyond the paths' recent largest RTT */
    Time ReorderWindow() const;
    /**
     * @return what the time rule adds, when no acknowledgement came after a deadline, for the
     * peer's delayed ACKs (AckDelaySlack)
     */
    Time AckDelaySlack() const;
    /**
     * The retransmission of a suspected packet was acknowledged before its original: give
     * the original one more out-of-order deadline to be reported.
     * @param psn the packet
     */
    void StartVerdict(uint32_t psn);
    /** A suspicion's decideAt came: its original is lost. */
    void OnVerdictTimer();
    /**
     * The first acknowledgement of a PSN decides the suspicions on it: if it echoes a
     * retransmission, the transmission before was lost and its EV is retired; otherwise an
     * earlier transmission arrived and its EV is released.
     * @param psn the PSN
     * @param lost the original is lost
     */
    void DecideSuspicions(uint32_t psn, bool lost);
    /**
     * The path an EV names failed: every packet still in flight on it, or on another current
     * EV retired because it names the same path, is lost too, and is retransmitted at once on
     * other EVs.
     * @param ev the EV slot
     * @param generation its generation
     */
    void FlushEv(uint16_t ev, uint16_t generation);
    /**
     * Count a retransmission found unnecessary, and adapt the loss detector to it (the reorder
     * window, CountSpurious, and the count rule).
     * @param p the packet
     */
    void OnSpurious(MrcSendState::TxPkt& p);
    /**
     * Count a retransmission found unnecessary and widen the reorder window; alone when the
     * report comes after the packet left the send window (the send-order distance then no
     * longer says how far its original was overtaken, so the count rule is left as it is).
     */
    void CountSpurious();

    /// PathFlush: what else is resent when a loss implicates an EV
    enum PathFlush
    {
        FLUSH_HELD,    //!< everything in flight on it, once retired or held as suspect
        FLUSH_RETIRED, //!< everything in flight on it, once retired
        FLUSH_NONE     //!< only the lost packet
    };

    /**
     * A loss the out-of-order rules presumed, whose EV is held (or, at the floor, left GOOD)
     * until the verdict: the original arriving after all (its acknowledgement, or the
     * receiver reporting the retransmission a duplicate) clears it; the retransmission's
     * acknowledgement starts a last out-of-order deadline for the original, after which it
     * is lost.
     */
    struct Suspicion
    {
        uint32_t psn;        //!< the packet presumed lost
        uint16_t ev;         //!< the EV it was sent on
        uint16_t generation; //!< that slot's generation then
        Time decideAt;       //!< lost unless the original is reported by then (0: not started)
    };

    // attributes
    uint32_t m_reorderThreshold{0};    //!< ReorderThreshold (0: automatic)
    Time m_reorderWindowAttr;          //!< ReorderWindow (0: automatic)
    bool m_incastGuard{true};          //!< IncastLossGuard
    bool m_ackDelaySlack{true};        //!< AckDelaySlack
    std::string m_pathFlushName;       //!< PathFlush
    PathFlush m_pathFlush{FLUSH_HELD}; //!< PathFlush, parsed in DoInit

    uint32_t m_reorderPkts{16};                 //!< the count threshold in force
    uint32_t m_reorderPktsMin{16};              //!< the automatic threshold's start (and floor)
    Time m_reorderWindow;                       //!< the reorder window in force
    uint32_t m_reorderPersist{REORDER_PERSIST}; //!< losses left before the window narrows
    /** Out-of-order losses without a spurious one before a widened window is reset (RACK). */
    static constexpr uint32_t REORDER_PERSIST = 16;
    bool m_inIncast{false};              //!< a last-hop trim seen, queues not drained since
    std::vector<Suspicion> m_suspicions; //!< awaiting a verdict (a handful at most)
    /**
     * Acknowledged and released packets that had been resent on a presumed loss, by PSN
     * (ascending, at most RELEASED_KEPT): a later duplicate report for one of them shows the
     * retransmission was unnecessary although the packet left the send window (D-SACK).
     */
    MrcRingDeque<uint32_t> m_released;
    static constexpr std::size_t RELEASED_KEPT = 4096; //!< m_released's bound
    EventId m_reorderEvent;                            //!< time-rule loss detection timer
    EventId m_verdictEvent;                            //!< the next suspicion's decideAt

    uint64_t m_sackLosses{0};   //!< packets declared lost by the out-of-order rules
    uint64_t m_spurious{0};     //!< out-of-order losses whose original arrived after all
    uint64_t m_incastLosses{0}; //!< out-of-order losses that did not retire an EV (incast)
};

} // namespace ns3

#endif /* MRC_SELECTIVE_RECOVERY_H */
