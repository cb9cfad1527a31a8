/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_POOLED_EVENT_H
#define MRC_POOLED_EVENT_H

#include "ns3/mrc-recyclable-event.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstddef>
#include <new>
#include <utility>

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
 * @tparam Base EventImpl, or MrcRecyclableEvent (for MrcRecycledEvent)
 */
template<typename Derived, typename Base = EventImpl>
class MrcPooledEvent : public Base
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
 * @ingroup mrc
 * @brief A recyclable event (MrcRecyclableEvent) whose objects its class keeps constructed
 * between events: MrcSimulatorImpl runs one and hands it back to the class, and the next
 * Make takes it, without EventImpl's constructor, Invoke, reference count and destructor.
 *
 * For the per-frame events, which no EventId names: schedule one with
 * `MrcScheduleDetached(delay, Derived::Make(args...))` or MrcScheduleWithContext. Under another
 * simulator implementation (or before MrcSimulatorImpl runs) the event takes ns-3's path, and
 * its memory returns to MrcPooledEvent's free list when ns-3 deletes it.
 *
 * Derived provides a default constructor, `void Set(args...)` (the event's fields, as a
 * constructor would set them), `void Fire()` (what the event does) and `void Clear()` (release
 * what the fields own once the event has run or is dropped).
 *
 * @tparam Derived the event class itself; it must not be derived from further
 */
template<typename Derived>
class MrcRecycledEvent : public MrcPooledEvent<Derived, MrcRecyclableEvent>
{
public:
    /**
     * An event of this class, with its fields set.
     * @param args what Derived::Set takes
     * @return the event (its one reference for the scheduler)
     */
    template<typename... Args>
    static Derived* Make(Args&&... args)
    {
        Derived* event = s_pool;
        if (event != nullptr)
        {
            s_pool = static_cast<Derived*>(event->m_nextInPool);
        }
        else
        {
            event = new Derived();
        }
        event->Set(std::forward<Args>(args)...);
        return event;
    }

    void RunAndRecycle() final
    {
        static_cast<Derived*>(this)->Fire();
        Recycle();
    }

    void Recycle() final
    {
        auto* self = static_cast<Derived*>(this);
        self->Clear();
        m_nextInPool = s_pool;
        s_pool = self;
    }

private:
    /** ns-3's path: Invoke runs the event; the last Unref then deletes it. */
    void Notify() final
    {
        static_cast<Derived*>(this)->Fire();
    }

    MrcRecycledEvent* m_nextInPool = nullptr; //!< the next object in the pool, while pooled
    static inline Derived* s_pool = nullptr;  //!< constructed objects of Derived, free
};

/**
 * @ingroup mrc
 * @brief A recycled event that calls a member function without arguments of one object: the
 * recyclable MrcMemberEvent, for per-frame events that need no id (a port's transmit-complete).
 *
 * @tparam T the object's class
 * @tparam M the member function
 */
template<typename T, void (T::*M)()>
class MrcRecycledMemberEvent : public MrcRecycledEvent<MrcRecycledMemberEvent<T, M>>
{
public:
    /**
     * @param obj the object (it must outlive the event)
     */
    void Set(T* obj)
    {
        m_obj = obj;
    }

    /** Call the member function. */
    void Fire()
    {
        (m_obj->*M)();
    }

    /** Nothing to release. */
    void Clear() {}

    /** @return the object whose method the event calls */
    T* GetObject() const
    {
        return m_obj;
    }

private:
    T* m_obj = nullptr; //!< the object
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
