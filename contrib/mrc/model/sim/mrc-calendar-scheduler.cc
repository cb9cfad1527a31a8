/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-calendar-scheduler.h"

#include "ns3/mrc-event-prefetch.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcCalendarScheduler);

TypeId
MrcCalendarScheduler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcCalendarScheduler")
              .SetParent<Scheduler>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcCalendarScheduler>()
              .AddAttribute("BucketWidth",
                            "Time span of one bucket (rounded down to a power of two of the time "
                            "resolution's unit). Does not change the event order.",
                            TimeValue(NanoSeconds(1)),
                            MakeTimeAccessor(&MrcCalendarScheduler::m_widthAttr),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("Buckets",
                            "Buckets in the horizon (rounded up to a power of two); events further "
                            "ahead wait in a heap. Does not change the event order.",
                            UintegerValue(16384),
                            MakeUintegerAccessor(&MrcCalendarScheduler::m_nBuckets),
                            MakeUintegerChecker<uint32_t>(64, 1u << 24));
    return tid;
}

MrcCalendarScheduler::MrcCalendarScheduler()
    : m_nBuckets(16384)
    , m_ready(false)
    , m_shift(0)
    , m_mask(0)
    , m_free(NIL)
    , m_warm(NIL)
    , m_warmStop(NIL)
    , m_current(0)
    , m_runPos(0)
    , m_nearCount(0)
    , m_count(0)
{
}

MrcCalendarScheduler::~MrcCalendarScheduler() = default;

void
MrcCalendarScheduler::Setup()
{
    uint64_t n = 64;
    while (n < m_nBuckets)
    {
        n <<= 1;
    }
    const int64_t width = std::max<int64_t>(m_widthAttr.GetTimeStep(), 1);
    m_shift = 0;
    while ((int64_t(2) << m_shift) <= width)
    {
        ++m_shift;
    }
    m_mask = n - 1;
    m_head.assign(n, NIL);
    m_bitmap.assign(n / 64, 0);
    m_nodes.reserve(1024);
    m_run.reserve(64);
    m_ready = true;
}

uint64_t
MrcCalendarScheduler::BucketOf(uint64_t ts) const
{
    return ts >> m_shift;
}

void
MrcCalendarScheduler::Push(const Event& ev, uint64_t bucket)
{
    const uint64_t i = bucket & m_mask;
    uint32_t n = m_head[i];
    if (n == NIL || m_nodes[n].count == CHUNK)
    {
        uint32_t fresh;
        if (m_free != NIL)
        {
            fresh = m_free;
            m_free = m_nodes[fresh].next;
        }
        else
        {
            fresh = static_cast<uint32_t>(m_nodes.size());
            m_nodes.emplace_back();
        }
        // The bucket's nodes form a ring, the newest pointing at the oldest: the new node goes
        // between them.
        m_nodes[fresh].count = 0;
        if (n == NIL)
        {
            m_nodes[fresh].next = fresh;
        }
        else
        {
            m_nodes[fresh].next = m_nodes[n].next;
            m_nodes[n].next = fresh;
        }
        m_head[i] = fresh;
        n = fresh;
    }
    Node& node = m_nodes[n];
    node.ev[node.count++] = ev;
    m_bitmap[i >> 6] |= uint64_t(1) << (i & 63);
    ++m_nearCount;
}

void
MrcCalendarScheduler::Insert(const Event& ev)
{
    if (!m_ready)
    {
        Setup();
    }
    ++m_count;
    const uint64_t bucket = BucketOf(ev.key.m_ts);
    if (m_runPos < m_run.size() && bucket <= m_current)
    {
        // Into the bucket being run (ts is not before the last event run): keep it sorted.
        m_run.insert(std::upper_bound(m_run.begin() + m_runPos, m_run.end(), ev), ev);
        return;
    }
    if (m_runPos >= m_run.size() && m_count == 1)
    {
        // Nothing pending: the calendar starts over at this event's bucket.
        m_current = bucket;
        m_run.clear();
        m_runPos = 0;
        m_run.push_back(ev);
        return;
    }
    if (bucket <= m_current)
    {
        // The current bucket is used up but not yet left: this event starts it again.
        m_run.clear();
        m_runPos = 0;
        m_run.push_back(ev);
        return;
    }
    if (bucket - m_current <= m_mask)
    {
        Push(ev, bucket);
        return;
    }
    m_far.push_back(ev);
    std::push_heap(m_far.begin(), m_far.end(), std::greater<Event>());
}

bool
MrcCalendarScheduler::IsEmpty() const
{
    return m_count == 0;
}

void
MrcCalendarScheduler::WarmNextBucket()
{
    m_warm = NIL;
    const uint64_t after = NextNonEmpty();
    if (after == UINT64_MAX)
    {
        return;
    }
    const uint32_t newest = m_head[after & m_mask];
    PrefetchNode(newest);
    m_warm = newest;
    m_warmStop = newest;
}

uint64_t
MrcCalendarScheduler::NextNonEmpty() const
{
    if (m_nearCount == 0)
    {
        return UINT64_MAX;
    }
    const uint64_t words = m_bitmap.size();
    const uint64_t start = (m_current + 1) & m_mask;
    uint64_t w = start >> 6;
    uint64_t bits = m_bitmap[w] & (~uint64_t(0) << (start & 63));
    // Buckets are visited in circular order from the current one; all near events lie within
    // one horizon after it, so the first set bit is the earliest bucket.
    for (uint64_t k = 0; k <= words; ++k)
    {
        if (bits != 0)
        {
            const uint64_t i = (w << 6) | static_cast<uint64_t>(__builtin_ctzll(bits));
            return m_current + ((i - m_current) & m_mask);
        }
        w = (w + 1 == words) ? 0 : w + 1;
        bits = m_bitmap[w];
    }
    NS_ABORT_MSG("MrcCalendarScheduler: bucket bitmap out of step with its count");
    return UINT64_MAX;
}

void
MrcCalendarScheduler::Advance()
{
    uint64_t next = NextNonEmpty();
    if (!m_far.empty())
    {
        next = std::min(next, BucketOf(m_far.front().key.m_ts));
    }
    NS_ABORT_MSG_IF(next == UINT64_MAX, "MrcCalendarScheduler: no event to advance to");
    m_current = next;
    if (m_run.capacity() > RUN_KEPT)
    {
        // A bucket far larger than usual (on a large fabric, every device's Initialize at
        // t = 0: 4 million events, a 200 MB array) gives its memory back.
        std::vector<Event>().swap(m_run);
    }
    m_run.clear();
    m_runPos = 0;
    const uint64_t i = next & m_mask;
    if (const uint32_t newest = m_head[i]; newest != NIL)
    {
        // Oldest node first: the events come out in the order they were inserted.
        uint32_t n = m_nodes[newest].next;
        while (true)
        {
            Node& node = m_nodes[n];
            m_run.insert(m_run.end(), node.ev, node.ev + node.count);
            m_nearCount -= node.count;
            const uint32_t after = node.next;
            node.next = m_free;
            m_free = n;
            if (n == newest)
            {
                break;
            }
            n = after;
        }
    }
    m_head[i] = NIL;
    m_bitmap[i >> 6] &= ~(uint64_t(1) << (i & 63));
    bool merged = false;
    while (!m_far.empty() && BucketOf(m_far.front().key.m_ts) == next)
    {
        std::pop_heap(m_far.begin(), m_far.end(), std::greater<Event>());
        m_run.push_back(m_far.back());
        m_far.pop_back();
        merged = true;
    }
    // By (timestamp, uid): ns-3's order. Events enter a bucket in uid order (each insert takes
    // the next uid), so when a bucket is one time step wide and no far event joined, they are
    // in that order already.
    if (m_shift != 0 || merged)
    {
        std::sort(m_run.begin(), m_run.end());
    }
    NS_ASSERT(std::is_sorted(m_run.begin(), m_run.end()));
    // The look-ahead (MrcSimulatorImpl) does not reach across a bucket's end: start loading
    // the first events' objects now, all at once, instead of one demand miss each.
    for (std::size_t k = 0, n = std::min<std::size_t>(m_run.size(), 5 * MrcEventPrefetch::GAP + 1);
         k < n;
         ++k)
    {
        __builtin_prefetch(m_run[k].impl);
    }
    WarmNextBucket();
}

Scheduler::Event
MrcCalendarScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_count == 0, "MrcCalendarScheduler: PeekNext on an empty scheduler");
    if (m_runPos >= m_run.size())
    {
        // Logically const: only the internal layout moves on.
        const_cast<MrcCalendarScheduler*>(this)->Advance();
    }
    return m_run[m_runPos];
}

Scheduler::Event
MrcCalendarScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_count == 0, "MrcCalendarScheduler: RemoveNext on an empty scheduler");
    if (m_runPos >= m_run.size())
    {
        Advance();
    }
    const Event next = m_run[m_runPos++];
    --m_count;
    if (m_runPos < m_run.size())
    {
        // The next event's object is touched first thing after this one runs: start loading it.
        __builtin_prefetch(m_run[m_runPos].impl);
    }
    WarmStep();
    return next;
}

void
MrcCalendarScheduler::Remove(const Event& ev)
{
    const uint32_t uid = ev.key.m_uid;
    for (std::size_t k = m_runPos; k < m_run.size(); ++k)
    {
        if (m_run[k].key.m_uid == uid)
        {
            m_run.erase(m_run.begin() + k);
            --m_count;
            return;
        }
    }
    const uint64_t bucket = BucketOf(ev.key.m_ts);
    if (bucket > m_current && bucket - m_current <= m_mask)
    {
        const uint64_t i = bucket & m_mask;
        const uint32_t newest = m_head[i];
        uint32_t prev = newest;
        for (uint32_t n = newest == NIL ? NIL : m_nodes[newest].next; n != NIL;)
        {
            Node& node = m_nodes[n];
            for (uint32_t k = 0; k < node.count; ++k)
            {
                if (node.ev[k].key.m_uid != uid)
                {
                    continue;
                }
                // Shift the rest down: the bucket keeps its insertion order.
                std::copy(node.ev + k + 1, node.ev + node.count, node.ev + k);
                --node.count;
                --m_nearCount;
                --m_count;
                if (node.count == 0)
                {
                    if (n == prev)
                    {
                        m_head[i] = NIL; // the bucket's only node
                        m_bitmap[i >> 6] &= ~(uint64_t(1) << (i & 63));
                    }
                    else
                    {
                        m_nodes[prev].next = node.next;
                        if (n == newest)
                        {
                            m_head[i] = prev;
                        }
                    }
                    node.next = m_free;
                    m_free = n;
                }
                return;
            }
            if (n == newest)
            {
                break;
            }
            prev = n;
            n = node.next;
        }
    }
    for (std::size_t k = 0; k < m_far.size(); ++k)
    {
        if (m_far[k].key.m_uid == uid)
        {
            m_far[k] = m_far.back();
            m_far.pop_back();
            std::make_heap(m_far.begin(), m_far.end(), std::greater<Event>());
            --m_count;
            return;
        }
    }
    NS_ABORT_MSG("MrcCalendarScheduler: Remove of an event that is not scheduled");
}

} // namespace ns3
