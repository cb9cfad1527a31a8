/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of MrcHeapScheduler and MrcCalendarScheduler: the same event order as ns-3's
 * MapScheduler; pooled member events (MrcScheduleMember) in the same order as
 * Simulator::Schedule's, cancellable, their memory recycled; MrcRingDeque against std::deque;
 * MrcSimulatorImpl against ns-3's DefaultSimulatorImpl.
 */

#include "ns3/mrc-calendar-scheduler.h"
#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-owned-timer.h"
#include "ns3/mrc-packet-prefetch.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-ring-deque.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/core-module.h"
#include "ns3/default-simulator-impl.h"
#include "ns3/map-scheduler.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/**
 * @ingroup mrc-tests
 * @brief Random inserts, removals and pops against ns-3's MapScheduler: the same events come
 * out in the same order, including many with equal timestamps.
 *
 * Most events land up to `spread` time units ahead; with `farShare` of them much further (up to
 * 10^6 units), so that a calendar scheduler's far heap, its bucket wrap-around and its jumps
 * over empty stretches are exercised too.
 */
class MrcSchedulerOrderTestCase : public TestCase
{
public:
    /**
     * @param tid the scheduler under test
     * @param spread how far ahead most events are scheduled, in time units
     * @param farShare the share of events scheduled far ahead
     * @param bucketWidth MrcCalendarScheduler's BucketWidth in time units (0: the scheduler's
     * defaults; above 1, buckets hold several timestamps and are sorted when run)
     */
    MrcSchedulerOrderTestCase(const std::string& tid,
                              uint32_t spread,
                              double farShare,
                              uint32_t bucketWidth = 0)
        : TestCase(tid + " pops events in MapScheduler's order, with removals (spread "
                   + std::to_string(spread) + ", far share " + std::to_string(farShare)
                   + (bucketWidth > 0 ? ", bucket width " + std::to_string(bucketWidth) : "") + ")")
        , m_tid(tid)
        , m_spread(spread)
        , m_farShare(farShare)
        , m_bucketWidth(bucketWidth)
    {
    }

private:
    void DoRun() override
    {
        ObjectFactory factory;
        factory.SetTypeId(m_tid);
        if (m_bucketWidth > 0)
        {
            factory.Set("BucketWidth", TimeValue(TimeStep(m_bucketWidth)));
        }
        Ptr<Scheduler> heap = factory.Create<Scheduler>();
        Ptr<MapScheduler> ref = CreateObject<MapScheduler>();
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        std::vector<Scheduler::Event> live; // inserted and not yet popped or removed
        uint32_t uid = 0;
        uint64_t now = 0;
        uint64_t popped = 0;
        uint64_t removed = 0;
        for (uint32_t op = 0; op < 200000; ++op)
        {
            const double r = u->GetValue();
            if (r < 0.55 || live.empty())
            {
                Scheduler::Event ev;
                ev.impl = nullptr;
                // few distinct timestamps, so that the uid decides many ties
                ev.key.m_ts = now
                            + (u->GetValue() < m_farShare ? u->GetInteger(0, 1000000)
                                                          : u->GetInteger(0, m_spread));
                ev.key.m_uid = uid++;
                ev.key.m_context = 0;
                heap->Insert(ev);
                ref->Insert(ev);
                live.push_back(ev);
            }
            else if (r < 0.6)
            {
                const uint32_t i = u->GetInteger(0, live.size() - 1);
                heap->Remove(live[i]);
                ref->Remove(live[i]);
                live[i] = live.back();
                live.pop_back();
                ++removed;
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), ref->IsEmpty(), "same emptiness");
                const Scheduler::Event peek = heap->PeekNext();
                const Scheduler::Event a = heap->RemoveNext();
                const Scheduler::Event b = ref->RemoveNext();
                NS_TEST_ASSERT_MSG_EQ(peek.key.m_uid, a.key.m_uid, "PeekNext names RemoveNext");
                NS_TEST_ASSERT_MSG_EQ(a.key.m_uid, b.key.m_uid, "same event next");
                NS_TEST_ASSERT_MSG_EQ(a.key.m_ts, b.key.m_ts, "same time");
                if (a.key.m_uid != b.key.m_uid || peek.key.m_uid != a.key.m_uid)
                {
                    // ns-3's test runner continues after a failed check by default; once the
                    // two schedulers hold different events, removing one from both would hand
                    // MapScheduler an event it no longer holds. The failure is reported.
                    return;
                }
                now = a.key.m_ts;
                for (std::size_t i = 0; i < live.size(); ++i)
                {
                    if (live[i].key.m_uid == a.key.m_uid)
                    {
                        live[i] = live.back();
                        live.pop_back();
                        break;
                    }
                }
                ++popped;
            }
        }
        while (!ref->IsEmpty())
        {
            NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), false, "the heap holds as many events");
            if (heap->IsEmpty())
            {
                return;
            }
            // Popped first: the check's macro evaluates its arguments again to print them.
            const uint32_t a = heap->RemoveNext().key.m_uid;
            const uint32_t b = ref->RemoveNext().key.m_uid;
            NS_TEST_ASSERT_MSG_EQ(a, b, "same order while draining");
            ++popped;
        }
        NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), true, "both empty at the end");
        NS_TEST_ASSERT_MSG_EQ(popped + removed, uid, "every event popped or removed once");
        NS_TEST_ASSERT_MSG_GT(removed, 1000, "removals were exercised");
    }

    std::string m_tid;      //!< scheduler under test
    uint32_t m_spread;      //!< near spread
    double m_farShare;      //!< share of far events
    uint32_t m_bucketWidth; //!< BucketWidth in time units, or 0
};

/**
 * @ingroup mrc-tests
 * @brief The simulator runs events in time order under the scheduler, equal times in the
 * order they were scheduled, and skips cancelled ones.
 */
class MrcSchedulerSimulatorTestCase : public TestCase
{
public:
    /**
     * @param tid the scheduler under test
     */
    MrcSchedulerSimulatorTestCase(const std::string& tid)
        : TestCase("Simulator with " + tid + ": time order, FIFO ties, cancel and remove")
        , m_tid(tid)
    {
    }

private:
    /**
     * Record an event.
     * @param tag its tag
     */
    void Record(int tag)
    {
        m_order.push_back(tag);
    }

    void DoRun() override
    {
        ObjectFactory f;
        f.SetTypeId(m_tid);
        Simulator::SetScheduler(f);
        Simulator::Schedule(MicroSeconds(3), &MrcSchedulerSimulatorTestCase::Record, this, 3);
        Simulator::Schedule(MicroSeconds(1), &MrcSchedulerSimulatorTestCase::Record, this, 1);
        Simulator::Schedule(MicroSeconds(2), &MrcSchedulerSimulatorTestCase::Record, this, 20);
        Simulator::Schedule(MicroSeconds(2), &MrcSchedulerSimulatorTestCase::Record, this, 21);
        EventId c = Simulator::Schedule(
            MicroSeconds(2), &MrcSchedulerSimulatorTestCase::Record, this, 99);
        EventId r = Simulator::Schedule(
            MicroSeconds(4), &MrcSchedulerSimulatorTestCase::Record, this, 98);
        Simulator::Schedule(MicroSeconds(2), &MrcSchedulerSimulatorTestCase::Record, this, 22);
        c.Cancel();
        Simulator::Remove(r);
        // far beyond a calendar's horizon, and scheduled from inside an event
        Simulator::Schedule(Seconds(2),
                            [this]()
                            {
                                Record(5);
                                Simulator::Schedule(NanoSeconds(1),
                                                    &MrcSchedulerSimulatorTestCase::Record,
                                                    this,
                                                    6);
                            });
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<int> expected{1, 20, 21, 22, 3, 5, 6};
        NS_TEST_ASSERT_MSG_EQ(m_order.size(), expected.size(), "seven events ran");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_order[i], expected[i], "event " << i << " in order");
        }
        ObjectFactory def;
        def.SetTypeId("ns3::MapScheduler");
        Simulator::SetScheduler(def);
        Simulator::Destroy();
    }

    std::string m_tid;        //!< scheduler under test
    std::vector<int> m_order; //!< tags in execution order
};

/**
 * @ingroup mrc-tests
 * @brief MrcSimulatorImpl against ns-3's DefaultSimulatorImpl: a random self-driving process
 * (events that schedule, schedule with a context, schedule now, cancel, remove, ask IsExpired
 * and GetDelayLeft, add destroy events, stop the run after a delay) gives the same trace under
 * both: the events run, their times, contexts, event counts, the ids' uids and every answer.
 */
class MrcSimulatorImplTestCase : public TestCase
{
public:
    MrcSimulatorImplTestCase()
        : TestCase("MrcSimulatorImpl: the same events, order, uids and answers as "
                   "DefaultSimulatorImpl")
    {
    }

private:
    /**
     * Run the process under one implementation.
     * @param impl the implementation (made fresh for this run)
     * @return the trace
     */
    std::vector<uint64_t> RunWith(Ptr<SimulatorImpl> impl)
    {
        Simulator::Destroy();
        Simulator::SetImplementation(impl);
        ObjectFactory f;
        f.SetTypeId("ns3::MrcCalendarScheduler");
        Simulator::SetScheduler(f);
        m_trace.clear();
        m_ids.clear();
        m_rng.seed(12345);
        m_next = 0;
        for (int i = 0; i < 20; ++i)
        {
            Keep(Simulator::Schedule(
                NanoSeconds(m_rng() % 3), &MrcSimulatorImplTestCase::Step, this, m_next++));
        }
        Simulator::Stop(NanoSeconds(20));
        Simulator::Run();
        m_ends.push_back(Simulator::Now().GetNanoSeconds());
        m_trace.push_back(m_ends.back());
        m_trace.push_back(Simulator::GetEventCount());
        Simulator::Run(); // on to the end
        m_ends.push_back(Simulator::Now().GetNanoSeconds());
        m_trace.push_back(m_ends.back());
        m_trace.push_back(Simulator::GetEventCount());
        Simulator::Destroy(); // runs the destroy events
        return m_trace;
    }

    /**
     * Keep an id, and trace its uid.
     * @param id the id
     */
    void Keep(const EventId& id)
    {
        m_trace.push_back(id.GetUid());
        m_ids.push_back(id);
    }

    /**
     * One event of the process.
     * @param tag its tag
     */
    void Step(uint32_t tag)
    {
        m_trace.push_back(tag);
        m_trace.push_back(Simulator::Now().GetNanoSeconds());
        m_trace.push_back(Simulator::GetContext());
        m_trace.push_back(Simulator::GetEventCount());
        if (m_next > 4000)
        {
            return;
        }
        const uint32_t children = m_rng() % 3 + (m_rng() % 4 == 0 ? 1 : 0);
        for (uint32_t c = 0; c < children; ++c)
        {
            const Time delay = NanoSeconds(m_rng() % 4);
            switch (m_rng() % 4)
            {
                case 0:
                    Simulator::ScheduleWithContext(
                        m_rng() % 5, delay, &MrcSimulatorImplTestCase::Step, this, m_next++);
                    break;
                case 1:
                    Keep(Simulator::ScheduleNow(&MrcSimulatorImplTestCase::Step, this, m_next++));
                    break;
                default:
                    Keep(Simulator::Schedule(
                        delay, &MrcSimulatorImplTestCase::Step, this, m_next++));
            }
        }
        if (!m_ids.empty())
        {
            EventId& id = m_ids[m_rng() % m_ids.size()];
            m_trace.push_back(id.IsExpired() ? 1 : 0);
            m_trace.push_back(Simulator::GetDelayLeft(id).GetNanoSeconds());
            switch (m_rng() % 8)
            {
                case 0:
                    id.Cancel();
                    break;
                case 1:
                    Simulator::Remove(id);
                    break;
                default:
                    break;
            }
        }
        if (m_rng() % 50 == 0)
        {
            Keep(Simulator::ScheduleDestroy(&MrcSimulatorImplTestCase::Step, this, 900000 + tag));
        }
    }

    void DoRun() override
    {
        const std::vector<uint64_t> reference = RunWith(CreateObject<DefaultSimulatorImpl>());
        const std::vector<uint64_t> trace = RunWith(CreateObject<MrcSimulatorImpl>());
        NS_TEST_ASSERT_MSG_GT(reference.size(), 10000u, "the process ran long enough");
        // The stop came before the end: the first run ended at 20 ns, the second later.
        NS_TEST_ASSERT_MSG_EQ(m_ends.size(), 4u, "two runs of each");
        NS_TEST_ASSERT_MSG_EQ(m_ends[0], 20, "the reference stopped at 20 ns");
        NS_TEST_ASSERT_MSG_GT(m_ends[1], 20, "then ran on");
        NS_TEST_ASSERT_MSG_EQ(trace.size(), reference.size(), "traces of the same length");
        for (std::size_t i = 0; i < std::min(trace.size(), reference.size()); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(trace[i], reference[i], "trace entry " << i);
        }
        Simulator::Destroy(); // the next test makes the implementation the global value names
    }

    std::vector<uint64_t> m_trace; //!< what the process did
    std::vector<EventId> m_ids;    //!< ids kept for cancel, remove and questions
    std::vector<int64_t> m_ends;   //!< when each Run returned (ns)
    std::mt19937 m_rng;            //!< the process's choices
    uint32_t m_next = 0;           //!< the next event's tag
};

/** The object the pooled-event test schedules: it logs which of its members ran. */
class MrcPooledEventTarget
{
public:
    /** Log 1. */
    void One()
    {
        m_log->push_back(m_id * 10 + 1);
    }

    /** Log 2. */
    void Two()
    {
        m_log->push_back(m_id * 10 + 2);
    }

    int m_id = 0;                     //!< identity in the log
    std::vector<int>* m_log{nullptr}; //!< where to log
};

/**
 * @ingroup mrc-tests
 * @brief MrcScheduleMember: events at the same time run in the order they were scheduled,
 * mixed with Simulator::Schedule's; a cancelled one does not run; a finished event's memory is
 * what the next one of its class gets.
 */
class MrcPooledEventTestCase : public TestCase
{
public:
    MrcPooledEventTestCase()
        : TestCase("pooled member events: Simulator::Schedule's order, cancel, recycled memory")
    {
    }

private:
    void DoRun() override
    {
        std::vector<int> log;
        MrcPooledEventTarget a;
        MrcPooledEventTarget b;
        a.m_id = 1;
        a.m_log = &log;
        b.m_id = 2;
        b.m_log = &log;
        const Time t = MicroSeconds(3);
        MrcScheduleMember<MrcPooledEventTarget, &MrcPooledEventTarget::One>(t, &a);
        Simulator::Schedule(t, &MrcPooledEventTarget::Two, &b);
        EventId cancelled
            = MrcScheduleMember<MrcPooledEventTarget, &MrcPooledEventTarget::Two>(t, &a);
        MrcScheduleMember<MrcPooledEventTarget, &MrcPooledEventTarget::One>(t, &b);
        MrcScheduleMember<MrcPooledEventTarget, &MrcPooledEventTarget::Two>(t / 3, &b);
        NS_TEST_ASSERT_MSG_EQ(
            cancelled.GetTs(), static_cast<uint64_t>(t.GetTimeStep()), "the event's time");
        cancelled.Cancel();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 4u, "four events ran, the cancelled one did not");
        NS_TEST_ASSERT_MSG_EQ(log[0], 22, "the earliest first");
        NS_TEST_ASSERT_MSG_EQ(log[1], 11, "then the 3 us events in the order scheduled");
        NS_TEST_ASSERT_MSG_EQ(log[2], 22, "a Simulator::Schedule event keeps its place");
        NS_TEST_ASSERT_MSG_EQ(log[3], 21, "the last");
        // The cancelled event's memory returns to its class's free list when its last id goes.
        const EventImpl* freed = cancelled.PeekEventImpl();
        cancelled = EventId();
        EventId next = MrcScheduleMember<MrcPooledEventTarget, &MrcPooledEventTarget::Two>(t, &a);
        NS_TEST_ASSERT_MSG_EQ(next.PeekEventImpl(), freed, "the freed event's memory is reused");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 5u, "the recycled event ran");
        NS_TEST_ASSERT_MSG_EQ(log[4], 12, "with its own target and member");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcOwnedTimer: IsPending() is !EventId::IsExpired() at every moment, including for
 * events at the timer's own time scheduled before and after it, inside the method the timer
 * runs, after a cancel and after setting it again; a cancelled timer does not run. Under
 * ns-3's DefaultSimulatorImpl and MrcSimulatorImpl.
 */
class MrcOwnedTimerTestCase : public TestCase
{
public:
    MrcOwnedTimerTestCase()
        : TestCase(
            "MrcOwnedTimer: pending exactly when the simulator says the event has not expired")
    {
    }

private:
    /** A timer's owner, as a queue pair is. */
    class Owner
    {
    public:
        /** The timer's method: expire it, log, and set it again once. */
        void Fire()
        {
            m_timer.Expire();
            Check('F');
            if (++m_fired == 1)
            {
                m_timer.Set(MrcScheduleMember<Owner, &Owner::Fire>(MicroSeconds(5), this));
                Check('S');
            }
        }

        /** Log whether the timer is pending, and whether the simulator agrees. */
        void Check(char what)
        {
            const bool pending = m_timer.IsPending();
            const bool expired = m_timer.GetEventId().IsExpired();
            m_log.push_back({what, pending});
            m_agree = m_agree && pending == !expired;
        }

        /** Cancel the timer and log. */
        void Cancel()
        {
            m_timer.Cancel();
            Check('C');
        }

        MrcOwnedTimer m_timer;                    //!< the timer
        int m_fired = 0;                          //!< Fire() calls
        bool m_agree = true;                      //!< IsPending() always !IsExpired()
        std::vector<std::pair<char, bool>> m_log; //!< (what, pending) in order
    };

    /**
     * The sequence under one implementation.
     * @param impl its TypeId name
     */
    void RunWith(const std::string& impl)
    {
        Simulator::Destroy();
        ObjectFactory i;
        i.SetTypeId(impl);
        Simulator::SetImplementation(i.Create<SimulatorImpl>());
        Owner o;
        o.Check('0');
        const Time t = MicroSeconds(5);
        // At the timer's own time: one event scheduled before it, one after.
        Simulator::Schedule(t, &Owner::Check, &o, 'b');
        o.m_timer.Set(MrcScheduleMember<Owner, &Owner::Fire>(t, &o));
        o.Check('s');
        Simulator::Schedule(t, &Owner::Check, &o, 'a');
        // The timer set again in Fire() (for 10 us) is cancelled at 7 us; cancelling twice is
        // harmless.
        Simulator::Schedule(MicroSeconds(7), &Owner::Cancel, &o);
        Simulator::Schedule(MicroSeconds(8), &Owner::Cancel, &o);
        Simulator::Schedule(MicroSeconds(12), &Owner::Check, &o, 'e');
        Simulator::Run();
        const std::vector<std::pair<char, bool>> want{{'0', false},
                                                      {'s', true},
                                                      {'b', true},
                                                      {'F', false},
                                                      {'S', true},
                                                      {'a', true},
                                                      {'C', false},
                                                      {'C', false},
                                                      {'e', false}};
        NS_TEST_ASSERT_MSG_EQ(o.m_agree, true, impl << ": IsPending() is !IsExpired() throughout");
        NS_TEST_ASSERT_MSG_EQ(o.m_fired, 1, impl << ": the cancelled timer did not run");
        NS_TEST_ASSERT_MSG_EQ(o.m_log.size(), want.size(), impl << ": the checks made");
        for (size_t k = 0; k < want.size() && k < o.m_log.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(o.m_log[k].first, want[k].first, impl << ": check " << k);
            NS_TEST_ASSERT_MSG_EQ(o.m_log[k].second,
                                  want[k].second,
                                  impl << ": pending at check " << k << " (" << o.m_log[k].first
                                       << ")");
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        RunWith("ns3::DefaultSimulatorImpl");
        RunWith("ns3::MrcSimulatorImpl");
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcNow() is Simulator::Now(): before a run, in its events, after it, and after
 * Simulator::Destroy when the next simulation runs under another implementation (or the same
 * one again).
 */
class MrcNowTestCase : public TestCase
{
public:
    MrcNowTestCase()
        : TestCase("MrcNow: Simulator::Now before, during and after runs, across implementations")
    {
    }

private:
    /**
     * Check once.
     * @param where what the check is for
     */
    void Check(std::string where)
    {
        ++m_checks;
        NS_TEST_ASSERT_MSG_EQ(MrcNow(), Simulator::Now(), where);
    }

    /**
     * A simulation under one implementation: checks before, at 3 events and after.
     * @param impl its TypeId name
     * @param offset where its events are (each simulation its own times)
     */
    void RunWith(const std::string& impl, Time offset)
    {
        ObjectFactory i;
        i.SetTypeId(impl);
        Simulator::SetImplementation(i.Create<SimulatorImpl>());
        Check(impl + ": before the run");
        for (int k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(offset * k, &MrcNowTestCase::Check, this, impl + ": an event");
        }
        Simulator::Run();
        Check(impl + ": after the run");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Simulator::Destroy();
        RunWith("ns3::MrcSimulatorImpl", MicroSeconds(7));
        RunWith("ns3::DefaultSimulatorImpl", MicroSeconds(2));
        RunWith("ns3::MrcSimulatorImpl", MicroSeconds(1));
        RunWith("ns3::DefaultSimulatorImpl", MicroSeconds(3));
        NS_TEST_ASSERT_MSG_EQ(m_checks, 20, "every check ran");
    }

    int m_checks = 0; //!< checks made
};

/**
 * @ingroup mrc-tests
 * @brief A test case that logs the events it runs (tag, context, time) and compares the log with
 * the one expected.
 */
class MrcEventLogTestCase : public TestCase
{
protected:
    /**
     * @param name the test case's name
     */
    explicit MrcEventLogTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /** An event that ran. */
    struct Ran
    {
        int tag;          //!< which event
        uint32_t context; //!< its context
        int64_t ts;       //!< its time, in time steps
    };

    /**
     * Record the running event.
     * @param tag which one
     */
    void Log(int tag)
    {
        m_ran.push_back({tag, Simulator::GetContext(), Simulator::Now().GetTimeStep()});
    }

    /**
     * Compare the log with the one expected, event by event.
     * @param impl the simulator implementation (for the messages)
     * @param want the events expected, in order
     * @param count what the number of events stands for (for the message)
     */
    void CheckLog(const std::string& impl, const std::vector<Ran>& want, const std::string& count)
    {
        NS_TEST_EXPECT_MSG_EQ(m_ran.size(), want.size(), impl + ": " + count);
        for (std::size_t k = 0; k < std::min(want.size(), m_ran.size()); ++k)
        {
            const std::string at = impl + ": event " + std::to_string(k);
            NS_TEST_EXPECT_MSG_EQ(m_ran[k].tag, want[k].tag, at + ", order");
            NS_TEST_EXPECT_MSG_EQ(m_ran[k].context, want[k].context, at + ", context");
            NS_TEST_EXPECT_MSG_EQ(m_ran[k].ts, want[k].ts, at + ", time");
        }
    }

    std::vector<Ran> m_ran; //!< the events that ran, in order
};

/**
 * @ingroup mrc-tests
 * @brief MrcSchedule, MrcScheduleDetached and MrcScheduleWithContext schedule as Simulator's
 * calls do: the same uids (so the same order among events at one time), times and contexts,
 * and MrcSchedule's id cancels its event. Before a run (through Simulator) and inside one
 * (directly to the running MrcSimulatorImpl), under both implementations.
 */
class MrcDirectScheduleTestCase : public MrcEventLogTestCase
{
public:
    MrcDirectScheduleTestCase()
        : MrcEventLogTestCase(
            "direct scheduling: Simulator's uids, order and contexts, across implementations")
    {
    }

private:
    /**
     * Schedule six events after `delay` (tags base+1 to base+6), each call in turn, and cancel
     * the fifth.
     * @param base the tags' base
     * @param delay from now
     */
    void Mix(int base, Time delay)
    {
        using T = MrcDirectScheduleTestCase;
        EventId a = Simulator::Schedule(delay, &T::Log, this, base + 1);
        EventId b = MrcSchedule(delay, MakeEvent(&T::Log, this, base + 2));
        MrcScheduleDetached(delay, MakeEvent(&T::Log, this, base + 3));
        MrcScheduleWithContext(7, delay, MakeEvent(&T::Log, this, base + 4));
        EventId c = MrcSchedule(delay, MakeEvent(&T::Log, this, base + 5));
        EventId d = Simulator::Schedule(delay, &T::Log, this, base + 6);
        NS_TEST_EXPECT_MSG_EQ(b.GetUid(), a.GetUid() + 1, "MrcSchedule takes the next uid");
        NS_TEST_EXPECT_MSG_EQ(
            c.GetUid(), b.GetUid() + 3, "the detached and context events one each");
        NS_TEST_EXPECT_MSG_EQ(d.GetUid(), c.GetUid() + 1, "then Simulator::Schedule the next");
        NS_TEST_EXPECT_MSG_EQ(b.GetTs(), a.GetTs(), "the same time");
        NS_TEST_EXPECT_MSG_EQ(b.GetContext(), a.GetContext(), "the same context");
        NS_TEST_EXPECT_MSG_EQ(c.IsExpired(), false, "pending");
        c.Cancel();
        NS_TEST_EXPECT_MSG_EQ(c.IsExpired(), true, "cancelled through MrcSchedule's id");
    }

    /** An event with context 5 that schedules a mix of its own. */
    void Nested()
    {
        Log(100);
        Mix(100, MicroSeconds(2));
    }

    /**
     * One simulation.
     * @param impl the implementation's TypeId name
     */
    void RunWith(const std::string& impl)
    {
        ObjectFactory i;
        i.SetTypeId(impl);
        Simulator::SetImplementation(i.Create<SimulatorImpl>());
        m_ran.clear();
        Mix(0, MicroSeconds(1));
        Simulator::ScheduleWithContext(
            5, MicroSeconds(1), &MrcDirectScheduleTestCase::Nested, this);
        Simulator::Run();
        const uint32_t none = Simulator::NO_CONTEXT;
        const int64_t t1 = MicroSeconds(1).GetTimeStep();
        const int64_t t3 = MicroSeconds(3).GetTimeStep();
        const std::vector<Ran> want = {{1, none, t1},
                                       {2, none, t1},
                                       {3, none, t1},
                                       {4, 7, t1},
                                       {6, none, t1},
                                       {100, 5, t1},
                                       {101, 5, t3},
                                       {102, 5, t3},
                                       {103, 5, t3},
                                       {104, 7, t3},
                                       {106, 5, t3}};
        CheckLog(impl, want, "every event but the cancelled");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Simulator::Destroy();
        RunWith("ns3::MrcSimulatorImpl");
        RunWith("ns3::DefaultSimulatorImpl");
        RunWith("ns3::MrcSimulatorImpl");
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcRecycledEvent scheduled with MrcScheduleDetached and MrcScheduleWithContext runs
 * where Simulator's calls would put any event (the same order among events at one time, the same
 * times and contexts), under both implementations; under MrcSimulatorImpl an object that ran is
 * the one the next Make gives (a chain of 100 events constructs none), under
 * DefaultSimulatorImpl every event that ran is deleted; an event still pending when the
 * simulator is destroyed, scheduled before the run or in it, releases what it holds.
 */
class MrcRecycledEventTestCase : public MrcEventLogTestCase
{
public:
    MrcRecycledEventTestCase()
        : MrcEventLogTestCase(
            "recycled events: Simulator's order, objects reused constructed, released "
            "when left over")
    {
    }

private:
    /** Events of the chain scheduled one from the other. */
    static constexpr int CHAIN = 100;

    /** A recycled event that logs its tag and holds a reference to a packet. */
    class Probe : public MrcRecycledEvent<Probe>
    {
    public:
        Probe()
        {
            ++s_constructed;
        }

        ~Probe() override
        {
            ++s_destroyed;
        }

        /**
         * @param test the test that logs
         * @param tag the tag logged
         * @param held a packet the event keeps a reference to
         */
        void Set(MrcRecycledEventTestCase* test, int tag, Ptr<Packet> held)
        {
            m_test = test;
            m_tag = tag;
            m_held = held;
        }

        /** Log the tag. */
        void Fire()
        {
            m_test->LogAndChain(m_tag);
        }

        /** Release the packet. */
        void Clear()
        {
            m_held = nullptr;
        }

        static inline int s_constructed = 0; //!< objects constructed
        static inline int s_destroyed = 0;   //!< objects destroyed

    private:
        MrcRecycledEventTestCase* m_test = nullptr; //!< the test
        int m_tag = 0;                              //!< the tag
        Ptr<Packet> m_held;                         //!< the packet held
    };

    /**
     * Record an event; a tag of the chain schedules the chain's next event 1 us later.
     * @param tag which one
     */
    void LogAndChain(int tag)
    {
        Log(tag);
        if (tag >= 1000 && tag < 1000 + CHAIN - 1)
        {
            MrcScheduleDetached(MicroSeconds(1), Probe::Make(this, tag + 1, m_held));
        }
    }

    /**
     * Schedule four events after `delay` (tags base+1 to base+4): an ordinary one, a detached
     * recycled one, a recycled one with context 7, an ordinary one.
     * @param base the tags' base
     * @param delay from now
     */
    void Mix(int base, Time delay)
    {
        using T = MrcRecycledEventTestCase;
        Simulator::Schedule(delay, &T::Log, this, base + 1);
        MrcScheduleDetached(delay, Probe::Make(this, base + 2, m_held));
        MrcScheduleWithContext(7, delay, Probe::Make(this, base + 3, m_held));
        Simulator::Schedule(delay, &T::Log, this, base + 4);
    }

    /** An event with context 5: a mix of its own, the chain's first event and one left pending
     * at the end. */
    void Nested()
    {
        LogAndChain(100);
        Mix(100, MicroSeconds(2));
        MrcScheduleDetached(MicroSeconds(3), Probe::Make(this, 1000, m_held));
        // Left pending, as the one made before the run: the run stops first.
        MrcScheduleWithContext(3, Seconds(1), Probe::Make(this, -2, m_held));
    }

    /**
     * One simulation.
     * @param impl the implementation's TypeId name
     */
    void RunWith(const std::string& impl)
    {
        ObjectFactory i;
        i.SetTypeId(impl);
        Simulator::SetImplementation(i.Create<SimulatorImpl>());
        m_ran.clear();
        m_held = Create<Packet>();
        Probe::s_constructed = 0;
        Probe::s_destroyed = 0;
        Mix(0, MicroSeconds(1));
        Simulator::ScheduleWithContext(5, MicroSeconds(1), &MrcRecycledEventTestCase::Nested, this);
        // Left pending: the run stops first.
        MrcScheduleWithContext(3, Seconds(1), Probe::Make(this, -1, m_held));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const uint32_t none = Simulator::NO_CONTEXT;
        const int64_t us = MicroSeconds(1).GetTimeStep();
        std::vector<Ran> want = {{1, none, us},
                                 {2, none, us},
                                 {3, 7, us},
                                 {4, none, us},
                                 {100, 5, us},
                                 {101, 5, 3 * us},
                                 {102, 5, 3 * us},
                                 {103, 7, 3 * us},
                                 {104, 5, 3 * us}};
        for (int k = 0; k < CHAIN; ++k)
        {
            want.push_back({1000 + k, 5, (4 + k) * us});
        }
        CheckLog(impl, want, "every event but the last");
        // Events made: 3 before the run (all through ns-3's path: nothing runs yet), 3 by
        // Nested, CHAIN by the chain; two of them are left pending.
        const int made = 3 + 3 + CHAIN;
        if (impl == "ns3::MrcSimulatorImpl")
        {
            // At most the 7 made before any recycled event had run (3 before the run, 4 by
            // Nested): the chain's later events take the objects of those that ran.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(
                Probe::s_constructed, 7, impl + ": objects that ran made the later events");
        }
        else
        {
            // Make takes what an earlier MrcSimulatorImpl run left in the pool first.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(
                Probe::s_constructed, made - 7, impl + ": an object per event, after the pool");
            NS_TEST_EXPECT_MSG_EQ(
                Probe::s_destroyed, made - 2, impl + ": every event that ran deleted");
        }
        NS_TEST_EXPECT_MSG_EQ(m_held->GetReferenceCount(),
                              3,
                              impl + ": the two pending events hold their references");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(m_held->GetReferenceCount(),
                              1,
                              impl + ": the pending events released their references");
        m_held = nullptr;
    }

    void DoRun() override
    {
        Simulator::Destroy();
        RunWith("ns3::MrcSimulatorImpl");
        RunWith("ns3::DefaultSimulatorImpl");
        RunWith("ns3::MrcSimulatorImpl");
    }

    Ptr<Packet> m_held; //!< the packet the events hold
};

/**
 * @ingroup mrc-tests
 * @brief MrcRingDeque against std::deque: 200,000 random operations (push and pop at both
 * ends, indexing, resize, erase at an index, clear, swap) leave the same elements in the same
 * order; an element that leaves the ring is released (the ring keeps no reference to it).
 */
class MrcRingDequeTestCase : public TestCase
{
public:
    MrcRingDequeTestCase()
        : TestCase("MrcRingDeque: std::deque's order and indexing, popped elements released")
    {
    }

private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        MrcRingDeque<uint32_t> ring;
        MrcRingDeque<uint32_t> other;
        std::deque<uint32_t> ref;
        std::deque<uint32_t> otherRef;
        uint32_t next = 0;
        bool same = true;
        for (uint32_t op = 0; op < 200000 && same; ++op)
        {
            const uint32_t r = rng() % 100;
            if (r < 45 || ref.empty())
            {
                ring.push_back(next);
                ref.push_back(next);
                ++next;
            }
            else if (r < 75)
            {
                ring.pop_front();
                ref.pop_front();
            }
            else if (r < 85)
            {
                ring.pop_back();
                ref.pop_back();
            }
            else if (r < 90)
            {
                const std::size_t i = rng() % ref.size();
                ring[i] = next;
                ref[i] = next;
                ++next;
            }
            else if (r < 94)
            {
                const std::size_t i = rng() % ref.size();
                ring.erase_at(i);
                ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(i));
            }
            else if (r < 98)
            {
                const std::size_t n = rng() % (2 * ref.size() + 3);
                ring.resize(n, 7);
                ref.resize(n, 7);
            }
            else if (r < 99)
            {
                ring.swap(other);
                ref.swap(otherRef);
            }
            else
            {
                ring.clear();
                ref.clear();
            }
            same = ring.size() == ref.size() && ring.empty() == ref.empty();
            for (std::size_t k = 0; same && k < ref.size(); ++k)
            {
                same = ring[k] == ref[k];
            }
            same = same
                && (ref.empty() || (ring.front() == ref.front() && ring.back() == ref.back()));
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "the ring holds what std::deque holds, in its order");
        NS_TEST_ASSERT_MSG_GT(next, 50000u, "the run pushed many elements");

        // Popped, erased and cleared elements are released.
        auto token = std::make_shared<int>(1);
        MrcRingDeque<std::shared_ptr<int>> owners;
        for (int k = 0; k < 10; ++k)
        {
            owners.push_back(token);
        }
        NS_TEST_ASSERT_MSG_EQ(token.use_count(), 11, "ten copies held");
        owners.pop_front();
        owners.pop_back();
        owners.erase_at(3);
        NS_TEST_ASSERT_MSG_EQ(token.use_count(), 8, "three released");
        owners.resize(2);
        NS_TEST_ASSERT_MSG_EQ(token.use_count(), 3, "resize released the rest but two");
        owners.clear();
        NS_TEST_ASSERT_MSG_EQ(token.use_count(), 1, "clear released them all");
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcPacketPrefetch finds where ns-3 keeps a packet's bytes and metadata: its first
 * byte's address holds the bytes Packet::CopyData gives (after headers added and removed, for a
 * packet made from bytes), a packet of zeros has none held, a copy shares both, and the
 * metadata storage's first word is its reference count.
 */
class MrcPacketPrefetchTestCase : public TestCase
{
public:
    MrcPacketPrefetchTestCase()
        : TestCase("MrcPacketPrefetch: a packet's first byte and metadata storage, where ns-3 "
                   "keeps them")
    {
    }

private:
    /**
     * Check that a packet's first held bytes are the ones CopyData gives.
     * @param p the packet
     * @param n how many bytes to compare
     * @param what what the packet is
     */
    void CheckBytes(Ptr<const Packet> p, uint32_t n, const std::string& what)
    {
        std::vector<uint8_t> copy(n);
        p->CopyData(copy.data(), n);
        const uint8_t* held = MrcPacketPrefetch::FirstByte(*p);
        NS_TEST_ASSERT_MSG_NE(held, nullptr, what << ": held in memory");
        NS_TEST_ASSERT_MSG_EQ(std::equal(copy.begin(), copy.end(), held), true, what);
    }

    void DoRun() override
    {
        Ptr<Packet> zeros = Create<Packet>(1000);
        NS_TEST_ASSERT_MSG_EQ(
            MrcPacketPrefetch::FirstByte(*zeros), nullptr, "a packet of zeros holds no byte");

        MrcHeader h;
        h.SetOpcode(MrcHeader::WRITE);
        h.SetDstQpn(0x123456);
        h.SetSrcQpn(0x654321);
        h.SetEv(0xbeef);
        Ptr<Packet> p = Create<Packet>(1000);
        p->AddHeader(h);
        CheckBytes(p, h.GetSerializedSize(), "a header added at the front");
        NS_TEST_ASSERT_MSG_EQ(MrcHeader::PeekDstQpn(MrcPacketPrefetch::FirstByte(*p)),
                              0x123456u,
                              "the destination QPN read from the header's bytes");
        p->RemoveAtStart(4);
        CheckBytes(p, h.GetSerializedSize() - 4, "four bytes removed");

        uint8_t raw[64];
        for (uint32_t i = 0; i < sizeof(raw); ++i)
        {
            raw[i] = static_cast<uint8_t>(7 * i + 3);
        }
        Ptr<Packet> bytes = Create<Packet>(raw, sizeof(raw));
        CheckBytes(bytes, sizeof(raw), "a packet made from bytes");
        NS_TEST_ASSERT_MSG_EQ(
            MrcPacketPrefetch::FirstByte(*Create<Packet>()), nullptr, "an empty packet");

        const void* storage = MrcPacketPrefetch::MetadataStorage(*p);
        NS_TEST_ASSERT_MSG_NE(storage, nullptr, "metadata storage");
        uint32_t count = 0;
        std::memcpy(&count, storage, sizeof(count));
        NS_TEST_ASSERT_MSG_EQ(count, 1u, "held by the one packet");
        {
            Ptr<Packet> copy = p->Copy();
            NS_TEST_ASSERT_MSG_EQ(
                MrcPacketPrefetch::MetadataStorage(*copy), storage, "a copy shares the storage");
            std::memcpy(&count, storage, sizeof(count));
            NS_TEST_ASSERT_MSG_EQ(count, 2u, "held by both");
            NS_TEST_ASSERT_MSG_EQ(MrcPacketPrefetch::FirstByte(*copy),
                                  MrcPacketPrefetch::FirstByte(*p),
                                  "and the bytes");
        }
        std::memcpy(&count, storage, sizeof(count));
        NS_TEST_ASSERT_MSG_EQ(count, 1u, "the copy gone");
        MrcPacketPrefetch::Insides(PeekPointer(p));
        MrcPacketPrefetch::Insides(PeekPointer(zeros));
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcEventPrefetch under MrcSimulatorImpl with MrcCalendarScheduler: an event of a
 * registered class has its Targets stage, then its Beyond stage, then its Deep, Deeper and Deepest
 * stages (if its class registered them) run before it runs, each once at most, while the events run
 * in the same order as without the stages; events of other classes are left alone; and nothing is
 * warmed for the events Destroy discards.
 */
class MrcEventPrefetchTestCase : public TestCase
{
public:
    MrcEventPrefetchTestCase()
        : TestCase("MrcEventPrefetch: registered events warmed (Targets, Beyond, Deep, Deeper, "
                   "Deepest) before they run; order unchanged")
    {
    }

private:
    /**
     * What happened to a tagged event, in order: 'T'argets, 'B'eyond, 'D'eep, d'E'eper,
     * deepe'S't, 'R'un.
     */
    using Log = std::vector<std::pair<char, int>>;

    /** An event of a registered class: logs its stages and its run. */
    class Tagged : public EventImpl
    {
    public:
        /**
         * @param log the log
         * @param id the event's tag
         */
        Tagged(Log* log, int id)
            : m_log(log)
            , m_id(id)
        {
        }

        /**
         * A stage: logs its letter.
         * @tparam C the stage's letter ('T', 'B', 'D', 'E' or 'S')
         * @param e a Tagged event
         */
        template<char C>
        static void Stage(const EventImpl* e)
        {
            const auto* t = static_cast<const Tagged*>(e);
            t->m_log->emplace_back(C, t->m_id);
        }

    private:
        void Notify() override
        {
            m_log->emplace_back('R', m_id);
        }

        Log* m_log; //!< the log
        int m_id;   //!< the tag
    };

    /** An event of a class registered with Targets and Beyond only. */
    class Shallow : public Tagged
    {
    public:
        using Tagged::Tagged;
    };

    /**
     * Schedule the events: 100 tagged ones, 100 shallow ones and 100 others, several per
     * nanosecond, then stop at 30 ns with the rest pending.
     * @param log the log of the tagged ones
     * @param others the order in which the others ran
     */
    static void Schedule(Log* log, std::vector<int>* others)
    {
        std::mt19937 rng(7);
        for (int i = 0; i < 300; ++i)
        {
            const Time at = NanoSeconds(rng() % 40);
            if (i % 3 == 2)
            {
                Simulator::Schedule(at,
                                    [others, i]()
                                    {
                                        others->push_back(i);
                                    });
            }
            else if (i % 3 == 1)
            {
                Simulator::Schedule(at, Ptr<EventImpl>(new Shallow(log, i), false));
            }
            else
            {
                Simulator::Schedule(at, Ptr<EventImpl>(new Tagged(log, i), false));
            }
        }
        Simulator::Stop(NanoSeconds(30));
    }

    /**
     * Run the events under one implementation.
     * @param impl its TypeId name
     * @param log set to the tagged events' log
     * @param others set to the others' order
     */
    static void RunWith(const std::string& impl, Log& log, std::vector<int>& others)
    {
        Simulator::Destroy();
        ObjectFactory i;
        i.SetTypeId(impl);
        Simulator::SetImplementation(i.Create<SimulatorImpl>());
        ObjectFactory f;
        f.SetTypeId("ns3::MrcCalendarScheduler");
        Simulator::SetScheduler(f);
        Schedule(&log, &others);
        Simulator::Run();
        Simulator::Destroy(); // discards the events after 30 ns
    }

    void DoRun() override
    {
        static const bool registered
            = (MrcEventPrefetch::Register(typeid(Tagged),
                                          &Tagged::Stage<'T'>,
                                          &Tagged::Stage<'B'>,
                                          &Tagged::Stage<'D'>,
                                          &Tagged::Stage<'E'>,
                                          &Tagged::Stage<'S'>),
               MrcEventPrefetch::Register(
                   typeid(Shallow), &Tagged::Stage<'T'>, &Tagged::Stage<'B'>),
               true);
        NS_TEST_ASSERT_MSG_EQ(registered, true, "registered");
        Log log;
        std::vector<int> others;
        RunWith("ns3::MrcSimulatorImpl", log, others);
        Log reference;
        std::vector<int> referenceOthers;
        RunWith("ns3::DefaultSimulatorImpl", reference, referenceOthers);

        // The same events ran in the same order; ns-3's implementation warms nothing.
        Log runs;
        for (const auto& entry : log)
        {
            if (entry.first == 'R')
            {
                runs.push_back(entry);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(reference.size(), runs.size(), "the same tagged events ran");
        for (std::size_t k = 0; k < runs.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(runs[k].second, reference[k].second, "run " << k);
        }
        NS_TEST_ASSERT_MSG_EQ((others == referenceOthers), true, "the other events, in order");
        NS_TEST_ASSERT_MSG_GT(runs.size(), 100u, "most ran before the stop");
        NS_TEST_ASSERT_MSG_LT(runs.size(), 200u, "some were left to Destroy");

        // Per tagged event: Targets, then Beyond, then Deep, Deeper and Deepest (a Tagged one),
        // then its run; each at most once.
        std::map<int, std::string> seen;
        for (const auto& entry : log)
        {
            seen[entry.second] += entry.first;
        }
        std::set<int> ran;
        for (const auto& entry : runs)
        {
            ran.insert(entry.second);
        }
        uint32_t deepRan = 0;
        uint32_t deepWarmed = 0;
        uint32_t shallowRan = 0;
        uint32_t shallowWarmed = 0;
        for (const auto& [id, what] : seen)
        {
            if (ran.count(id) == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(what, "", "event " << id << " never ran: nothing warmed");
                continue;
            }
            if (id % 3 == 1)
            {
                NS_TEST_EXPECT_MSG_EQ((what == "R" || what == "BR" || what == "TBR"),
                                      true,
                                      "shallow event " << id << ": " << what);
                ++shallowRan;
                shallowWarmed += what == "TBR" ? 1 : 0;
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ((what == "R" || what == "SR" || what == "ESR"
                                       || what == "DESR" || what == "BDESR" || what == "TBDESR"),
                                      true,
                                      "event " << id << ": " << what);
                ++deepRan;
                deepWarmed += what == "TBDESR" ? 1 : 0;
            }
        }
        // About seven events share each nanosecond, so most events had five events ahead of
        // them in their bucket.
        NS_TEST_EXPECT_MSG_GT(deepWarmed, deepRan / 2, "most tagged events warmed five times");
        NS_TEST_EXPECT_MSG_GT(shallowWarmed, shallowRan / 2, "most shallow ones warmed twice");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Scheduler test suite.
 */
class MrcSchedulerTestSuite : public TestSuite
{
public:
    MrcSchedulerTestSuite()
        : TestSuite("mrc-scheduler", TestSuite::Type::UNIT)
    {
        for (const char* tid : {"ns3::MrcHeapScheduler", "ns3::MrcCalendarScheduler"})
        {
            AddTestCase(new MrcSchedulerOrderTestCase(tid, 50, 0));
            AddTestCase(new MrcSchedulerOrderTestCase(tid, 50000, 0.02));
            AddTestCase(new MrcSchedulerSimulatorTestCase(tid));
        }
        AddTestCase(new MrcSchedulerOrderTestCase("ns3::MrcCalendarScheduler", 50, 0.02, 8));
        AddTestCase(new MrcSimulatorImplTestCase);
        AddTestCase(new MrcEventPrefetchTestCase);
        AddTestCase(new MrcPacketPrefetchTestCase);
        AddTestCase(new MrcPooledEventTestCase);
        AddTestCase(new MrcOwnedTimerTestCase);
        AddTestCase(new MrcNowTestCase);
        AddTestCase(new MrcDirectScheduleTestCase);
        AddTestCase(new MrcRecycledEventTestCase);
        AddTestCase(new MrcRingDequeTestCase);
    }
};

/** Static instance. */
static MrcSchedulerTestSuite g_mrcSchedulerTestSuite;

} // namespace
