/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_OWNED_TIMER_H
#define MRC_OWNED_TIMER_H

#include "ns3/assert.h"
#include "ns3/event-id.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A timer that only its owner schedules and cancels, and that knows whether it is
 * pending without asking the simulator.
 *
 * `EventId::IsExpired` goes through `Simulator::IsExpired`, the implementation's virtual
 * call and, for an event still in the future, a read of the event object: a queue pair asks
 * for every packet it sends or receives whether its retransmission, pacing or delayed-ACK
 * timer is pending, and in a large fabric that read is a cache miss. This timer keeps the answer
 * beside its EventId. The owner keeps it exact:
 *
 * - Set() with the EventId of the scheduled event, only when none is pending;
 * - the method the event runs calls Expire() before anything else (a method of its own when
 *   the work is also called directly, as OnRto, OnPaceTimer and OnAckTimer are);
 * - Cancel() to cancel; nothing else cancels the event.
 *
 * Then IsPending() is `!GetEventId().IsExpired()` at every moment, with the same answer for
 * events at the same time as the timer's, so the run is the same (an assertion checks it in
 * builds with asserts).
 */
class MrcOwnedTimer
{
public:
    /**
     * @return whether the event is scheduled and has neither run, started to run, nor been
     * cancelled
     */
    bool IsPending() const
    {
        NS_ASSERT_MSG(m_pending == !m_id.IsExpired(),
                      "MrcOwnedTimer: the event ran without Expire() or was cancelled elsewhere");
        return m_pending;
    }

    /**
     * Keep a newly scheduled event.
     * @param id the event
     */
    void Set(const EventId& id)
    {
        NS_ASSERT_MSG(!m_pending, "MrcOwnedTimer: a pending event would be forgotten");
        m_id = id;
        m_pending = true;
    }

    /** The event has started to run: the first call of the method it runs. */
    void Expire()
    {
        m_pending = false;
    }

    /** Cancel the event if it is pending. */
    void Cancel()
    {
        if (m_pending)
        {
            m_id.Cancel();
            m_pending = false;
        }
    }

    /** @return the last event Set() (for Simulator::GetDelayLeft and the like) */
    const EventId& GetEventId() const
    {
        return m_id;
    }

private:
    EventId m_id;           //!< the last event set
    bool m_pending = false; //!< set, and neither expired nor cancelled since
};

} // namespace ns3

#endif // MRC_OWNED_TIMER_H
