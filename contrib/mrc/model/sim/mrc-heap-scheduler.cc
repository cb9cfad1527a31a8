/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-heap-scheduler.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcHeapScheduler);

namespace
{
constexpr std::size_t ARITY = 4; //!< children per heap node
} // namespace

TypeId
MrcHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcHeapScheduler>();
    return tid;
}

MrcHeapScheduler::MrcHeapScheduler()
{
    m_heap.reserve(1024);
}

MrcHeapScheduler::~MrcHeapScheduler() = default;

bool
MrcHeapScheduler::Before(const Event& a, const Event& b)
{
    return a.key < b.key; // ns-3's order: timestamp, then uid
}

void
MrcHeapScheduler::SiftUp(std::size_t i)
{
    const Event ev = m_heap[i];
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / ARITY;
        if (!Before(ev, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

void
MrcHeapScheduler::SiftDown(std::size_t i)
{
    const std::size_t n = m_heap.size();
    const Event ev = m_heap[i];
    while (true)
    {
        const std::size_t first = i * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        const std::size_t last = std::min(first + ARITY, n);
        std::size_t best = first;
        for (std::size_t c = first + 1; c < last; ++c)
        {
            if (Before(m_heap[c], m_heap[best]))
            {
                best = c;
            }
        }
        if (!Before(m_heap[best], ev))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = ev;
}

void
MrcHeapScheduler::Insert(const Event& ev)
{
    m_heap.push_back(ev);
    SiftUp(m_heap.size() - 1);
}

bool
MrcHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
MrcHeapScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_heap.empty(), "MrcHeapScheduler: PeekNext on an empty scheduler");
    return m_heap.front();
}

Scheduler::Event
MrcHeapScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_heap.empty(), "MrcHeapScheduler: RemoveNext on an empty scheduler");
    const Event next = m_heap.front();
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0);
        // The next event's object is touched first thing after this one runs: start loading it.
        __builtin_prefetch(m_heap.front().impl);
    }
    return next;
}

void
MrcHeapScheduler::Remove(const Event& ev)
{
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].key.m_uid == ev.key.m_uid)
        {
            m_heap[i] = m_heap.back();
            m_heap.pop_back();
            if (i < m_heap.size())
            {
                SiftDown(i);
                SiftUp(i);
            }
            return;
        }
    }
    NS_ABORT_MSG("MrcHeapScheduler: Remove of an event that is not scheduled");
}

} // namespace ns3
