/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of fault injection and of the routed RoCE-style baseline.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <cmath>
#include <set>

using namespace ns3;

namespace
{

/**
 * A fabric with a stack.
 * @param routing srv6 or ecmp
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t0 T0s
 * @param t1 T1s
 * @param roce install the RoCE baseline transport
 * @param stack the stack helper to install with
 * @return the fabric
 */
Ptr<MrcClosTopology>
Build(const std::string& routing,
      uint32_t planes,
      uint32_t hostsPerT0,
      uint32_t t0,
      uint32_t t1,
      bool roce,
      MrcStackHelper& stack)
{
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(planes));
    clos->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(t0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(t1));
    clos->SetAttribute("Routing", StringValue(routing));
    // These tests check the control plane's mechanics, so they use short delays; the defaults
    // are deployed values (150 ms detection, 2 s reconvergence).
    clos->SetControlPlaneAttribute("DetectionDelay", TimeValue(MicroSeconds(50)));
    clos->SetControlPlaneAttribute("ReconvergenceDelay", TimeValue(MicroSeconds(500)));
    if (roce)
    {
        clos->SetRoutedBaseline();
        stack.SetRoceBaseline();
    }
    Ptr<MrcClosTopology> f = clos->Build();
    stack.Install(f);
    int64_t s = 1 + f->AssignStreams(1);
    stack.AssignStreams(s);
    return f;
}

/**
 * @param events fault events
 * @param state a state
 * @return how many events have it
 */
uint32_t
Count(const std::vector<MrcFaultEvent>& events, MrcFaultEvent::State state)
{
    uint32_t n = 0;
    for (const auto& e : events)
    {
        n += e.state == state ? 1 : 0;
    }
    return n;
}

} // namespace

/**
 * @ingroup mrc-tests
 * @brief Stochastic flap processes produce as many flaps as their rate says.
 */
class MrcFlapProcessTestCase : public TestCase
{
public:
    MrcFlapProcessTestCase()
        : TestCase("flap processes: counts within statistical bounds of the rate")
    {
    }

private:
    void DoRun() override
    {
        struct Case
        {
            bool periodic;
            bool perLink;
            double rate;
        };

        for (const Case c :
             {Case{false, true, 5000}, Case{true, true, 5000}, Case{false, false, 4000}})
        {
            MrcStackHelper stack;
            Ptr<MrcClosTopology> f = Build("srv6", 1, 1, 4, 4, false, stack);
            Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
            faults->SetInjectorAttribute("Periodic", BooleanValue(c.periodic));
            faults->SetInjectorAttribute("DownTimeDistribution", StringValue("constant"));
            faults->Install(f);
            faults->AssignStreams(100);
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(faults->GetInjector()->AddFlapProcess(MrcLinkTier::T0_T1,
                                                                        c.rate,
                                                                        c.perLink,
                                                                        MicroSeconds(5),
                                                                        Time(0),
                                                                        MilliSeconds(10),
                                                                        err),
                                  true,
                                  err);
            Simulator::Stop(MilliSeconds(10) + MicroSeconds(1));
            Simulator::Run();
            const auto& ev = faults->GetInjector()->GetEvents();
            const double expected = c.rate * 0.01 * (c.perLink ? 16 : 1);
            const double downs = Count(ev, MrcFaultEvent::State::DOWN);
            if (c.periodic)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(downs, expected, 16, "periodic: exactly the rate");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(downs,
                                          expected,
                                          4 * std::sqrt(expected),
                                          "Poisson: within 4 sigma of rate x time");
            }
            NS_TEST_ASSERT_MSG_GT(downs, 0, "flaps happened");
            // Every flap that ended is an up event 5 us after its down event.
            NS_TEST_ASSERT_MSG_LT_OR_EQ(
                downs - Count(ev, MrcFaultEvent::State::UP), 16, "flaps end");
            std::string bad;
            NS_TEST_ASSERT_MSG_EQ(
                faults->GetInjector()->AddFlapProcess(
                    MrcLinkTier::T1_T0, 1, true, MicroSeconds(1), Time(0), Seconds(1), bad),
                false,
                "a downward tier rejected");
            NS_TEST_ASSERT_MSG_EQ(bad,
                                  "flap tier must be one of host-t0, t0-t1, t1-t2 (got 't1-t0')",
                                  "message lists the upward tiers");
            MrcFaultHelper::Options o;
            o.tier = "t9-t1";
            o.rate = 0;
            NS_TEST_ASSERT_MSG_EQ(faults->ApplyOptions(o, bad), false, "unknown tier rejected");
            NS_TEST_ASSERT_MSG_EQ(
                bad,
                "--flapTier must be one of host-t0, t0-t1, t1-t2 or none (got 't9-t1')",
                "message lists the tiers");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief MRC keeps every transfer alive through continuous flaps, a blackholed T1, a rebooting
 * T1 and a lost NIC port.
 */
class MrcSurvivesFaultsTestCase : public TestCase
{
public:
    MrcSurvivesFaultsTestCase()
        : TestCase("MRC: flaps, blackhole, reboot and NIC port loss; every byte once")
    {
    }

private:
    void DoRun() override
    {
        MrcStackHelper stack;
        Ptr<MrcClosTopology> f = Build("srv6", 2, 2, 2, 4, false, stack);
        Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
        faults->Install(f);
        faults->AssignStreams(50);
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(
            faults->GetInjector()->AddFlapProcess(
                MrcLinkTier::T0_T1, 2000, true, MicroSeconds(20), Time(0), Seconds(1), err),
            true,
            err);
        NS_TEST_ASSERT_MSG_EQ(faults->LoadSchedule("time_us,action,target,duration_us\n"
                                                   "100,blackhole,plane0/t1-1,300\n"
                                                   "200,switch_reboot,plane1/t1-2,300\n"
                                                   "150,nic_port_down,host0/plane1,400\n",
                                                   "test",
                                                   err),
                              true,
                              err);
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> qps;
        const uint64_t size = 4000000;
        for (uint32_t h = 0; h < 4; ++h)
        {
            qps.push_back(stack.Connect(h, (h + 2) % 4));
            qps.back().first->PostWrite(size, 0);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        for (const auto& q : qps)
        {
            NS_TEST_ASSERT_MSG_EQ(q.second->GetBytesPlaced(), size, "every byte, exactly once");
            NS_TEST_ASSERT_MSG_EQ(q.first->GetPendingMessages(), 0u, "completed");
            NS_TEST_ASSERT_MSG_EQ(q.first->IsInError(), false, "no QP error");
        }
        const auto& ev = faults->GetInjector()->GetEvents();
        std::set<std::string> kinds;
        for (const auto& e : ev)
        {
            kinds.insert(MrcFaultEvent::KindNames().GetName(e.kind));
        }
        NS_TEST_ASSERT_MSG_EQ(kinds.count("blackhole") + kinds.count("switch_reboot")
                                  + kinds.count("nic_port") + kinds.count("link"),
                              4u,
                              "all four fault kinds happened");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The routed baseline loses what is hashed onto a dead link until detection and
 * reconvergence, then recovers.
 */
class MrcBaselineReconvergenceTestCase : public TestCase
{
public:
    MrcBaselineReconvergenceTestCase()
        : TestCase("baseline: traffic lost to a dead link until reconvergence, then recovers")
    {
    }

private:
    /**
     * Queue drop trace sink (the test only checks that it connects).
     * @param p packet
     * @param reason reason
     */
    void QueueDropped(Ptr<const Packet> /* p */, uint32_t /* reason */) {}

    /**
     * Drop trace sink.
     * @param p packet
     * @param reason reason
     */
    void Dropped(Ptr<const Packet> /* p */, uint32_t /* reason */)
    {
        m_lastDrop = Simulator::Now();
        ++m_drops;
    }

    void DoRun() override
    {
        MrcStackHelper stack;
        Ptr<MrcClosTopology> f = Build("ecmp", 1, 1, 2, 2, true, stack);
        for (uint32_t n = 0; n < f->GetSwitches().GetN(); ++n)
        {
            const bool connected
                = f->GetSwitches().Get(n)->GetDevice(0)->TraceConnectWithoutContext(
                    "Drop", MakeCallback(&MrcBaselineReconvergenceTestCase::Dropped, this));
            NS_TEST_ASSERT_MSG_EQ(connected, true, "the switch's Drop trace source");
            NS_TEST_ASSERT_MSG_EQ(
                DynamicCast<MrcSwitchNetDevice>(f->GetSwitches().Get(n)->GetDevice(0))
                    ->GetPort(0)
                    ->GetQueue()
                    ->TraceConnectWithoutContext(
                        "Drop",
                        MakeCallback(&MrcBaselineReconvergenceTestCase::QueueDropped, this)),
                true,
                "the queue's Drop trace source");
        }
        auto qps = stack.Connect(0, 1);
        const uint16_t port = f->GetT0(0, 0)->GetEcmpEgress(
            f->GetHostAddress(0, 0), f->GetHostAddress(1, 0), qps.first->GetFlowLabel(0));
        NS_TEST_ASSERT_MSG_NE(port, MrcSwitchNetDevice::NO_PORT, "routed");
        const uint32_t t1 = port - 1;
        // The flow's link dies for good at 100 us: detection 50 us, reconvergence 500 us more.
        Simulator::Schedule(MicroSeconds(100), &MrcChannel::SetUp, f->GetUplink(0, 0, t1), false);
        const uint64_t size = 20000000;
        qps.first->PostWrite(size, 0);
        // The tail lost before detection waits for the local ACK timeout (4.096 us x 2^20).
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(m_drops, 0u, "packets hashed onto the dead link were lost");
        NS_TEST_ASSERT_MSG_GT(f->GetT0(0, 0)->GetDropped(MrcSwitchNetDevice::PORT_DOWN),
                              0u,
                              "lost at the T0 before detection");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(
            m_lastDrop, MicroSeconds(100 + 50 + 500 + 20), "no loss after reconvergence");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "recovered: all delivered");
        NS_TEST_ASSERT_MSG_GT(qps.first->GetRetransmissions(), 0u, "go-back-N resent");
        Simulator::Destroy();
    }

    Time m_lastDrop;     //!< last switch drop
    uint64_t m_drops{0}; //!< switch drops
};

/**
 * @ingroup mrc-tests
 * @brief Go-back-N: after a gap the sender resends everything from the gap on, including
 * packets the receiver got (and discarded as out of order).
 */
class MrcGoBackNTestCase : public TestCase
{
public:
    MrcGoBackNTestCase()
        : TestCase("go-back-N retransmits everything after a gap")
    {
    }

private:
    /**
     * Tx trace sink.
     * @param p packet
     * @param psn PSN
     * @param ev EV
     * @param cause cause
     */
    void Tx(Ptr<const Packet> /* p */, uint32_t psn, uint16_t /* ev */, uint8_t cause)
    {
        if (cause != MrcQueuePair::TX_NEW)
        {
            m_retx.insert(psn);
        }
    }

    void DoRun() override
    {
        MrcStackHelper stack;
        Ptr<MrcClosTopology> f = Build("ecmp", 1, 1, 2, 2, true, stack);
        auto qps = stack.Connect(0, 1);
        qps.first->TraceConnectWithoutContext("Tx", MakeCallback(&MrcGoBackNTestCase::Tx, this));
        const uint16_t port = f->GetT0(0, 0)->GetEcmpEgress(
            f->GetHostAddress(0, 0), f->GetHostAddress(1, 0), qps.first->GetFlowLabel(0));
        Ptr<MrcChannel> link = f->GetUplink(0, 0, port - 1);
        // A 1 us outage, shorter than detection: a few packets vanish mid-transfer.
        Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetUp, link, false);
        Simulator::Schedule(MicroSeconds(21), &MrcChannel::SetUp, link, true);
        const uint64_t size = 2000000;
        qps.first->PostWrite(size, 0);
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        const uint64_t lost = link->GetLostInFlight() + f->GetT0(0, 0)->GetDroppedTotal()
                            + f->GetT0(0, 0)->GetPort(port)->GetQueue()->GetDroppedTotal();
        NS_TEST_ASSERT_MSG_GT(lost, 0u, "the outage lost packets");
        NS_TEST_ASSERT_MSG_EQ(qps.second->GetBytesPlaced(), size, "all delivered in the end");
        NS_TEST_ASSERT_MSG_GT(m_retx.size(), lost, "resent more than was lost: go-back-N");
        const uint32_t first = *m_retx.begin();
        const uint32_t last = *m_retx.rbegin();
        NS_TEST_ASSERT_MSG_EQ(last - first + 1,
                              m_retx.size(),
                              "the resent PSNs form one contiguous range from the gap on");
        Simulator::Destroy();
    }

    std::set<uint32_t> m_retx; //!< retransmitted PSNs
};

/**
 * @ingroup mrc-tests
 * @brief Fault schedule files: good ones run, bad ones are rejected naming line and field.
 */
class MrcFaultFileTestCase : public TestCase
{
public:
    MrcFaultFileTestCase()
        : TestCase("fault schedule files: parsed, executed, and bad ones rejected")
    {
    }

private:
    void DoRun() override
    {
        MrcStackHelper stack;
        Ptr<MrcClosTopology> f = Build("srv6", 2, 2, 2, 2, false, stack);
        Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
        faults->Install(f);
        struct Bad
        {
            const char* text;
            const char* mustMention;
        };

        const Bad bad[] = {
            {"time,action,target,duration_us\n", "header"},
            {"time_us,action,target,duration_us\n10,link_dwn,plane0/t0-0/t1-0,\n",
             "f.csv:2: action: unknown action 'link_dwn' (accepted: link_down,"},
            {"time_us,action,target,duration_us\n# c\n10,link_down,plane9/t0-0/t1-0,\n",
             "f.csv:3: target: unknown target 'plane9/t0-0/t1-0'"},
            {"time_us,action,target,duration_us\n-5,link_down,plane0/t0-0/t1-0,\n",
             "f.csv:2: time_us: must be a number from 0 to 1e+15 (got '-5')"},
            {"time_us,action,target,duration_us\n5,link_flap,plane0/t0-0/t1-0,\n",
             "f.csv:2: duration_us: action 'link_flap' needs a positive duration"},
            {"time_us,action,target,duration_us\n5,link_down,plane0/t0-0/t1-7,\n",
             "f.csv:2: target: unknown target"},
            {"time_us,action,target,duration_us\n5,blackhole,host1/plane0,10\n",
             "f.csv:2: action: action 'blackhole' needs a switch target"},
            {"time_us,action,target,duration_us\n5,link_down\n",
             "f.csv:2: row: expected 4 fields (time_us,action,target,duration_us), got 2"},
            {"", "f.csv:1: header: missing"},
            {"# x\ntime_us,action,target,duration_us,extra\n", "f.csv:2: header: expected"},
            {"time_us,action,target,duration_us\n5,nic_rx_loss,hosts,\n", "f.csv:2: rate:"},
            {"time_us,action,target,duration_us,rate\n5,nic_rx_loss,host1,,1.5\n",
             "f.csv:2: rate: action 'nic_rx_loss' needs a loss probability in (0, 1]"},
            {"time_us,action,target,duration_us,rate\n5,link_down,plane0/t0-0/t1-0,,0.1\n",
             "only nic_rx_loss takes a rate"},
            {"time_us,action,target,duration_us,rate\n5,nic_rx_loss,host9,,0.1\n", "no such host"},
            {"time_us,action,target,duration_us,rate\n5,nic_rx_loss,plane0/t1-0,,0.1\n",
             "host<H>/plane<P>, host<H> or hosts"},
            {"time_us,action,target,duration_us\n5,link_down,host1,\n", "for nic_rx_loss"},
        };
        for (const auto& b : bad)
        {
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(faults->LoadSchedule(b.text, "f.csv", err), false, b.text);
            NS_TEST_ASSERT_MSG_NE(err.find(b.mustMention),
                                  std::string::npos,
                                  "'" << err << "' mentions '" << b.mustMention << "'");
            NS_TEST_ASSERT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        }
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(faults->LoadSchedule("time_us,action,target,duration_us\n"
                                                   "10,link_flap,plane0/t0-0/t1-1,5\n"
                                                   "20,nic_port_down,host3/plane1,5\n"
                                                   "30,switch_reboot,plane1/t0-1,5\n"
                                                   "40,blackhole,plane0/t1-0,5\n"
                                                   "50,link_down,plane0/t0-1/t1-0,\n"
                                                   "60,link_up,plane0/t0-1/t1-0,\n",
                                                   "good.csv",
                                                   err),
                              true,
                              err);
        NS_TEST_ASSERT_MSG_EQ(
            faults->GetInjector()->GetEvents().size(), 0u, "nothing happens before Run");
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        const auto& ev = faults->GetInjector()->GetEvents();
        NS_TEST_ASSERT_MSG_EQ(ev.size(), 10u, "five faults, each with its end");
        NS_TEST_ASSERT_MSG_EQ(ev[0].target, "plane0/t0-0/t1-1", "first event target");
        NS_TEST_ASSERT_MSG_EQ(ev[0].time, MicroSeconds(10), "first event time");
        NS_TEST_ASSERT_MSG_EQ(
            (ev[1].state == MrcFaultEvent::State::UP), true, "flap ends 5 us later");
        NS_TEST_ASSERT_MSG_EQ(ev[1].time, MicroSeconds(15), "flap end time");
        NS_TEST_ASSERT_MSG_EQ(f->GetUplink(0, 1, 0)->IsUp(), true, "link_up restored it");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief NIC-side receive loss (nic_rx_loss, MrcNetDevice RxLossRate): every host port, on every
 * plane, drops the configured fraction of the frames that reach it (data and control), counts
 * them as RX_LOSS, and MRC still delivers every byte once; a timed loss ends.
 */
class MrcNicRxLossTestCase : public TestCase
{
public:
    MrcNicRxLossTestCase()
        : TestCase("NIC receive loss: the configured fraction on every plane, counted; every "
                   "byte once")
    {
    }

private:
    void DoRun() override
    {
        MrcStackHelper stack;
        Ptr<MrcClosTopology> f = Build("srv6", 2, 2, 2, 4, false, stack);
        f->AssignNicStreams(1000);
        Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
        faults->Install(f);
        std::string err;
        const double rate = 0.02;
        NS_TEST_ASSERT_MSG_EQ(faults->LoadSchedule("time_us,action,target,duration_us,rate\n"
                                                   "0,nic_rx_loss,hosts,0,0.02\n"
                                                   "0,nic_rx_loss,host0/plane0,100,0.5\n",
                                                   "loss.csv",
                                                   err),
                              true,
                              err);
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> qps;
        const uint64_t size = 8000000;
        for (uint32_t h = 0; h < 4; ++h)
        {
            qps.push_back(stack.Connect(h, (h + 2) % 4));
            Simulator::Schedule(
                MicroSeconds(200), &MrcQueuePair::PostWrite, qps.back().first, size, uint64_t(0));
        }
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        for (const auto& q : qps)
        {
            NS_TEST_ASSERT_MSG_EQ(q.second->GetBytesPlaced(), size, "every byte, exactly once");
            NS_TEST_ASSERT_MSG_EQ(q.first->GetPendingMessages(), 0u, "completed");
        }
        // After 200 us every port runs at 2 %: the drops are Binomial(arrivals, 0.02).
        uint64_t lost = 0;
        uint64_t arrived = 0;
        for (uint32_t h = 0; h < 4; ++h)
        {
            for (uint32_t p = 0; p < 2; ++p)
            {
                Ptr<MrcNetDevice> d = f->GetHostPort(h, p);
                const uint64_t l = d->GetDropped(MrcNetDevice::RX_LOSS);
                NS_TEST_ASSERT_MSG_GT(l, 0u, "host " << h << " plane " << p << " lost frames");
                NS_TEST_ASSERT_MSG_EQ(d->GetDroppedTotal(), l, "RX_LOSS is the only reason");
                NS_TEST_ASSERT_MSG_EQ_TOL(d->GetRxLossRate(), rate, 1e-12, "the rate, ended");
                lost += l;
                arrived += l + d->GetRxPackets();
            }
        }
        const double n = static_cast<double>(arrived);
        const double sd = std::sqrt(n * rate * (1 - rate));
        NS_TEST_ASSERT_MSG_GT(n, 5000, "enough frames to tell");
        NS_TEST_ASSERT_MSG_LT(std::abs(double(lost) - n * rate),
                              5 * sd + 20, // the 100 us at 50 % on one port came before traffic
                              "lost " << lost << " of " << arrived);
        // The fabric's summary names them, and nothing else was lost.
        const std::map<std::string, uint64_t> by = f->GetDropsByReason();
        NS_TEST_ASSERT_MSG_EQ(by.size(), 1u, "one reason: " << by.begin()->first);
        NS_TEST_ASSERT_MSG_EQ(by.count("nic/RxLoss") ? by.at("nic/RxLoss") : 0, lost, "nic/RxLoss");
        // Switch ports never lose this way.
        NS_TEST_ASSERT_MSG_EQ(
            f->GetT0(0, 0)->GetPort(0)->GetDroppedTotal(), 0u, "no receive loss on switches");
        std::set<std::string> states;
        for (const auto& e : faults->GetInjector()->GetEvents())
        {
            if (e.kind == MrcFaultEvent::Kind::NIC_RX_LOSS)
            {
                states.insert(e.target + " " + MrcFaultEvent::StateNames().GetName(e.state));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(states.count("hosts start"), 1u, "recorded");
        NS_TEST_ASSERT_MSG_EQ(states.count("host0/plane0 end"), 1u, "the timed loss ended");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief A three-tier routed fat tree delivers between pods, and reroutes around a dead
 * T1-T2 link after reconvergence.
 */
class MrcThreeTierTestCase : public TestCase
{
public:
    MrcThreeTierTestCase()
        : TestCase("three-tier ECMP fat tree: inter-pod transfers, reroute after a T1-T2 failure")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
        clos->SetAttribute("Routing", StringValue("ecmp"));
        clos->SetAttribute("Tiers", UintegerValue(3));
        clos->SetAttribute("Pods", UintegerValue(2));
        clos->SetAttribute("HostsPerT0", UintegerValue(2));
        clos->SetAttribute("T0sPerPlane", UintegerValue(2));
        clos->SetAttribute("T1sPerPlane", UintegerValue(2));
        clos->SetAttribute("T2sPerPlane", UintegerValue(2));
        clos->SetAttribute("SwitchRadix", UintegerValue(4));
        clos->SetControlPlaneAttribute("DetectionDelay",
                                       TimeValue(MicroSeconds(50))); // mechanics: short delays
        clos->SetControlPlaneAttribute("ReconvergenceDelay", TimeValue(MicroSeconds(500)));
        NS_TEST_ASSERT_MSG_EQ(clos->Validate(), "", "valid");
        Ptr<MrcClosTopology> f = clos->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetNHosts(), 8u, "2 pods x 2 T0s x 2 hosts");
        NS_TEST_ASSERT_MSG_EQ(f->GetSwitches().GetN(), 10u, "4 T0 + 4 T1 + 2 T2");
        NS_TEST_ASSERT_MSG_EQ(f->GetPodOf(5), 1u, "host 5 in pod 1");
        MrcStackHelper stack;
        stack.SetRoceBaseline();
        stack.Install(f);
        int64_t s = 1 + f->AssignStreams(1);
        stack.AssignStreams(s);
        // Every host writes to the host in the other pod: all traffic crosses the T2s.
        std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> qps;
        for (uint32_t h = 0; h < 8; ++h)
        {
            qps.push_back(stack.Connect(h, (h + 4) % 8));
            qps.back().first->PostWrite(1000000, 0);
        }
        // A T1-T2 link dies for good at 20 us.
        Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetUp, f->GetSpineLink(0, 0, 0), false);
        // Lost tails wait for the local ACK timeout (4.096 us x 2^20, about 4.3 s).
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        uint64_t t2 = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            t2 += f->GetT2(0, k)->GetForwarded();
        }
        NS_TEST_ASSERT_MSG_GT(t2, 8u * 244, "inter-pod traffic went through the T2s");
        for (const auto& q : qps)
        {
            NS_TEST_ASSERT_MSG_EQ(q.second->GetBytesPlaced(), 1000000u, "delivered");
            NS_TEST_ASSERT_MSG_EQ(q.first->IsInError(), false, "no QP failed");
        }
        NS_TEST_ASSERT_MSG_EQ(f->GetT1(0, 0)->IsPortUsable(2), false, "dead uplink excluded");
        Simulator::Destroy();
        Ptr<MrcClosHelper> bad = CreateObject<MrcClosHelper>();
        bad->SetAttribute("Tiers", UintegerValue(3));
        NS_TEST_ASSERT_MSG_NE(bad->Validate().find("Routing=ecmp"),
                              std::string::npos,
                              "three tiers need ECMP routing");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Fault and baseline test suite.
 */
class MrcFaultTestSuite : public TestSuite
{
public:
    MrcFaultTestSuite()
        : TestSuite("mrc-faults", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcFlapProcessTestCase);
        AddTestCase(new MrcSurvivesFaultsTestCase);
        AddTestCase(new MrcBaselineReconvergenceTestCase);
        AddTestCase(new MrcGoBackNTestCase);
        AddTestCase(new MrcFaultFileTestCase);
        AddTestCase(new MrcNicRxLossTestCase);
        AddTestCase(new MrcThreeTierTestCase);
    }
};

static MrcFaultTestSuite g_mrcFaultTestSuite; //!< static instance
