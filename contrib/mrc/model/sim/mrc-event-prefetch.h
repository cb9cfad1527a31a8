/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EVENT_PREFETCH_H
#define MRC_EVENT_PREFETCH_H

#include "ns3/event-impl.h"

#include <cstddef>
#include <cstdint>
#include <typeinfo>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Cache warming for the events about to run: a hint to the processor, never a change of
 * event order or of any result.
 *
 * On a large fabric the objects an event touches are out of the cache when it runs: a frame's
 * arrival event, the receiving port, the switch or protocol behind it; a port's
 * transmit-complete event, the port, its queue. Each is a dependent load the processor cannot
 * start before the one before it is done. MrcSimulatorImpl, running with MrcCalendarScheduler,
 * looks at the events already sorted to run next (MrcCalendarScheduler::PeekAhead) and starts
 * those loads ahead, one level per event: it prefetches the object of the sixth event ahead,
 * has the fifth ahead (whose object came in meanwhile) prefetch what it points to (Targets),
 * the fourth ahead prefetch what its targets point to (Beyond), the third ahead one level
 * further (Deep), the second ahead one more (Deeper) and the first ahead one more (Deepest).
 *
 * An event class takes part by registering its stages for its own dynamic type (found
 * through `typeid`, which reads only the event's object); other events are left alone. A stage
 * reads the event and what the stages before it prefetched; it writes nothing. Stages run only
 * inside Simulator::Run, while the objects an event points to are alive (an event's port, say,
 * outlives it).
 */
class MrcEventPrefetch
{
public:
    /** A stage: prefetch for an event of a registered class. */
    using Stage = void (*)(const EventImpl* event);

    /** Events between two stages of one event (the lead each level of loads gets). */
    static constexpr std::size_t GAP = 1;

    /** At most this many event classes take part (a further registration is ignored). */
    static constexpr std::size_t MAX_CLASSES = 8;

    /**
     * Register an event class.
     * @param type `typeid` of the class (the event's dynamic type)
     * @param targets prefetch what an event of the class points to (its own object is loaded)
     * @param beyond prefetch what its targets point to (Targets ran one event earlier)
     * @param deep prefetch what Beyond's objects point to (Beyond ran one event earlier), or
     * null
     * @param deeper prefetch what Deep's objects point to (Deep ran one event earlier), or null
     * @param deepest prefetch what Deeper's objects point to (Deeper ran one event earlier), or
     * null
     */
    static void Register(const std::type_info& type,
                         Stage targets,
                         Stage beyond,
                         Stage deep = nullptr,
                         Stage deeper = nullptr,
                         Stage deepest = nullptr)
    {
        Registry& r = s_registry;
        if (r.count < MAX_CLASSES)
        {
            r.types[r.count] = &type;
            r.stages[r.count][0] = targets;
            r.stages[r.count][1] = beyond;
            r.stages[r.count][2] = deep;
            r.stages[r.count][3] = deeper;
            r.stages[r.count][4] = deepest;
            ++r.count;
        }
    }

    /**
     * Run the Targets stage of the event's class, if it registered one.
     * @param event the event (its object is loaded)
     */
    static void Targets(const EventImpl* event)
    {
        Run(event, 0);
    }

    /**
     * Run the Beyond stage of the event's class, if it registered one.
     * @param event the event (Targets ran for it one event earlier)
     */
    static void Beyond(const EventImpl* event)
    {
        Run(event, 1);
    }

    /**
     * Run the Deep stage of the event's class, if it registered one.
     * @param event the event (Beyond ran for it one event earlier)
     */
    static void Deep(const EventImpl* event)
    {
        Run(event, 2);
    }

    /**
     * Run the Deeper stage of the event's class, if it registered one.
     * @param event the event (Deep ran for it one event earlier)
     */
    static void Deeper(const EventImpl* event)
    {
        Run(event, 3);
    }

    /**
     * Run the Deepest stage of the event's class, if it registered one.
     * @param event the event (Deeper ran for it one event earlier)
     */
    static void Deepest(const EventImpl* event)
    {
        Run(event, 4);
    }

    /**
     * Prefetch every cache line of [begin, end).
     * @param begin the first byte
     * @param end one past the last byte
     */
    static void Lines(const void* begin, const void* end)
    {
        const auto last = reinterpret_cast<std::uintptr_t>(end);
        for (auto a = reinterpret_cast<std::uintptr_t>(begin) & ~std::uintptr_t(LINE - 1); a < last;
             a += LINE)
        {
            __builtin_prefetch(reinterpret_cast<const void*>(a));
        }
    }

private:
    /** Stages per class. */
    static constexpr std::size_t STAGES = 5;
    /** Bytes of a cache line. */
    static constexpr std::size_t LINE = 64;

    /**
     * Run a stage.
     * @param event the event
     * @param stage 0 (Targets), 1 (Beyond), 2 (Deep), 3 (Deeper) or 4 (Deepest)
     */
    static void Run(const EventImpl* event, std::size_t stage)
    {
        const Registry& r = s_registry;
        const std::type_info* type = &typeid(*event);
        for (std::size_t i = 0; i < r.count; ++i)
        {
            // The address of the type's typeid object: a class whose typeid object is not
            // unique across libraries only loses its prefetch.
            if (r.types[i] == type)
            {
                if (const Stage s = r.stages[i][stage]; s != nullptr)
                {
                    s(event);
                }
                return;
            }
        }
    }

    /** The registered classes, together (one object to find). */
    struct Registry
    {
        std::size_t count;                        //!< registered classes
        const std::type_info* types[MAX_CLASSES]; //!< their typeid objects
        Stage stages[MAX_CLASSES][STAGES];        //!< their stages
    };

    static inline Registry s_registry = {}; //!< the registered classes
};

} // namespace ns3

#endif /* MRC_EVENT_PREFETCH_H */
