/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup mrc-tests
 * @brief The RoCE baseline as deployed: PFC (lossless incast, pause propagation, head-of-line
 * blocking of a victim), resilient ECMP hashing, IB retry semantics.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <map>
#include <set>

using namespace ns3;

namespace
{

/** A routed fabric with the RoCE baseline stack on it. */
struct Baseline
{
    Ptr<MrcClosTopology> fabric; //!< the fabric
    MrcStackHelper stack;        //!< the stack
};

/**
 * Build a one-plane routed fabric with the RoCE baseline.
 * @param hostsPerT0 hosts per T0
 * @param t0 T0s
 * @param t1 T1s
 * @param pfc PFC on
 * @param hashing ECMP hashing
 * @return the fabric and stack
 */
Baseline
MakeBaseline(uint32_t hostsPerT0,
             uint32_t t0,
             uint32_t t1,
             bool pfc,
             const std::string& hashing = "resilient",
             uint32_t xoff = 0,
             uint32_t planes = 1)
{
    Baseline b;
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(planes));
    clos->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(t0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(t1));
    clos->SetRoutedBaseline();
    clos->SetAttribute("Pfc", BooleanValue(pfc));
    clos->SetSwitchAttribute("EcmpHashing", StringValue(hashing));
    clos->SetSwitchAttribute("PfcXoffBytes", UintegerValue(xoff));
    b.fabric = clos->Build();
    b.stack.SetRoceBaseline();
    b.stack.Install(b.fabric);
    const int64_t s = 1 + b.fabric->AssignStreams(1);
    b.stack.AssignStreams(s);
    return b;
}

/**
 * @param f a fabric
 * @return packets dropped anywhere in the switches (switch and queue reasons)
 */
uint64_t
SwitchDrops(Ptr<MrcClosTopology> f)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < f->GetSwitches().GetN(); ++s)
    {
        Ptr<MrcSwitchNetDevice> sw
            = DynamicCast<MrcSwitchNetDevice>(f->GetSwitches().Get(s)->GetDevice(0));
        n += sw->GetDroppedTotal();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            n += sw->GetPort(p)->GetQueue()->GetDroppedTotal();
        }
    }
    return n;
}

/**
 * @param sw a switch
 * @return PAUSE frames it sent, all ports
 */
uint64_t
PausesSent(Ptr<MrcSwitchNetDevice> sw)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        n += sw->GetPort(p)->GetPausesSent();
    }
    return n;
}

} // namespace

/**
 * @ingroup mrc-tests
 * @brief A 7-to-1 incast on the routed fabric: with PFC nothing is dropped and the pauses go back
 * hop by hop to the senders; without PFC the same incast drops.
 */
class MrcPfcIncastTestCase : public TestCase
{
public:
    MrcPfcIncastTestCase()
        : TestCase("PFC: a 7-to-1 incast is lossless and pauses propagate two hops back")
    {
    }

private:
    /**
     * Run the incast.
     * @param pfc PFC on
     * @param drops set to the switch drops
     * @param b set to the fabric
     */
    void Incast(bool pfc, uint64_t& drops, Baseline& b)
    {
        // T0 0: hosts 0..3 (host 0 receives); T0 1: hosts 4..7. One T1 joins them.
        b = MakeBaseline(4, 2, 1, pfc);
        const uint64_t size = 1000000;
        std::vector<Ptr<MrcQueuePair>> rx;
        std::vector<Ptr<MrcQueuePair>> tx;
        for (uint32_t h = 1; h < 8; ++h)
        {
            auto qps = b.stack.Connect(h, 0);
            qps.first->PostWrite(size, 0);
            rx.push_back(qps.second);
            tx.push_back(qps.first);
        }
        // Lossy: a lost tail waits for the local ACK timeout (4.3 s); idle time costs nothing.
        Simulator::Stop(Seconds(pfc ? 0.05 : 30));
        Simulator::Run();
        uint64_t cnps = 0;
        for (std::size_t i = 0; i < rx.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[i]->GetBytesPlaced(), size, "every byte arrived");
            // DCQCN: the receiver's notification point sent CNPs, each cut the sender's rate.
            NS_TEST_ASSERT_MSG_EQ(tx[i]->GetCnpsReceived(), rx[i]->GetCnpsSent(), "CNPs arrive");
            Ptr<MrcDcqcn> cc = DynamicCast<MrcDcqcn>(tx[i]->GetCongestionOps());
            NS_TEST_ASSERT_MSG_EQ(cc->GetCuts(), tx[i]->GetCnpsReceived(), "a cut per CNP");
            cnps += rx[i]->GetCnpsSent();
        }
        NS_TEST_ASSERT_MSG_GT(cnps, 0u, "the incast was marked and notified");
        drops = SwitchDrops(b.fabric);
    }

    void DoRun() override
    {
        uint64_t lossyDrops = 0;
        {
            Baseline b;
            Incast(false, lossyDrops, b);
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_GT(lossyDrops, 0u, "without PFC the incast overflows a queue");

        uint64_t drops = 0;
        Baseline b;
        Incast(true, drops, b);
        NS_TEST_ASSERT_MSG_EQ(drops, 0u, "with PFC nothing is dropped");
        Ptr<MrcSwitchNetDevice> t0a = b.fabric->GetT0(0, 0);
        Ptr<MrcSwitchNetDevice> t1 = b.fabric->GetT1(0, 0);
        Ptr<MrcSwitchNetDevice> t0b = b.fabric->GetT0(0, 1);
        NS_TEST_ASSERT_MSG_GT(PausesSent(t0a), 0u, "the congested T0 paused its feeders");
        // T0 0's port toward the T1 is its port 4 (after the 4 host ports); the T1 received the
        // pause there and, its own queue toward T0 0 filling, paused T0 1: two hops back.
        NS_TEST_ASSERT_MSG_GT(t0a->GetPort(4)->GetPausesSent(), 0u, "T0 0 paused the T1");
        NS_TEST_ASSERT_MSG_GT(PausesSent(t1), 0u, "the T1 paused T0 1 (second hop)");
        NS_TEST_ASSERT_MSG_GT(t0b->GetPort(4)->GetPausesReceived(), 0u, "T0 1 was paused");
        NS_TEST_ASSERT_MSG_GT(PausesSent(t0b), 0u, "T0 1 paused its senders (third hop)");
        uint64_t hostPaused = 0;
        for (uint32_t h = 4; h < 8; ++h)
        {
            hostPaused += b.fabric->GetHostPort(h, 0)->GetPausedTime().GetNanoSeconds();
        }
        NS_TEST_ASSERT_MSG_GT(hostPaused, 0u, "the remote senders' NICs were paused");
        for (uint32_t s = 0; s < b.fabric->GetSwitches().GetN(); ++s)
        {
            Ptr<MrcSwitchNetDevice> sw
                = DynamicCast<MrcSwitchNetDevice>(b.fabric->GetSwitches().Get(s)->GetDevice(0));
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(
                    sw->GetMaxIngressBytes(p), sw->GetPfcLimit(p), "the headroom held");
                NS_TEST_ASSERT_MSG_EQ(sw->GetIngressBytes(p), 0u, "accounting returns to zero");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Head-of-line blocking: an incast into T0 0 slows a victim flow that shares only an
 * uncongested link with it, under PFC; without PFC the victim runs as if alone.
 */
class MrcPfcVictimTestCase : public TestCase
{
public:
    MrcPfcVictimTestCase()
        : TestCase("PFC: an incast slows a victim flow through a paused link (HoL blocking)")
    {
    }

private:
    /**
     * Run the victim flow (1 MB, 40 us in), with or without the incast.
     * @param pfc PFC on
     * @param incast run the incast too
     * @return the victim's completion time
     */
    Time Victim(bool pfc, bool incast)
    {
        // T0 0: hosts 0..7 (host 0 receives the incast, host 1 the victim); T0 1: hosts 8..15.
        Baseline b = MakeBaseline(8, 2, 1, pfc);
        Time done;
        if (incast)
        {
            // Seven local senders with long messages, and one remote sender with a short burst:
            // the burst is all the incast traffic on the T1 -> T0 0 link the victim crosses,
            // and it has crossed that link before the victim starts.
            for (uint32_t h : {1u, 2u, 3u, 4u, 5u, 6u, 7u})
            {
                b.stack.Connect(h, 0).first->PostWrite(6000000, 0);
            }
            b.stack.Connect(8, 0).first->PostWrite(300000, 0);
        }
        auto victim = b.stack.Connect(9, 1);
        victim.first->SetSendCompletionCallback(MakeBoundCallback(
            +[](Time* t, const MrcCompletion& c)
            {
                *t = c.completed - c.posted;
            },
            &done));
        Simulator::Schedule(MicroSeconds(40),
                            &MrcQueuePair::PostWrite,
                            victim.first,
                            uint64_t(1000000),
                            uint64_t(0));
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(victim.second->GetBytesPlaced(), 1000000u, "victim delivered");
        Simulator::Destroy();
        return done;
    }

    void DoRun() override
    {
        const double alone = Victim(true, false).GetMicroSeconds();
        const double lossy = Victim(false, true).GetMicroSeconds();
        const double pfc = Victim(true, true).GetMicroSeconds();
        NS_TEST_ASSERT_MSG_LT(lossy, 1.1 * alone, "without PFC the victim is barely touched");
        NS_TEST_ASSERT_MSG_GT(pfc, 1.5 * alone, "with PFC the victim waits behind the pauses");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Resilient hashing: when an ECMP member is lost only the flows that used it move; modulo
 * hashing moves others too. Holds for local detection and for routes withdrawn by reconvergence.
 */
class MrcResilientHashTestCase : public TestCase
{
public:
    MrcResilientHashTestCase()
        : TestCase("ECMP: resilient hashing moves only the lost member's flows")
    {
    }

private:
    /**
     * Count flows that moved when a T1 link failed.
     * @param hashing resilient or modulo
     * @param local true: local detection at T0 0 (its uplink dies); false: reconvergence (T0 1's
     *        uplink dies, T0 0's routes toward T0 1 withdraw that T1)
     * @param movedOthers set to flows not on the failed member that moved
     * @param movedFailed set to flows on the failed member (all must move)
     */
    void Moves(const std::string& hashing, bool local, uint32_t& movedOthers, uint32_t& movedFailed)
    {
        Baseline b = MakeBaseline(4, 2, 4, true, hashing);
        // The fabric is built: its control plane owns the delays now.
        b.fabric->GetControlPlane()->SetAttribute("DetectionDelay", TimeValue(MicroSeconds(1)));
        b.fabric->GetControlPlane()->SetAttribute("ReconvergenceDelay", TimeValue(MicroSeconds(1)));
        Ptr<MrcSwitchNetDevice> t0 = b.fabric->GetT0(0, 0);
        const Ipv6Address dst = b.fabric->GetHostAddress(5, 0);
        std::vector<uint16_t> before;
        for (uint32_t label = 0; label < 400; ++label)
        {
            before.push_back(t0->GetEcmpEgress(b.fabric->GetHostAddress(label % 4, 0), dst, label));
        }
        const uint16_t failed = before[0];
        const uint32_t t1 = failed - 4; // T0 ports: 4 hosts, then the T1s
        Simulator::Schedule(
            MicroSeconds(1), &MrcChannel::SetUp, b.fabric->GetUplink(0, local ? 0 : 1, t1), false);
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t0->IsPortUsable(failed), !local, "the detection state");
        movedOthers = 0;
        movedFailed = 0;
        for (uint32_t label = 0; label < 400; ++label)
        {
            const uint16_t now
                = t0->GetEcmpEgress(b.fabric->GetHostAddress(label % 4, 0), dst, label);
            NS_TEST_ASSERT_MSG_NE(now, failed, "nothing hashes onto the lost member");
            if (before[label] == failed)
            {
                ++movedFailed;
            }
            else if (now != before[label])
            {
                ++movedOthers;
            }
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        for (const bool local : {true, false})
        {
            uint32_t others = 0;
            uint32_t failed = 0;
            Moves("resilient", local, others, failed);
            NS_TEST_ASSERT_MSG_GT(failed, 50u, "about a quarter of the flows were on it");
            NS_TEST_ASSERT_MSG_EQ(others, 0u, "resilient: no other flow moved");
            Moves("modulo", local, others, failed);
            NS_TEST_ASSERT_MSG_GT(others, 50u, "modulo: many other flows moved");
        }
    }
};

/**
 * @ingroup mrc-tests
 * BFD-like detection acts only on a link state that lasted DetectionDelay: a flap shorter than
 * that is never seen (the port stays usable and no route is recomputed), a longer outage is
 * seen DetectionDelay after it began and its end DetectionDelay after the cable returned, and
 * each detection brings one reconvergence ReconvergenceDelay later.
 */
class MrcDetectionTestCase : public TestCase
{
public:
    MrcDetectionTestCase()
        : TestCase("BFD-like detection: outages shorter than the detection time go unnoticed")
    {
    }

private:
    /** What the T0 end of the watched uplink looked like at one instant. */
    struct Seen
    {
        bool usable;             //!< the T0 may hash onto the port
        uint64_t detections;     //!< detections so far
        uint64_t recomputations; //!< route computations so far
    };

    void DoRun() override
    {
        Baseline b = MakeBaseline(2, 2, 2, true);
        Ptr<MrcEcmpControlPlane> cp = b.fabric->GetControlPlane();
        cp->SetAttribute("DetectionDelay", TimeValue(MicroSeconds(100)));
        cp->SetAttribute("ReconvergenceDelay", TimeValue(MicroSeconds(300)));
        Ptr<MrcSwitchNetDevice> t0 = b.fabric->GetT0(0, 0);
        Ptr<MrcChannel> link = b.fabric->GetUplink(0, 0, 1);
        const uint16_t port = 2 + 1; // T0 ports: 2 hosts, then the T1s
        auto at = [](double us, auto f)
        {
            Simulator::Schedule(NanoSeconds(us * 1000), f);
        };
        // A 20 us flap at 10 us; an outage from 200 to 450 us; a return of 50 us (shorter than
        // the detection time) from 450 to 500 us, then down for good.
        at(10,
           [link]()
           {
               link->SetUp(false);
           });
        at(30,
           [link]()
           {
               link->SetUp(true);
           });
        at(200,
           [link]()
           {
               link->SetUp(false);
           });
        at(450,
           [link]()
           {
               link->SetUp(true);
           });
        at(500,
           [link]()
           {
               link->SetUp(false);
           });
        std::map<double, Seen> seen;
        for (double t : {5.0, 120.0, 140.0, 299.0, 301.0, 599.0, 601.0, 700.0, 1200.0})
        {
            at(t,
               [&seen, t, t0, port, cp]()
               {
                   seen[t] = {t0->IsPortUsable(port), cp->GetDetections(), cp->GetRecomputations()};
               });
        }
        Simulator::Stop(MicroSeconds(1300));
        Simulator::Run();
        const uint64_t r0 = seen[5].recomputations; // the start's computation per plane
        NS_TEST_ASSERT_MSG_EQ(seen[5].usable, true, "usable before any fault");
        for (double t : {120.0, 140.0, 299.0})
        {
            NS_TEST_ASSERT_MSG_EQ(seen[t].usable, true, "the 20 us flap is never detected");
            NS_TEST_ASSERT_MSG_EQ(seen[t].detections, 0u, "no detection of the flap");
            NS_TEST_ASSERT_MSG_EQ(seen[t].recomputations, r0, "no reconvergence for the flap");
        }
        NS_TEST_ASSERT_MSG_EQ(seen[301].usable, false, "the outage is detected at 300 us");
        NS_TEST_ASSERT_MSG_EQ(seen[301].detections, 1u, "one detection");
        NS_TEST_ASSERT_MSG_EQ(seen[599].recomputations, r0, "reconvergence not before 600 us");
        NS_TEST_ASSERT_MSG_EQ(seen[601].recomputations, r0 + 1, "reconvergence at 600 us");
        for (double t : {601.0, 700.0, 1200.0})
        {
            NS_TEST_ASSERT_MSG_EQ(
                seen[t].usable, false, "the 50 us return is shorter than the detection time");
            NS_TEST_ASSERT_MSG_EQ(seen[t].detections, 1u, "the return is never detected");
        }
        NS_TEST_ASSERT_MSG_EQ(seen[1200].recomputations, r0 + 1, "one reconvergence in all");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief A gray failure (a T1 that blackholes while its links stay up) outlasting the retry
 * budget: the baseline's QP hashed through it times out 1 + 7 times at 4.096 us x 2^20 and fails
 * with an error completion; MRC on the same fault routes around it and completes.
 */
class MrcRetryBudgetTestCase : public TestCase
{
public:
    MrcRetryBudgetTestCase()
        : TestCase("IB retry budget: the baseline QP fails on a long gray failure, MRC completes")
    {
    }

private:
    void DoRun() override
    {
        uint32_t t1 = 0;
        {
            Baseline b = MakeBaseline(2, 2, 2, true);
            auto qps = b.stack.Connect(0, 2);
            const uint16_t port
                = b.fabric->GetT0(0, 0)->GetEcmpEgress(b.fabric->GetHostAddress(0, 0),
                                                       b.fabric->GetHostAddress(2, 0),
                                                       qps.first->GetFlowLabel(0));
            t1 = port - 2; // T0 ports: 2 hosts, then the T1s
            Simulator::Schedule(
                MicroSeconds(10), &MrcSwitchNetDevice::SetBlackhole, b.fabric->GetT1(0, t1), true);
            MrcCompletion done{};
            qps.first->SetSendCompletionCallback(MakeBoundCallback(
                +[](MrcCompletion* out, const MrcCompletion& c)
                {
                    *out = c;
                },
                &done));
            qps.first->PostWrite(1000000, 0);
            Simulator::Stop(Seconds(60));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(qps.first->IsInError(), true, "the QP went to the error state");
            NS_TEST_ASSERT_MSG_EQ(uint32_t(done.status),
                                  uint32_t(MrcQueuePair::RETRY_EXCEEDED),
                                  "an error completion");
            NS_TEST_ASSERT_MSG_EQ(qps.first->GetTimeouts(), 8u, "one timeout and 7 retries");
            const double rto = 4.096e-6 * (1 << 20);
            NS_TEST_ASSERT_MSG_EQ_TOL(done.completed.GetSeconds(),
                                      8 * rto,
                                      0.01,
                                      "failed after 8 local ACK timeouts of 4.3 s");
            Simulator::Destroy();
        }
        // MRC on the same fabric shape and the same fault.
        Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
        clos->SetAttribute("Planes", UintegerValue(1));
        clos->SetAttribute("HostsPerT0", UintegerValue(2));
        clos->SetAttribute("T0sPerPlane", UintegerValue(2));
        clos->SetAttribute("T1sPerPlane", UintegerValue(2));
        Ptr<MrcClosTopology> f = clos->Build();
        MrcStackHelper stack;
        stack.Install(f);
        const int64_t s = 1 + f->AssignStreams(1);
        stack.AssignStreams(s);
        auto qps = stack.Connect(0, 2);
        Simulator::Schedule(
            MicroSeconds(10), &MrcSwitchNetDevice::SetBlackhole, f->GetT1(0, t1), true);
        qps.first->PostWrite(1000000, 0);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(qps.first->IsInError(), false, "MRC's QP is fine");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), 1000000u, "and delivered every byte");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The PFC watchdog: a port paused longer than PfcWatchdog drops its queued data, resumes,
 * and ignores PAUSE frames for PfcWatchdogRestore; control frames pass a pause.
 */
class MrcPfcWatchdogTestCase : public TestCase
{
public:
    MrcPfcWatchdogTestCase()
        : TestCase("PFC: pauses stop data, not control; the watchdog breaks a pause storm")
    {
    }

private:
    /**
     * Offer a frame to a port.
     * @param port the port
     * @param dscp its DSCP
     */
    static void Send(Ptr<MrcNetDevice> port, uint8_t dscp)
    {
        Ptr<Packet> p = Create<Packet>(1000);
        MrcIpv6Fields h;
        h.SetTrafficClass(MrcDscp::TrafficClass(dscp, MrcDscp::ECN_NOT_ECT));
        h.SetPayloadLength(1000);
        port->SendFrame(p, h);
    }

    void DoRun() override
    {
        Ptr<MrcChannel> ch = CreateObject<MrcChannel>();
        Ptr<MrcNetDevice> a = CreateObject<MrcNetDevice>();
        Ptr<MrcNetDevice> b = CreateObject<MrcNetDevice>();
        a->SetQueue(CreateObject<MrcTrimmingQueue>());
        b->SetQueue(CreateObject<MrcTrimmingQueue>());
        a->SetAttribute("PfcWatchdog", TimeValue(MicroSeconds(20)));
        a->Attach(ch);
        b->Attach(ch);
        // b pauses a at once (arrives after 1 us of cable); a then holds three data frames and
        // lets a control frame through.
        Simulator::Schedule(Time(0), &MrcNetDevice::SendPause, b, uint16_t(65535));
        for (int i = 0; i < 3; ++i)
        {
            Simulator::Schedule(MicroSeconds(2), &MrcPfcWatchdogTestCase::Send, a, MrcDscp::DATA);
        }
        Simulator::Schedule(MicroSeconds(3), &MrcPfcWatchdogTestCase::Send, a, MrcDscp::CONTROL);
        Simulator::Schedule(MicroSeconds(10),
                            [this, a]()
                            {
                                NS_TEST_EXPECT_MSG_EQ(a->IsPaused(), true, "paused");
                                NS_TEST_EXPECT_MSG_EQ(a->GetTxPackets(), 1u, "only control left");
                                NS_TEST_EXPECT_MSG_EQ(a->GetQueue()->GetNPackets(), 3u, "held");
                            });
        // The watchdog fires 20 us into the pause: the data is dropped, a resumes, and a PAUSE
        // in the restore period is ignored.
        Simulator::Schedule(MicroSeconds(30), &MrcNetDevice::SendPause, b, uint16_t(65535));
        Simulator::Schedule(MicroSeconds(40), &MrcPfcWatchdogTestCase::Send, a, MrcDscp::DATA);
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(a->GetWatchdogTriggers(), 1u, "the watchdog fired once");
        NS_TEST_ASSERT_MSG_EQ(a->GetQueue()->GetDropped(MrcTrimmingQueue::PFC_WATCHDOG),
                              3u,
                              "the held data was dropped");
        NS_TEST_ASSERT_MSG_EQ(a->IsPaused(), false, "not paused again");
        NS_TEST_ASSERT_MSG_EQ(a->GetPausesReceived(), 2u, "both PAUSE frames arrived");
        NS_TEST_ASSERT_MSG_EQ(a->GetTxPackets(), 2u, "the later data frame went out");
        const double paused = a->GetPausedTime().GetMicroSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(paused, 20.0, 0.5, "paused for the watchdog time");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Multi-plane hosts: a RoCE QP is bound to one NIC port and paced at that port's rate;
 * a training job with QpPerPort gives queue pair k of each rank pair port k, so a transfer split
 * over as many QPs as ports uses every plane, and a 40 MB write completes without a loss.
 */
class MrcQpPerPortTestCase : public TestCase
{
public:
    MrcQpPerPortTestCase()
        : TestCase("multi-plane RoCE: QPs bound to ports, paced at the port's rate, one per plane")
    {
    }

private:
    void DoRun() override
    {
        // 4 planes of 100 Gb/s: a 400 Gb/s NIC.
        Baseline b = MakeBaseline(2, 2, 2, true, "resilient", 0, 4);
        for (int32_t port = 0; port < 4; ++port)
        {
            auto qps = b.stack.Connect(0, 2, port);
            NS_TEST_ASSERT_MSG_EQ(
                qps.first->GetPathSelector()->GetEv(0).plane, uint32_t(port), "bound to its port");
            NS_TEST_ASSERT_MSG_EQ(
                qps.second->GetPathSelector()->GetEv(0).plane, uint32_t(port), "both ends");
            Ptr<MrcDcqcn> cc = DynamicCast<MrcDcqcn>(qps.first->GetCongestionOps());
            NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetRate()), 100e9, 1e6, "the port's rate");
        }
        // A training job: two ranks, 4 chunks over 4 queue pairs per peer, one per port.
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("QpPerPort", BooleanValue(true));
        job->SetAttribute("KeepRecords", BooleanValue(true));
        job->SetRanks({1, 3});
        job->AddCollective(MrcCollective::SENDRECV, 40000000, 4, 4);
        job->Install(b.fabric);
        job->Start(Time(0));
        Ptr<MrcL4Protocol> l4 = b.stack.GetL4(1);
        std::set<uint32_t> planes;
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            Ptr<MrcQueuePair> qp = l4->GetQueuePair(q);
            planes.insert(qp->GetPathSelector()->GetEv(0).plane);
        }
        NS_TEST_ASSERT_MSG_EQ(planes.size(), 4u, "every port has a queue pair");
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "the job completed");
        NS_TEST_ASSERT_MSG_EQ(job->GetFailedTransfers(), 0u, "nothing failed");
        uint64_t retx = 0;
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            retx += l4->GetQueuePair(q)->GetRetransmissions();
        }
        NS_TEST_ASSERT_MSG_EQ(retx, 0u, "no loss: each QP at its port's rate");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcEcmpTable on its own: a flow's port is a pure function of the flow; resilient
 * hashing moves only the flows of a withdrawn or unusable member and brings them back; modulo
 * hashing rehashes; a group with no usable member has no port.
 */
class MrcEcmpTableTestCase : public TestCase
{
public:
    MrcEcmpTableTestCase()
        : TestCase("ECMP table: lookups, withdrawn members, unusable ports, modulo hashing")
    {
    }

private:
    void DoRun() override
    {
        for (bool resilient : {true, false})
        {
            MrcEcmpTable t;
            t.SetResilient(resilient);
            t.SetSeed(7);
            // Two destinations, both behind the four uplinks 4..7.
            t.SetRoutes({0, 0}, {{4, 5, 6, 7}}, 8);
            NS_TEST_ASSERT_MSG_EQ(t.HasRoute(1), true, "destination 1 routed");
            NS_TEST_ASSERT_MSG_EQ(t.HasRoute(2), false, "destination 2 unknown");
            std::map<uint32_t, uint16_t> before;
            std::set<uint16_t> used;
            for (uint32_t label = 0; label < 400; ++label)
            {
                before[label] = t.Lookup(3, 1, label);
                NS_TEST_ASSERT_MSG_EQ(before[label], t.Lookup(3, 1, label), "deterministic");
                NS_TEST_ASSERT_MSG_EQ((before[label] >= 4 && before[label] <= 7), true, "member");
                used.insert(before[label]);
            }
            NS_TEST_ASSERT_MSG_EQ(used.size(), 4u, "400 flows spread over all four members");
            // Port 5 is detected down, then the routes withdraw it.
            for (int step = 0; step < 2; ++step)
            {
                if (step == 0)
                {
                    t.SetPortUsable(5, false, 8);
                }
                else
                {
                    t.SetPortUsable(5, true, 8);
                    t.SetRoutes({0, 0}, {{4, 6, 7}}, 8);
                }
                uint32_t moved = 0;
                for (const auto& [label, port] : before)
                {
                    const uint16_t now = t.Lookup(3, 1, label);
                    NS_TEST_ASSERT_MSG_NE(now, 5, "never onto the lost member");
                    moved += now != port && port != 5 ? 1 : 0;
                }
                if (resilient)
                {
                    NS_TEST_ASSERT_MSG_EQ(
                        moved, 0u, "resilient: only the lost member's flows move");
                }
                else
                {
                    NS_TEST_ASSERT_MSG_GT(moved, 0u, "modulo: other flows are rehashed too");
                }
            }
            // The member is announced again: with resilient hashing every flow is home again.
            t.SetRoutes({0, 0}, {{4, 5, 6, 7}}, 8);
            uint32_t home = 0;
            for (const auto& [label, port] : before)
            {
                home += t.Lookup(3, 1, label) == port ? 1 : 0;
            }
            NS_TEST_ASSERT_MSG_EQ(home, 400u, "every flow back on its first member");
            for (uint16_t p : {4, 5, 6, 7})
            {
                t.SetPortUsable(p, false, 8);
            }
            NS_TEST_ASSERT_MSG_EQ(t.Lookup(3, 1, 9), MrcEcmpTable::NO_PORT, "no usable member");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief The baseline test suite.
 */
class MrcBaselineTestSuite : public TestSuite
{
public:
    MrcBaselineTestSuite()
        : TestSuite("mrc-baseline", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcPfcIncastTestCase);
        AddTestCase(new MrcPfcVictimTestCase);
        AddTestCase(new MrcResilientHashTestCase);
        AddTestCase(new MrcEcmpTableTestCase);
        AddTestCase(new MrcDetectionTestCase);
        AddTestCase(new MrcRetryBudgetTestCase);
        AddTestCase(new MrcPfcWatchdogTestCase);
        AddTestCase(new MrcQpPerPortTestCase);
    }
};

/** The suite's instance. */
static MrcBaselineTestSuite g_mrcBaselineTestSuite;
