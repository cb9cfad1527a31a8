/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUEUE_PAIR_H
#define MRC_QUEUE_PAIR_H

#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-path-provider.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-qp-receiver.h"
#include "ns3/mrc-recovery-ops.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv6-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <vector>

namespace ns3
{

class MrcL4Protocol;

/**
 * @ingroup mrc
 * @brief A work completion.
 */
struct MrcCompletion
{
    uint32_t qpn;   //!< local QPN
    uint64_t wrId;  //!< work request id (sender) or message sequence number (receiver)
    uint64_t bytes; //!< message length
    uint8_t status; //!< MrcQueuePair::Status
    bool hasImm;    //!< Write-with-Immediate
    uint32_t imm;   //!< immediate data
    Time posted;    //!< when posted (sender) or first byte arrived (receiver)
    Time completed; //!< when completed
};

/**
 * @ingroup mrc
 * @brief A connected MRC queue pair: RDMA Write and Write-with-Immediate over packet spray.
 *
 * Sender: messages are cut into PayloadSize packets with consecutive PSNs; each packet leaves
 * on the EV the path selector picks (retransmissions on a fresh EV) while the bytes in flight
 * stay under the congestion window. Every transmission is stamped with the time it starts onto
 * the NIC port (after the port's queue), so the RTT never includes the sender's own queue.
 * The queue pair holds the send window and the timers; what a loss signal means is its loss
 * recovery's call (an MrcRecoveryOps named by LossRecovery: MrcSelectiveRecovery, MRC's, or
 * MrcGoBackNRecovery, RoCE's). With selective recovery:
 * - a NACK for a trimmed packet retransmits exactly that packet;
 * - out-of-order detection (as UEC's): a transmission is lost once a packet sent
 *   ReorderThreshold transmissions after it is acknowledged (by default adaptive: one
 *   bandwidth-delay product of packets, raised after a spurious retransmission to the distance
 *   the late original was overtaken by, up to four BDPs), or once something sent after it is
 *   acknowledged and it is older than the largest recent RTT plus ReorderWindow (by default
 *   adaptive, as RACK's: a quarter of the base RTT, doubled up to one base RTT after a spurious
 *   retransmission; this rule finds losses near the end of a message, where too few packets
 *   follow); retransmissions are watched the same way;
 * - a loss retires the EV it was sent on (ASSUMED_BAD), and every other packet still in flight
 *   on that EV is retransmitted at once;
 * - the retransmission timeout (AckTimeoutUnit x 2^AckTimeoutExponent, 1.024 us x 2^8 =
 *   262 us by default, the OCP API's example) only covers the tail.
 * Feedback (ECN echo, NACK, loss) changes an EV's state only if the EV slot still names the
 * path the packet took (slots carry a generation). Only timeouts spend the retry budget (per
 * packet, as in UEC): a packet's timeout beyond RetryLimit puts the QP in the error state
 * (every pending message completes with RETRY_EXCEEDED and QpError fires). Retired EVs are probed
 * while the QP has work, skipping planes the peer's port-status bitmap reports down; an unanswered
 * round doubles the probe interval up to ProbeMaxInterval, and only the answer to the probe that is
 * out counts.
 *
 * Receiver: an MrcQpReceiver (direct placement, SACKs, NACKs, CNPs; see there), configured
 * from this queue pair's attributes and its recovery. Receive completions are delivered in
 * posting order.
 */
class MrcQueuePair : public Object
{
    friend class MrcQpReceiver;
    friend class MrcSelectiveRecovery;
    friend class MrcGoBackNRecovery;

public:
    /** Completion status. */
    enum Status : uint8_t
    {
        SUCCESS = 0,        //!< all bytes acknowledged / placed
        RETRY_EXCEEDED = 1, //!< the QP failed: a packet exhausted its retries
    };

    /** Why a packet was sent (the Tx trace). */
    enum TxCause : uint8_t
    {
        TX_NEW = 0,      //!< first transmission
        TX_RETX_NACK,    //!< retransmission after a NACK
        TX_RETX_TIMEOUT, //!< retransmission after the timeout
        TX_RETX_SACK,    //!< retransmission of a SACK hole
        TX_PROBE         //!< probe of a retired EV
    };

    /** Completion callback. */
    typedef Callback<void, const MrcCompletion&> CompletionCallback;

    /**
     * Signature of the Tx trace.
     * @param packet the packet (MRC header included)
     * @param psn its PSN
     * @param ev its EV
     * @param cause a TxCause
     */
    typedef void (*TxTracedCallback)(Ptr<const Packet> packet,
                                     uint32_t psn,
                                     uint16_t ev,
                                     uint8_t cause);
    /**
     * Signature of the QpError trace.
     * @param qpn the failed queue pair
     * @param psn the packet that exhausted its transmissions
     */
    typedef void (*ErrorTracedCallback)(uint32_t qpn, uint32_t psn);

    /**
     * Signature of the completion traces.
     * @param c the completion
     */
    typedef void (*CompletionTracedCallback)(const MrcCompletion& c);

    /**
     * Signature of the Place trace.
     * @param msn the message's sequence number
     * @param remoteOffset where the payload lands in the responder's memory
     * @param bytes payload bytes
     */
    typedef void (*PlaceTracedCallback)(uint32_t msn, uint64_t remoteOffset, uint32_t bytes);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcQueuePair();
    ~MrcQueuePair() override;

    /**
     * Post an RDMA Write.
     * @param length bytes (> 0)
     * @param remoteOffset where they land at the peer
     * @return the work request id
     */
    uint64_t PostWrite(uint64_t length, uint64_t remoteOffset);
    /**
     * Post an RDMA Write-with-Immediate.
     * @param length bytes (> 0)
     * @param remoteOffset where they land at the peer
     * @param imm immediate data, delivered with the receive completion
     * @return the work request id
     */
    uint64_t PostWriteImm(uint64_t length, uint64_t remoteOffset, uint32_t imm);
    /** @param cb called when a posted message is fully acknowledged (or fails) */
    void SetSendCompletionCallback(CompletionCallback cb);
    /** @param cb called when a message from the peer is fully placed, in posting order */
    void SetRecvCompletionCallback(CompletionCallback cb);

    /**
     * Deny or allow an EV (DENIED state).
     * @param ev EV slot
     * @param denied true to deny
     */
    void SetEvDenied(uint16_t ev, bool denied);

    /** @return the path selector */
    Ptr<MrcPathSelector> GetPathSelector() const;
    /**
     * The OCP API's explicit EV mode for this queue pair: exactly these paths, and these to
     * replace a retired one (MrcPathSelector's ExplicitEvs and BackupEvs). Before its first
     * packet; aborts with a one-line message otherwise or on a path that does not exist.
     * @param evs plane:path pairs, comma-separated
     * @param backups the same, or empty
     */
    void SetExplicitEvs(const std::string& evs, const std::string& backups);
    /** @return the congestion control */
    Ptr<MrcCongestionOps> GetCongestionOps() const;
    /** @return the local QPN */
    uint32_t GetQpn() const;
    /** @return the peer host */
    uint32_t GetRemoteHost() const;
    /** @return the peer's QPN */
    uint32_t GetRemoteQpn() const;
    /**
     * @param ev an EV slot
     * @return the IPv6 flow label this QP's packets on that EV carry
     */
    uint32_t GetFlowLabel(uint16_t ev) const
    {
        return FlowLabel(ev);
    }

    /** @return the base RTT the QP was set up with */
    Time GetBaseRtt() const
    {
        return m_baseRtt;
    }

    /** @return true once the QP has failed */
    bool IsInError() const;
    /** @return messages posted and not yet completed */
    uint32_t GetPendingMessages() const;
    /** @return data packets sent, retransmissions included */
    uint64_t GetDataPacketsSent() const;
    /** @return retransmissions */
    uint64_t GetRetransmissions() const;
    /** @return retransmission timeouts (packets declared lost by the timer) */
    uint64_t GetTimeouts() const;
    /** @return packets declared lost by out-of-order (SACK) detection */
    uint64_t GetSackLosses() const;
    /** @return out-of-order losses during an incast, which did not retire their EV */
    uint64_t GetIncastLosses() const;
    /** @return out-of-order losses that turned out spurious (the original arrived) */
    uint64_t GetSpuriousRetransmissions() const;
    /** @return the time rule's reorder window in force */
    Time GetReorderWindow() const;
    /** @return the out-of-order threshold in force, packets */
    uint32_t GetReorderThreshold() const;
    /** @return the port the QP is bound to (Port attribute; -1: the hash picks) */
    int32_t GetPort() const
    {
        return m_port;
    }

    /** @return CNPs sent (as the receiver's notification point) */
    uint64_t GetCnpsSent() const
    {
        return m_rx.GetCnpsSent();
    }

    /** @return CNPs received */
    uint64_t GetCnpsReceived() const
    {
        return m_cnpsReceived;
    }

    /** @return NACKs received */
    uint64_t GetNacksReceived() const;
    /** @return payload bytes acknowledged */
    uint64_t GetBytesAcked() const;
    /** @return payload bytes placed at this (receiving) side, each byte once */
    uint64_t GetBytesPlaced() const;
    /** @return ACKs sent */
    uint64_t GetAcksSent() const;
    /** @return duplicate data packets received */
    uint64_t GetDuplicatePackets() const;
    /** @return data packets dropped because their fields cannot be genuine (forged, corrupt) */
    uint64_t GetMalformedPackets() const;
    /**
     * @param plane a plane
     * @return data packets this QP sent on that plane
     */
    uint64_t GetPlaneDataPackets(uint32_t plane) const;
    /**
     * @param plane a plane
     * @return data packets this QP received on that plane
     */
    uint64_t GetPlaneRxPackets(uint32_t plane) const;

    /**
     * Connect (called by MrcL4Protocol).
     * @param l4 the protocol (outlives the QP)
     * @param qpn local QPN
     * @param remoteHost peer host
     * @param remoteQpn peer QPN
     * @param paths destination address of every path to the peer, [plane][path]
     * @param selector path selector
     * @param cc congestion control
     * @param bdp bandwidth-delay product, bytes
     * @param baseRtt base RTT
     * @param rng random source
     * @param hash connection hash
     */
    void Setup(MrcL4Protocol* l4,
               uint32_t qpn,
               uint32_t remoteHost,
               uint32_t remoteQpn,
               std::vector<MrcPathSet> paths,
               Ptr<MrcPathSelector> selector,
               Ptr<MrcCongestionOps> cc,
               uint32_t bdp,
               Time baseRtt,
               Ptr<UniformRandomVariable> rng,
               uint32_t hash);

    /**
     * A packet for this QP arrived (called by MrcL4Protocol).
     * @param packet payload (MRC header removed)
     * @param h its MRC header
     * @param tc the IPv6 Traffic Class on arrival
     * @param plane the plane it arrived on
     */
    void Receive(Ptr<Packet> packet, const MrcHeader& h, uint8_t tc, uint32_t plane);

    /** The local or remote plane status changed: try sending again. */
    void NotifyPlanesChanged();

    /** A NIC port this queue pair waited for has room (MrcL4Protocol::WaitForPort). */
    void NotifyPortRoom();

private:
    void DoDispose() override;

    /** A posted message (sender side). */
    struct TxMsg
    {
        uint64_t wrId;         //!< work request id
        uint32_t msn;          //!< message sequence number
        uint64_t length;       //!< bytes
        uint64_t remoteOffset; //!< remote offset of byte 0
        uint64_t nextOffset;   //!< next byte to packetize
        uint32_t pkts;         //!< packets
        uint32_t pktsAcked;    //!< packets acknowledged
        bool imm;              //!< Write-with-Immediate
        uint32_t immData;      //!< immediate
        Time posted;           //!< when posted
    };

    /** A packet in the send window. */
    struct TxPkt
    {
        uint32_t msn;      //!< message
        uint32_t len;      //!< payload bytes
        uint64_t offset;   //!< offset within the message
        Time sentAt;       //!< last (re)transmission time, at the wire
        uint64_t txSeq;    //!< send-order number of the last transmission
        uint64_t prevSeq;  //!< send-order number of the transmission before it
        uint16_t ev;       //!< EV of the last transmission
        uint16_t evGen;    //!< generation of that EV slot then
        uint16_t tries;    //!< transmissions so far
        uint16_t timeouts; //!< retransmission timeouts so far (the retry budget)
        uint8_t cause;     //!< TxCause of the pending retransmission
        bool acked;        //!< acknowledged
        bool lost;         //!< declared lost, waiting in the retransmit queue
        bool last;         //!< last packet of its message
        bool spurious;     //!< a retransmission of it was found unnecessary (counted once)
    };

    /**
     * Read the port-status bitmap an ACK, NACK or probe answer carries.
     * @param h the header
     */
    void UpdatePeerPlanes(const MrcHeader& h);
    /**
     * Out-of-order loss detection: every transmission that was followed by ReorderThreshold
     * later transmissions, one of which is acknowledged, is lost.
     */
    void DetectLosses();
    /** The time rule's deadline came: look for losses again. */
    void OnReorderTimer();
    /** @return the out-of-order time rule's allowance beyond the paths' recent largest RTT */
    Time ReorderWindow() const;
    /**
     * The retransmission of a suspected packet was acknowledged before its original: give
     * the original one more out-of-order deadline to be reported.
     * @param psn the packet
     */
    void StartVerdict(uint32_t psn);
    /** A suspicion's decideAt came: its original is lost. */
    void OnVerdictTimer();
    /**
     * A loss (or NACK) is about the path a packet took only if its EV slot still names that
     * path.
     * @param p the packet
     * @return true if feedback about p may change its EV's state
     */
    bool EvIsCurrent(const TxPkt& p) const;
    /**
     * The path an EV names failed: every packet still in flight on it, or on another current
     * EV retired because it names the same path, is lost too, and is retransmitted at once on
     * other EVs.
     * @param ev the EV slot
     * @param generation its generation
     */
    void FlushEv(uint16_t ev, uint16_t generation);
    /**
     * The first acknowledgement of a PSN decides the suspicions on it: if it echoes a
     * retransmission, the transmission before was lost and its EV is retired; otherwise an
     * earlier transmission arrived and its EV is released.
     * @param psn the PSN
     * @param lost the acknowledgement is known to answer a retransmission
     */
    void DecideSuspicions(uint32_t psn, bool latest);

    /** Send what the window and the plane status allow. */
    void TrySend();
    /** The congestion control's pacing rate went up: move the next departure earlier. */
    void OnPacingRateIncrease();
    /**
     * Put one data packet on the wire.
     * @param psn its PSN
     * @param cause TxCause
     * @return false if no EV was usable
     */
    bool Transmit(uint32_t psn, uint8_t cause);
    /**
     * Handle an ACK.
     * @param h its header
     */
    void HandleAck(const MrcHeader& h);
    /**
     * Handle a NACK.
     * @param h its header
     */
    void HandleNack(const MrcHeader& h);
    /**
     * Go-back-N: retransmit everything from a PSN on.
     * @param psn first PSN to resend
     * @param cause TxCause
     */
    void Rewind(uint32_t psn, uint8_t cause);
    /**
     * Mark a PSN acknowledged.
     * @param psn the PSN
     * @param echoedTimestamp the send timestamp the ACK echoes if it was triggered by this PSN,
     *        else 0 (tells which transmission of a retransmitted packet arrived)
     * @param duplicate the ACK was triggered by this PSN and says the receiver had it already
     *        (MrcHeader::FLAG_DUPLICATE): an earlier transmission arrived
     * @return payload bytes newly acknowledged
     */
    uint32_t AckPsn(uint32_t psn, uint64_t echoedTimestamp, bool duplicate);
    /**
     * Count a retransmission found unnecessary, and adapt the loss detector to it (the reorder
     * window, CountSpurious, and the count rule).
     * @param p the packet
     */
    void OnSpurious(TxPkt& p);
    /**
     * Count a retransmission found unnecessary and widen the reorder window; alone when the
     * report comes after the packet left the send window (the send-order distance then no
     * longer says how far its original was overtaken, so the count rule is left as it is).
     */
    void CountSpurious();
    /**
     * Declare a packet lost and queue its retransmission.
     * @param psn the PSN
     * @param cause TxCause of the retransmission
     */
    void DeclareLost(uint32_t psn, uint8_t cause);
    /** Complete fully acknowledged messages, in order, and slide the send window. */
    void CompleteSends();
    /** Retransmission timer. */
    void OnRto();
    /**
     * @param p a packet in flight
     * @return how long its latest transmission waits before it times out: the timeout, doubled
     * for each of that packet's timeouts beyond LinearRetries
     */
    Time TimeoutOf(const TxPkt& p) const;
    /** Arm the retransmission timer for the oldest packet in flight. */
    void ArmRto();
    /** Probe timer: probe retired EVs, count unanswered probes as failures. */
    void OnProbeTimer();
    /** Probe at ProbeInterval again (after a success or a change of planes). */
    void ResetProbePace();
    /** Start the probe timer if retired EVs exist and the QP has work. */
    void MaybeStartProbing();
    /**
     * Send an ACK, NACK or probe answer on the reverse of the path a packet came by.
     * @param h the header to send (opcode and fields set)
     * @param plane plane of the packet being answered
     * @param path path of the packet being answered
     */
    void SendControl(MrcHeader& h, uint32_t plane, uint32_t path);
    /**
     * Trace a send completion and hand it to the callback.
     * @param c the completion
     */
    void DeliverSendCompletion(const MrcCompletion& c);
    /**
     * Trace a receive completion and hand it to the callback (called by the receiver).
     * @param c the completion
     */
    void DeliverRecvCompletion(const MrcCompletion& c);
    /**
     * Trace a payload placed in memory for the first time (called by the receiver).
     * @param msn the message's sequence number
     * @param remoteOffset where it lands
     * @param bytes payload bytes
     */
    void NotifyPlaced(uint32_t msn, uint64_t remoteOffset, uint32_t bytes)
    {
        m_placeTrace(msn, remoteOffset, bytes);
    }
    /**
     * Trace a completion and hand it to a callback: the one way completions are delivered.
     * @param trace the trace source
     * @param cb the callback (may be null)
     * @param c the completion
     */
    static void Deliver(const TracedCallback<const MrcCompletion&>& trace,
                        const CompletionCallback& cb,
                        const MrcCompletion& c);
    /**
     * Fail the QP.
     * @param psn the packet that exhausted its retries
     */
    void EnterError(uint32_t psn);
    /** @return the usable planes */
    uint64_t UsablePlanes() const;
    /**
     * The IPv6 flow label of packets on an EV: distinct per QP and EV, so that an ECMP fabric
     * hashes different QPs (and a sprayed QP's EVs) onto different paths, as RoCEv2's UDP
     * source port does.
     * @param ev the EV slot
     * @return the 20-bit flow label
     */
    uint32_t FlowLabel(uint16_t ev) const
    {
        return ((m_qpn * 2654435761u) ^ (m_remoteHost * 40503u) ^ (uint32_t(ev) * 0x9E37u))
             & 0xFFFFFu;
    }
    /**
     * @param length message length
     * @return packets it needs
     */
    uint32_t PacketsFor(uint64_t length) const;
    /**
     * Post a message.
     * @param length bytes
     * @param remoteOffset remote offset
     * @param imm with immediate
     * @param immData immediate
     * @return work request id
     */
    uint64_t Post(uint64_t length, uint64_t remoteOffset, bool imm, uint32_t immData);

    // attributes
    uint32_t m_payloadSize;      //!< PayloadSize
    uint32_t m_ackEveryBytes;    //!< AckEveryBytes
    Time m_ackDelay;             //!< AckDelay
    Time m_rtoUnit;              //!< AckTimeoutUnit
    int32_t m_port;              //!< Port attribute (-1: any)
    Time m_cnpInterval;          //!< CnpInterval (0: ECN echo in ACKs)
    uint64_t m_cnpsReceived;     //!< CNPs received
    uint32_t m_rtoExponent;      //!< AckTimeoutExponent
    uint32_t m_retryLimit;       //!< RetryLimit
    uint32_t m_linearRetries;    //!< LinearRetries
    uint32_t m_reorderThreshold; //!< ReorderThreshold (0: automatic)
    uint32_t m_reorderPkts;      //!< the threshold in force
    uint32_t m_reorderPktsMin;   //!< the automatic threshold's start (and floor)
    Time m_probeMaxInterval;     //!< ProbeMaxInterval
    Time m_reorderWindowAttr;    //!< ReorderWindow attribute (0: base RTT)
    Time m_reorderWindow;        //!< the reorder window in force
    Time m_probeInterval;        //!< ProbeInterval
    uint32_t m_recvWindow;       //!< RecvWindow
    std::string m_recovery;      //!< LossRecovery attribute
    /// PathFlush: what else is resent when a loss implicates an EV
    enum PathFlush
    {
        FLUSH_HELD,    //!< everything in flight on it, once retired or held as suspect
        FLUSH_RETIRED, //!< everything in flight on it, once retired
        FLUSH_NONE     //!< only the lost packet
    };

    std::string m_pathFlushName; //!< PathFlush attribute
    PathFlush m_pathFlush;       //!< PathFlush, parsed in Setup
    Time m_nextSendTime;         //!< pacing: earliest next transmission
    Time m_pacedAt;              //!< pacing: the last packet's departure slot
    uint32_t m_pacedBytes{0};    //!< pacing: its wire bytes
    EventId m_paceEvent;         //!< pacing: pending TrySend

    MrcL4Protocol* m_l4;             //!< owner
    uint32_t m_qpn;                  //!< local QPN
    uint32_t m_remoteHost;           //!< peer host
    uint32_t m_remoteQpn;            //!< peer QPN
    std::vector<MrcPathSet> m_paths; //!< per plane, the paths' addresses
    Ptr<MrcPathSelector> m_selector; //!< path selection
    Ptr<MrcCongestionOps> m_cc;      //!< congestion control
    Time m_baseRtt;                  //!< base RTT
    Time m_srtt;                     //!< smoothed RTT
    Time m_rto;                      //!< retransmission timeout
    bool m_error;                    //!< failed
    bool m_waitingForPort;           //!< asked the L4 for a port with room
    uint64_t m_peerPlaneMask;        //!< planes up at the peer
    CompletionCallback m_sendCb;     //!< send completions
    CompletionCallback m_recvCb;     //!< receive completions

    // sender
    std::deque<TxMsg> m_txMsgs;       //!< posted, not completed
    uint32_t m_txCursor;              //!< index in m_txMsgs of the message being packetized
    uint32_t m_nextMsn;               //!< next message sequence number
    uint64_t m_nextWrId;              //!< next work request id
    std::deque<TxPkt> m_txPkts;       //!< send window, index psn - m_psnBase
    uint32_t m_psnBase;               //!< oldest PSN in the window
    uint32_t m_nextPsn;               //!< next new PSN
    std::deque<uint32_t> m_retxQueue; //!< PSNs to retransmit
    /** A transmission, in send order, for the loss detector and the timer. */
    struct Sent
    {
        uint32_t psn;   //!< PSN
        uint64_t txSeq; //!< its send-order number
        Time at;        //!< when it started onto the wire
    };

    std::deque<Sent> m_sentOrder; //!< transmissions in send order

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

    std::vector<Suspicion> m_suspicions; //!< awaiting a verdict (a handful at most)
    /**
     * Acknowledged and released packets that had been resent on a presumed loss, by PSN
     * (ascending, at most RELEASED_KEPT): a later duplicate report for one of them shows the
     * retransmission was unnecessary although the packet left the send window (D-SACK).
     */
    std::deque<uint32_t> m_released;
    static constexpr std::size_t RELEASED_KEPT = 4096; //!< m_released's bound
    uint64_t m_inflight;                               //!< payload bytes in flight
    EventId m_rtoEvent;                                //!< retransmission timer
    EventId m_probeEvent;                              //!< probe timer
    EventId m_reorderEvent;                            //!< time-rule loss detection timer
    EventId m_verdictEvent;                            //!< the next suspicion's decideAt
    Time m_rackRtt;                              //!< RTT of the newest acknowledged transmission
    static constexpr int64_t RTT_MAX_BUCKET = 4; //!< base RTTs per bucket of m_rttMax
    Time m_rttMax[2];        //!< [0]: largest Karn-valid RTT of the last 1-2 buckets; [1]: previous
    Time m_rttMaxBucket;     //!< largest Karn-valid RTT of the current bucket
    Time m_rttMin;           //!< smallest Karn-valid RTT seen (the paths' propagation floor)
    Time m_rttMaxStart;      //!< start of the current bucket
    uint32_t m_highestAcked; //!< highest PSN acknowledged + 1
    uint64_t m_txSeq;        //!< transmissions so far (next send-order number)
    uint64_t m_ackedTxSeq;   //!< highest send-order number acknowledged + 1
    uint32_t m_probeSeq;     //!< probe sequence number
    Time m_probeWait;        //!< current probe interval (backs off while probes fail)
    uint64_t m_sackLosses;   //!< packets declared lost by the out-of-order rule
    uint64_t m_spurious;     //!< out-of-order losses whose original arrived after all
    Time m_lastSpurious;     //!< last spurious retransmission (or window decay)
    bool m_incastGuard;      //!< IncastLossGuard
    bool m_peerPortStatus{true}; //!< PeerPortStatus
    bool m_inIncast;             //!< a last-hop trim seen, queues not drained since
    uint64_t m_incastLosses;     //!< out-of-order losses that did not retire an EV (incast)

    MrcQpReceiver m_rx;                //!< the receiving side
    Ptr<MrcRecoveryOps> m_recoveryOps; //!< loss recovery (from LossRecovery)

    // counters
    uint64_t m_dataSent;             //!< data packets sent
    uint64_t m_retx;                 //!< retransmissions
    uint64_t m_timeouts;             //!< timeouts
    uint64_t m_nacks;                //!< NACKs received
    uint64_t m_bytesAcked;           //!< bytes acknowledged
    std::vector<uint64_t> m_planeTx; //!< data packets per plane (sent)

    TracedCallback<Ptr<const Packet>, uint32_t, uint16_t, uint8_t> m_txTrace; //!< Tx
    TracedCallback<const MrcCompletion&> m_sendCompleteTrace;                 //!< SendComplete
    TracedCallback<const MrcCompletion&> m_recvCompleteTrace;                 //!< RecvComplete
    TracedCallback<uint32_t, uint32_t> m_errorTrace;           //!< QpError (qpn, psn)
    TracedCallback<uint32_t, uint64_t, uint32_t> m_placeTrace; //!< Place
    TracedValue<uint32_t> m_cwnd;                              //!< Cwnd
};

} // namespace ns3

#endif /* MRC_QUEUE_PAIR_H */
