/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CALENDAR_SCHEDULER_H
#define MRC_CALENDAR_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An event scheduler for packet-level fabric simulations: a calendar of fixed-width
 * time buckets over a sliding horizon, with a heap for the events beyond it.
 *
 * Events are ordered exactly as by every ns-3 scheduler, by (timestamp, uid), so a run gives
 * the same event sequence, hence the same results, as with ns-3's MapScheduler or
 * MrcHeapScheduler. The difference is the cost in a large fabric. Almost every event is a frame
 * arriving a link delay from now or a port finishing a frame a serialization time from now, so
 * the pending events crowd a window of a few microseconds. A heap of 10^4 to 10^5 of them walks
 * log4(n) levels per removal, the lower ones out of cache. Here an event goes into the bucket
 * of its time (a list in insertion order, O(1)); when the calendar reaches a bucket, its few
 * events are sorted once (not at all when a bucket is one time step wide: they were inserted in
 * uid order) and run in order. A bitmap of non-empty buckets skips empty ones 64 at a time.
 * Events beyond the horizon (timers: retransmission, probe, RoCE's seconds-long timeouts) wait
 * in a binary heap and join their bucket when the calendar reaches it.
 *
 * The bucket width (attribute `BucketWidth`, rounded down to a power of two of the time
 * resolution's unit) trades sort work in crowded buckets against empty buckets skipped in sparse
 * runs; the horizon is `Buckets` x width. Neither changes the event order.
 *
 * Insert is O(1) within the horizon and O(log f) beyond it (f events there); RemoveNext is
 * amortized O(log k) for buckets of k events plus the bitmap scan. Remove (only used by
 * Simulator::Remove, never by Simulator::Cancel) scans, O(n).
 *
 * Select it like any ns-3 scheduler: `--SchedulerType=ns3::MrcCalendarScheduler` on a program's
 * command line, `GlobalValue::Bind("SchedulerType", ...)`, or `Simulator::SetScheduler` with an
 * ObjectFactory. Set its attributes (if at all) through `Config::SetDefault` before the
 * simulator is created.
 */
class MrcCalendarScheduler final : public Scheduler
{
public:
    /**
     * Register this type.
     * @return The object TypeId.
     */
    static TypeId GetTypeId();

    MrcCalendarScheduler();
    ~MrcCalendarScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * Insert, with its common case inline: an event for a bucket of the horizon whose newest
     * node has room. Everything else goes to Insert. The same result as Insert.
     * @param ev the event
     */
    void InsertInline(const Event& ev)
    {
        const uint64_t bucket = ev.key.m_ts >> m_shift;
        // As in Insert: with events pending (so set up), a bucket after the current one and
        // within the horizon goes to Push; here only when its newest node has room (its bit in
        // the bitmap is set while it has a node).
        if (m_count != 0 && bucket > m_current && bucket - m_current <= m_mask)
        {
            if (const uint32_t n = m_head[bucket & m_mask]; n != NIL)
            {
                Node& node = m_nodes[n];
                if (node.count < CHUNK)
                {
                    node.ev[node.count++] = ev;
                    ++m_nearCount;
                    ++m_count;
                    return;
                }
            }
        }
        Insert(ev);
    }

    /**
     * RemoveNext, with its common case inline: the next event of the bucket being run.
     * Everything else goes to RemoveNext. The same result as RemoveNext.
     * @return the event
     */
    Event RemoveNextInline()
    {
        if (m_runPos + 1 < m_run.size())
        {
            const Event next = m_run[m_runPos++];
            --m_count;
            // As RemoveNext: start loading the event after it, and the next bucket's next node.
            __builtin_prefetch(m_run[m_runPos].impl);
            WarmStep();
            return next;
        }
        return RemoveNext();
    }

    /**
     * IsEmpty, inline.
     * @return true if no event is pending
     */
    bool IsEmptyInline() const
    {
        return m_count == 0;
    }

    /**
     * The events after the next one that are already sorted to run (the rest of the bucket
     * being run), for looking ahead (MrcEventPrefetch): no effect on the order.
     * @param n set to how many there are
     * @return the first of them (valid until the scheduler changes), if n > 0
     */
    const Event* PeekAhead(std::size_t& n) const
    {
        n = m_runPos < m_run.size() ? m_run.size() - m_runPos : 0;
        return m_run.data() + m_runPos;
    }

private:
    static constexpr uint32_t CHUNK = 5;           //!< events per node (a node is two cache lines)
    static constexpr uint32_t NIL = UINT32_MAX;    //!< no node
    static constexpr std::size_t RUN_KEPT = 65536; //!< m_run keeps at most this capacity

    /**
     * A few pending events of one bucket, in the order they were inserted. A bucket is a ring
     * of nodes: its head is the newest, which points at the oldest, so the bucket is read out
     * in insertion order. Several events per node keep the walk over a crowded bucket from
     * chasing one pointer (a cache miss) per event.
     */
    struct Node
    {
        Event ev[CHUNK]; //!< the events
        uint32_t count;  //!< events in ev
        uint32_t next;   //!< the next node of the bucket's ring (the oldest, after the newest)
    };

    /**
     * Lay out the buckets from the attributes (at the first insert).
     */
    void Setup();

    /**
     * The absolute bucket number of a timestamp.
     * @param ts timestamp
     * @return ts divided by the bucket width
     */
    uint64_t BucketOf(uint64_t ts) const;

    /**
     * Put an event into a bucket of the horizon (not the current one).
     * @param ev the event
     * @param bucket its absolute bucket
     */
    void Push(const Event& ev, uint64_t bucket);

    /**
     * Make the next non-empty bucket (or the far heap's first) the current one, sorted.
     * Only called when the current bucket is used up and events remain.
     */
    void Advance();

    /**
     * Find the first non-empty bucket of the horizon after the current one.
     * @return its absolute bucket number, or UINT64_MAX if the horizon is empty
     */
    uint64_t NextNonEmpty() const;

    /**
     * Start loading the nodes of the next non-empty bucket (a hint: nothing changes): its
     * newest node now, the others one per event that runs meanwhile (WarmStep), in the order
     * Advance will read them. A bucket's nodes form a ring, each found through the one before:
     * read cold when the bucket comes up, they were one dependent cache miss after another.
     */
    void WarmNextBucket();

    /**
     * One step of WarmNextBucket: start loading the node after the one loaded last, until the
     * walk is back at the newest.
     */
    void WarmStep()
    {
        if (m_warm != NIL)
        {
            const uint32_t n = m_nodes[m_warm].next;
            // (A node Remove took out of its bucket meanwhile may lead to the free list, which
            // ends in NIL.)
            if (n == m_warmStop || n == NIL)
            {
                m_warm = NIL;
                return;
            }
            PrefetchNode(n);
            m_warm = n;
        }
    }

    /**
     * Start loading a node (both of its lines).
     * @param n the node
     */
    void PrefetchNode(uint32_t n) const
    {
        const Node* node = &m_nodes[n];
        __builtin_prefetch(node);
        __builtin_prefetch(reinterpret_cast<const char*>(node) + 64);
    }

    Time m_widthAttr;    //!< bucket width (attribute)
    uint32_t m_nBuckets; //!< buckets in the horizon (attribute; rounded up to a power of two)

    bool m_ready;                   //!< Setup done
    unsigned m_shift;               //!< log2 of the bucket width in time units
    uint64_t m_mask;                //!< bucket index mask (buckets - 1)
    std::vector<uint32_t> m_head;   //!< newest node of each bucket, or NIL
    std::vector<uint64_t> m_bitmap; //!< non-empty buckets
    std::vector<Node> m_nodes;      //!< node pool
    uint32_t m_free;                //!< first free node, or NIL
    uint32_t m_warm;                //!< WarmStep's last node loaded, or NIL (no walk)
    uint32_t m_warmStop;            //!< the newest node of the bucket WarmStep walks

    uint64_t m_current;       //!< absolute number of the current bucket
    std::vector<Event> m_run; //!< the current bucket's events, sorted
    std::size_t m_runPos;     //!< next event of m_run
    std::vector<Event> m_far; //!< events beyond the horizon (a min-heap: std::greater)
    std::size_t m_nearCount;  //!< events in the buckets (not in m_run or m_far)
    std::size_t m_count;      //!< all pending events
};

} // namespace ns3

#endif /* MRC_CALENDAR_SCHEDULER_H */
