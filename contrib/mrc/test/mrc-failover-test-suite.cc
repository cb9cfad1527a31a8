/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of MRC failover as the paper describes it: losses found by out-of-order (SACK)
 * detection within a few RTTs and bypassed without a timeout, a retry budget that only
 * timeouts spend, EV slots whose stale feedback is ignored, probes that match their answers
 * and stop when there is no work, rotations that SKIP honours, and send timestamps taken at
 * the wire.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

using mrctest::CountEvStates;
using mrctest::CountRetirements;
using mrctest::EvCounts;
using mrctest::MakeNet;
using mrctest::Net;
using mrctest::TxLog;

} // namespace

/**
 * @ingroup mrc-tests
 * @brief A T0-T1 link dies under a long transfer on an 8-plane 800G NIC: every packet lost on
 * it is retransmitted within 3 base RTTs of the failure, and no timeout expires.
 */
class MrcLinkDeathBypassTestCase : public TestCase
{
public:
    MrcLinkDeathBypassTestCase()
        : TestCase("8 x 100G planes: a dead T0-T1 link is bypassed within 3 base RTTs, no RTO")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(8, 1, 2, 4, "ns3::MrcAdaptiveSpray", 128);
        auto qps = n.stack.Connect(0, 1);
        TxLog log;
        log.Attach(qps.first);
        EvCounts counts;
        CountEvStates(qps.first, &counts);
        bool ok = false;
        qps.first->SetSendCompletionCallback(MakeBoundCallback(
            +[](bool* flag, const MrcCompletion& c)
            {
                *flag = c.status == MrcQueuePair::SUCCESS;
            },
            &ok));
        const uint64_t size = 32000000; // ~330 us at 800 Gb/s
        qps.first->PostWrite(size, 0);
        const Time failAt = MicroSeconds(100);
        const uint32_t plane = 3;
        const uint32_t t1 = 1;
        Simulator::Schedule(failAt, &MrcChannel::SetUp, n.fabric->GetUplink(plane, 0, t1), false);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        const Time rtt = qps.first->GetBaseRtt();
        NS_TEST_ASSERT_MSG_EQ(ok, true, "the write completed");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "every byte placed once");
        NS_TEST_ASSERT_MSG_EQ(qps.first->GetTimeouts(), 0u, "no retransmission timeout");
        // Every PSN sent on the dead path from the failure on (the link drops what it carries
        // and everything after) was retransmitted, and all retransmissions came within 3 base
        // RTTs of the failure.
        std::set<uint32_t> lostOnDeadPath;
        std::set<uint32_t> retransmitted;
        Time lastRetx(0);
        for (const auto& t : log.txs)
        {
            if (t.cause == MrcQueuePair::TX_PROBE)
            {
                continue;
            }
            if (t.cause != MrcQueuePair::TX_NEW)
            {
                retransmitted.insert(t.psn);
                lastRetx = std::max(lastRetx, t.at);
                NS_TEST_ASSERT_MSG_GT_OR_EQ(t.at, failAt, "no retransmission before the failure");
            }
            else if (t.plane == plane && t.path == t1 && t.at >= failAt)
            {
                lostOnDeadPath.insert(t.psn);
            }
        }
        NS_TEST_ASSERT_MSG_GT(lostOnDeadPath.size(), 0u, "packets were sent into the dead link");
        for (uint32_t psn : lostOnDeadPath)
        {
            NS_TEST_ASSERT_MSG_EQ(retransmitted.count(psn), 1u, "a lost packet was resent");
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lastRetx - failAt, 3 * rtt, "bypassed within 3 base RTTs");
        // The late packets held the dead path's EVs; the retransmissions' acknowledgements
        // (which came while the originals never did) retired them.
        NS_TEST_ASSERT_MSG_GT(counts.held, 0u, "EVs held on suspicion");
        NS_TEST_ASSERT_MSG_GT(counts.retired, 0u, "and retired on the verdict");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Trims never spend the retry budget: with RetryLimit 1, a 6-to-1 incast through tiny
 * switch buffers trims packets many times over and no QP fails.
 */
class MrcTrimBudgetTestCase : public TestCase
{
public:
    MrcTrimBudgetTestCase()
        : TestCase("trims do not spend the retry budget: heavy incast, RetryLimit 1, no QP error")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(
            1, 1, 7, 2, "ns3::MrcAdaptiveSpray", 16, 1, {{"RetryLimit", 1}}, {{"DataLimit", 9100}});
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> pairs;
        std::vector<TxLog> logs(6);
        for (uint32_t s = 1; s <= 6; ++s)
        {
            pairs.push_back(n.stack.Connect(s, 0));
            logs[s - 1].Attach(pairs.back().first);
            pairs.back().first->PostWrite(400000, 0);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint32_t maxSends = 0;
        uint64_t nacks = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(pairs[i].first->IsInError(), false, "no QP failed");
            NS_TEST_ASSERT_MSG_EQ(pairs[i].second->GetBytesPlaced(), 400000u, "delivered");
            nacks += pairs[i].first->GetNacksReceived();
            std::map<uint32_t, uint32_t> sends;
            for (const auto& t : logs[i].txs)
            {
                if (t.cause != MrcQueuePair::TX_PROBE)
                {
                    maxSends = std::max(maxSends, ++sends[t.psn]);
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(nacks, 100u, "heavy trimming");
        NS_TEST_ASSERT_MSG_GT(maxSends, 2u, "a packet was sent more than RetryLimit + 1 times");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Congestion is not mistaken for failure: in a 15-to-1 incast on a 4-plane fabric with
 * trimming, the planes' last-hop queues differ by tens of microseconds, so packets behind a
 * fuller one look lost to out-of-order detection. With IncastLossGuard (the default) they are
 * only retransmitted; without it, their EVs are held until the packets arrive, then released.
 * Either way no EV is retired (before suspected losses waited for a verdict, the run without
 * the guard retired EVs).
 */
class MrcIncastNoRetirementTestCase : public TestCase
{
public:
    MrcIncastNoRetirementTestCase()
        : TestCase("incast with trimming: losses that are queueing skew retire no EV")
    {
    }

private:
    /**
     * Run the incast.
     * @param guard IncastLossGuard
     * @param incastLosses set to the losses the guard kept from touching an EV
     * @return EV transitions over every sender
     */
    EvCounts Run(bool guard, uint64_t& incastLosses)
    {
        Config::SetDefault("ns3::MrcSelectiveRecovery::IncastLossGuard", BooleanValue(guard));
        Net n = MakeNet(4, 4, 4, 4, "ns3::MrcAdaptiveSpray", 128);
        EvCounts counts;
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> pairs;
        for (uint32_t s = 1; s <= 15; ++s)
        {
            pairs.push_back(n.stack.Connect(s, 0));
            CountEvStates(pairs.back().first, &counts);
            pairs.back().first->PostWrite(1000000, 0);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        incastLosses = 0;
        for (const auto& p : pairs)
        {
            NS_TEST_EXPECT_MSG_EQ(p.second->GetBytesPlaced(), 1000000u, "delivered");
            incastLosses += p.first->GetIncastLosses();
        }
        NS_TEST_EXPECT_MSG_GT(n.fabric->GetTrimmedTotal(), 100u, "the last hop trims");
        Simulator::Destroy();
        Config::SetDefault("ns3::MrcSelectiveRecovery::IncastLossGuard", BooleanValue(true));
        return counts;
    }

    void DoRun() override
    {
        uint64_t guarded = 0;
        uint64_t unguarded = 0;
        const EvCounts with = Run(true, guarded);
        NS_TEST_ASSERT_MSG_EQ(with.retired, 0u, "no EV retired by congestion");
        NS_TEST_ASSERT_MSG_EQ(with.held, 0u, "nor held");
        NS_TEST_ASSERT_MSG_GT(guarded, 0u, "the guard kept out-of-order losses from EVs");
        const EvCounts without = Run(false, unguarded);
        NS_TEST_ASSERT_MSG_EQ(unguarded, 0u, "without the guard nothing is counted as guarded");
        NS_TEST_ASSERT_MSG_GT(without.held, 0u, "the suspected losses held EVs");
        NS_TEST_ASSERT_MSG_EQ(without.released, without.held, "the late packets released them");
        NS_TEST_ASSERT_MSG_EQ(without.retired, 0u, "and none was retired");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Queueing skew between sprayed paths is not loss: in a lossless all-to-next-T0 pattern
 * (64 hosts, 8 T1s, 1 MB each), under 0.5 % of the packets are presumed lost while their sender
 * is still sending new data behind them, and no EV is retired: the time rule's deadline uses the
 * largest RTT the paths recently showed, and a presumed loss only holds its EV. When the deadline
 * used the newest RTT sample alone, this pattern retired EVs whenever one path's queue ran a
 * quarter RTT behind another's.
 */
class MrcSprayReorderingTestCase : public TestCase
{
public:
    MrcSprayReorderingTestCase()
        : TestCase("lossless spraying: RTT skew between paths retires no EV mid-stream")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(1, 8, 8, 8, "ns3::MrcAdaptiveSpray", 128);
        const uint32_t hosts = 64;
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> pairs;
        std::vector<TxLog> logs(hosts);
        uint64_t retired = 0;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            pairs.push_back(n.stack.Connect(h, (h + 9) % hosts)); // always the next T0
            logs[h].Attach(pairs.back().first);
            CountRetirements(pairs.back().first, &retired);
            pairs.back().first->PostWrite(1000000, 0);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint64_t midStream = 0;
        uint64_t retx = 0;
        uint64_t sent = 0;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(pairs[h].second->GetBytesPlaced(), 1000000u, "delivered");
            Time lastNew;
            for (const auto& t : logs[h].txs)
            {
                lastNew = t.cause == MrcQueuePair::TX_NEW ? t.at : lastNew;
            }
            for (const auto& t : logs[h].txs)
            {
                midStream += (t.cause == MrcQueuePair::TX_RETX_SACK && t.at < lastNew) ? 1 : 0;
                retx += t.cause != MrcQueuePair::TX_NEW ? 1 : 0;
                sent += t.cause == MrcQueuePair::TX_NEW ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(n.fabric->GetTrimmedTotal(), 0u, "lossless: nothing trimmed");
        // The window follows the queueing the paths showed; a queue growing faster than that
        // makes a few packets look lost. They are resent, their EVs only held.
        NS_TEST_ASSERT_MSG_LT(midStream * 200, sent, "under 0.5% presumed lost mid-stream");
        NS_TEST_ASSERT_MSG_EQ(retired, 0u, "no EV retired, at flows' tails either");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief A synchronized start on a lossless fabric (128 hosts, each writing 2 MB to a host on
 * the next T0). With a reorder window shorter than the paths' queueing skew (a fixed 100 ns),
 * packets are late enough for the out-of-order time rule, which holds their EVs; the packets
 * then arrive, the EVs are released, and nothing is retired. With the adaptive window (the
 * default) the same skew makes under 0.1 % of the packets look lost.
 */
class MrcLateNotLostTestCase : public TestCase
{
public:
    MrcLateNotLostTestCase()
        : TestCase("synchronized start, lossless: late packets hold EVs, arrivals release them, "
                   "none retired")
    {
    }

private:
    /** What one run counted. */
    struct Counts
    {
        uint64_t suspected{0}; //!< out-of-order losses presumed
        uint64_t late{0};      //!< retransmissions found spurious
        uint64_t retx{0};      //!< retransmissions
        uint64_t resent{0};    //!< packets retransmitted (once or more)
        EvCounts evs;          //!< EV transitions
    };

    /**
     * Run the pattern.
     * @param window the reorder window (0: adaptive)
     * @return the counts
     */
    Counts Run(Time window)
    {
        Config::SetDefault("ns3::MrcSelectiveRecovery::ReorderWindow", TimeValue(window));
        const uint32_t hostsPerT0 = 32;
        const uint32_t hosts = hostsPerT0 * 4;
        Net n = MakeNet(1, hostsPerT0, 4, 32, "ns3::MrcAdaptiveSpray", 128);
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> pairs;
        std::vector<TxLog> logs(hosts);
        Counts c;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            pairs.push_back(n.stack.Connect(h, (h + hostsPerT0 + 1) % hosts)); // the next T0
            logs[h].Attach(pairs.back().first);
            CountEvStates(pairs.back().first, &c.evs);
            pairs.back().first->PostWrite(2000000, 0);
        }
        NS_TEST_EXPECT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        for (const auto& qp : pairs)
        {
            NS_TEST_EXPECT_MSG_EQ(qp.second->GetBytesPlaced(), 2000000u, "delivered once");
            c.suspected += qp.first->GetSackLosses();
            c.late += qp.first->GetSpuriousRetransmissions();
            c.retx += qp.first->GetRetransmissions();
        }
        for (const auto& log : logs)
        {
            std::set<uint32_t> psns;
            for (const auto& t : log.txs)
            {
                if (t.cause != MrcQueuePair::TX_NEW && t.cause != MrcQueuePair::TX_PROBE)
                {
                    psns.insert(t.psn);
                }
            }
            c.resent += psns.size();
        }
        NS_TEST_EXPECT_MSG_EQ(n.fabric->GetTrimmedTotal(), 0u, "lossless: nothing trimmed");
        Simulator::Destroy();
        Config::SetDefault("ns3::MrcSelectiveRecovery::ReorderWindow", TimeValue(Time(0)));
        return c;
    }

    void DoRun() override
    {
        const Counts tight = Run(NanoSeconds(100));
        // Nothing was lost, so every retransmission was unnecessary, and the receiver's
        // duplicate reports say so for each packet resent (once, however often it was resent),
        // also for packets acknowledged and released before their second copy arrived.
        NS_TEST_ASSERT_MSG_EQ(tight.late, tight.resent, "every resent packet found spurious");
        NS_TEST_ASSERT_MSG_GT(tight.suspected, 0u, "skew made the time rule presume losses");
        NS_TEST_ASSERT_MSG_GT(tight.late, 0u, "some presumed-lost packets arrived after all");
        NS_TEST_ASSERT_MSG_GT(tight.evs.held, 0u, "EVs were held");
        NS_TEST_ASSERT_MSG_EQ(tight.evs.released, tight.evs.held, "every held EV was released");
        NS_TEST_ASSERT_MSG_EQ(tight.evs.retired, 0u, "no EV retired on a lossless fabric");
        const Counts adaptive = Run(Time(0));
        const uint64_t packets = 128 * ((2000000 + 4095) / 4096);
        NS_TEST_ASSERT_MSG_EQ(adaptive.late, adaptive.resent, "every resent packet found spurious");
        NS_TEST_ASSERT_MSG_LT(adaptive.retx * 1000, packets, "under 0.1 % resent");
        NS_TEST_ASSERT_MSG_EQ(adaptive.evs.retired, 0u, "no EV retired on a lossless fabric");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Path selector bookkeeping: slot generations, probe ids, and one SKIP rotation per
 * selection.
 */
class MrcSelectorBookkeepingTestCase : public TestCase
{
public:
    MrcSelectorBookkeepingTestCase()
        : TestCase("EV slots: generations on reuse, probe answers matched, SKIP rotations "
                   "honoured, holds until a verdict")
    {
    }

private:
    void DoRun() override
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(3);
        {
            // Generations: a released replacement slot is reused with a new generation.
            Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
            s->SetAttribute("EvSetSize", UintegerValue(4));
            s->SetAttribute("EvMinActive", UintegerValue(1));
            s->SetAttribute("ProbeSuccesses", UintegerValue(1));
            s->Init({8}, rng, 0);
            s->OnLoss(0, MrcPathSelector::CAUSE_SACK_LOSS);
            NS_TEST_ASSERT_MSG_EQ(s->GetNEvs(), 5u, "a replacement slot was added");
            const uint16_t slot = 4;
            const uint16_t gen = s->GetEv(slot).generation;
            NS_TEST_ASSERT_MSG_EQ(s->IsCurrent(slot, gen), true, "current generation");
            s->SetProbePending(0, 11);
            NS_TEST_ASSERT_MSG_EQ(s->OnProbeAnswer(0, 11), true, "probe answered");
            NS_TEST_ASSERT_MSG_EQ(s->GetEv(slot).active, false, "replacement released");
            s->OnLoss(1, MrcPathSelector::CAUSE_TIMEOUT);
            NS_TEST_ASSERT_MSG_EQ(s->GetNEvs(), 5u, "the released slot is reused");
            NS_TEST_ASSERT_MSG_EQ(s->GetEv(slot).active, true, "reused");
            NS_TEST_ASSERT_MSG_EQ(s->IsCurrent(slot, gen), false, "old generation is stale");
            NS_TEST_ASSERT_MSG_EQ(s->IsCurrent(slot, gen + 1), true, "new generation");
        }
        {
            // Probe answers: only the answer to the probe that is out counts.
            Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
            s->SetAttribute("EvSetSize", UintegerValue(4));
            s->SetAttribute("EvMinActive", UintegerValue(1));
            s->SetAttribute("ProbeSuccesses", UintegerValue(1));
            s->Init({2}, rng, 0);
            s->OnLoss(2, MrcPathSelector::CAUSE_TIMEOUT);
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(2).state, +MrcPathSelector::ASSUMED_BAD, "retired");
            s->SetProbePending(2, 5);
            NS_TEST_ASSERT_MSG_EQ(s->OnProbeAnswer(2, 4), false, "an older probe's answer");
            s->OnProbeResult(2, false); // the round ended: probe 5 counted as failed
            NS_TEST_ASSERT_MSG_EQ(s->OnProbeAnswer(2, 5), false, "a late answer is no success");
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(2).state, +MrcPathSelector::ASSUMED_BAD, "still bad");
            s->SetProbePending(2, 6);
            NS_TEST_ASSERT_MSG_EQ(s->OnProbeAnswer(2, 6), true, "the answer to probe 6");
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(2).state, +MrcPathSelector::GOOD, "restored");
        }
        {
            // A SKIP EV sits out SkipRotations passes of the rotation, whatever is excluded.
            Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
            s->SetAttribute("EvSetSize", UintegerValue(2));
            s->SetAttribute("EvMinActive", UintegerValue(0));
            s->SetAttribute("SkipRotations", UintegerValue(3));
            s->Init({2}, rng, 0);
            s->OnAck(1, true);
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(1).state, +MrcPathSelector::SKIP, "skipped");
            NS_TEST_ASSERT_MSG_EQ(s->SelectFresh(1, 0), 1, "the skipped EV is the only other");
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(1).skipLeft, 2u, "one rotation used, not three");
            NS_TEST_ASSERT_MSG_EQ(+s->GetEv(1).state, +MrcPathSelector::SKIP, "still skipped");
        }
        {
            // A suspected loss holds the EV and the EVs naming its path in SKIP, through any
            // number of rotations, until the verdict: released if the packet arrived, retired
            // (with its path twins, and replaced) if it was lost.
            Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
            s->SetAttribute("EvSetSize", UintegerValue(8));
            s->SetAttribute("EvMinActive", UintegerValue(1));
            s->Init({4}, rng, 0); // 8 EVs on 4 paths: two per path
            const uint16_t path = s->GetEv(0).path;
            std::vector<uint16_t> twins;
            for (uint16_t i = 0; i < 8; ++i)
            {
                if (s->GetEv(i).path == path)
                {
                    twins.push_back(i);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(twins.size(), 2u, "two EVs per path");
            for (uint32_t verdict = 0; verdict < 2; ++verdict)
            {
                s->OnSuspectedLoss(0);
                for (uint16_t i = 0; i < 8; ++i)
                {
                    const bool onPath = s->GetEv(i).path == path;
                    NS_TEST_ASSERT_MSG_EQ(s->GetEv(i).IsHeld(), onPath, "held: the path's EVs");
                }
                for (uint32_t k = 0; k < 600; ++k)
                {
                    const int32_t ev = s->Select(1);
                    const bool other = s->GetEv(ev).path != path;
                    NS_TEST_ASSERT_MSG_EQ(other, true, "a held EV is never selected");
                }
                NS_TEST_ASSERT_MSG_EQ(s->GetEv(twins[1]).IsHeld(), true, "held past rotations");
                s->OnLossVerdict(0, verdict == 1);
                for (const uint16_t t : twins)
                {
                    NS_TEST_ASSERT_MSG_EQ(
                        +s->GetEv(t).state,
                        +(verdict == 1 ? MrcPathSelector::ASSUMED_BAD : MrcPathSelector::GOOD),
                        "released when the packet arrived; retired if lost");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(s->GetNEvs(), 10u, "each retired EV was replaced");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief A permanently dead path does not keep a finished simulation alive: probing pauses when
 * the QP has no work.
 */
class MrcProbeStopsTestCase : public TestCase
{
public:
    MrcProbeStopsTestCase()
        : TestCase("a dead T1: probes back off and stop with the work; the run ends by itself")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(1, 1, 2, 4, "ns3::MrcAdaptiveSpray", 16);
        auto qps = n.stack.Connect(0, 1);
        TxLog log;
        log.Attach(qps.first);
        n.fabric->GetT1(0, 2)->SetBlackhole(true); // for good
        struct Done
        {
            Time at;
            uint64_t events = 0;
        } done;
        qps.first->SetSendCompletionCallback(MakeBoundCallback(
            +[](Done* d, const MrcCompletion&)
            {
                d->at = Simulator::Now();
                d->events = Simulator::GetEventCount();
            },
            &done));
        qps.first->PostWrite(2000000, 0);
        // A watchdog far away; the Stop event itself is the only thing left to run at the end.
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), 2000000u, "delivered");
        NS_TEST_ASSERT_MSG_GT(done.at, Time(0), "completed");
        NS_TEST_ASSERT_MSG_LT(Simulator::GetEventCount() - done.events,
                              1000u,
                              "next to nothing ran after the work was done");
        uint32_t probes = 0;
        Time lastProbe(0);
        for (const auto& t : log.txs)
        {
            if (t.cause == MrcQueuePair::TX_PROBE)
            {
                ++probes;
                lastProbe = t.at;
            }
        }
        NS_TEST_ASSERT_MSG_GT(probes, 0u, "the dead path was probed while there was work");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lastProbe, done.at, "no probe once the work was done");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Send timestamps are taken at the wire: a burst queued in the sender's own NIC does not
 * count as network delay.
 */
class MrcWireTimestampTestCase : public TestCase
{
public:
    MrcWireTimestampTestCase()
        : TestCase("send timestamps are when the frame starts onto the wire, not when queued")
    {
    }

private:
    void DoRun() override
    {
        // Push mode (no NIC backlog limit), so that the window really queues in the NIC.
        Net n = MakeNet(
            1, 1, 2, 2, "ns3::MrcAdaptiveSpray", 16, 1, {}, {}, {{"PortBacklogBytes", 0}});
        auto qps = n.stack.Connect(0, 1);
        struct Check
        {
            uint32_t frames = 0;
            uint32_t queued = 0;
            int64_t worst = 0;
        } check;
        n.fabric->GetHostPort(0, 0)->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(
                +[](Check* c, Ptr<const Packet> p)
                {
                    MrcHeader h;
                    p->PeekHeader(h);
                    if (h.GetOpcode() != MrcHeader::WRITE)
                    {
                        return;
                    }
                    ++c->frames;
                    const int64_t d = Simulator::Now().GetNanoSeconds()
                                    - static_cast<int64_t>(h.GetTimestamp());
                    c->worst = std::max(c->worst, d < 0 ? -d : d);
                },
                &check));
        // The whole initial window is handed to the NIC at once and queues there.
        qps.first->PostWrite(1000000, 0);
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        NS_TEST_ASSERT_MSG_GT(check.frames, 200u, "data frames seen at the wire");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(check.worst, 2, "timestamp = wire time (within rounding)");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief EVs that name the same path share its health: retiring one retires its twins.
 */
class MrcSharedPathTestCase : public TestCase
{
public:
    MrcSharedPathTestCase()
        : TestCase("an EV retired for loss takes the other EVs on its path with it")
    {
    }

private:
    void DoRun() override
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(5);
        Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
        s->SetAttribute("EvSetSize", UintegerValue(8));
        s->SetAttribute("EvMinActive", UintegerValue(1));
        struct Change
        {
            uint16_t ev;
            uint8_t to;
            uint8_t cause;
        };
        std::vector<Change> changes;
        s->TraceConnectWithoutContext(
            "EvStateChange",
            MakeBoundCallback(
                +[](std::vector<Change>* c, uint16_t ev, uint8_t, uint8_t to, uint8_t cause)
                {
                    c->push_back({ev, to, cause});
                },
                &changes));
        s->Init({4}, rng, 0); // one plane of 4 paths, 8 EVs: every path named twice
        const uint16_t dead = s->GetEv(0).path;
        std::vector<uint16_t> twins;
        for (uint16_t i = 1; i < s->GetNEvs(); ++i)
        {
            if (s->GetEv(i).path == dead)
            {
                twins.push_back(i);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(twins.size(), 1u, "the path is named by one other EV");
        s->OnLoss(0, MrcPathSelector::CAUSE_SACK_LOSS);
        NS_TEST_ASSERT_MSG_EQ(+s->GetEv(0).state, +MrcPathSelector::ASSUMED_BAD, "retired");
        NS_TEST_ASSERT_MSG_EQ(
            +s->GetEv(twins[0]).state, +MrcPathSelector::ASSUMED_BAD, "its twin retired with it");
        uint32_t shared = 0;
        for (const auto& c : changes)
        {
            if (c.cause == MrcPathSelector::CAUSE_SHARED_PATH)
            {
                NS_TEST_ASSERT_MSG_EQ(c.ev, twins[0], "the twin, for sharing the path");
                ++shared;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(shared, 1u, "one shared-path retirement traced");
        uint32_t good = 0;
        for (uint16_t i = 0; i < s->GetNEvs(); ++i)
        {
            const MrcPathSelector::Ev& e = s->GetEv(i);
            if (e.active && e.state == MrcPathSelector::GOOD)
            {
                NS_TEST_ASSERT_MSG_NE(e.path, dead, "no usable EV names the dead path");
                ++good;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(good, 8u, "both replaced on other paths of the plane");
        NS_TEST_ASSERT_MSG_EQ(
            std::string(MrcPathSelector::CauseName(MrcPathSelector::CAUSE_SHARED_PATH)),
            "shared-path",
            "cause name");
    }
};

/**
 * @ingroup mrc-tests
 * @brief The NIC pulls packets from its queue pairs: a port never holds more than
 * PortBacklogBytes of data waiting, so a path retired or a packet declared lost applies to
 * the next packet out; with no limit, the window queues in the NIC.
 */
class MrcNicPullTestCase : public TestCase
{
public:
    MrcNicPullTestCase()
        : TestCase("NIC ports take a QP's next packet only when they have room (PortBacklogBytes)")
    {
    }

private:
    /**
     * Run a 2 MB write from host 0 to host 1 across a T0-T1 link that dies mid-transfer.
     * @param backlog PortBacklogBytes
     * @param maxQueued out: the most data bytes seen waiting in a host-0 port when a data
     *        packet was handed to it
     * @param onDeadAfter out: data frames that started onto the wire on an EV already retired,
     *        or held on a suspected loss
     * @return bytes placed at the receiver
     */
    static uint64_t Run(uint32_t backlog, uint32_t* maxQueued, uint32_t* onDeadAfter)
    {
        Net n = MakeNet(
            2, 1, 2, 4, "ns3::MrcAdaptiveSpray", 32, 1, {}, {}, {{"PortBacklogBytes", backlog}});
        auto qps = n.stack.Connect(0, 1);
        struct State
        {
            std::vector<Ptr<MrcNetDevice>> ports;
            Ptr<MrcPathSelector> selector;
            uint32_t maxQueued = 0;
            uint32_t onDeadAfter = 0;
        } st;
        st.ports = {n.fabric->GetHostPort(0, 0), n.fabric->GetHostPort(0, 1)};
        st.selector = qps.first->GetPathSelector();
        qps.first->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](State* s, Ptr<const Packet> p, uint32_t, uint16_t ev, uint8_t cause)
                {
                    if (cause == MrcQueuePair::TX_PROBE)
                    {
                        return;
                    }
                    MrcHeader h;
                    p->PeekHeader(h);
                    // Traced as the packet is handed over: what waits in the port is before it.
                    s->maxQueued
                        = std::max(s->maxQueued, s->ports[h.GetPlane()]->GetQueuedDataBytes());
                },
                &st));
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            st.ports[plane]->TraceConnectWithoutContext(
                "MacTx",
                MakeBoundCallback(
                    +[](State* s, Ptr<const Packet> p)
                    {
                        MrcHeader h;
                        p->PeekHeader(h);
                        if ((h.GetOpcode() == MrcHeader::WRITE
                             || h.GetOpcode() == MrcHeader::WRITE_IMM)
                            && h.GetPayloadLen() > 0
                            && (s->selector->GetEv(h.GetEv()).state == MrcPathSelector::ASSUMED_BAD
                                || s->selector->GetEv(h.GetEv()).IsHeld()))
                        {
                            // Starts onto the wire on a path already retired or held.
                            ++s->onDeadAfter;
                        }
                    },
                    &st));
        }
        qps.first->PostWrite(2000000, 0);
        Ptr<MrcChannel> link = n.fabric->GetUplink(0, 0, 1);
        Simulator::Schedule(MicroSeconds(30), &MrcChannel::SetUp, link, false);
        mrctest::RunToEnd();
        const uint64_t placed = qps.second->GetBytesPlaced();
        *maxQueued = st.maxQueued;
        *onDeadAfter = st.onDeadAfter;
        Simulator::Destroy();
        return placed;
    }

    void DoRun() override
    {
        uint32_t pullQueued = 0;
        uint32_t pullDead = 0;
        NS_TEST_ASSERT_MSG_EQ(Run(4096, &pullQueued, &pullDead), 2000000u, "delivered (pull)");
        NS_TEST_ASSERT_MSG_LT(pullQueued, 4096u, "a port takes a packet only with room");
        NS_TEST_ASSERT_MSG_EQ(pullDead, 0u, "no frame leaves on a path already retired or held");
        uint32_t pushQueued = 0;
        uint32_t pushDead = 0;
        NS_TEST_ASSERT_MSG_EQ(Run(0, &pushQueued, &pushDead), 2000000u, "delivered (push)");
        NS_TEST_ASSERT_MSG_GT(pushQueued, 40000u, "without a limit the window queues in the NIC");
        NS_TEST_ASSERT_MSG_GT(
            pushDead, 0u, "and frames queued before the loss was suspected still leave");
    }
};

/**
 * @ingroup mrc-tests
 * @brief The failover suite.
 */
class MrcFailoverTestSuite : public TestSuite
{
public:
    MrcFailoverTestSuite()
        : TestSuite("mrc-failover", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcSelectorBookkeepingTestCase);
        AddTestCase(new MrcWireTimestampTestCase);
        AddTestCase(new MrcSharedPathTestCase);
        AddTestCase(new MrcNicPullTestCase);
        AddTestCase(new MrcLinkDeathBypassTestCase);
        AddTestCase(new MrcTrimBudgetTestCase);
        AddTestCase(new MrcIncastNoRetirementTestCase);
        AddTestCase(new MrcSprayReorderingTestCase);
        AddTestCase(new MrcLateNotLostTestCase);
        AddTestCase(new MrcProbeStopsTestCase);
    }
};

static MrcFailoverTestSuite g_mrcFailoverTestSuite; //!< static instance
