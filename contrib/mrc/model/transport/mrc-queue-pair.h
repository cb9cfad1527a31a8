/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUEUE_PAIR_H
#define MRC_QUEUE_PAIR_H

#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-owned-timer.h"
#include "ns3/mrc-path-provider.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-qp-receiver.h"
#include "ns3/mrc-recovery-ops.h"
#include "ns3/mrc-send-state.h"

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
 *
 * The queue pair keeps the sending side's state in an MrcSendState (the send window, the
 * transmissions in send order, the bytes in flight, the RTT, the traced congestion window),
 * shared with its loss recovery as ns-3's TcpSocketState is shared with TCP's algorithms. It
 * sends, acknowledges, runs the timers and asks its recovery (an MrcRecoveryOps, chosen by
 * MrcL4Protocol's LossRecovery TypeId: MrcSelectiveRecovery, MRC's, or MrcGoBackNRecovery,
 * RoCE's) what every loss signal means: a NACK, a timeout, an acknowledgement that leaves a
 * gap. The recovery's attributes (e.g. MrcSelectiveRecovery's ReorderThreshold, ReorderWindow,
 * PathFlush) are set on it, not here.
 *
 * The retransmission timeout (AckTimeoutUnit x 2^AckTimeoutExponent, 1.024 us x 2^8 =
 * 262 us by default, the OCP API's example) covers what no other signal finds. Only timeouts
 * spend the retry budget (per packet, as in UEC): a packet's timeout beyond RetryLimit puts the
 * QP in the error state (every pending message completes with RETRY_EXCEEDED and QpError
 * fires); after LinearRetries timeouts a packet's timer doubles each time. Feedback (ECN echo,
 * NACK, loss) changes an EV's state only if the EV slot still names the path the packet took
 * (slots carry a generation). Retired EVs are probed while the QP has work, skipping planes the
 * peer's port-status bitmap reports down; an unanswered round doubles the probe interval up to
 * ProbeMaxInterval, and only the answer to the probe that is out counts.
 *
 * Receiver: an MrcQpReceiver (direct placement, SACKs, NACKs, CNPs; see there), configured
 * from this queue pair's attributes and its recovery. Receive completions are delivered in
 * posting order.
 */
class MrcQueuePair : public Object
{
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
    /** @return packets declared lost by out-of-order (SACK) detection (the recovery's count) */
    uint64_t GetSackLosses() const;
    /** @return out-of-order losses during an incast, which did not retire their EV */
    uint64_t GetIncastLosses() const;
    /** @return retransmissions found unnecessary (the original arrived) */
    uint64_t GetSpuriousRetransmissions() const;
    /** @return the loss recovery (null before Setup) */
    Ptr<MrcRecoveryOps> GetRecovery() const;
    /** @return the sending side's state (null before Setup) */
    Ptr<MrcSendState> GetSendState() const;
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
     * A new queue pair with this one's attributes, as ns-3's TcpCongestionOps::Fork: a
     * CopyObject, which skips ns-3's attribute construction (MrcL4Protocol makes one queue
     * pair from its factory and forks it for the others). Only a queue pair not yet Setup may
     * be forked; a subclass that does not override this gets null.
     * @return the copy, or null
     */
    virtual Ptr<MrcQueuePair> Fork() const;

    /**
     * Connect (called by MrcL4Protocol).
     * @param l4 the protocol (outlives the QP)
     * @param qpn local QPN
     * @param remoteHost peer host
     * @param remoteQpn peer QPN
     * @param paths destination address of every path to the peer, [plane][path]
     * @param selector path selector
     * @param cc congestion control
     * @param recovery loss recovery (one per queue pair)
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
               Ptr<MrcRecoveryOps> recovery,
               uint32_t bdp,
               Time baseRtt,
               Ptr<UniformRandomVariable> rng,
               uint32_t hash);

    /**
     * A packet for this QP arrived (called by MrcL4Protocol; the payload is not read).
     * @param h its MRC header
     * @param tc the IPv6 Traffic Class on arrival
     * @param plane the plane it arrived on
     */
    void Receive(const MrcHeader& h, uint8_t tc, uint32_t plane);

    /** The local or remote plane status changed: try sending again. */
    void NotifyPlanesChanged();

    /** A NIC port this queue pair waited for has room (MrcL4Protocol::WaitForPort). */
    void NotifyPortRoom();

    /**
     * Start loading the queue pair's own object (MrcEventPrefetch: a packet for it, or room at
     * a port it waits for, is about to arrive). Its parts (congestion control, path selector,
     * loss recovery, receiver) are separate objects, not loaded.
     */
    void PrefetchState() const
    {
        MrcEventPrefetch::Lines(this, this + 1);
    }

    /**
     * Start loading, one level beyond PrefetchState (which ran an event earlier), what a
     * packet for this queue pair reads next (MrcEventPrefetch): for data, the receive window's
     * slots for its PSN and MSN; for an acknowledgement, the sending side's objects (send
     * state, recovery, path selector, congestion control). A hint: nothing is changed.
     * @param header the packet's MRC header, serialized (MrcHeader::SIZE bytes)
     */
    void PrefetchParts(const uint8_t* header) const;

    /**
     * Send what the window, the pacing and the plane status allow, retransmissions first
     * (also called by the recovery after it declared packets lost).
     */
    void TrySend();
    /**
     * Mark a PSN acknowledged, and tell the recovery (called for every PSN an ACK covers, and
     * by a go-back-N recovery for what a NAK acknowledges cumulatively).
     * @param psn the PSN
     * @param echoedTimestamp the send timestamp the ACK echoes if it was triggered by this PSN,
     *        else 0 (tells which transmission of a retransmitted packet arrived)
     * @param duplicate the ACK was triggered by this PSN and says the receiver had it already
     *        (MrcHeader::FLAG_DUPLICATE): an earlier transmission arrived
     * @return payload bytes newly acknowledged
     */
    uint32_t AckPsn(uint32_t psn, uint64_t echoedTimestamp, bool duplicate);
    /** Complete fully acknowledged messages, in order, and slide the send window. */
    void CompleteSends();

    /**
     * Send an ACK, NACK, CNP or probe answer on the reverse of the path a packet came by
     * (called by the receiver, MrcQpReceiver).
     * @param h the header to send (opcode and fields set)
     * @param plane plane of the packet being answered
     * @param path path of the packet being answered
     */
    void SendControl(MrcHeader& h, uint32_t plane, uint32_t path);
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

private:
    /**
     * PrefetchParts loads this many bytes of the recovery, the congestion control and the path
     * selector: their classes vary, and their fields an acknowledgement reads lie within.
     */
    static constexpr std::size_t PARTS_BYTES = 256;

    void DoDispose() override;
    /** The send state's packet type. */
    using TxPkt = MrcSendState::TxPkt;
    /** The send state's message type. */
    using TxMsg = MrcSendState::TxMsg;

    /**
     * Read the port-status bitmap an ACK, NACK or probe answer carries.
     * @param h the header
     */
    void UpdatePeerPlanes(const MrcHeader& h);
    /**
     * The send state's traced congestion window takes the congestion control's: the one place
     * it is set.
     */
    void SyncCwnd();
    /**
     * The send state's Cwnd changed: this queue pair's Cwnd trace follows.
     * @param oldValue the previous window
     * @param newValue the new window
     */
    void UpdateCwndTrace(uint32_t oldValue, uint32_t newValue);
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
     * Transmit, with the planes the queue pair may use and the ports with room already read.
     * @param psn its PSN
     * @param cause TxCause
     * @param usable UsablePlanes()
     * @param room MrcL4Protocol::GetPortsWithRoom()
     * @return false if no EV was usable
     */
    bool Transmit(uint32_t psn, uint8_t cause, uint64_t usable, uint64_t room);

    /**
     * No usable port has room: if one it could use is busy, ask to be told when it has room
     * (once until then).
     * @param usable UsablePlanes()
     * @param room MrcL4Protocol::GetPortsWithRoom()
     */
    void WaitForBusyPort(uint64_t usable, uint64_t room);
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
    /** Retransmission timer. */
    void OnRto();

    /** The pacing timer: the next departure is due (TrySend). */
    void OnPaceTimer();
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
     * Trace a send completion and hand it to the callback.
     * @param c the completion
     */
    void DeliverSendCompletion(const MrcCompletion& c);
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
    uint32_t m_payloadSize{4096};    //!< PayloadSize
    uint32_t m_ackEveryBytes{16384}; //!< AckEveryBytes
    Time m_ackDelay;                 //!< AckDelay
    Time m_rtoUnit;                  //!< AckTimeoutUnit
    int32_t m_port{-1};              //!< Port attribute (-1: any)
    Time m_cnpInterval;              //!< CnpInterval (0: ECN echo in ACKs)
    uint32_t m_rtoExponent{8};       //!< AckTimeoutExponent
    uint32_t m_retryLimit{7};        //!< RetryLimit
    uint32_t m_linearRetries{7};     //!< LinearRetries
    bool m_peerPortStatus{true};     //!< PeerPortStatus
    Time m_probeInterval;            //!< ProbeInterval
    Time m_probeMaxInterval;         //!< ProbeMaxInterval
    uint32_t m_recvWindow{65536};    //!< RecvWindow

    MrcL4Protocol* m_l4{nullptr};           //!< owner
    uint32_t m_qpn{0};                      //!< local QPN
    uint32_t m_remoteHost{0};               //!< peer host
    uint32_t m_remoteQpn{0};                //!< peer QPN
    std::vector<MrcPathSet> m_paths;        //!< per plane, the paths' addresses
    Ptr<MrcPathSelector> m_selector;        //!< path selection
    Ptr<MrcCongestionOps> m_cc;             //!< congestion control
    Ptr<MrcRecoveryOps> m_recovery;         //!< loss recovery
    Ptr<MrcSendState> m_state;              //!< the sending side's state, shared with m_recovery
    Time m_baseRtt;                         //!< base RTT
    Time m_rto;                             //!< retransmission timeout
    bool m_error{false};                    //!< failed
    bool m_waitingForPort{false};           //!< asked the L4 for a port with room
    uint64_t m_peerPlaneMask{~uint64_t(0)}; //!< planes up at the peer
    CompletionCallback m_sendCb;            //!< send completions
    CompletionCallback m_recvCb;            //!< receive completions

    // pacing (rate-based congestion control)
    Time m_nextSendTime;       //!< earliest next transmission
    Time m_pacedAt;            //!< the last packet's departure slot
    uint32_t m_pacedBytes{0};  //!< its wire bytes
    MrcOwnedTimer m_paceEvent; //!< pending TrySend (OnPaceTimer expires it)

    // timers
    MrcOwnedTimer m_rtoEvent; //!< retransmission timer (OnRto expires it)
    EventId m_probeEvent;     //!< probe timer
    uint32_t m_probeSeq{0};   //!< probe sequence number
    Time m_probeWait;         //!< current probe interval (backs off while probes fail)

    MrcQpReceiver m_rx; //!< the receiving side

    // counters
    uint64_t m_dataSent{0};     //!< data packets sent
    uint64_t m_retx{0};         //!< retransmissions
    uint64_t m_timeouts{0};     //!< timeouts
    uint64_t m_nacks{0};        //!< NACKs received
    uint64_t m_cnpsReceived{0}; //!< CNPs received
    MrcPlaneCounters m_planeTx; //!< data packets per plane (sent)

    TracedCallback<Ptr<const Packet>, uint32_t, uint16_t, uint8_t> m_txTrace; //!< Tx
    TracedCallback<const MrcCompletion&> m_sendCompleteTrace;                 //!< SendComplete
    TracedCallback<const MrcCompletion&> m_recvCompleteTrace;                 //!< RecvComplete
    TracedCallback<uint32_t, uint32_t> m_errorTrace;           //!< QpError (qpn, psn)
    TracedCallback<uint32_t, uint64_t, uint32_t> m_placeTrace; //!< Place
    TracedValue<uint32_t> m_cwnd; //!< Cwnd: follows the send state's (as TcpSocketBase's)
};

} // namespace ns3

#endif /* MRC_QUEUE_PAIR_H */
