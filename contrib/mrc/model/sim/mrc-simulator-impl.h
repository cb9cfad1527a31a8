/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SIMULATOR_IMPL_H
#define MRC_SIMULATOR_IMPL_H

#include "ns3/mrc-calendar-scheduler.h"
#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-recyclable-event.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <list>
#include <utility>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A sequential simulator implementation that runs the same events in the same order as
 * ns-3's DefaultSimulatorImpl, with less work per event.
 *
 * Select it with the global value `SimulatorImplementationType` (`ns3::MrcSimulatorImpl`),
 * before the simulator is first used. Events are ordered by time, then by the order they were
 * scheduled in (one uid counter, as in DefaultSimulatorImpl: destroy events take a uid too),
 * so a run gives the same results with either implementation; Cancel, Remove, IsExpired and
 * GetDelayLeft answer the same. What it leaves out, per event: the EventId made for the
 * (empty) PreEventHook, the logging checks ns-3's implementation makes on each schedule and
 * event (compiled into Debian's libraries), and the check for events scheduled from other
 * threads. What it adds, with MrcCalendarScheduler (the programs' default): before each event
 * it starts loading what the next four will touch (MrcEventPrefetch), a hint to the processor
 * that leaves the order and every result as they are. An MrcRecyclableEvent it runs and
 * recycles without EventImpl's Invoke and reference count (the scheduler holds it as a pointer
 * with its lowest bit set, which the implementation clears before anything reads the object).
 *
 * It is for single-threaded simulations: ScheduleWithContext from another thread is not
 * supported (DefaultSimulatorImpl queues such events; this one would race). The real-time and
 * distributed implementations of ns-3 remain the ones for emulation and MPI.
 */
class MrcSimulatorImpl : public SimulatorImpl
{
    friend Time MrcNow();
    friend EventId MrcSchedule(const Time& delay, EventImpl* event);
    friend void MrcScheduleDetached(const Time& delay, EventImpl* event);
    friend void MrcScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event);
    friend void MrcScheduleDetached(const Time& delay, MrcRecyclableEvent* event);
    friend void MrcScheduleWithContext(uint32_t context,
                                       const Time& delay,
                                       MrcRecyclableEvent* event);

public:
    /**
     * Register this type.
     * @return the TypeId
     */
    static TypeId GetTypeId();

    MrcSimulatorImpl();
    ~MrcSimulatorImpl() override;

    // Inherited from SimulatorImpl
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    /** What SimulatorImpl::Stop(delay) returns: void in ns-3.37, the stop event's id later. */
    using StopDelayResult
        = decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>()));
    StopDelayResult Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

private:
    void DoDispose() override;

    /**
     * Put an event with the running event's context into the running implementation's
     * scheduler, as MrcScheduleDetached does.
     * @param delay from now (not negative)
     * @param held the event's pointer as the scheduler is to hold it (its reference taken over)
     * @return false (and nothing done) if no MrcSimulatorImpl is running
     */
    static bool InsertDetached(const Time& delay, EventImpl* held)
    {
        MrcSimulatorImpl* running = s_running;
        if (running == nullptr)
        {
            return false;
        }
        NS_ASSERT_MSG(delay.IsPositive(), "MrcScheduleDetached: negative delay");
        running->Insert(
            running->m_currentTs + delay.GetTimeStep(), running->m_currentContext, held);
        return true;
    }

    /**
     * Put an event with a context into the running implementation's scheduler, as
     * MrcScheduleWithContext does.
     * @param context the event's context
     * @param delay from now (not negative)
     * @param held the event's pointer as the scheduler is to hold it (its reference taken over)
     * @return false (and nothing done) if no MrcSimulatorImpl is running
     */
    static bool InsertWithContext(uint32_t context, const Time& delay, EventImpl* held)
    {
        MrcSimulatorImpl* running = s_running;
        if (running == nullptr)
        {
            return false;
        }
        NS_ASSERT_MSG(delay.IsPositive(), "MrcScheduleWithContext: negative delay");
        running->Insert(running->m_currentTs + delay.GetTimeStep(), context, held);
        return true;
    }

    /** Set in a scheduled event's pointer: the event is an MrcRecyclableEvent. */
    static constexpr std::uintptr_t RECYCLABLE = 1;

    /**
     * @param event a recyclable event
     * @return its pointer as the scheduler holds it (the lowest bit set)
     */
    static EventImpl* Mark(MrcRecyclableEvent* event)
    {
        return reinterpret_cast<EventImpl*>(
            reinterpret_cast<std::uintptr_t>(static_cast<EventImpl*>(event)) | RECYCLABLE);
    }

    /**
     * @param held an event's pointer as the scheduler holds it
     * @return the recyclable event it marks, or null if it marks none
     */
    static MrcRecyclableEvent* Recyclable(EventImpl* held)
    {
        const auto bits = reinterpret_cast<std::uintptr_t>(held);
        return (bits & RECYCLABLE) != 0 ? static_cast<MrcRecyclableEvent*>(
                   reinterpret_cast<EventImpl*>(bits & ~RECYCLABLE))
                                        : nullptr;
    }

    /**
     * @param held an event's pointer as the scheduler holds it
     * @return the event
     */
    static const EventImpl* Unmarked(const EventImpl* held)
    {
        return reinterpret_cast<const EventImpl*>(reinterpret_cast<std::uintptr_t>(held)
                                                  & ~RECYCLABLE);
    }

    /**
     * Put an event into the scheduler.
     * @param ts absolute time, in time steps
     * @param context its context
     * @param event the event (its reference is taken over)
     * @return its uid
     */
    uint32_t Insert(uint64_t ts, uint32_t context, EventImpl* event)
    {
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = ts;
        ev.key.m_context = context;
        ev.key.m_uid = m_uid++;
        ++m_unscheduledEvents;
        if (m_calendar != nullptr)
        {
            m_calendar->InsertInline(ev);
        }
        else
        {
            m_events->Insert(ev);
        }
        return ev.key.m_uid;
    }
    /**
     * Start loading what the next events will touch (MrcEventPrefetch), when the scheduler is
     * an MrcCalendarScheduler. A hint only: nothing is written.
     */
    void WarmAhead() const
    {
        if (m_calendar == nullptr)
        {
            return;
        }
        std::size_t n = 0;
        const Scheduler::Event* ahead = m_calendar->PeekAhead(n);
        constexpr std::size_t g = MrcEventPrefetch::GAP;
        if (n > 5 * g)
        {
            __builtin_prefetch(ahead[5 * g].impl);
        }
        if (n > 4 * g)
        {
            MrcEventPrefetch::Targets(Unmarked(ahead[4 * g].impl));
        }
        if (n > 3 * g)
        {
            MrcEventPrefetch::Beyond(Unmarked(ahead[3 * g].impl));
        }
        if (n > 2 * g)
        {
            MrcEventPrefetch::Deep(Unmarked(ahead[2 * g].impl));
        }
        if (n > g)
        {
            MrcEventPrefetch::Deeper(Unmarked(ahead[g].impl));
        }
        if (n > 0)
        {
            MrcEventPrefetch::Deepest(Unmarked(ahead[0].impl));
        }
    }

    Ptr<Scheduler> m_events;            //!< the pending events
    MrcCalendarScheduler* m_calendar;   //!< m_events, if an MrcCalendarScheduler; else null
    std::list<EventId> m_destroyEvents; //!< run by Destroy, in order
    uint64_t m_currentTs;               //!< now, in time steps
    uint64_t m_eventCount;              //!< events run (cancelled ones included)
    uint64_t m_unscheduledEvents;       //!< events in m_events
    uint32_t m_uid;                     //!< the next event's uid
    uint32_t m_currentUid;              //!< the running event's uid
    uint32_t m_currentContext;          //!< the running event's context
    bool m_stop;                        //!< Stop was called

    /** The implementation whose Run() was called last (until its Destroy), or null. */
    static inline MrcSimulatorImpl* s_running = nullptr;
};

/**
 * @ingroup mrc
 * The current simulation time, as Simulator::Now() gives it. While an MrcSimulatorImpl runs
 * the simulation (from its Run() until its Destroy()), it is read from that implementation
 * directly, without Simulator::Now()'s calls (the library call, the implementation lookup, the
 * virtual call); otherwise it is Simulator::Now(). For the per-packet code, which asks for the
 * time about 1.4 times per event.
 * @return the current time
 */
inline Time
MrcNow()
{
    const MrcSimulatorImpl* running = MrcSimulatorImpl::s_running;
    return running != nullptr ? TimeStep(running->m_currentTs) : Simulator::Now();
}

/**
 * @ingroup mrc
 * Schedule an event after `delay`, as `Simulator::Schedule(delay, Ptr<EventImpl>(event, false))`
 * does: the same timestamp, context and uid, so the same event order. While an
 * MrcSimulatorImpl runs the simulation (as for MrcNow()), the event goes to it directly, without
 * Simulator::Schedule's calls and logging checks; otherwise through Simulator::Schedule.
 * @param delay from now (not negative)
 * @param event the event, newly made (its one reference is taken over)
 * @return its id
 */
inline EventId
MrcSchedule(const Time& delay, EventImpl* event)
{
    MrcSimulatorImpl* running = MrcSimulatorImpl::s_running;
    if (running != nullptr)
    {
        return running->MrcSimulatorImpl::Schedule(delay, event);
    }
    return Simulator::Schedule(delay, Ptr<EventImpl>(event, false));
}

/**
 * @ingroup mrc
 * MrcSchedule for a caller that does not keep the event's id (a port's transmit-complete
 * event, whose owner keeps a pending flag instead): the same uid, hence the same event order,
 * without making the id. The event cannot be cancelled.
 * @param delay from now (not negative)
 * @param event the event, newly made (its one reference is taken over)
 */
inline void
MrcScheduleDetached(const Time& delay, EventImpl* event)
{
    if (!MrcSimulatorImpl::InsertDetached(delay, event))
    {
        Simulator::Schedule(delay, Ptr<EventImpl>(event, false));
    }
}

/**
 * @ingroup mrc
 * `Simulator::ScheduleWithContext(context, delay, event)`, directly to the running
 * MrcSimulatorImpl as MrcSchedule does (the same uid, so the same event order). Like ns-3's
 * call, it must run on the simulation's thread.
 * @param context the event's context (a node id)
 * @param delay from now (not negative)
 * @param event the event, newly made (its one reference is taken over)
 */
inline void
MrcScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (!MrcSimulatorImpl::InsertWithContext(context, delay, event))
    {
        Simulator::ScheduleWithContext(context, delay, event);
    }
}

/**
 * @ingroup mrc
 * MrcScheduleDetached for a recyclable event: the same scheduling (so the same event order),
 * and the running MrcSimulatorImpl runs it and recycles its object without EventImpl's Invoke
 * and reference count. Otherwise ns-3's path.
 * @param delay from now (not negative)
 * @param event the event (its one reference is taken over)
 */
inline void
MrcScheduleDetached(const Time& delay, MrcRecyclableEvent* event)
{
    if (!MrcSimulatorImpl::InsertDetached(delay, MrcSimulatorImpl::Mark(event)))
    {
        Simulator::Schedule(delay, Ptr<EventImpl>(event, false));
    }
}

/**
 * @ingroup mrc
 * MrcScheduleWithContext for a recyclable event (see MrcScheduleDetached).
 * @param context the event's context (a node id)
 * @param delay from now (not negative)
 * @param event the event (its one reference is taken over)
 */
inline void
MrcScheduleWithContext(uint32_t context, const Time& delay, MrcRecyclableEvent* event)
{
    if (!MrcSimulatorImpl::InsertWithContext(context, delay, MrcSimulatorImpl::Mark(event)))
    {
        Simulator::ScheduleWithContext(context, delay, event);
    }
}

} // namespace ns3

#endif /* MRC_SIMULATOR_IMPL_H */
