/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRIMMING_QUEUE_H
#define MRC_TRIMMING_QUEUE_H

#include "ns3/mrc-drop-accounting.h"
#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-frame-receiver.h"
#include "ns3/mrc-frame.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-lazy.h"

#include "ns3/assert.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An egress queue with two strict-priority classes, ECN marking and packet trimming.
 *
 * The *control* class (ACK, SACK, NACK, probes, trimmed headers) is always served first and is
 * never trimmed. The *data* class holds packets whose DSCP is MrcDscp::DATA. Every arriving
 * packet has exactly one of three outcomes, as in ns-3's QueueDisc with a third one added:
 *
 * - **enqueued** intact (a data packet may also be ECN-marked: RED-like between EcnMinBytes and
 *   EcnMaxBytes of data backlog, only if ECN-capable, only where EcnEnabled);
 * - **trimmed**: a data packet that does not fit is cut to TrimSize bytes of IPv6 payload, its
 *   DSCP set to TRIMMED (or TRIMMED_LAST_HOP on a LastHop port), and queued in the control class;
 * - **dropped**, with a reason (DropReason).
 *
 * Accounting identity (checked by the tests), with Q the packets still queued:
 *   arrivals = dequeued + Q + dropped (all reasons)
 * where trimmed packets are among the dequeued, queued or LINK_DOWN-dropped ones, and a packet
 * refused by a down link (CountExternalDrop) counts as an arrival dropped with LINK_DOWN.
 * Sizes count the 40-byte IPv6 header.
 */
/** Drop reasons of MrcTrimmingQueue (MrcTrimmingQueue::DROP_REASON_COUNT). */
constexpr std::size_t MRC_QUEUE_DROP_REASONS = 5;

class MrcTrimmingQueue
    : public Object
    , public MrcDropAccounting<MRC_QUEUE_DROP_REASONS>
{
public:
    /** Why a packet was dropped. */
    enum DropReason : uint8_t
    {
        DATA_OVERFLOW = 0, //!< data class full and trimming off
        CONTROL_OVERFLOW,  //!< control class full
        TRIMMED_OVERFLOW,  //!< trimmed header found the control class full
        LINK_DOWN,         //!< queued for (or sent to) a link that went down
        PFC_WATCHDOG,      //!< data dropped by the PFC watchdog (a port paused too long)
        DROP_REASON_COUNT  //!< number of reasons
    };
    static_assert(DROP_REASON_COUNT == MRC_QUEUE_DROP_REASONS, "one counter per reason");

    /** The outcome of Enqueue. */
    enum Outcome : uint8_t
    {
        ENQUEUED = 0, //!< queued intact
        TRIMMED,      //!< trimmed, header queued in the control class
        DROPPED       //!< dropped
    };

    /** Ingress port of a frame that did not come from a switch port (host sends). */
    static constexpr uint16_t NO_INGRESS = 0xffff;
    /**
     * @param reason a DropReason
     * @return its name
     */
    static const char* DropReasonName(uint32_t reason);

    /**
     * Signature of the Trim trace source.
     * @param packet the trimmed packet (header only)
     * @param lastHop true if trimmed on a host-facing port
     */
    typedef void (*TrimTracedCallback)(Ptr<const Packet> packet, bool lastHop);

    /**
     * Signature of the Drop trace source.
     * @param packet the dropped packet
     * @param reason a DropReason
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t reason);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcTrimmingQueue();
    /**
     * Copy a queue that never held a packet: its attributes and its state as made. For
     * CopyObject from a prototype (MrcClosHelper makes millions of queues: copying skips ns-3's
     * attribute construction for each).
     * @param o the queue to copy
     */
    MrcTrimmingQueue(const MrcTrimmingQueue& o);
    MrcTrimmingQueue& operator=(const MrcTrimmingQueue&) = delete;
    ~MrcTrimmingQueue() override;

    /**
     * Offer a packet.
     * @param packet the IPv6 payload (trimming shortens it)
     * @param header its IPv6 header (trimming and marking rewrite its Traffic Class)
     * @param ingress the switch port the packet arrived on (NO_INGRESS for host sends); a data
     *        packet queued intact is charged to it at the ingress owner until it leaves
     * @return the outcome
     */
    Outcome Enqueue(Ptr<Packet> packet, MrcIpv6Fields& header, uint16_t ingress = NO_INGRESS);

    /**
     * Offer a frame (the fabric's path: the frame's size is header.payloadLength plus the IPv6
     * header, and the packet is not touched unless it is trimmed or a trace listens).
     * @param frame the IPv6 payload (moved from)
     * @param header its IPv6 header, payloadLength equal to the packet's size
     * @param ingress as above
     * @return the outcome
     */
    Outcome Enqueue(MrcFrame&& frame, MrcIpv6Fields& header, uint16_t ingress = NO_INGRESS);

    /**
     * Take the next packet, control class first.
     * @param packet set to the packet
     * @param header set to its header
     * @param dataAllowed false while the data class is paused (PFC): only control leaves
     * @return false if nothing may leave
     */
    bool Dequeue(Ptr<Packet>& packet, MrcIpv6Fields& header, bool dataAllowed = true);

    /**
     * Take the next frame, control class first (the fabric's path).
     * @param frame set to the frame
     * @param header set to its header
     * @param dataAllowed as above
     * @return false if nothing may leave
     */
    bool Dequeue(MrcFrame& frame, MrcIpv6Fields& header, bool dataAllowed = true);

    /**
     * Start loading the fields every enqueue and dequeue reads (MrcEventPrefetch: the port is
     * about to send its next frame).
     */
    void Prefetch() const
    {
        MrcEventPrefetch::Lines(&m_data, &m_dequeued + 1);
    }

    /**
     * Start loading the slot the next Dequeue reads (MrcEventPrefetch: the port is about to
     * send its next frame; Prefetch ran an event earlier). Reads the queue.
     */
    void PrefetchFront() const
    {
        if (const Ring& q = m_control.Empty() ? m_data : m_control; !q.Empty())
        {
            __builtin_prefetch(&q.Front());
        }
    }

    /** @return true if both classes are empty */
    bool IsEmpty() const
    {
        return m_data.Empty() && m_control.Empty();
    }

    /** @return true if the control class holds a packet */
    bool HasControl() const
    {
        return !m_control.Empty();
    }

    /**
     * Tell whom to charge and release ingress bytes (PFC accounting at a switch). Without an
     * owner no accounting happens.
     * @param owner the switch (outlives the queue's use), or null
     */
    void SetIngressOwner(MrcFrameReceiver* owner);

    /** Drop everything queued with reason LINK_DOWN. */
    void Flush();

    /**
     * Drop the data class (the PFC watchdog's action on a port paused too long).
     * @param reason the reason counted
     */
    void FlushData(DropReason reason);

    /**
     * Count (and trace) a frame dropped for a reason outside the queue's own decisions, such as
     * a down link, so that the identities above keep holding.
     * @param frame the frame (emptied; given a Packet only if the drop trace is connected)
     * @param reason the reason
     */
    void CountExternalDrop(MrcFrame&& frame, DropReason reason);

    /** @return packets offered */
    uint64_t GetArrivals() const;
    /** @return packets queued intact */
    uint64_t GetEnqueued() const;
    /** @return packets trimmed */
    uint64_t GetTrimmed() const;
    /** @return packets ECN-marked */
    uint64_t GetMarked() const;
    /** @return packets dequeued (sent) */
    uint64_t GetDequeued() const;
    /** @return packets queued now, both classes */
    uint32_t GetNPackets() const;
    /** @return data-class backlog in bytes (inline: a queue pair reads it per packet and port) */
    uint32_t GetDataBytes() const
    {
        return m_dataBytes;
    }

    /** @return control-class backlog in bytes */
    uint32_t GetControlBytes() const
    {
        return m_controlBytes;
    }

    /** @return the largest data backlog seen, in bytes */
    uint32_t GetMaxDataBytes() const;

    /**
     * Assign a fixed random variable stream number to the ECN marking variable.
     * @param stream first stream index
     * @return the number of streams assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

private:
    void DoDispose() override;

    /**
     * A queued packet with its parsed header: one cache line (aligned so that a queue's first
     * touch of a slot that waited is one miss, not two; 7 % off a 1024-host run).
     */
    struct alignas(64) Item
    {
        MrcFrame frame;       //!< IPv6 payload
        MrcIpv6Fields header; //!< IPv6 header
        uint16_t ingress;     //!< switch ingress port charged for it, or NO_INGRESS
    };

    /**
     * A FIFO ring of Items that grows by doubling and never frees while the simulation runs
     * (std::deque would allocate and free a block every few packets on this path); its arrays
     * come from MrcSlotPool.
     */
    class Ring
    {
    public:
        Ring() = default;

        /**
         * Make an empty ring (a queue is copied only before it holds a packet).
         * @param o the ring copied: it must be empty
         */
        Ring([[maybe_unused]] const Ring& o)
        {
            NS_ASSERT_MSG(o.m_size == 0, "MrcTrimmingQueue: copied while holding packets");
        }

        /** Destroy the items and give the array back to MrcSlotPool. */
        ~Ring();

        /** @return this */
        Ring& operator=(const Ring&) = delete;

        /** @return true if empty */
        bool Empty() const
        {
            return m_size == 0;
        }

        /** @return the number of items */
        std::size_t Size() const
        {
            return m_size;
        }

        /**
         * Append an item.
         * @param frame payload (moved from)
         * @param header header
         * @param ingress ingress port charged for it, or NO_INGRESS
         */
        void Push(MrcFrame&& frame, const MrcIpv6Fields& header, uint16_t ingress);
        /** @return the oldest item */
        Item& Front()
        {
            return m_items[m_head];
        }

        /** @return the oldest item */
        const Item& Front() const
        {
            return m_items[m_head];
        }

        /** Remove the oldest item. */
        void Pop();
        /**
         * Visit every item, oldest first.
         * @param f the visitor
         */
        template<typename F>
        void ForEach(F f)
        {
            for (uint32_t i = 0; i < m_size; ++i)
            {
                f(m_items[(m_head + i) & (m_capacity - 1)]);
            }
        }

        /** Remove everything. */
        void Clear();

    private:
        /** Move the items into an array twice as long (one item if there is none). */
        void Grow();

        Item* m_items = nullptr; //!< storage (from MrcSlotPool), m_capacity items
        uint32_t m_capacity = 0; //!< items the storage holds: zero or a power of two
        uint32_t m_head = 0;     //!< oldest item
        uint32_t m_size = 0;     //!< items held
    };

    /** The trace sources but Drop (made when something connects: 96 bytes per queue). */
    struct Traces
    {
        TracedCallback<Ptr<const Packet>> enqueue;    //!< queued intact
        TracedCallback<Ptr<const Packet>> dequeue;    //!< sent
        TracedCallback<Ptr<const Packet>, bool> trim; //!< trimmed (last hop?)
        TracedCallback<Ptr<const Packet>> mark;       //!< ECN-marked
    };

    // What every enqueue and dequeue reads or writes comes first, in two cache lines after the
    // Object base: on a large fabric a port's queue is cold when its next packet comes. The
    // trace sources' pointer is among them: every enqueue and dequeue checks it.
    Ring m_data;                      //!< data class
    Ring m_control;                   //!< control class
    MrcLazy<Traces> m_traces;         //!< the trace sources, once connected
    uint32_t m_dataBytes;             //!< data backlog
    uint32_t m_controlBytes;          //!< control backlog
    MrcFrameReceiver* m_ingressOwner; //!< charged for ingress bytes (PFC), or null
    uint32_t m_dataLimit;             //!< data class limit, bytes (attribute)
    uint32_t m_controlLimit;          //!< control class limit, bytes (attribute)
    uint32_t m_ecnMin;                //!< marking starts at this data backlog (attribute)
    uint32_t m_ecnMax;                //!< marking is certain from this data backlog (attribute)
    uint32_t m_maxDataBytes;          //!< data backlog high-water mark
    bool m_ecnEnabled;                //!< ECN marking on this port (attribute)
    bool m_trimEnabled;               //!< trim (true) or drop (false) overflowing data (attribute)
    bool m_lastHop;                   //!< host-facing port: trims are last-hop trims (attribute)
    uint64_t m_arrivals;              //!< offered
    uint64_t m_enqueued;              //!< queued intact
    uint64_t m_dequeued;              //!< sent

    // Used on trims, marks and drops only.
    uint32_t m_trimSize;                  //!< IPv6 payload bytes kept by trimming (attribute)
    double m_ecnMaxP;                     //!< marking probability at m_ecnMax (attribute)
    Ptr<UniformRandomVariable> m_uniform; //!< for ECN marking (made at the first draw)
    int64_t m_stream;                     //!< the stream AssignStreams gave it, or -1
    uint64_t m_trimmed;                   //!< trimmed
    uint64_t m_marked;                    //!< ECN-marked
};

} // namespace ns3

#endif /* MRC_TRIMMING_QUEUE_H */
