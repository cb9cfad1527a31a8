/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_POOLED_EVENT_H
#define MRC_POOLED_EVENT_H

#include "ns3/mrc-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstddef>
#include <new>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An EventImpl whose objects are recycled through a free list of their own class
 * instead of being allocated and freed on the heap for every event.
 *
 * For the per-frame events (a frame arriving, a busy port finishing a frame): a fabric run
 * makes millions of them, each living a few microseconds of simulated time. A freed event's
 * memory goes onto its class's free list and the next one takes it back (the simulator runs
 * events on one thread). The memory is kept until the process ends. Schedule one like any
 * event: `Simulator::ScheduleWithContext(node, delay, new MyEvent(...))`, or
 * `Simulator::Schedule(delay, Ptr<EventImpl>(new MyEvent(...), false))`, or with the direct
 * calls of mrc-simulator-impl.h (MrcSchedule, MrcScheduleDetached, MrcScheduleWithContext).
 *
 * @tparam Derived the event class itself (each class has its own list, of blocks of its size);
 * it must not be derived from further
 */
template<typename Derived>
class MrcPooledEvent : public EventImpl
{
public:
    /**
     * Take memory from the free list.
     * @param size the object's size
     * @return the memory
     */
    static void* operator new(std::size_t size)
    {
        NS_ASSERT_MSG(size == sizeof(Derived), "MrcPooledEvent: a class derived further");
        if (s_free == nullptr)
        {
            return ::operator new(size);
        }
        FreeBlock* b = s_free;
        s_free = b->next;
        return b;
    }

    /**
     * Return memory to the free list.
     * @param p the memory
     */
    static void operator delete(void* p)
    {
        auto* b = static_cast<FreeBlock*>(p);
        b->next = s_free;
        s_free = b;
    }

private:
    /** A recycled event's memory. */
    struct FreeBlock
    {
        FreeBlock* next; //!< the next free block
    };

    static inline FreeBlock* s_free = nullptr; //!< recycled blocks of Derived
};

/**
 * @ingroup mrc
 * @brief A pooled event that calls a member function without arguments of one object: what
 * `Simulator::Schedule(delay, &T::Method, obj)` makes, without a heap allocation per event.
 *
 * @tparam T the object's class
 * @tparam M the member function
 */
template<typename T, void (T::*M)()>
class MrcMemberEvent : public MrcPooledEvent<MrcMemberEvent<T, M>>
{
public:
    /**
     * @param obj the object (it must outlive the event or cancel it)
     */
    explicit MrcMemberEvent(T* obj)
        : m_obj(obj)
    {
    }

    /** @return the object whose method the event calls */
    T* GetObject() const
    {
        return m_obj;
    }

private:
    void Notify() override
    {
        (m_obj->*M)();
    }

    T* m_obj; //!< the object
};

/**
 * Schedule `obj->M()` after `delay` with a pooled event. The same scheduling as
 * `Simulator::Schedule(delay, M, obj)` (so the same event order), through MrcSchedule, for
 * timers armed once per packet or per acknowledgement.
 *
 * @tparam T the object's class
 * @tparam M the member function
 * @param delay from now
 * @param obj the object
 * @return the event's id
 */
template<typename T, void (T::*M)()>
EventId
MrcScheduleMember(const Time& delay, T* obj)
{
    return MrcSchedule(delay, new MrcMemberEvent<T, M>(obj));
}

} // namespace ns3

#endif /* MRC_POOLED_EVENT_H */
