/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NET_DEVICE_H
#define MRC_NET_DEVICE_H

#include "ns3/mrc-drop-accounting.h"
#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-frame-receiver.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-lazy.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class MrcChannel;
class UniformRandomVariable;

/// Drop reasons of MrcNetDevice (MrcNetDevice::DropReason).
constexpr std::size_t MRC_DEVICE_DROP_REASONS = 1;

/**
 * @ingroup mrc
 * @brief A switch or NIC port: a trimming queue in front of a serializer on an MrcChannel.
 *
 * PFC (IEEE 802.1Qbb): a port stops sending data-class frames when a PAUSE arrives (after the
 * frame on the wire), for the quanta it names or until a zero-quanta PAUSE; control-class
 * frames (ACKs, NACKs, CNPs) keep flowing, as on a NIC where they ride another priority. An
 * optional watchdog breaks pause storms. The switch decides when to send PAUSE frames.
 *
 * Frames are raw IPv6 (no link-layer header; pcap files use DLT_RAW). The fast path,
 * SendFrame() and MrcFrameReceiver::ReceiveFrame(), passes the IPv6 header parsed beside the
 * payload. The standard NetDevice::Send() and receive callback also work, with the IPv6 header
 * inside the packet, for programs that want them.
 *
 * The serializer schedules a transmit-complete event only when something is waiting, so an idle
 * port forwards a frame with a single event (its arrival at the far end).
 *
 * Random loss at the receiving port (`RxLossRate`, the NIC-side loss of the MRC paper's
 * Figs 16-17): an arriving frame, data or control, is dropped with that probability before
 * anything above the port sees it, counted under RX_LOSS and reported by the Drop trace. PAUSE
 * frames are MAC control and never lost this way.
 */
class MrcNetDevice
    : public NetDevice
    , public MrcDropAccounting<MRC_DEVICE_DROP_REASONS>
{
public:
    /** Why the port dropped a received frame. */
    enum DropReason : uint8_t
    {
        RX_LOSS = 0,      //!< the random receive loss (RxLossRate)
        DROP_REASON_COUNT //!< number of reasons
    };
    static_assert(DROP_REASON_COUNT == MRC_DEVICE_DROP_REASONS, "one counter per reason");

    /**
     * @param reason a DropReason
     * @return its name
     */
    static const char* DropReasonName(uint32_t reason);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcNetDevice();
    /**
     * Copy a device that was never attached (no node, cable or queue) and never ran: its
     * attributes and its state as made. For CopyObject from a prototype (MrcClosHelper makes
     * millions of ports: copying skips ns-3's attribute construction for each). The copy keeps
     * the original's MAC address; give it its own with SetAddress.
     * @param o the device to copy
     */
    MrcNetDevice(const MrcNetDevice& o);
    MrcNetDevice& operator=(const MrcNetDevice&) = delete;
    ~MrcNetDevice() override;

    /**
     * @param channel the cable to attach to
     */
    void Attach(Ptr<MrcChannel> channel);
    /** @param queue the egress queue */
    void SetQueue(Ptr<MrcTrimmingQueue> queue);
    /** @return the egress queue */
    Ptr<MrcTrimmingQueue> GetQueue() const;
    /** @return the cable */
    Ptr<MrcChannel> GetMrcChannel() const;

    /**
     * Hand received frames to a receiver instead of the node's protocol handlers. The port
     * then drops the node's receive callback (Node::AddDevice's) and ignores SetReceiveCallback
     * while the receiver is set: detaching it (null) leaves frames to a callback set after that.
     * @param receiver the receiver (not owned; must outlive the device's use)
     * @param port the index the receiver knows this port by
     */
    void SetFrameReceiver(MrcFrameReceiver* receiver, uint32_t port);

    /**
     * Queue a frame for transmission.
     * @param packet the IPv6 payload
     * @param header the IPv6 header
     * @param ingress the switch port it arrived on, charged while it waits (PFC), or 0xffff
     * @return false if it was dropped (queue full or link down)
     */
    bool SendFrame(Ptr<Packet> packet, MrcIpv6Fields& header, uint16_t ingress = 0xffff);

    /**
     * Queue a frame for transmission (the fabric's path: a switch forwarding a frame).
     * @param frame the IPv6 payload (moved from)
     * @param header the IPv6 header, payloadLength equal to the packet's size
     * @param ingress as above
     * @return false if it was dropped (queue full or link down)
     */
    bool SendFrame(MrcFrame&& frame, MrcIpv6Fields& header, uint16_t ingress = 0xffff);

    /**
     * Called by the channel when a frame arrives.
     * @param frame the IPv6 payload (moved from)
     * @param header its IPv6 header
     */
    void Receive(MrcFrame&& frame, MrcIpv6Fields& header);

    /**
     * Called by the cable's arrival event: receive the frame, unless the cable went down after
     * it was sent (it is then lost in flight: MrcChannel::LoseInFlight).
     * @param frame the IPv6 payload (moved from)
     * @param header its IPv6 header
     * @param epoch the cable's epoch when the frame was sent
     */
    void ReceiveFromCable(MrcFrame&& frame, MrcIpv6Fields& header, uint32_t epoch);

    /**
     * Called by the channel when the cable goes up or down.
     * @param up the new state
     * @param epoch the cable's epoch after the change (MrcChannel::GetEpoch)
     */
    void NotifyLinkChange(bool up, uint32_t epoch);

    /**
     * PFC: send an IEEE 802.1Qbb PAUSE for the data (lossless) class to the other end of the
     * cable. It leaves after the frame being serialized, ahead of anything queued.
     * @param quanta pause time in quanta of 512 bit times (0 resumes at once)
     */
    void SendPause(uint16_t quanta);

    /**
     * PFC: a PAUSE arrived. The data class stops after the frame being serialized, for quanta x
     * 512 bit times or until a PAUSE with zero quanta; control frames keep flowing.
     * @param quanta pause quanta
     */
    void ReceivePause(uint16_t quanta);

    /** @return true while the data class is paused */
    bool IsPaused() const
    {
        return m_paused;
    }

    /** @return PAUSE frames sent (XOFF and XON) */
    uint64_t GetPausesSent() const;
    /** @return PAUSE frames received */
    uint64_t GetPausesReceived() const;
    /** @return total time the data class was paused, the current pause included */
    Time GetPausedTime() const;
    /** @return times the PFC watchdog broke a pause */
    uint64_t GetWatchdogTriggers() const;

    /** @return the delay added to every arrival (a switch's forwarding latency) */
    Time GetRxLatency() const
    {
        return m_rxLatency;
    }

    /**
     * Start loading the fields every frame sent or received reads (MrcEventPrefetch: an
     * arrival or transmit-complete event for this port is about to run).
     */
    void Prefetch() const
    {
        MrcEventPrefetch::Lines(&m_queue, &m_rxLossRate + 1);
    }

    /**
     * Start loading what comes after this port for the next event: the receiver behind it
     * (switch or protocol) for an arrival, its queue for a transmit-complete. Reads the port.
     * @param arrival true for an arrival
     */
    void PrefetchNext(bool arrival) const
    {
        if (arrival)
        {
            // The receiver's class is not known here: its first two cache lines.
            if (const auto* r = reinterpret_cast<const char*>(m_receiver); r != nullptr)
            {
                MrcEventPrefetch::Lines(r, r + 128);
            }
        }
        else if (m_queue)
        {
            m_queue->Prefetch();
        }
    }

    /**
     * Start loading what an arrival at this port reads of its frame: nothing at a switch, which
     * forwards by the frame's header; where a host's protocol takes the frame, the compact
     * frame's block (its header's bytes) or the packet object (MrcFrame::Prefetch). Reads the
     * port.
     * @param frame the arriving frame
     */
    void PrefetchArrivingPacket(const MrcFrame& frame) const
    {
        if (m_rxReadsPacket)
        {
            frame.Prefetch();
        }
    }

    /**
     * Start loading, one level beyond PrefetchNext and PrefetchArrivingPacket (which ran an
     * event earlier), what an arriving frame reads next: where a host's protocol takes the
     * frame, its tables and, for a frame that holds a packet, the packet's first bytes and its
     * metadata (MrcFrame::PrefetchInsides); at a switch, the egress port
     * (MrcFrameReceiver::PrefetchForwarding). Reads the port and its receiver.
     * @param frame the arriving frame
     * @param header its IPv6 fields
     */
    void PrefetchArrival(const MrcFrame& frame, const MrcIpv6Fields& header) const
    {
        if (m_rxReadsPacket)
        {
            frame.PrefetchInsides();
            m_receiver->PrefetchTables();
        }
        else if (m_receiver != nullptr)
        {
            m_receiver->PrefetchForwarding(header);
        }
    }

    /**
     * Start loading, one level beyond PrefetchArrival (which ran an event earlier), the state a
     * host's protocol reads for an arriving frame (MrcFrameReceiver::PrefetchReceive); nothing
     * at a switch. Reads the port.
     * @param frame the arriving frame
     */
    void PrefetchReceiverState(const MrcFrame& frame) const
    {
        if (m_rxReadsPacket)
        {
            m_receiver->PrefetchReceive(frame);
        }
    }

    /**
     * Start loading, one level beyond PrefetchReceiverState (which ran an event earlier), what
     * the queue pair an arriving frame is for reads next (MrcFrameReceiver::PrefetchReceiveParts);
     * nothing at a switch. Reads the port.
     * @param frame the arriving frame
     */
    void PrefetchReceiverParts(const MrcFrame& frame) const
    {
        if (m_rxReadsPacket)
        {
            m_receiver->PrefetchReceiveParts(frame);
        }
    }

    /**
     * Start loading, one level beyond the transmit-complete's Deep stage (which loaded the
     * receiver's first lines an event earlier), what the receiver's TxDrained reads
     * (MrcFrameReceiver::PrefetchTxDrained), where this port tells it. Reads the port.
     */
    void PrefetchDrainedState() const
    {
        if (m_txNotify)
        {
            m_receiver->PrefetchTxDrained();
        }
    }

    /**
     * Start loading what forwarding a frame out of this port reads of it (MrcEventPrefetch: a
     * switch's route names this port for a frame about to arrive).
     */
    void PrefetchEgress() const
    {
        MrcEventPrefetch::Lines(this, &m_rxLossRate + 1);
    }

    /** @return the owning node's id (cached: used on every hop) */
    uint32_t GetNodeId() const
    {
        return m_nodeId;
    }

    /** @return the delay added to every frame this port sends (a NIC's send pipeline) */
    Time GetTxLatency() const
    {
        return m_txLatency;
    }

    /**
     * @return 0 when a frame arriving at this port is received once its last bit is in
     * (store and forward), else the bytes after which it is (cut-through: set by the switch)
     */
    uint32_t GetCutThroughBytes() const
    {
        return m_cutThroughBytes;
    }

    /**
     * @param bytes the first bytes of a frame
     * @return how long this port takes to put them on the wire
     */
    Time GetLeadTime(uint32_t bytes) const
    {
        return PicoSeconds(m_psPerByte * bytes);
    }

    /** @param latency delay added to every arrival at this port */
    void SetRxLatency(Time latency);
    /**
     * @param bytes 0: frames arriving here are received when complete; else after their
     * first @p bytes (cut-through, valid when no port of the switch is faster than this one)
     */
    void SetCutThroughBytes(uint32_t bytes);
    /** @param rate the line rate */
    void SetDataRate(DataRate rate);
    /** @return the line rate */
    DataRate GetDataRate() const;
    /**
     * When a frame handed over now would start onto the wire: after the frame being
     * serialized and everything queued ahead of it (the port serves its queue FIFO within a
     * class; a control frame that arrives later may still overtake a data frame by a few
     * nanoseconds). A NIC stamps a packet's send time at the wire, not when the QP scheduler
     * picked it, so that the RTT excludes the sender's own queue.
     * @return the time the next frame would start transmission
     */
    Time GetTxStartTime() const;

    /** @return data bytes waiting in the queue (not counting the frame on the wire) */
    uint32_t GetQueuedDataBytes() const
    {
        return m_queue ? m_queue->GetDataBytes() : 0;
    }

    /**
     * Tell the frame receiver (MrcFrameReceiver::TxDrained) each time a queued frame starts
     * onto the wire. A host's MRC protocol uses it to hand the port its next packet, the way a
     * NIC's transmit scheduler pulls packets from its queue pairs.
     * @param notify true to notify
     */
    void SetTxNotify(bool notify);
    /** @return frames transmitted */
    uint64_t GetTxPackets() const;
    /** @return bytes transmitted (IPv6 header included) */
    uint64_t GetTxBytes() const;
    /**
     * Count in `*counter` every frame offered to this port (SendFrame) and every frame it
     * starts sending: while the count stands still, neither its transmitted bytes nor its data
     * backlog can grow (MrcLinkMonitor skips idle samples with it). One counter per port.
     * @param counter the counter, or null to stop counting
     * @return false (and nothing changed) if another counter is set
     */
    bool SetActivityCounter(uint64_t* counter);
    /**
     * Stop counting into `counter`, if that is the port's counter.
     * @param counter the counter
     */
    void ReleaseActivityCounter(const uint64_t* counter);
    /** @return frames received (those lost by RxLossRate not included) */
    uint64_t GetRxPackets() const;
    /**
     * @param rate the probability that an arriving frame is dropped (RxLossRate), in [0, 1]
     */
    void SetRxLossRate(double rate);
    /** @return RxLossRate */
    double GetRxLossRate() const;
    /**
     * Assign a fixed stream to the receive-loss random variable.
     * @param stream first stream index
     * @return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /**
     * Send a whole IPv6 packet: its first 40 bytes are the IPv6 header (as ns3::Ipv6Header or
     * MrcIpv6Header writes it), the rest the payload.
     * @param packet the packet
     * @param dest unused (the destination is the IPv6 header's)
     * @param protocolNumber must be 0x86DD (IPv6)
     * @return false, sending nothing, for another protocol, a packet shorter than 40 bytes or
     *         one whose version nibble is not 6; else as SendFrame
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

private:
    void DoDispose() override;
    /**
     * Fire the Sniffer trace with the full frame, if anyone listens (inline: on every frame,
     * and nobody listens in most runs).
     * @param frame the IPv6 payload (given a Packet if it has none and anyone listens)
     * @param header its header
     */
    void Sniff(MrcFrame& frame, const MrcIpv6Fields& header)
    {
        if (Traces* t = m_traces.Peek(); t != nullptr && !t->sniffer.IsEmpty())
        {
            FireSniffer(frame, header);
        }
    }

    /**
     * Build the full frame (a copy with the header serialized) and fire the Sniffer trace.
     * @param frame the IPv6 payload
     * @param header its header
     */
    void FireSniffer(MrcFrame& frame, const MrcIpv6Fields& header);
    /**
     * Start sending the next queued frame if the serializer is idle (a pooled event, one per
     * frame on a busy port: ScheduleTransmitComplete).
     */
    void TransmitComplete();
    /**
     * Schedule TransmitComplete.
     * @param delay from now
     */
    void ScheduleTransmitComplete(Time delay);
    /** The pause ended (quanta ran out, a zero-quanta PAUSE came, or the watchdog broke it). */
    void Resume();
    /** The data class stayed paused for PfcWatchdog: drop it and ignore pauses for a while. */
    void OnWatchdog();
    /**
     * Put a frame on the wire now.
     * @param frame the payload (moved from)
     * @param header its header
     */
    void StartTransmission(MrcFrame&& frame, const MrcIpv6Fields& header);
    /** A port's transmit-complete event (ScheduleTransmitComplete). */
    using TransmitCompleteEvent
        = MrcRecycledMemberEvent<MrcNetDevice, &MrcNetDevice::TransmitComplete>;
    /**
     * MrcEventPrefetch's first stage for a transmit-complete event: the port.
     * @param event the event
     */
    static void PrefetchTransmitComplete(const EventImpl* event);
    /**
     * MrcEventPrefetch's second stage for a transmit-complete event: the port's queue.
     * @param event the event
     */
    static void PrefetchTransmitCompleteBeyond(const EventImpl* event);
    /**
     * MrcEventPrefetch's third stage for a transmit-complete event: the queue slot it sends,
     * the cable, and the protocol it tells that the port has room.
     * @param event the event
     */
    static void PrefetchTransmitCompleteDeep(const EventImpl* event);
    /**
     * MrcEventPrefetch's fourth stage for a transmit-complete: PrefetchDrainedState.
     * @param event the event
     */
    static void PrefetchTransmitCompleteDeeper(const EventImpl* event);
    static const bool s_prefetchRegistered; //!< the transmit-complete event registered

    /** The trace sources but Drop, and the link change listeners (made when connected). */
    struct Traces
    {
        TracedCallback<Ptr<const Packet>> sniffer; //!< full frames (IPv6 header included)
        TracedCallback<Ptr<const Packet>> macTx;   //!< frame put on the wire
        TracedCallback<Ptr<const Packet>> macRx;   //!< frame received
        TracedCallback<> linkChange;               //!< link change listeners
        TracedCallback<uint16_t> pauseTx;          //!< PAUSE sent (quanta)
        TracedCallback<uint16_t> pauseRx;          //!< PAUSE received (quanta)
        TracedCallback<bool> paused;               //!< data class paused / resumed
    };

    // What every frame sent or received reads or writes comes first, together (on a large
    // fabric a port is cold when its next frame comes). The trace sources' pointer is among
    // them: every frame sent or received checks it.
    Ptr<MrcTrimmingQueue> m_queue; //!< egress queue
    Ptr<MrcChannel> m_channel;     //!< cable
    MrcFrameReceiver* m_receiver;  //!< fast receive path, or null
    uint64_t* m_activity;          //!< counts frames offered and started, or null
    MrcLazy<Traces> m_traces;      //!< the trace sources, once connected
    Time m_busyUntil;              //!< serializer busy until
    uint64_t m_psPerByte;          //!< serialization time per byte, picoseconds
    uint64_t m_psRounding;         //!< 500 when Time has nanosecond resolution (round to nearest)
    Time m_rxLatency;              //!< added to arrivals
    Time m_txLatency;              //!< TxLatency attribute: added to departures
    uint32_t m_cutThroughBytes;    //!< 0, or receive a frame after this many bytes
    uint32_t m_nodeId;             //!< owner id
    uint32_t m_port;               //!< index known to m_receiver
    uint32_t m_cableEpoch;         //!< the cable's epoch as last notified
    bool m_txEventPending;         //!< a TransmitComplete is scheduled
    bool m_linkUp;                 //!< cable state as last notified
    bool m_paused;                 //!< PFC: data class paused
    bool m_txNotify;               //!< call m_receiver->TxDrained on dequeue
    bool m_rxReadsPacket;          //!< m_receiver reads arriving packets (a host's protocol)
    uint64_t m_txPackets;          //!< frames sent
    uint64_t m_txBytes;            //!< bytes sent
    uint64_t m_rxPackets;          //!< frames received
    double m_rxLossRate;           //!< RxLossRate

    Ptr<Node> m_node;                              //!< owner
    uint32_t m_ifIndex;                            //!< interface index
    Mac48Address m_address;                        //!< nominal address
    uint16_t m_mtu;                                //!< MTU (IPv6 packet)
    DataRate m_dataRate;                           //!< line rate
    Time m_watchdog;                               //!< PfcWatchdog attribute (0: off)
    Time m_watchdogRestore;                        //!< PfcWatchdogRestore attribute
    NetDevice::ReceiveCallback m_rxCallback;       //!< standard receive path
    NetDevice::PromiscReceiveCallback m_promiscRx; //!< promiscuous receive path
    Ptr<UniformRandomVariable> m_rxLoss;           //!< RxLossRate draws (created when needed)

    // Made when first needed, like m_traces: a port that never sees a PAUSE and that nothing
    // traces (almost all of the paper fabric's 4 million) keeps two null pointers instead of
    // 264 bytes.

    /** PFC state, made by the first PAUSE sent or received. */
    struct Pfc
    {
        Time pauseStart;               //!< when the current pause began
        Time pausedTime;               //!< paused time of the pauses that ended
        Time ignorePauseUntil;         //!< watchdog: pauses ignored until then
        EventId resumeEvent;           //!< end of the current pause
        EventId watchdogEvent;         //!< watchdog check
        uint64_t pausesSent = 0;       //!< PAUSE frames sent
        uint64_t pausesReceived = 0;   //!< PAUSE frames received
        uint64_t watchdogTriggers = 0; //!< pauses broken by the watchdog
    };

    MrcLazy<Pfc> m_pfc; //!< PFC state, once a PAUSE was sent or received
};

} // namespace ns3

#endif /* MRC_NET_DEVICE_H */
