/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HEAP_SCHEDULER_H
#define MRC_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An event scheduler for packet-level fabric simulations: an implicit 4-ary min-heap
 * in one contiguous array.
 *
 * Events are ordered exactly as by every ns-3 scheduler, by (timestamp, uid); uids are unique,
 * so the order is total and a run gives the same event sequence, hence the same results, as
 * with ns-3's default MapScheduler. What differs is the cost: the default scheduler keeps a
 * red-black tree with one heap-allocated node per event, and a fabric simulation inserts and
 * removes about ten events per data packet; this heap has no per-event allocation, touches a
 * few cache lines per operation and needs log4(n) levels.
 *
 * Insert and RemoveNext are O(log n). Remove (only used by Simulator::Remove, never by
 * Simulator::Cancel) finds the event by a linear scan, O(n).
 *
 * Select it like any ns-3 scheduler: `--SchedulerType=ns3::MrcHeapScheduler` on a program's
 * command line, `GlobalValue::Bind("SchedulerType", ...)`, or `Simulator::SetScheduler` with an
 * ObjectFactory.
 */
class MrcHeapScheduler : public Scheduler
{
public:
    /**
     * Register this type.
     * @return The object TypeId.
     */
    static TypeId GetTypeId();

    MrcHeapScheduler();
    ~MrcHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

private:
    /**
     * Whether a is scheduled before b.
     * @param a an event
     * @param b an event
     * @return true if a runs first
     */
    static bool Before(const Event& a, const Event& b);

    /**
     * Move the event at index i up to its place.
     * @param i index
     */
    void SiftUp(std::size_t i);

    /**
     * Move the event at index i down to its place.
     * @param i index
     */
    void SiftDown(std::size_t i);

    std::vector<Event> m_heap; //!< the heap; m_heap[0] runs next
};

} // namespace ns3

#endif /* MRC_HEAP_SCHEDULER_H */
