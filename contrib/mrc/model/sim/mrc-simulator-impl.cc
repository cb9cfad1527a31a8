/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(MrcSimulatorImpl);

TypeId
MrcSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSimulatorImpl>();
    return tid;
}

MrcSimulatorImpl::MrcSimulatorImpl()
    : m_calendar(nullptr)
    , m_currentTs(0)
    , m_eventCount(0)
    , m_unscheduledEvents(0)
    , m_uid(EventId::UID::VALID)
    , m_currentUid(EventId::UID::INVALID)
    , m_currentContext(Simulator::NO_CONTEXT)
    , m_stop(false)
{
    NS_LOG_FUNCTION(this);
}

MrcSimulatorImpl::~MrcSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_running == this)
    {
        s_running = nullptr;
    }
}

void
MrcSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    while (m_events && !m_events->IsEmpty())
    {
        EventImpl* held = m_events->RemoveNext().impl;
        if (MrcRecyclableEvent* event = Recyclable(held); event != nullptr)
        {
            event->Recycle();
        }
        else
        {
            held->Unref();
        }
    }
    m_events = nullptr;
    m_calendar = nullptr;
    SimulatorImpl::DoDispose();
}

void
MrcSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
    if (s_running == this)
    {
        s_running = nullptr;
    }
}

void
MrcSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    while (m_events && !m_events->IsEmpty())
    {
        scheduler->Insert(m_events->RemoveNext());
    }
    m_events = scheduler;
    m_calendar = dynamic_cast<MrcCalendarScheduler*>(PeekPointer(m_events));
}

uint32_t
MrcSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
MrcSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

void
MrcSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_stop = false;
    s_running = this;
    // m_events (and m_calendar) are read each time, as DefaultSimulatorImpl does: an event may
    // call SetScheduler.
    while (!m_stop)
    {
        Scheduler::Event next;
        if (MrcCalendarScheduler* calendar = m_calendar; calendar != nullptr)
        {
            if (calendar->IsEmptyInline())
            {
                break;
            }
            next = calendar->RemoveNextInline();
        }
        else
        {
            if (m_events->IsEmpty())
            {
                break;
            }
            next = m_events->RemoveNext();
        }
        WarmAhead();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        if (MrcRecyclableEvent* event = Recyclable(next.impl); event != nullptr)
        {
            event->RunAndRecycle();
        }
        else
        {
            next.impl->Invoke();
            next.impl->Unref();
        }
    }
    NS_ASSERT(!m_events->IsEmpty() || m_unscheduledEvents == 0);
}

void
MrcSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

MrcSimulatorImpl::StopDelayResult
MrcSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    // static_cast<void> of the EventId where the interface returns nothing (ns-3.37).
    return static_cast<StopDelayResult>(Simulator::Schedule(delay, &Simulator::Stop));
}

EventId
MrcSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(delay.IsPositive(), "MrcSimulatorImpl::Schedule: negative delay");
    const uint64_t ts = m_currentTs + delay.GetTimeStep();
    const uint32_t uid = Insert(ts, m_currentContext, event);
    // The id holds a reference of its own, as DefaultSimulatorImpl's does.
    return EventId(Ptr<EventImpl>(event), ts, m_currentContext, uid);
}

void
MrcSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(delay.IsPositive(), "MrcSimulatorImpl::ScheduleWithContext: negative delay");
    Insert(m_currentTs + delay.GetTimeStep(), context, event);
}

EventId
MrcSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
MrcSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    // Destroy events share the uid counter (DefaultSimulatorImpl's order depends on it).
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_uid;
    return id;
}

Time
MrcSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
MrcSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_currentTs);
}

void
MrcSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    event.impl->Unref(); // the scheduler's reference
    --m_unscheduledEvents;
}

void
MrcSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
MrcSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* impl = id.PeekEventImpl();
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (impl == nullptr || impl->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return impl == nullptr || id.GetTs() < m_currentTs
        || (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) || impl->IsCancelled();
}

Time
MrcSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
MrcSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
MrcSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
