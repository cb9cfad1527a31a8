/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * The flow-level model: max-min fair rates on hand-solvable fabrics (exact), group completion
 * times, failover of both schemes with exact end times, the fluid training job (steps, records,
 * the hierarchical all-reduce), and agreement with packet level on one small case.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A built fluid network.
 * @param scheme mrc or baseline
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t0 T0s
 * @param t1 T1s
 * @return the network
 */
Ptr<MrcFluidNetwork>
MakeFluid(const std::string& scheme, uint32_t planes, uint32_t hostsPerT0, uint32_t t0, uint32_t t1)
{
    Ptr<MrcFluidNetwork> n = CreateObject<MrcFluidNetwork>();
    n->SetAttribute("Scheme", StringValue(scheme));
    n->SetAttribute("Planes", UintegerValue(planes));
    n->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    n->SetAttribute("T0sPerPlane", UintegerValue(t0));
    n->SetAttribute("T1sPerPlane", UintegerValue(t1));
    n->Build();
    n->AssignStreams(7);
    return n;
}

/** Record a group's end. */
struct Ends
{
    std::vector<Time> at; //!< per group id: when it ended (-1: not yet)
    std::vector<bool> ok; //!< per group id: success

    /**
     * @param id group
     * @param success its status
     */
    void Done(uint32_t id, bool success)
    {
        if (at.size() <= id)
        {
            at.resize(id + 1, Time(-1));
            ok.resize(id + 1, false);
        }
        at[id] = Simulator::Now();
        ok[id] = success;
    }
};

/**
 * @param n network
 * @param src source host
 * @param dst destination host
 * @param bytes bytes
 * @param ends where the end goes
 * @return the group id
 */
uint32_t
Flow(Ptr<MrcFluidNetwork> n, uint32_t src, uint32_t dst, double bytes, Ends* ends)
{
    return n->AddGroup({{src, dst}}, bytes, Time(0), MakeCallback(&Ends::Done, ends));
}

/**
 * @ingroup mrc-tests
 * Max-min fair rates by progressive filling, on fabrics small enough to solve by hand.
 */
class MrcFluidRatesTestCase : public TestCase
{
public:
    MrcFluidRatesTestCase()
        : TestCase("max-min fair rates: exact on hand-solvable fabrics")
    {
    }

private:
    void DoRun() override
    {
        // Four hosts under one T0, one plane: three flows into host 3 share its link (C/3
        // each); a fourth flow from host 1 gets what host 1's uplink has left: 2C/3.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 4, 1, 1);
            const double c = n->GetLinkCapacity();
            NS_TEST_ASSERT_MSG_EQ_TOL(c,
                                      100e9 / 8 * 4096 / (4096 + 40 + 76.0),
                                      1e-3,
                                      "capacity in payload bytes per second");
            Ends e;
            const uint32_t f1 = Flow(n, 0, 3, 1e12, &e);
            const uint32_t f2 = Flow(n, 1, 3, 1e12, &e);
            const uint32_t f3 = Flow(n, 2, 3, 1e12, &e);
            const uint32_t f4 = Flow(n, 1, 0, 1e12, &e);
            Simulator::Stop(MicroSeconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f1), c / 3, c * 1e-9, "f1");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f2), c / 3, c * 1e-9, "f2");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f3), c / 3, c * 1e-9, "f3");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f4), 2 * c / 3, c * 1e-9, "f4");
            Simulator::Destroy();
        }
        // A ring group (0 -> 1 -> 2 -> 0) and a flow 0 -> 1 share host 0's uplink and host
        // 1's downlink: C/2 each; the ring's other edges do not constrain it.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 3, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            const uint32_t ring = n->AddGroup(
                {{0, 1}, {1, 2}, {2, 0}}, 1e12, Time(0), MakeCallback(&Ends::Done, &e));
            const uint32_t f = Flow(n, 0, 1, 1e12, &e);
            Simulator::Stop(MicroSeconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(ring), c / 2, c * 1e-9, "ring");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f), c / 2, c * 1e-9, "flow");
            Simulator::Destroy();
        }
        // MRC spreads over the planes: two planes give one flow 2C; across T0s it spreads over
        // both T1s of each plane.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 2, 2, 2, 2);
            const double c = n->GetLinkCapacity();
            Ends e;
            const uint32_t f1 = Flow(n, 0, 1, 1e12, &e);
            Simulator::Stop(MicroSeconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f1), 2 * c, c * 1e-9, "two planes, one T0");
            // ... and a third flow into host 2 halves what host 2's ports give each.
            const uint32_t f2 = Flow(n, 0, 2, 1e12, &e);
            const uint32_t f3 = Flow(n, 1, 3, 1e12, &e);
            const uint32_t f4 = Flow(n, 3, 2, 1e12, &e);
            Simulator::Stop(MicroSeconds(1));
            Simulator::Run();
            // host 0's ports: f1 + f2 <= 2C; host 2's ports: f2 + f4 <= 2C; host 1: f3 + (f1
            // in) ; T0 0 -> T1 uplinks (4 of C): f2 + f3 <= 4C. Filling: everyone to C, where
            // host 0, host 2 (and host 1's down ports for f1) saturate.
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f1), c, c * 1e-9, "f1");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f2), c, c * 1e-9, "f2");
            NS_TEST_ASSERT_MSG_EQ_TOL(
                n->GetRate(f3), 2 * c, c * 1e-9, "f3: host 1 up, host 3 down free");
            NS_TEST_ASSERT_MSG_EQ_TOL(n->GetRate(f4), c, c * 1e-9, "f4");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup mrc-tests
 * Group completion times and failover, with exact expected end times.
 */
class MrcFluidFailoverTestCase : public TestCase
{
public:
    MrcFluidFailoverTestCase()
        : TestCase("fluid failover: MRC loses a port's share, the baseline stalls or times out")
    {
    }

private:
    void DoRun() override
    {
        const double bytes = 4e6;
        // A lone flow with a latency: bytes / C + latency, to the nanosecond.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 1, 2, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            n->AddGroup({{0, 1}}, bytes, MicroSeconds(3), MakeCallback(&Ends::Done, &e));
            Simulator::Run();
            const double expect = bytes / c * 1e9 + 3000;
            NS_TEST_ASSERT_MSG_EQ_TOL(double(e.at[0].GetNanoSeconds()), expect, 1.0, "end");
            NS_TEST_ASSERT_MSG_EQ(e.ok[0], true, "ok");
            Simulator::Destroy();
        }
        // MRC, two planes, host 0 loses its plane-1 port at 0 for good: during the 11.3 us
        // bypass it sends at 2C of which half is lost, then at C on plane 0: goodput C
        // throughout, so the flow ends at bytes / C (not bytes / 2C).
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 2, 2, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            const uint32_t f = Flow(n, 0, 1, bytes, &e);
            Simulator::Schedule(NanoSeconds(1),
                                [n]()
                                {
                                    n->GetHostLink(0, 1)->SetUp(false);
                                });
            Simulator::Schedule(MicroSeconds(5),
                                [this, n, f, c]()
                                {
                                    NS_TEST_EXPECT_MSG_EQ_TOL(
                                        n->GetRate(f), 2 * c, c * 1e-9, "still 2C: bypass");
                                });
            Simulator::Schedule(MicroSeconds(20),
                                [this, n, f, c]()
                                {
                                    NS_TEST_EXPECT_MSG_EQ_TOL(
                                        n->GetRate(f), c, c * 1e-9, "C after the bypass");
                                });
            Simulator::Run();
            const double expect = 1 + (bytes - 2 * c * 1e-9) / c * 1e9;
            NS_TEST_ASSERT_MSG_EQ_TOL(double(e.at[f].GetNanoSeconds()), expect, 2.0, "end");
            Simulator::Destroy();
        }
        // The baseline: host 1's only port is down from 10 us to 30 us. Mid-transfer, the
        // flow resumes when it is back (go-back-N on the next NAK): 20 us late.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 2, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            const uint32_t f = Flow(n, 0, 1, bytes, &e);
            Simulator::Schedule(MicroSeconds(10),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(false);
                                });
            Simulator::Schedule(MicroSeconds(30),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(true);
                                });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(double(e.at[f].GetNanoSeconds()),
                                      bytes / c * 1e9 + 20000,
                                      2.0,
                                      "mid-transfer outage: 20 us late");
            Simulator::Destroy();
        }
        // The same outage near the end (it would have sent its last bytes into it): a tail
        // loss, recovered by the 4.29 s local ACK timeout counted from the failure.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 2, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            const double small = c * 15e-6; // 15 us of data
            const uint32_t f = Flow(n, 0, 1, small, &e);
            Simulator::Schedule(MicroSeconds(10),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(false);
                                });
            Simulator::Schedule(MicroSeconds(30),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(true);
                                });
            Simulator::Run();
            const double expect = 10000 + 4294967296.0 + 5000;
            NS_TEST_ASSERT_MSG_EQ_TOL(
                double(e.at[f].GetNanoSeconds()), expect, 2.0, "tail loss: the local ACK timeout");
            NS_TEST_ASSERT_MSG_EQ(e.ok[f], true, "recovered");
            Simulator::Destroy();
        }
        // A latency-bound group (10 rounds of 4 KB, each followed by 10 us) runs for its whole
        // duration: an outage in the middle of it costs the outage, 20 us.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 2, 1, 1);
            const double c = n->GetLinkCapacity();
            Ends e;
            const double s = 4096;
            const uint32_t f = n->AddGroup({{0, 1}},
                                           10 * s,
                                           MicroSeconds(1),
                                           MakeCallback(&Ends::Done, &e),
                                           s,
                                           MicroSeconds(10));
            Simulator::Schedule(MicroSeconds(50),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(false);
                                });
            Simulator::Schedule(MicroSeconds(70),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(true);
                                });
            Simulator::Run();
            const double expect = 10 * (s / c * 1e9 + 10000) + 1000 + 20000;
            NS_TEST_ASSERT_MSG_EQ_TOL(double(e.at[f].GetNanoSeconds()),
                                      expect,
                                      3.0,
                                      "rounds: the outage in the middle costs its length");
            Simulator::Destroy();
        }
        // A port that never returns: the queue pair fails after 8 timeouts.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("baseline", 1, 2, 1, 1);
            Ends e;
            const uint32_t f = Flow(n, 0, 1, bytes, &e);
            Simulator::Schedule(MicroSeconds(10),
                                [n]()
                                {
                                    n->GetHostLink(1, 0)->SetUp(false);
                                });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(e.ok[f], false, "failed");
            NS_TEST_ASSERT_MSG_EQ_TOL(double(e.at[f].GetNanoSeconds()),
                                      10000 + 8 * 4294967296.0 + 1,
                                      2.0,
                                      "after the retry budget");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup mrc-tests
 * The fluid training job: steps, records, the hierarchical all-reduce's stages, determinism.
 */
class MrcFluidJobTestCase : public TestCase
{
public:
    MrcFluidJobTestCase()
        : TestCase("fluid training job: exact ring step time, hierarchical stages, records")
    {
    }

private:
    void DoRun() override
    {
        // Ring all-reduce over 4 hosts of one T0, one plane, no compute: every edge carries
        // 2(N-1) segments of bytes/N at C, plus 2(N-1) + 1 one-way latencies.
        const uint64_t bytes = 4000000;
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 1, 4, 1, 1);
            Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
            job->SetAttribute("Steps", UintegerValue(2));
            job->SetAttribute("KeepRecords", BooleanValue(true));
            job->SetRanks({0, 1, 2, 3});
            job->AddCollective(MrcCollective::RING_ALLREDUCE, bytes);
            job->Install(n);
            job->Start(Time(0));
            Simulator::Run();
            const auto& steps = job->GetStepRecords();
            NS_TEST_ASSERT_MSG_EQ(steps.size(), 2u, "two steps");
            const double c = n->GetLinkCapacity();
            const double l = n->GetOneWayLatency(0, 1).GetNanoSeconds();
            const double expect = 6 * (bytes / 4) / c * 1e9 + 7 * l;
            NS_TEST_ASSERT_MSG_EQ_TOL(
                double((steps[0].end - steps[0].start).GetNanoSeconds()), expect, 2.0, "step time");
            NS_TEST_ASSERT_MSG_EQ(steps[1].start, steps[0].end, "barrier");
            NS_TEST_ASSERT_MSG_EQ(job->GetTransferRecords().size(), 8u, "one record per edge");
            NS_TEST_ASSERT_MSG_EQ(
                job->GetTransferRecords()[0].bytes,
                MrcCollective::BytesSent(MrcCollective::RING_ALLREDUCE, 4, bytes, 0),
                "record bytes: what rank 0 sends");
            Simulator::Destroy();
        }
        // Hierarchical, 2 T0s of 4 hosts: a reduce-scatter stage (2 groups), an all-reduce
        // across (4 groups), an all-gather (2 groups): 8 + 8 + 8 records per step, in order.
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 2, 4, 2, 2);
            Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
            job->SetAttribute("KeepRecords", BooleanValue(true));
            job->SetRanks({0, 1, 2, 3, 4, 5, 6, 7});
            job->AddCollective(MrcCollective::HIERARCHICAL_ALLREDUCE, bytes, 1, 4);
            job->Install(n);
            job->Start(Time(0));
            Simulator::Run();
            const auto& recs = job->GetTransferRecords();
            NS_TEST_ASSERT_MSG_EQ(recs.size(), 24u, "records");
            NS_TEST_ASSERT_MSG_EQ(job->GetTransfersPerStep(), 24u, "per step");
            for (uint32_t i = 0; i < 8; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(recs[i].srcRank / 4, recs[i].dstRank / 4, "within");
                NS_TEST_ASSERT_MSG_EQ(
                    recs[8 + i].srcRank % 4, recs[8 + i].dstRank % 4, "across, same local index");
                NS_TEST_ASSERT_MSG_NE(recs[8 + i].srcRank / 4, recs[8 + i].dstRank / 4, "across");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(recs[i].end, recs[8 + i].start, "stage order");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(recs[8 + i].end, recs[16 + i].start, "stage order");
            }
            NS_TEST_ASSERT_MSG_EQ(
                std::string(recs[0].collectiveType), "hierarchical-allreduce", "type name");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup mrc-tests
 * Packet level and fluid level agree on a fault-free ring all-reduce (16 GPUs, 4 planes).
 */
class MrcFluidAgreementTestCase : public TestCase
{
public:
    MrcFluidAgreementTestCase()
        : TestCase("fluid and packet level agree on a ring all-reduce step within 10%")
    {
    }

private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        std::vector<uint32_t> ranks(16);
        for (uint32_t r = 0; r < 16; ++r)
        {
            ranks[r] = r;
        }
        Time packet;
        {
            mrctest::Net net = mrctest::MakeNet(4, 4, 4, 4, "ns3::MrcAdaptiveSpray", 128);
            Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
            job->SetRanks(ranks);
            job->AddCollective(MrcCollective::RING_ALLREDUCE, bytes);
            job->Install(net.fabric);
            job->Start(Time(0));
            NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "packet run ends");
            NS_TEST_ASSERT_MSG_EQ(job->GetStepRecords().size(), 1u, "one step");
            packet = job->GetStepRecords()[0].end - job->GetStepRecords()[0].start;
            Simulator::Destroy();
        }
        Time fluid;
        {
            Ptr<MrcFluidNetwork> n = MakeFluid("mrc", 4, 4, 4, 4);
            Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
            job->SetRanks(ranks);
            job->AddCollective(MrcCollective::RING_ALLREDUCE, bytes);
            job->Install(n);
            job->Start(Time(0));
            Simulator::Run();
            fluid = job->GetStepRecords()[0].end - job->GetStepRecords()[0].start;
            Simulator::Destroy();
        }
        const double err = std::abs(fluid.GetSeconds() / packet.GetSeconds() - 1);
        NS_TEST_ASSERT_MSG_LT(
            err, 0.10, "packet " << packet.As(Time::US) << ", fluid " << fluid.As(Time::US));
    }
};

/**
 * @ingroup mrc-tests
 * The flow-level model's suite.
 */
class MrcFluidTestSuite : public TestSuite
{
public:
    MrcFluidTestSuite()
        : TestSuite("mrc-fluid", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcFluidRatesTestCase);
        AddTestCase(new MrcFluidFailoverTestCase);
        AddTestCase(new MrcFluidJobTestCase);
        AddTestCase(new MrcFluidAgreementTestCase);
    }
};

/** The suite's instance. */
MrcFluidTestSuite g_mrcFluidTestSuite;

} // namespace
