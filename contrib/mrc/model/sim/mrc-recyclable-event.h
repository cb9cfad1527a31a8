/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECYCLABLE_EVENT_H
#define MRC_RECYCLABLE_EVENT_H

#include "ns3/event-impl.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief An event that MrcSimulatorImpl runs without going through EventImpl's Invoke and
 * reference count, and whose object it hands back to its class constructed, for the next event
 * of that class (MrcRecycledEvent is the implementation).
 *
 * Such an event has no EventId (it is scheduled with MrcScheduleDetached or
 * MrcScheduleWithContext, which return none), so nothing can cancel or remove it, and nothing
 * but the scheduler holds it: when it has run, its object is free. Debian's ns-3 libraries are
 * built with logging compiled in, and EventImpl's constructor, destructor and Invoke each test
 * a log level in an out-of-line call; for the two events of every frame and hop (a frame's
 * arrival and a busy port's transmit-complete) those tests were 7 % of a run's instructions.
 *
 * Under another simulator implementation, or when scheduled before MrcSimulatorImpl runs, the
 * event takes ns-3's path: Invoke runs it (through Notify) and the last Unref deletes it.
 */
class MrcRecyclableEvent : public EventImpl
{
public:
    /** Run the event, then give its object back to its class's pool. */
    virtual void RunAndRecycle() = 0;

    /** Give the object back to its class's pool without running it (an event left over when
     * the simulator is disposed of). */
    virtual void Recycle() = 0;
};

} // namespace ns3

#endif /* MRC_RECYCLABLE_EVENT_H */
