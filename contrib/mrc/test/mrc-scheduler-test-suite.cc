/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of MrcHeapScheduler: the same event order as ns-3's MapScheduler.
 */

#include "ns3/mrc-heap-scheduler.h"

#include "ns3/core-module.h"
#include "ns3/map-scheduler.h"
#include "ns3/test.h"

#include <set>
#include <vector>

using namespace ns3;

namespace
{

/**
 * @ingroup mrc-tests
 * @brief Random inserts, removals and pops against ns-3's MapScheduler: the same events come
 * out in the same order, including many with equal timestamps.
 */
class MrcHeapSchedulerOrderTestCase : public TestCase
{
public:
    MrcHeapSchedulerOrderTestCase()
        : TestCase("MrcHeapScheduler pops events in MapScheduler's order, with removals")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcHeapScheduler> heap = CreateObject<MrcHeapScheduler>();
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
                ev.key.m_ts = now + u->GetInteger(0, 50);
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
            NS_TEST_ASSERT_MSG_EQ(heap->RemoveNext().key.m_uid,
                                  ref->RemoveNext().key.m_uid,
                                  "same order while draining");
            ++popped;
        }
        NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), true, "both empty at the end");
        NS_TEST_ASSERT_MSG_EQ(popped + removed, uid, "every event popped or removed once");
        NS_TEST_ASSERT_MSG_GT(removed, 1000, "removals were exercised");
    }
};

/**
 * @ingroup mrc-tests
 * @brief The simulator runs events in time order under MrcHeapScheduler, equal times in the
 * order they were scheduled, and skips cancelled ones.
 */
class MrcHeapSchedulerSimulatorTestCase : public TestCase
{
public:
    MrcHeapSchedulerSimulatorTestCase()
        : TestCase("Simulator with MrcHeapScheduler: time order, FIFO ties, cancel and remove")
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
        f.SetTypeId("ns3::MrcHeapScheduler");
        Simulator::SetScheduler(f);
        Simulator::Schedule(MicroSeconds(3), &MrcHeapSchedulerSimulatorTestCase::Record, this, 3);
        Simulator::Schedule(MicroSeconds(1), &MrcHeapSchedulerSimulatorTestCase::Record, this, 1);
        Simulator::Schedule(MicroSeconds(2), &MrcHeapSchedulerSimulatorTestCase::Record, this, 20);
        Simulator::Schedule(MicroSeconds(2), &MrcHeapSchedulerSimulatorTestCase::Record, this, 21);
        EventId c = Simulator::Schedule(
            MicroSeconds(2), &MrcHeapSchedulerSimulatorTestCase::Record, this, 99);
        EventId r = Simulator::Schedule(
            MicroSeconds(4), &MrcHeapSchedulerSimulatorTestCase::Record, this, 98);
        Simulator::Schedule(MicroSeconds(2), &MrcHeapSchedulerSimulatorTestCase::Record, this, 22);
        c.Cancel();
        Simulator::Remove(r);
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<int> expected{1, 20, 21, 22, 3};
        NS_TEST_ASSERT_MSG_EQ(m_order.size(), expected.size(), "five events ran");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_order[i], expected[i], "event " << i << " in order");
        }
        ObjectFactory def;
        def.SetTypeId("ns3::MapScheduler");
        Simulator::SetScheduler(def);
        Simulator::Destroy();
    }

    std::vector<int> m_order; //!< tags in execution order
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
        AddTestCase(new MrcHeapSchedulerOrderTestCase);
        AddTestCase(new MrcHeapSchedulerSimulatorTestCase);
    }
};

/** Static instance. */
static MrcSchedulerTestSuite g_mrcSchedulerTestSuite;

} // namespace
