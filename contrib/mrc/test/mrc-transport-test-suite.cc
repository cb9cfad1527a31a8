/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of the MRC transport: exactly-once delivery, loss recovery, per-path EV state,
 * plane failover, single-path mode, retry exhaustion and determinism.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

using mrctest::MakeNet;
using mrctest::Net;
using mrctest::TxLog;

/** Collects completions of one queue pair. */
class Completions
{
public:
    /**
     * Listen to a queue pair pair.
     * @param sender the sending side
     * @param receiver the receiving side
     */
    void Listen(Ptr<MrcQueuePair> sender, Ptr<MrcQueuePair> receiver)
    {
        sender->SetSendCompletionCallback(MakeCallback(&Completions::OnSend, this));
        receiver->SetRecvCompletionCallback(MakeCallback(&Completions::OnRecv, this));
    }

    /** @param c a send completion */
    void OnSend(const MrcCompletion& c)
    {
        sends.push_back(c);
    }

    /** @param c a receive completion */
    void OnRecv(const MrcCompletion& c)
    {
        recvs.push_back(c);
    }

    std::vector<MrcCompletion> sends; //!< send completions
    std::vector<MrcCompletion> recvs; //!< receive completions
};

/** Records EV state changes of one queue pair. */
struct EvLog
{
    /** One change. */
    struct Change
    {
        Time at;        //!< when
        uint16_t ev;    //!< EV
        uint8_t from;   //!< old state
        uint8_t to;     //!< new state
        uint8_t cause;  //!< cause
        uint16_t path;  //!< its path
        uint16_t plane; //!< its plane
    };

    std::vector<Change> changes; //!< in order
    Ptr<MrcPathSelector> sel;    //!< the selector

    /**
     * Trace sink.
     * @param ev EV
     * @param from old state
     * @param to new state
     * @param cause cause
     */
    void Record(uint16_t ev, uint8_t from, uint8_t to, uint8_t cause)
    {
        const auto& e = sel->GetEv(ev);
        changes.push_back({Simulator::Now(), ev, from, to, cause, e.path, e.plane});
    }

    /**
     * Attach to a queue pair.
     * @param qp the queue pair
     */
    void Attach(Ptr<MrcQueuePair> qp)
    {
        sel = qp->GetPathSelector();
        sel->TraceConnectWithoutContext("EvStateChange", MakeCallback(&EvLog::Record, this));
    }
};

/**
 * Post the same message list on a queue pair.
 * @param qp the queue pair
 * @param sizes message sizes; odd-indexed ones are Write-with-Immediate (imm = index)
 * @return total bytes
 */
uint64_t
PostAll(Ptr<MrcQueuePair> qp, const std::vector<uint64_t>& sizes)
{
    uint64_t total = 0;
    uint64_t offset = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i)
    {
        if (i % 2 == 1)
        {
            qp->PostWriteImm(sizes[i], offset, static_cast<uint32_t>(1000 + i));
        }
        else
        {
            qp->PostWrite(sizes[i], offset);
        }
        offset += sizes[i];
        total += sizes[i];
    }
    return total;
}

} // namespace

/**
 * @ingroup mrc-tests
 * @brief Many messages on many queue pairs, with or without random loss on every link: every
 * byte placed exactly once, completions in order with the right immediates.
 */
class MrcExactlyOnceTestCase : public TestCase
{
public:
    /**
     * @param lossRate random loss on every link
     */
    explicit MrcExactlyOnceTestCase(double lossRate)
        : TestCase(lossRate > 0 ? "1% random loss on every link: every byte placed exactly once"
                                : "many messages over many QPs: exact byte accounting")
        , m_lossRate(lossRate)
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(2, 2, 3, 2);
        const uint32_t hosts = n.fabric->GetNHosts();
        if (m_lossRate > 0)
        {
            for (uint32_t p = 0; p < 2; ++p)
            {
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    n.fabric->GetHostLink(h, p)->SetLossRate(m_lossRate);
                }
                for (uint32_t i = 0; i < 3; ++i)
                {
                    for (uint32_t j = 0; j < 2; ++j)
                    {
                        n.fabric->GetUplink(p, i, j)->SetLossRate(m_lossRate);
                    }
                }
            }
        }
        const std::vector<uint64_t> sizes = {1, 4095, 4096, 4097, 100000, 300000, 65536, 7};
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> pairs;
        std::vector<Completions> comps(hosts * 2);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                auto qps = n.stack.Connect(h, (h + 1 + 2 * k) % hosts);
                comps[pairs.size()].Listen(qps.first, qps.second);
                pairs.push_back(qps);
            }
        }
        uint64_t total = 0;
        for (auto& qps : pairs)
        {
            total = PostAll(qps.first, sizes);
        }
        Simulator::Stop(Seconds(1)); // a safety net: everything must complete long before
        Simulator::Run();
        uint64_t retx = 0;
        uint64_t dups = 0;
        for (std::size_t q = 0; q < pairs.size(); ++q)
        {
            const Completions& c = comps[q];
            NS_TEST_ASSERT_MSG_EQ(
                pairs[q].second->GetBytesPlaced(), total, "placed once: qp " << q);
            NS_TEST_ASSERT_MSG_EQ(c.sends.size(), sizes.size(), "send completions");
            NS_TEST_ASSERT_MSG_LT(c.sends.back().completed, MilliSeconds(100), "no stall");
            NS_TEST_ASSERT_MSG_EQ(c.recvs.size(), sizes.size(), "receive completions");
            for (std::size_t i = 0; i < c.recvs.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(c.sends[i].status, MrcQueuePair::SUCCESS, "send ok");
                NS_TEST_ASSERT_MSG_EQ(c.recvs[i].wrId, i, "receive completions in order");
                NS_TEST_ASSERT_MSG_EQ(c.recvs[i].bytes, sizes[i], "length");
                NS_TEST_ASSERT_MSG_EQ(c.recvs[i].hasImm, (i % 2 == 1), "immediate flag");
                if (i % 2 == 1)
                {
                    NS_TEST_ASSERT_MSG_EQ(c.recvs[i].imm, 1000 + i, "immediate data");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(pairs[q].first->GetPendingMessages(), 0u, "nothing pending");
            NS_TEST_ASSERT_MSG_EQ(pairs[q].first->IsInError(), false, "no error");
            retx += pairs[q].first->GetRetransmissions();
            dups += pairs[q].second->GetDuplicatePackets();
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(dups, retx, "every duplicate comes from a retransmission");
        if (m_lossRate > 0)
        {
            NS_TEST_ASSERT_MSG_GT(retx, 0u, "losses were repaired by retransmission");
        }
        Simulator::Destroy();
    }

    double m_lossRate; //!< loss on every link
};

/**
 * @ingroup mrc-tests
 * @brief An EV whose path drops 20% of packets is retired at once; the others stay usable.
 */
class MrcLossyPathTestCase : public TestCase
{
public:
    MrcLossyPathTestCase()
        : TestCase("an EV on a path with 20% loss becomes ASSUMED_BAD quickly; others do not")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(1, 1, 2, 4, "ns3::MrcAdaptiveSpray", 16);
        n.fabric->GetUplink(0, 0, 2)->SetLossRate(0.2);
        auto qps = n.stack.Connect(0, 1);
        EvLog log;
        log.Attach(qps.first);
        Completions c;
        c.Listen(qps.first, qps.second);
        const uint64_t size = 4000000;
        qps.first->PostWrite(size, 0);
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "delivered");
        Time firstBad = Seconds(1);
        uint32_t badOnLossy = 0;
        uint32_t badElsewhere = 0;
        for (const auto& ch : log.changes)
        {
            if (ch.to == MrcPathSelector::ASSUMED_BAD)
            {
                if (ch.path == 2)
                {
                    ++badOnLossy;
                    firstBad = std::min(firstBad, ch.at);
                }
                else
                {
                    ++badElsewhere;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(badOnLossy, 0u, "the lossy path's EVs are retired");
        NS_TEST_ASSERT_MSG_LT(firstBad, MicroSeconds(200), "within a few RTTs of the first loss");
        NS_TEST_ASSERT_MSG_EQ(badElsewhere, 0u, "EVs on healthy paths are never retired");
        Ptr<MrcPathSelector> sel = qps.first->GetPathSelector();
        uint32_t goodHealthy = 0;
        for (uint32_t ev = 0; ev < sel->GetNEvs(); ++ev)
        {
            const auto& e = sel->GetEv(ev);
            if (e.active && e.path != 2 && e.state != MrcPathSelector::ASSUMED_BAD)
            {
                ++goodHealthy;
            }
        }
        NS_TEST_ASSERT_MSG_GT(goodHealthy, 8u, "healthy paths carry the EV set");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The adaptive selector's state machine in isolation.
 */
class MrcSelectorStateTestCase : public TestCase
{
public:
    MrcSelectorStateTestCase()
        : TestCase("EV states: ECN and mid-fabric trims skip, last-hop trims do not, loss "
                   "retires and replaces in-plane, probes restore, floor, denial")
    {
    }

private:
    void DoRun() override
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(7);
        Ptr<MrcAdaptiveSpray> s = CreateObject<MrcAdaptiveSpray>();
        s->SetAttribute("EvSetSize", UintegerValue(8));
        s->SetAttribute("EvMinActive", UintegerValue(2));
        s->Init({4, 4}, rng, 0);
        NS_TEST_ASSERT_MSG_EQ(s->GetNEvs(), 8u, "8 EVs");
        uint32_t perPlane[2] = {0, 0};
        std::set<std::pair<uint16_t, uint16_t>> distinct;
        for (uint16_t i = 0; i < 8; ++i)
        {
            ++perPlane[s->GetEv(i).plane];
            distinct.insert({s->GetEv(i).plane, s->GetEv(i).path});
            if (i > 0)
            {
                NS_TEST_ASSERT_MSG_NE(s->GetEv(i).plane, s->GetEv(i - 1).plane, "interleaved");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(perPlane[0], 4u, "split evenly across planes");
        NS_TEST_ASSERT_MSG_EQ(distinct.size(), 8u, "distinct paths when there are enough");

        // Consecutive packets use different EVs.
        int32_t prev = -1;
        for (int i = 0; i < 20; ++i)
        {
            const int32_t ev = s->Select(3);
            NS_TEST_ASSERT_MSG_NE(ev, prev, "consecutive packets, different EVs");
            prev = ev;
        }

        s->OnNack(0, false);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(0).state, MrcPathSelector::SKIP, "mid-fabric trim: SKIP");
        s->OnNack(1, true);
        NS_TEST_ASSERT_MSG_EQ(
            s->GetEv(1).state, MrcPathSelector::GOOD, "last-hop trim: no penalty");
        s->OnAck(2, true);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(2).state, MrcPathSelector::SKIP, "ECN echo: SKIP");
        s->OnAck(3, false);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(3).state, MrcPathSelector::GOOD, "plain ACK: GOOD");
        // A rotation of its plane brings a skipped EV back; it is not chosen while skipped.
        bool back[2] = {false, false};
        for (int i = 0; i < 16; ++i)
        {
            const int32_t ev = s->Select(3);
            back[0] = back[0] || ev == 0;
            back[1] = back[1] || ev == 2;
        }
        NS_TEST_ASSERT_MSG_EQ(back[0] && back[1], true, "both chosen again after the rotation");
        {
            // One plane of 4 EVs: skip the EV that is next in the rotation; the other three
            // go first (the pass that brings it back does not choose it), then it returns.
            Ptr<MrcAdaptiveSpray> one = CreateObject<MrcAdaptiveSpray>();
            one->SetAttribute("EvSetSize", UintegerValue(4));
            one->SetAttribute("EvMinActive", UintegerValue(0));
            one->SetAttribute("SkipRotations", UintegerValue(1));
            one->Init({4}, rng, 0);
            const int32_t last = one->Select(1);
            const auto next = static_cast<uint16_t>((last + 1) % 4);
            one->OnAck(next, true);
            NS_TEST_ASSERT_MSG_EQ(one->GetEv(next).state, MrcPathSelector::SKIP, "skipped");
            std::set<int32_t> firstThree;
            for (int i = 0; i < 3; ++i)
            {
                firstThree.insert(one->Select(1));
            }
            NS_TEST_ASSERT_MSG_EQ(firstThree.count(next), 0u, "sits out its plane's rotation");
            NS_TEST_ASSERT_MSG_EQ(firstThree.size(), 3u, "the other three, in turn");
            bool returned = false;
            for (int i = 0; i < 4; ++i)
            {
                returned = returned || one->Select(1) == next;
            }
            NS_TEST_ASSERT_MSG_EQ(returned, true, "chosen again in the next rotation");
        }
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(0).state, MrcPathSelector::GOOD, "back after a rotation");

        // Unexplained loss: retired at once, replaced in the same plane on another path.
        const uint16_t plane = s->GetEv(4).plane;
        const uint16_t path = s->GetEv(4).path;
        s->OnLoss(4, MrcPathSelector::CAUSE_TIMEOUT);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(4).state, MrcPathSelector::ASSUMED_BAD, "retired");
        NS_TEST_ASSERT_MSG_EQ(s->GetNEvs(), 9u, "a replacement EV");
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(8).plane, plane, "replacement in the same plane");
        NS_TEST_ASSERT_MSG_NE(s->GetEv(8).path, path, "on another path");
        NS_TEST_ASSERT_MSG_EQ(s->GetProbeCandidates().size(), 1u, "probed");
        for (int i = 0; i < 40; ++i)
        {
            NS_TEST_ASSERT_MSG_NE(s->Select(3), 4, "a retired EV carries no data");
        }
        // Probes: a failure resets the count; three in a row restore.
        s->OnProbeResult(4, true);
        s->OnProbeResult(4, false);
        s->OnProbeResult(4, true);
        s->OnProbeResult(4, true);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(4).state, MrcPathSelector::ASSUMED_BAD, "not yet");
        s->OnProbeResult(4, true);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(4).state, MrcPathSelector::GOOD, "restored by probes");
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(8).active, false, "replacement released");

        // Denial through the API.
        s->SetDenied(5, true);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(5).state, MrcPathSelector::DENIED, "denied");
        for (int i = 0; i < 40; ++i)
        {
            NS_TEST_ASSERT_MSG_NE(s->Select(3), 5, "a denied EV carries no data");
        }
        s->SetDenied(5, false);
        NS_TEST_ASSERT_MSG_EQ(s->GetEv(5).state, MrcPathSelector::GOOD, "allowed again");

        // Plane mask: only plane 1.
        for (int i = 0; i < 20; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s->GetEv(s->Select(2)).plane, 1, "only usable planes");
        }

        // The floor: with EvMinActive = 8 nothing is skipped.
        Ptr<MrcAdaptiveSpray> f = CreateObject<MrcAdaptiveSpray>();
        f->SetAttribute("EvSetSize", UintegerValue(8));
        f->SetAttribute("EvMinActive", UintegerValue(8));
        f->Init({4, 4}, rng, 0);
        f->OnAck(0, true);
        NS_TEST_ASSERT_MSG_EQ(f->GetEv(0).state, MrcPathSelector::GOOD, "ev_min_active floor");

        // Oblivious spray ignores feedback; single path never moves.
        Ptr<MrcObliviousSpray> o = CreateObject<MrcObliviousSpray>();
        o->Init({4, 4}, rng, 0);
        o->OnNack(0, false);
        o->OnLoss(1, MrcPathSelector::CAUSE_TIMEOUT);
        NS_TEST_ASSERT_MSG_EQ(o->GetEv(0).state, MrcPathSelector::GOOD, "oblivious: no skip");
        NS_TEST_ASSERT_MSG_EQ(o->GetEv(1).state, MrcPathSelector::GOOD, "oblivious: no retire");
        Ptr<MrcSinglePath> sp = CreateObject<MrcSinglePath>();
        sp->Init({4, 4}, rng, 12345);
        NS_TEST_ASSERT_MSG_EQ(sp->GetNEvs(), 1u, "one EV");
        NS_TEST_ASSERT_MSG_EQ(sp->SelectFresh(3, 0), 0, "retransmissions on the same path");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Incast: last-hop trims are NACKed and retransmitted without penalising any EV.
 */
class MrcLastHopTrimTestCase : public TestCase
{
public:
    MrcLastHopTrimTestCase()
        : TestCase("incast: last-hop trim NACKs retransmit without skipping EVs")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(1, 1, 5, 4, "ns3::MrcAdaptiveSpray", 16);
        std::vector<EvLog> logs(4);
        std::vector<Ptr<MrcQueuePair>> rx;
        uint64_t nacks = 0;
        for (uint32_t s = 1; s <= 4; ++s)
        {
            auto qps = n.stack.Connect(s, 0);
            logs[s - 1].Attach(qps.first);
            qps.first->PostWrite(1000000, 0);
            rx.push_back(qps.second);
        }
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        uint64_t lastHopTrims = 0;
        Ptr<MrcSwitchNetDevice> t0 = n.fabric->GetT0(0, 0);
        lastHopTrims += t0->GetPort(0)->GetQueue()->GetTrimmed();
        uint64_t midTrims = 0;
        for (uint32_t j = 0; j < 4; ++j)
        {
            Ptr<MrcSwitchNetDevice> t1 = n.fabric->GetT1(0, j);
            for (uint32_t k = 0; k < t1->GetNPorts(); ++k)
            {
                midTrims += t1->GetPort(k)->GetQueue()->GetTrimmed();
            }
        }
        uint32_t trimSkips = 0;
        for (uint32_t s = 0; s < 4; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[s]->GetBytesPlaced(), 1000000u, "delivered");
            for (const auto& ch : logs[s].changes)
            {
                trimSkips += ch.cause == MrcPathSelector::CAUSE_TRIM ? 1 : 0;
            }
            nacks += n.stack.GetL4(s + 1)->GetQueuePair(0)->GetNacksReceived();
        }
        NS_TEST_ASSERT_MSG_GT(lastHopTrims, 0u, "the incast trims on the last hop");
        NS_TEST_ASSERT_MSG_GT(nacks, 0u, "trimmed headers came back as NACKs");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(trimSkips, midTrims, "only mid-fabric trims skip EVs");
        if (midTrims == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(trimSkips, 0u, "no EV skipped for last-hop trims");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Large incasts with trimming (64 and 127 senders onto one host, 4 planes, 128 hosts):
 * every byte arrives once, every loss is a trim resolved by its NACK, no retransmission
 * timeout, no EV retired.
 */
class MrcLargeIncastTestCase : public TestCase
{
public:
    MrcLargeIncastTestCase()
        : TestCase("64-to-1 and 127-to-1 incasts with trimming: every byte once, no timeout, "
                   "no EV retired")
    {
    }

private:
    /**
     * @param senders the fan-in
     */
    void RunIncast(uint32_t senders)
    {
        Net n = MakeNet(4, 32, 4, 4, "ns3::MrcAdaptiveSpray", 64);
        std::vector<Ptr<MrcQueuePair>> tx;
        std::vector<Ptr<MrcQueuePair>> rx;
        uint64_t retired = 0;
        const uint64_t bytes = 256 * 1024;
        for (uint32_t s = 1; s <= senders; ++s)
        {
            auto qps = n.stack.Connect(s, 0);
            mrctest::CountRetirements(qps.first, &retired);
            qps.first->PostWrite(bytes, 0);
            tx.push_back(qps.first);
            rx.push_back(qps.second);
        }
        const std::string what = std::to_string(senders) + "-to-1";
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, what + ": the run ends by itself");
        uint64_t timeouts = 0;
        uint64_t nacks = 0;
        for (uint32_t s = 0; s < senders; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[s]->GetBytesPlaced(), bytes, what + ": delivered once");
            NS_TEST_ASSERT_MSG_EQ(tx[s]->IsInError(), false, what + ": no QP in error");
            timeouts += tx[s]->GetTimeouts();
            nacks += tx[s]->GetNacksReceived();
        }
        NS_TEST_ASSERT_MSG_GT(n.fabric->GetTrimmedTotal(), 0u, what + ": the incast trims");
        NS_TEST_ASSERT_MSG_GT(nacks, 0u, what + ": trims come back as NACKs");
        NS_TEST_ASSERT_MSG_EQ(timeouts, 0u, what + ": no retransmission timeout");
        NS_TEST_ASSERT_MSG_EQ(retired, 0u, what + ": no EV retired");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        RunIncast(64);
        RunIncast(127);
    }
};

/**
 * @ingroup mrc-tests
 * @brief Failures: a link that goes down and comes back (timeouts retire its EVs, probes
 * restore them), a blackholed T1 (timeout path), all with exactly-once delivery.
 */
class MrcPathFailureTestCase : public TestCase
{
public:
    /**
     * @param blackhole blackhole a T1 instead of taking a link down
     */
    explicit MrcPathFailureTestCase(bool blackhole)
        : TestCase(blackhole ? "blackholed T1: timeouts retire its EVs, data still delivered once"
                             : "link down then up: EVs retired by timeout, restored by probes")
        , m_blackhole(blackhole)
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(1, 1, 2, 4, "ns3::MrcAdaptiveSpray", 16);
        auto qps = n.stack.Connect(0, 1);
        EvLog log;
        log.Attach(qps.first);
        const uint64_t size = 8000000;
        qps.first->PostWrite(size, 0);
        if (m_blackhole)
        {
            Ptr<MrcSwitchNetDevice> t1 = n.fabric->GetT1(0, 3);
            Simulator::Schedule(MicroSeconds(20), &MrcSwitchNetDevice::SetBlackhole, t1, true);
            Simulator::Schedule(MicroSeconds(300), &MrcSwitchNetDevice::SetBlackhole, t1, false);
        }
        else
        {
            Ptr<MrcChannel> link = n.fabric->GetUplink(0, 0, 1);
            Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetUp, link, false);
            Simulator::Schedule(MicroSeconds(300), &MrcChannel::SetUp, link, true);
        }
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        const uint16_t badPath = m_blackhole ? 3 : 1;
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "delivered exactly once");
        // Under a long transfer, losses are found by out-of-order (SACK) detection within an
        // RTT or two, never by waiting for the timer.
        NS_TEST_ASSERT_MSG_EQ(qps.first->GetTimeouts(), 0u, "no loss waits for the timer");
        NS_TEST_ASSERT_MSG_GT(qps.first->GetSackLosses(), 0u, "losses found by SACK");
        uint32_t retired = 0;
        uint32_t restored = 0;
        for (const auto& ch : log.changes)
        {
            if (ch.to == MrcPathSelector::ASSUMED_BAD)
            {
                NS_TEST_ASSERT_MSG_EQ(ch.path, badPath, "only the failed path's EVs retire");
                const bool unexplained = ch.cause == MrcPathSelector::CAUSE_TIMEOUT
                                      || ch.cause == MrcPathSelector::CAUSE_SACK_LOSS
                                      || ch.cause == MrcPathSelector::CAUSE_SHARED_PATH;
                NS_TEST_ASSERT_MSG_EQ(unexplained, true, "retired for unexplained loss");
                ++retired;
            }
            if (ch.from == MrcPathSelector::ASSUMED_BAD && ch.to == MrcPathSelector::GOOD
                && ch.cause == MrcPathSelector::CAUSE_PROBE)
            {
                NS_TEST_ASSERT_MSG_GT(ch.at, MicroSeconds(300), "restored after the repair");
                ++restored;
            }
        }
        NS_TEST_ASSERT_MSG_GT(retired, 0u, "EVs retired");
        NS_TEST_ASSERT_MSG_GT(restored, 0u, "EVs restored through probes");
        Simulator::Destroy();
    }

    bool m_blackhole; //!< blackhole instead of link down
};

/**
 * @ingroup mrc-tests
 * @brief A NIC port going down stops its plane in both directions; both resume when it returns.
 */
class MrcPortDownTestCase : public TestCase
{
public:
    MrcPortDownTestCase()
        : TestCase("local NIC port down: its plane unused in both directions, then resumed")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(2, 1, 2, 2, "ns3::MrcAdaptiveSpray", 16);
        auto ab = n.stack.Connect(0, 1);
        auto ba = n.stack.Connect(1, 0);
        TxLog a;
        TxLog b;
        a.Attach(ab.first);
        b.Attach(ba.first);
        const uint64_t size = 16000000;
        ab.first->PostWrite(size, 0);
        ba.first->PostWrite(size, 0);
        Ptr<MrcChannel> port = n.fabric->GetHostLink(0, 1);
        const Time down = MicroSeconds(50);
        const Time up = MicroSeconds(400);
        Simulator::Schedule(down, &MrcChannel::SetUp, port, false);
        Simulator::Schedule(up, &MrcChannel::SetUp, port, true);
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        NS_TEST_ASSERT_MSG_EQ(ab.second->GetBytesPlaced(), size, "A -> B delivered");
        NS_TEST_ASSERT_MSG_EQ(ba.second->GetBytesPlaced(), size, "B -> A delivered");
        auto count = [](const TxLog& l, Time from, Time to)
        {
            uint32_t n = 0;
            for (const auto& t : l.txs)
            {
                n += (t.plane == 1 && t.at >= from && t.at < to) ? 1 : 0;
            }
            return n;
        };
        NS_TEST_ASSERT_MSG_GT(count(a, Time(0), down), 0u, "A used plane 1 before");
        NS_TEST_ASSERT_MSG_GT(count(b, Time(0), down), 0u, "B used plane 1 before");
        NS_TEST_ASSERT_MSG_EQ(count(a, down, up), 0u, "A: local port down, plane 1 unused");
        NS_TEST_ASSERT_MSG_EQ(count(b, down + MicroSeconds(30), up),
                              0u,
                              "B learned from A's port-status bitmap and stopped using plane 1");
        NS_TEST_ASSERT_MSG_GT(count(a, up, Seconds(1)), 0u, "A resumed plane 1");
        NS_TEST_ASSERT_MSG_GT(count(b, up, Seconds(1)), 0u, "B resumed plane 1");
        // The per-plane counters: what each sender sent on a plane is what its Tx trace saw
        // there (probes aside), and its peer received at most that on the plane (frames on the
        // cable that went down were lost), something on each.
        for (const auto& [l, tx, rx] :
             {std::make_tuple(&a, ab.first, ab.second), std::make_tuple(&b, ba.first, ba.second)})
        {
            for (uint32_t plane = 0; plane < 2; ++plane)
            {
                uint32_t traced = 0;
                for (const auto& t : l->txs)
                {
                    traced += (t.plane == plane && t.cause != MrcQueuePair::TX_PROBE) ? 1 : 0;
                }
                NS_TEST_ASSERT_MSG_EQ(
                    tx->GetPlaneDataPackets(plane), traced, "data packets sent on plane " << plane);
                NS_TEST_ASSERT_MSG_GT(
                    rx->GetPlaneRxPackets(plane), 0u, "data packets received on plane " << plane);
                NS_TEST_ASSERT_MSG_EQ((rx->GetPlaneRxPackets(plane) <= traced),
                                      true,
                                      "received on plane " << plane << ", at most sent");
            }
            NS_TEST_ASSERT_MSG_EQ(tx->GetPlaneDataPackets(2), 0u, "no plane 2");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcPlaneCounters: one counter per plane, inside the object for up to eight planes and
 * on the heap beyond; out-of-range planes ignored; copies independent of the original.
 */
class MrcPlaneCountersTestCase : public TestCase
{
public:
    MrcPlaneCountersTestCase()
        : TestCase("MrcPlaneCounters: per-plane counts for 1, 8 and 12 planes; out of range "
                   "ignored; copies independent")
    {
    }

private:
    void DoRun() override
    {
        for (uint32_t planes : {1u, 8u, 12u})
        {
            MrcPlaneCounters c;
            c.Reset(planes);
            for (uint32_t p = 0; p < planes + 3; ++p)
            {
                for (uint32_t k = 0; k <= p; ++k)
                {
                    c.Increment(p);
                }
            }
            for (uint32_t p = 0; p < planes + 3; ++p)
            {
                const uint64_t expected = p < planes ? p + 1 : 0;
                NS_TEST_ASSERT_MSG_EQ(c.Get(p), expected, planes << " planes: plane " << p);
            }
            MrcPlaneCounters copy(c);
            c.Increment(0);
            NS_TEST_ASSERT_MSG_EQ(copy.Get(0), 1u, planes << " planes: the copy kept its count");
            NS_TEST_ASSERT_MSG_EQ(c.Get(0), 2u, planes << " planes: the original counted on");
            NS_TEST_ASSERT_MSG_EQ(
                copy.Get(planes - 1), planes, planes << " planes: the copy's last plane");
            c.Reset(planes);
            NS_TEST_ASSERT_MSG_EQ(c.Get(planes - 1), 0u, planes << " planes: Reset zeroes");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief Single-path mode uses one path; when that path dies, retries run out and the QP
 * reports an error completion instead of hanging.
 */
class MrcSinglePathTestCase : public TestCase
{
public:
    MrcSinglePathTestCase()
        : TestCase("single path: one path only; dead path -> retry exhaustion -> error completion")
    {
    }

private:
    void DoRun() override
    {
        {
            Net n = MakeNet(2, 1, 2, 4, "ns3::MrcSinglePath");
            auto qps = n.stack.Connect(0, 1);
            TxLog log;
            log.Attach(qps.first);
            qps.first->PostWrite(2000000, 0);
            NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
            NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), 2000000u, "delivered");
            std::set<std::pair<uint16_t, uint16_t>> paths;
            for (const auto& t : log.txs)
            {
                paths.insert({t.plane, t.path});
            }
            NS_TEST_ASSERT_MSG_EQ(paths.size(), 1u, "exactly one path");
            uint32_t busyT1 = 0;
            for (uint32_t p = 0; p < 2; ++p)
            {
                for (uint32_t j = 0; j < 4; ++j)
                {
                    busyT1 += n.fabric->GetT1(p, j)->GetForwarded() > 0 ? 1 : 0;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(busyT1, 1u, "one T1 in one plane carried the QP");
            Simulator::Destroy();
        }
        {
            Net n = MakeNet(1,
                            1,
                            2,
                            2,
                            "ns3::MrcSinglePath",
                            32,
                            1,
                            {{"RetryLimit", 3}, {"AckTimeoutExponent", 4}});
            auto qps = n.stack.Connect(0, 1);
            Completions c;
            c.Listen(qps.first, qps.second);
            uint32_t errors = 0;
            qps.first->TraceConnectWithoutContext("QpError",
                                                  MakeCallback(+[](uint32_t* e, uint32_t, uint32_t)
                                                               {
                                                                   ++*e;
                                                               })
                                                      .Bind(&errors));
            for (uint32_t j = 0; j < 2; ++j)
            {
                Simulator::Schedule(
                    MicroSeconds(5), &MrcChannel::SetUp, n.fabric->GetUplink(0, 0, j), false);
            }
            qps.first->PostWrite(1000000, 0);
            Simulator::Stop(Seconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(qps.first->IsInError(), true, "QP in error");
            NS_TEST_ASSERT_MSG_EQ(errors, 1u, "QpError traced once");
            NS_TEST_ASSERT_MSG_EQ(c.sends.size(), 1u, "an error completion");
            NS_TEST_ASSERT_MSG_EQ(
                c.sends.at(0).status, MrcQueuePair::RETRY_EXCEEDED, "status RETRY_EXCEEDED");
            // Every packet of the window needs RetryLimit + 1 timeouts of 16.4 us, one packet at
            // a time once quick adapt has shrunk the window: about a millisecond.
            NS_TEST_ASSERT_MSG_LT(c.sends.at(0).completed,
                                  MilliSeconds(3),
                                  "no hang: the QP gave up after RetryLimit timeouts");
            // A post on a failed QP completes at once with an error.
            qps.first->PostWrite(10, 0);
            NS_TEST_ASSERT_MSG_EQ(c.sends.size(), 2u, "immediate error completion");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief The retransmission timer backs off as the OCP MRC API specifies: LinearRetries
 * timeouts of one timeout each, then each twice the one before; RetryLimit 0 never fails.
 */
class MrcRtoBackoffTestCase : public TestCase
{
public:
    MrcRtoBackoffTestCase()
        : TestCase("retransmission timer: linear retries, then exponential backoff; RetryLimit "
                   "0 never gives up")
    {
    }

private:
    /** Transmission times of the one packet. */
    std::vector<Time> m_sends;

    /**
     * Tx trace.
     * @param psn the packet's PSN
     * @param cause why it was sent
     */
    void Tx(Ptr<const Packet>, uint32_t psn, uint16_t, uint8_t cause)
    {
        if (psn == 0 && (cause == MrcQueuePair::TX_NEW || cause == MrcQueuePair::TX_RETX_TIMEOUT))
        {
            m_sends.push_back(Simulator::Now());
        }
    }

    /**
     * One 100-byte write on a single path whose uplinks are down from the start.
     * @param retryLimit RetryLimit
     * @param stop when the run stops
     * @param failedAt set to when the QP failed (0: it did not)
     */
    void Run(uint32_t retryLimit, Time stop, Time& failedAt)
    {
        m_sends.clear();
        Net n = MakeNet(
            1,
            1,
            2,
            2,
            "ns3::MrcSinglePath",
            32,
            1,
            {{"RetryLimit", retryLimit}, {"LinearRetries", 3}, {"AckTimeoutExponent", 4}});
        for (uint32_t j = 0; j < 2; ++j)
        {
            n.fabric->GetUplink(0, 0, j)->SetUp(false);
        }
        auto qps = n.stack.Connect(0, 1);
        qps.first->TraceConnectWithoutContext("Tx", MakeCallback(&MrcRtoBackoffTestCase::Tx, this));
        failedAt = Time(0);
        qps.first->TraceConnectWithoutContext("QpError",
                                              MakeCallback(+[](Time* t, uint32_t, uint32_t)
                                                           {
                                                               *t = Simulator::Now();
                                                           })
                                                  .Bind(&failedAt));
        qps.first->PostWrite(100, 0);
        Simulator::Stop(stop);
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        const Time rto = NanoSeconds(1024 * 16);
        Time failedAt;
        Run(6, MilliSeconds(10), failedAt);
        // The first transmission and 6 retransmissions: the first and the 3 linear retries wait
        // one timeout each, then 2 and 4; the 7th timeout, after 8, fails the QP.
        const std::vector<int64_t> waits = {1, 1, 1, 1, 2, 4};
        NS_TEST_ASSERT_MSG_EQ(m_sends.size(), waits.size() + 1, "RetryLimit + 1 transmissions");
        for (std::size_t k = 0; k < waits.size(); ++k)
        {
            const Time gap = m_sends[k + 1] - m_sends[k];
            NS_TEST_EXPECT_MSG_EQ_TOL(gap.GetNanoSeconds(),
                                      waits[k] * rto.GetNanoSeconds(),
                                      50,
                                      "wait before retransmission " << k + 1);
        }
        NS_TEST_ASSERT_MSG_EQ(failedAt.IsStrictlyPositive(), true, "the QP failed");
        NS_TEST_EXPECT_MSG_EQ_TOL((failedAt - m_sends.back()).GetNanoSeconds(),
                                  8 * rto.GetNanoSeconds(),
                                  50,
                                  "after one more, doubled wait");
        // RetryLimit 0: never fails; the waits keep doubling (1, 1, 1, 1, 2, 4, ... 2^16 at most).
        Run(0, MilliSeconds(40), failedAt);
        NS_TEST_ASSERT_MSG_EQ(failedAt.IsZero(), true, "RetryLimit 0: the QP never fails");
        // Sent at 0, 1, 2, 3, 4, 6, 10, 18, ..., 2050 timeouts of 16.4 us: 15 within 40 ms (2441
        // timeouts); linear retries would have sent 2442.
        NS_TEST_ASSERT_MSG_EQ(m_sends.size(), 15u, "exponential, not linear, retransmissions");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Forged data packets whose fields no sender could write are dropped before they touch
 * the receiver's state (found by fuzzing: an MSN far ahead grew the receiver by gigabytes).
 */
class MrcForgedPacketTestCase : public TestCase
{
public:
    MrcForgedPacketTestCase()
        : TestCase("forged data packets are dropped and counted; the real transfer is intact")
    {
    }

private:
    /**
     * Hand a forged data packet to a host's protocol, as its NIC would.
     * @param l4 the protocol
     * @param h the header
     */
    static void Inject(Ptr<MrcL4Protocol> l4, MrcHeader h)
    {
        Ptr<Packet> p = Create<Packet>(h.GetPayloadLen());
        p->AddHeader(h);
        MrcIpv6Fields f;
        f.trafficClass = MrcDscp::DATA << 2;
        l4->ReceiveFrame(0, p, f);
    }

    void DoRun() override
    {
        Net n = MakeNet(1, 2, 1, 1);
        auto qps = n.stack.Connect(0, 1);
        const uint64_t size = 200000;
        qps.first->PostWrite(size, 0);
        auto forged = [&](uint32_t msn, uint32_t msgLen, uint32_t index, uint16_t len)
        {
            MrcHeader h;
            h.SetOpcode(MrcHeader::WRITE);
            h.SetDstQpn(qps.second->GetQpn());
            h.SetPsn(3);
            h.SetMsn(msn);
            h.SetMsgLen(msgLen);
            h.SetPacketIndex(index);
            h.SetPayloadLen(len);
            Simulator::Schedule(NanoSeconds(10), &Inject, n.stack.GetL4(1), h);
        };
        forged(4000000000u, 4096, 0, 4096); // an MSN far beyond any in flight
        forged(0, 0, 0, 0);                 // an empty message
        forged(0, 10000, 5, 4096);          // a packet index beyond the message
        forged(0, 10000, 2, 4096);          // the wrong payload length for the last packet
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetMalformedPackets(), 4u, "all four dropped");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "the real message, once");
        NS_TEST_ASSERT_MSG_EQ(qps.first->GetPendingMessages(), 0u, "completed");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The receiver's immediate acknowledgements: besides every 16 KB (AckEveryBytes), a new
 * hole, a message's last packet, a retransmission (so the sender learns which transmission
 * arrived), and a straggler behind a message's last packet (which would otherwise wait for the
 * delayed-ACK timer and look lost to the sender's time rule).
 */
class MrcImmediateAckTestCase : public TestCase
{
public:
    MrcImmediateAckTestCase()
        : TestCase("the receiver answers retransmissions and stragglers behind a message's end "
                   "at once")
    {
    }

private:
    /** The receiving side and what it has sent so far. */
    struct Rx
    {
        Ptr<MrcL4Protocol> l4;           //!< the receiving host's protocol
        Ptr<MrcQueuePair> qp;            //!< the receiving queue pair
        std::vector<uint64_t> acksAfter; //!< ACKs sent, right after each packet
    };

    /**
     * Hand one data packet of an 8-packet message to the receiver, as its NIC would, and
     * record how many ACKs it has sent right after.
     * @param rx the receiver
     * @param psn the PSN (and index in the message)
     * @param flags header flags
     */
    static void Deliver(Rx* rx, uint32_t psn, uint8_t flags)
    {
        MrcHeader h;
        h.SetOpcode(MrcHeader::WRITE);
        h.SetFlags(flags);
        h.SetDstQpn(rx->qp->GetQpn());
        h.SetPsn(psn);
        h.SetMsn(0);
        h.SetMsgLen(8 * 4096);
        h.SetPacketIndex(psn);
        h.SetOffset(psn * 4096);
        h.SetPayloadLen(4096);
        Ptr<Packet> p = Create<Packet>(4096);
        p->AddHeader(h);
        MrcIpv6Fields f;
        f.trafficClass = MrcDscp::DATA << 2;
        rx->l4->ReceiveFrame(0, p, f);
        rx->acksAfter.push_back(rx->qp->GetAcksSent());
    }

    void DoRun() override
    {
        Net n = MakeNet(1, 2, 1, 1);
        auto qps = n.stack.Connect(0, 1);
        Rx rx{n.stack.GetL4(1), qps.second, {}};
        // PSNs 0-3 fill 16 KB; 4 is a retransmission; 5 waits; 7 ends the message and opens a
        // hole; 6 is a straggler behind the end. 100 ns apart: no delayed-ACK timer (2 us)
        // runs out in between.
        const std::vector<std::pair<uint32_t, uint8_t>> order{{0, 0},
                                                              {1, 0},
                                                              {2, 0},
                                                              {3, 0},
                                                              {4, MrcHeader::FLAG_RETX},
                                                              {5, 0},
                                                              {7, MrcHeader::FLAG_LAST},
                                                              {6, 0}};
        for (uint32_t i = 0; i < order.size(); ++i)
        {
            Simulator::Schedule(
                NanoSeconds(100 * (i + 1)), &Deliver, &rx, order[i].first, order[i].second);
        }
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        const std::vector<uint64_t> expected{0, 0, 0, 1, 2, 2, 3, 4};
        NS_TEST_ASSERT_MSG_EQ(rx.acksAfter.size(), expected.size(), "every packet delivered");
        for (uint32_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(rx.acksAfter[i],
                                  expected[i],
                                  "ACKs sent after packet " << i << " (PSN " << order[i].first
                                                            << ")");
        }
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), 8u * 4096, "the message, once");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetAcksSent(), 4u, "no timer ACK was left to send");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Same seed, same event trace; another seed, another trace.
 */
class MrcDeterminismTestCase : public TestCase
{
public:
    MrcDeterminismTestCase()
        : TestCase("same seed and streams give an identical trace; other streams another")
    {
    }

private:
    /**
     * Run a lossy scenario.
     * @param stream first random stream
     * @return a hash of every transmission (time, psn, ev, cause) and EV state change
     */
    uint64_t RunOnce(int64_t stream)
    {
        Net n = MakeNet(2, 2, 2, 2, "ns3::MrcAdaptiveSpray", 32, stream);
        for (uint32_t h = 0; h < 4; ++h)
        {
            n.fabric->GetHostLink(h, 0)->SetLossRate(0.02);
        }
        std::vector<TxLog> logs(4);
        std::vector<EvLog> evs(4);
        for (uint32_t h = 0; h < 4; ++h)
        {
            auto qps = n.stack.Connect(h, (h + 1) % 4);
            logs[h].Attach(qps.first);
            evs[h].Attach(qps.first);
            qps.first->PostWrite(500000, 0);
        }
        if (!mrctest::RunToEnd())
        {
            return 0; // the caller's comparison fails: a livelocked run has no fingerprint
        }
        uint64_t hash = 1469598103934665603ULL;
        auto mix = [&hash](uint64_t v)
        {
            hash ^= v;
            hash *= 1099511628211ULL;
        };
        for (uint32_t h = 0; h < 4; ++h)
        {
            for (const auto& t : logs[h].txs)
            {
                mix(t.at.GetTimeStep());
                mix(t.psn);
                mix(t.ev);
                mix(t.cause);
            }
            for (const auto& c : evs[h].changes)
            {
                mix(c.at.GetTimeStep());
                mix(c.ev);
                mix(c.to);
            }
        }
        Simulator::Destroy();
        return hash;
    }

    void DoRun() override
    {
        const uint64_t a = RunOnce(11);
        const uint64_t b = RunOnce(11);
        const uint64_t c = RunOnce(99);
        NS_TEST_ASSERT_MSG_EQ(a, b, "same streams, same trace");
        NS_TEST_ASSERT_MSG_NE(a, c, "other streams, other trace (the hash sees the randomness)");
    }
};

/**
 * @ingroup mrc-tests
 * @brief A path selector class that does not override Fork.
 */
class MrcUnforkedSelector : public MrcObliviousSpray
{
public:
    /**
     * Register this type.
     * @return the TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestUnforkedSelector")
                                .SetParent<MrcObliviousSpray>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcUnforkedSelector>();
        return tid;
    }
};

/**
 * @ingroup mrc-tests
 * @brief Fork gives a new object of the same type with every attribute of the one forked (a
 * factory-set one included), for the queue pair and every path selector, congestion control and
 * loss recovery of the module; a subclass that does not fork gets none (not a sliced copy). Through
 * MrcStackHelper, every queue pair gets an object of its own, with the factory's attributes;
 * a protocol whose factory is set after Install uses its own.
 */
class MrcForkTestCase : public TestCase
{
public:
    MrcForkTestCase()
        : TestCase("Fork: a new object of the same type and attributes; none for a subclass that "
                   "does not fork; one per queue pair through the stack")
    {
    }

private:
    /**
     * Fork an object made by a factory and compare every attribute.
     * @param type the TypeId name
     * @param attr an attribute set in the factory ("" for none)
     * @param value its value
     */
    void Check(const std::string& type, const std::string& attr, const AttributeValue& value)
    {
        ObjectFactory f;
        f.SetTypeId(type);
        if (!attr.empty())
        {
            f.Set(attr, value);
        }
        Ptr<Object> made = f.Create();
        Ptr<Object> fork;
        if (Ptr<MrcCongestionOps> cc = made->GetObject<MrcCongestionOps>())
        {
            fork = cc->Fork();
        }
        else if (Ptr<MrcPathSelector> s = made->GetObject<MrcPathSelector>())
        {
            fork = s->Fork();
        }
        else if (Ptr<MrcRecoveryOps> r = made->GetObject<MrcRecoveryOps>())
        {
            fork = r->Fork();
        }
        else if (Ptr<MrcQueuePair> qp = made->GetObject<MrcQueuePair>())
        {
            fork = qp->Fork();
        }
        NS_TEST_ASSERT_MSG_NE(fork, nullptr, type << " forks");
        NS_TEST_ASSERT_MSG_NE(PeekPointer(fork), PeekPointer(made), type << ": a new object");
        NS_TEST_ASSERT_MSG_EQ(fork->GetInstanceTypeId(), made->GetInstanceTypeId(), type);
        uint32_t compared = 0;
        for (TypeId t = made->GetInstanceTypeId();; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const TypeId::AttributeInformation info = t.GetAttribute(i);
                if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
                {
                    continue;
                }
                Ptr<AttributeValue> a = info.checker->Create();
                Ptr<AttributeValue> b = info.checker->Create();
                made->GetAttribute(info.name, *a);
                fork->GetAttribute(info.name, *b);
                NS_TEST_EXPECT_MSG_EQ(b->SerializeToString(info.checker),
                                      a->SerializeToString(info.checker),
                                      type << "::" << info.name);
                ++compared;
            }
            if (t == Object::GetTypeId())
            {
                break;
            }
        }
        if (!attr.empty())
        {
            NS_TEST_EXPECT_MSG_GT(compared, 0u, type << ": attributes compared");
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(
                made->GetInstanceTypeId().LookupAttributeByName(attr, &info), true, attr);
            Ptr<AttributeValue> got = info.checker->Create();
            fork->GetAttribute(attr, *got);
            NS_TEST_EXPECT_MSG_EQ(got->SerializeToString(info.checker),
                                  value.SerializeToString(info.checker),
                                  type << ": the factory's " << attr);
        }
    }

    void DoRun() override
    {
        Check("ns3::MrcNscc", "MaxMd", DoubleValue(0.3));
        Check("ns3::MrcFixedWindow", "Window", UintegerValue(12345));
        Check("ns3::MrcDcqcn", "ByteCounter", UintegerValue(777777));
        Check("ns3::MrcObliviousSpray", "EvSetSize", UintegerValue(40));
        Check("ns3::MrcAdaptiveSpray", "SkipRotations", UintegerValue(3));
        Check("ns3::MrcSinglePath", "", UintegerValue(0));
        Check("ns3::MrcSelectiveRecovery", "ReorderThreshold", UintegerValue(5));
        Check("ns3::MrcGoBackNRecovery", "", UintegerValue(0));
        Check("ns3::MrcQueuePair", "RecvWindow", UintegerValue(1024));
        NS_TEST_EXPECT_MSG_EQ(CreateObject<MrcUnforkedSelector>()->Fork(),
                              nullptr,
                              "a subclass that does not fork gets no (sliced) copy");

        // Through the stack: every queue pair has objects of its own with the factory's
        // attributes, also on a host whose factory was set after Install.
        Simulator::Destroy();
        mrctest::Net n = mrctest::MakeNet(1, 2, 2, 2, "ns3::MrcObliviousSpray", 24);
        ObjectFactory own;
        own.SetTypeId("ns3::MrcObliviousSpray");
        own.Set("EvSetSize", UintegerValue(8));
        n.stack.GetL4(3)->SetPathSelectorFactory(own);
        ObjectFactory ownQp;
        ownQp.SetTypeId("ns3::MrcQueuePair");
        ownQp.Set("RecvWindow", UintegerValue(512));
        n.stack.GetL4(2)->SetQueuePairFactory(ownQp);
        std::vector<Ptr<MrcQueuePair>> qps;
        for (uint32_t h = 0; h + 1 < 4; ++h)
        {
            auto [a, b] = n.stack.Connect(h, h + 1);
            qps.push_back(a);
            qps.push_back(b);
        }
        std::set<const Object*> seen;
        for (std::size_t k = 0; k < qps.size(); ++k)
        {
            Ptr<MrcPathSelector> s = qps[k]->GetPathSelector();
            Ptr<MrcCongestionOps> cc = qps[k]->GetCongestionOps();
            NS_TEST_EXPECT_MSG_EQ(seen.insert(PeekPointer(qps[k])).second, true, "own qp " << k);
            NS_TEST_EXPECT_MSG_EQ(seen.insert(PeekPointer(s)).second, true, "own selector " << k);
            NS_TEST_EXPECT_MSG_EQ(seen.insert(PeekPointer(cc)).second, true, "own cc " << k);
            UintegerValue evs;
            s->GetAttribute("EvSetSize", evs);
            // qps[5] is host 3's end of the 2-3 connection.
            const uint32_t want = (k == 5) ? 8 : 24;
            NS_TEST_EXPECT_MSG_EQ(evs.Get(), want, "EvSetSize of queue pair " << k);
            // qps[3] and qps[4] are host 2's ends of the 1-2 and 2-3 connections.
            UintegerValue window;
            qps[k]->GetAttribute("RecvWindow", window);
            const uint64_t wantWindow = (k == 3 || k == 4) ? 512 : 65536;
            NS_TEST_EXPECT_MSG_EQ(window.Get(), wantWindow, "RecvWindow of queue pair " << k);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Transport test suite.
 */
class MrcTransportTestSuite : public TestSuite
{
public:
    MrcTransportTestSuite()
        : TestSuite("mrc-transport", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcSelectorStateTestCase);
        AddTestCase(new MrcPlaneCountersTestCase);
        AddTestCase(new MrcExactlyOnceTestCase(0.0));
        AddTestCase(new MrcExactlyOnceTestCase(0.01));
        AddTestCase(new MrcLossyPathTestCase);
        AddTestCase(new MrcLastHopTrimTestCase);
        AddTestCase(new MrcPathFailureTestCase(false));
        AddTestCase(new MrcPathFailureTestCase(true));
        AddTestCase(new MrcPortDownTestCase);
        AddTestCase(new MrcSinglePathTestCase);
        AddTestCase(new MrcRtoBackoffTestCase);
        AddTestCase(new MrcDeterminismTestCase);
        AddTestCase(new MrcForgedPacketTestCase);
        AddTestCase(new MrcImmediateAckTestCase);
        AddTestCase(new MrcLargeIncastTestCase);
        AddTestCase(new MrcForkTestCase);
    }
};

static MrcTransportTestSuite g_mrcTransportTestSuite; //!< static instance
