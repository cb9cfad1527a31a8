/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QP_RECEIVER_H
#define MRC_QP_RECEIVER_H

#include "ns3/mrc-header.h"
#include "ns3/mrc-owned-timer.h"
#include "ns3/mrc-plane-counters.h"
#include "ns3/mrc-ring-deque.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

class MrcQueuePair;

/**
 * @ingroup mrc
 * @brief The receiving side of a queue pair (the RDMA responder): direct placement, SACKs,
 * NACKs and CNPs.
 *
 * Each data packet carries its remote offset and is placed directly (a per-message bitmap, no
 * reorder buffer); duplicates are counted and dropped. A SACK (cumulative PSN, 64-bit bitmap,
 * reflected EV, ECN echo, timestamp echo, bytes received) is sent every AckEveryBytes, at once
 * on an ECN mark, a new gap, a message's last packet, or after AckDelay. A trimmed header is
 * answered by a NACK naming the reason (mid-fabric or last hop), unless the transport does not
 * understand trimming. In in-order mode (go-back-N, the RoCE responder) only the expected PSN
 * is accepted and the first packet of each gap is answered by a sequence-error NACK. With a CNP
 * interval the receiver is DCQCN's notification point: a CE-marked packet makes it send a CNP,
 * at most one per interval, instead of an ECN echo. Receive completions are delivered in posting
 * order, through the owning queue pair.
 */
class MrcQpReceiver
{
public:
    /** What the owning queue pair configures. */
    struct Config
    {
        uint32_t payloadSize;   //!< payload bytes per packet (to count a message's packets)
        uint32_t ackEveryBytes; //!< AckEveryBytes
        Time ackDelay;          //!< AckDelay
        uint32_t recvWindow;    //!< RecvWindow
        Time cnpInterval;       //!< CnpInterval (0: ECN echo in ACKs)
        bool inOrderOnly;       //!< accept only the expected PSN (go-back-N)
        bool understandsTrim;   //!< answer trimmed headers with NACKs
    };

    MrcQpReceiver();

    /**
     * Attach to the queue pair and configure.
     * @param qp the owner (sends control packets and delivers completions for it)
     * @param config the configuration
     * @param planes planes (for the per-plane counters)
     */
    void Setup(MrcQueuePair* qp, const Config& config, uint32_t planes);
    /** Cancel the delayed ACK (the queue pair is disposed of or failed). */
    void Stop();

    /**
     * A data packet (or a trimmed data header) arrived.
     * @param h its MRC header
     * @param tc the IPv6 Traffic Class on arrival
     * @param plane the plane it arrived on
     */
    void Receive(const MrcHeader& h, uint8_t tc, uint32_t plane);

    /** @return payload bytes placed, each byte once */
    uint64_t GetBytesPlaced() const
    {
        return m_bytesPlaced;
    }

    /** @return ACKs sent */
    uint64_t GetAcksSent() const
    {
        return m_acksSent;
    }

    /** @return duplicate data packets received */
    uint64_t GetDuplicatePackets() const
    {
        return m_dups;
    }

    /** @return data packets dropped because their fields cannot be genuine */
    uint64_t GetMalformedPackets() const
    {
        return m_malformed;
    }

    /** @return CNPs sent */
    uint64_t GetCnpsSent() const
    {
        return m_cnpsSent;
    }

    /**
     * @param plane a plane
     * @return data packets received on it
     */
    uint64_t GetPlaneRxPackets(uint32_t plane) const;

    /**
     * Start loading the receive window's slots a data packet with this PSN and MSN reads
     * (MrcEventPrefetch). A hint: nothing is changed.
     * @param psn its PSN
     * @param msn its MSN
     */
    void PrefetchWindow(uint32_t psn, uint32_t msn) const
    {
        if (psn - m_rxCum < m_rxWin.size() + 64)
        {
            m_rxWin.Prefetch(psn - m_rxCum);
        }
        if (msn - m_rxMsnBase < m_rxMsgs.size())
        {
            m_rxMsgs.Prefetch(msn - m_rxMsnBase);
        }
    }

private:
    /** A message being received. */
    struct RxMsg
    {
        uint64_t length;        //!< bytes (0 until a packet told)
        uint32_t pkts;          //!< packets
        uint32_t got;           //!< packets placed
        std::vector<bool> bits; //!< which packets are placed
        bool imm;               //!< carries an immediate
        uint32_t immData;       //!< immediate
        bool complete;          //!< every byte placed
        Time first;             //!< first byte arrived
    };

    /**
     * Place a data packet, answer it.
     * @param h its header
     * @param tc IPv6 Traffic Class
     */
    void HandleData(const MrcHeader& h, uint8_t tc);
    /**
     * Answer a data packet with a NACK, on the reverse of its path.
     * @param data the data packet's header
     * @param psn the PSN the NACK names
     * @param reason MrcHeader::NackReason
     */
    void SendNack(const MrcHeader& data, uint32_t psn, uint8_t reason);
    /**
     * Whether a data packet's message fields could have been written by a sender: a positive
     * message length, a packet index inside it, the payload length that index implies, an MSN
     * no further ahead than its PSN allows, and the same length as earlier packets of its
     * message.
     * @param h its header (PSN already inside the receive window)
     * @return true if it may be placed
     */
    bool IsPlausible(const MrcHeader& h) const;

    /** Acknowledge what has been received so far (one or two SACKs). */
    void SendAck();
    /** The delayed-ACK timer: expire it, then SendAck. */
    void OnAckTimer();
    /**
     * Send one SACK.
     * @param base first PSN of its bitmap
     */
    void SendSack(uint32_t base);

    MrcQueuePair* m_qp;       //!< owner
    uint32_t m_payloadSize;   //!< payload bytes per packet
    uint32_t m_ackEveryBytes; //!< AckEveryBytes
    Time m_ackDelay;          //!< AckDelay
    uint32_t m_recvWindow;    //!< RecvWindow
    Time m_cnpInterval;       //!< CnpInterval
    bool m_inOrderOnly;       //!< go-back-N responder
    bool m_understandsTrim;   //!< NACK trimmed headers

    uint32_t m_rxCum;               //!< every PSN below is received
    uint32_t m_rxHighest;           //!< highest PSN received + 1
    bool m_rxHighestLast;           //!< the highest PSN received ends a message
    MrcRingDeque<uint8_t> m_rxWin;  //!< received flags from m_rxCum on
    MrcRingDeque<RxMsg> m_rxMsgs;   //!< messages from m_rxMsnBase on
    uint32_t m_rxMsnBase;           //!< oldest undelivered message
    uint64_t m_rxBytes;             //!< payload bytes received (first copies)
    uint32_t m_unackedBytes;        //!< received since the last ACK
    MrcOwnedTimer m_ackTimer;       //!< delayed ACK (OnAckTimer expires it)
    MrcHeader m_lastRx;             //!< header of the last data packet (for delayed ACKs)
    bool m_lastRxCe;                //!< it was CE-marked
    bool m_lastRxDuplicate = false; //!< it had arrived before (the ACK says so)
    bool m_nakSent;                 //!< in-order mode: a NAK is out for this gap
    Time m_lastCnp;                 //!< last CNP sent
    uint64_t m_cnpsSent;            //!< CNPs sent
    uint64_t m_bytesPlaced;         //!< bytes placed
    uint64_t m_malformed;           //!< implausible data packets dropped
    uint64_t m_dups;                //!< duplicates
    uint64_t m_acksSent;            //!< ACKs sent
    MrcPlaneCounters m_planeRx;     //!< data packets per plane
};

} // namespace ns3

#endif /* MRC_QP_RECEIVER_H */
