/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SEND_STATE_H
#define MRC_SEND_STATE_H

#include "ns3/mrc-ring-deque.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <algorithm>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The sending side of a queue pair that its loss recovery shares, as ns-3's
 * TcpSocketState is shared by a TCP socket and its congestion and recovery algorithms.
 *
 * It holds the posted messages, the send window (one TxPkt per PSN from the oldest
 * unacknowledged one), the transmissions in send order, the bytes in flight, the RTT the
 * acknowledgements measured and the congestion window (traced). The members are public: the
 * queue pair (MrcQueuePair) and its MrcRecoveryOps read and change them; nothing else should.
 */
class MrcSendState : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSendState();
    ~MrcSendState() override;

    /** A posted message. */
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
        uint8_t cause;     //!< MrcQueuePair::TxCause of the pending retransmission
        bool acked;        //!< acknowledged
        bool lost;         //!< declared lost, waiting in the retransmit queue
        bool last;         //!< last packet of its message
        bool spurious;     //!< a retransmission of it was found unnecessary (counted once)
    };

    /** A transmission, in send order, for the loss detector and the timer. */
    struct Sent
    {
        uint32_t psn;   //!< PSN
        uint64_t txSeq; //!< its send-order number
        Time at;        //!< when it started onto the wire
    };

    /**
     * @param psn a PSN
     * @return true if it is in the send window
     */
    bool InWindow(uint32_t psn) const
    {
        return psn >= m_psnBase && psn < m_nextPsn;
    }

    /**
     * @param psn a PSN in the send window
     * @return its packet
     */
    TxPkt& Pkt(uint32_t psn)
    {
        return m_txPkts[psn - m_psnBase];
    }

    /**
     * @param psn a PSN in the send window
     * @return its packet
     */
    const TxPkt& Pkt(uint32_t psn) const
    {
        return m_txPkts[psn - m_psnBase];
    }

    /**
     * @param p a packet in the send window
     * @return its message
     */
    TxMsg& MsgOf(const TxPkt& p)
    {
        return m_txMsgs[p.msn - m_txMsgs.front().msn];
    }

    /**
     * Declare a packet lost and queue its retransmission (nothing if it is acknowledged or
     * declared lost already).
     * @param psn a PSN in the send window
     * @param cause MrcQueuePair::TxCause of the retransmission
     */
    void DeclareLost(uint32_t psn, uint8_t cause);
    /**
     * Go-back-N: every unacknowledged packet from a PSN on is lost and queued, in PSN order
     * (the retransmit queue is replaced).
     * @param psn first PSN to resend
     * @param cause MrcQueuePair::TxCause
     */
    void Rewind(uint32_t psn, uint8_t cause);
    /**
     * An acknowledgement measured an RTT.
     * @param now the time
     * @param rtt the sample (> 0)
     * @param karn the sample is of a known transmission (Karn's rule); only those enter the
     *        windowed maximum and the minimum
     */
    void OnRttSample(Time now, Time rtt, bool karn);

    /**
     * @return the largest RTT the paths recently showed: the newest sample or the windowed
     * maximum, whichever is larger
     */
    Time GetRecentMaxRtt() const
    {
        return std::max(m_lastRtt, m_rttMax[0]);
    }

    // messages
    MrcRingDeque<TxMsg> m_txMsgs; //!< posted, not completed
    uint32_t m_txCursor{0};       //!< index in m_txMsgs of the message being packetized
    uint32_t m_nextMsn{0};        //!< next message sequence number
    uint64_t m_nextWrId{1};       //!< next work request id

    // send window
    MrcRingDeque<TxPkt> m_txPkts;       //!< index psn - m_psnBase
    uint32_t m_psnBase{0};              //!< oldest PSN in the window
    uint32_t m_nextPsn{0};              //!< next new PSN
    MrcRingDeque<uint32_t> m_retxQueue; //!< PSNs to retransmit
    MrcRingDeque<Sent> m_sentOrder;     //!< transmissions in send order
    uint64_t m_inflight{0};             //!< payload bytes in flight
    uint64_t m_txSeq{0};                //!< transmissions so far (next send-order number)
    uint64_t m_ackedTxSeq{0};           //!< highest send-order number acknowledged + 1
    uint64_t m_bytesAcked{0};           //!< payload bytes acknowledged

    // RTT
    static constexpr int64_t RTT_MAX_BUCKET = 4; //!< base RTTs per bucket of m_rttMax
    Time m_baseRtt;                              //!< the base RTT the QP was set up with
    /**
     * Longest the peer holds an acknowledgement (its delayed-ACK timer). Both ends of a
     * connection are configured alike, so the queue pair's own AckDelay.
     */
    Time m_peerAckDelay;
    Time m_lastRtt;      //!< RTT of the newest acknowledged transmission (base RTT at first)
    Time m_rttMax[2];    //!< [0]: largest Karn-valid RTT of the last 1-2 buckets; [1]: previous
    Time m_rttMaxBucket; //!< largest Karn-valid RTT of the current bucket
    Time m_rttMin;       //!< smallest Karn-valid RTT seen (the paths' propagation floor)
    Time m_rttMaxStart;  //!< start of the current bucket

    TracedValue<uint32_t> m_cwnd{0}; //!< the congestion control's window, bytes (Cwnd)
};

} // namespace ns3

#endif /* MRC_SEND_STATE_H */
