/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of MrcSchemeHelper: each scheme's fabric, stack and defaults, from one
 * description, at packet and flow level.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <set>

using namespace ns3;

namespace
{

/**
 * @param scheme the scheme
 * @return a builder of 16 hosts, 4 planes of 100G, 4 hosts per T0, 2 T1s
 */
Ptr<MrcSchemeHelper>
Make(const std::string& scheme)
{
    Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
    s->SetAttribute("Scheme", StringValue(scheme));
    s->SetAttribute("Hosts", UintegerValue(16));
    s->SetAttribute("Planes", UintegerValue(4));
    s->SetAttribute("HostsPerT0", UintegerValue(4));
    s->SetAttribute("T1sPerPlane", UintegerValue(2));
    return s;
}

/**
 * @param fabric a fabric
 * @param name a queue attribute
 * @return its value on a T0's uplink port
 */
uint64_t
QueueValue(Ptr<MrcClosTopology> fabric, const std::string& name)
{
    UintegerValue v;
    fabric->GetT0(0, 0)->GetPort(fabric->GetHostsPerT0())->GetQueue()->GetAttribute(name, v);
    return v.Get();
}

/**
 * @ingroup mrc-tests
 * @brief The three schemes from one description: planes, rates, routing, stack, buffers.
 */
class MrcSchemePacketTestCase : public TestCase
{
public:
    MrcSchemePacketTestCase()
        : TestCase("Each scheme builds its fabric and stack from the same description")
    {
    }

private:
    void DoRun() override
    {
        UintegerValue dataLimit;
        Ptr<MrcTrimmingQueue> q = CreateObject<MrcTrimmingQueue>();
        q->GetAttribute("DataLimit", dataLimit);
        {
            Ptr<MrcSchemeHelper> s = Make("mrc");
            Ptr<MrcClosTopology> f = s->Build();
            s->AssignStreams(1);
            NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 4, "mrc: 4 planes");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(), DataRate("100Gbps"), "of 100G");
            NS_TEST_ASSERT_MSG_EQ(f->IsEcmp(), false, "SRv6");
            BooleanValue trim;
            f->GetT0(0, 0)->GetPort(4)->GetQueue()->GetAttribute("TrimEnabled", trim);
            NS_TEST_ASSERT_MSG_EQ(trim.Get(), true, "trimming");
            auto qps = s->GetStack().Connect(0, 5);
            NS_TEST_ASSERT_MSG_EQ(qps.first->GetPathSelector()->GetInstanceTypeId().GetName(),
                                  "ns3::MrcAdaptiveSpray",
                                  "spray");
            Simulator::Destroy();
        }
        {
            Ptr<MrcSchemeHelper> s = Make("roce");
            // The stack is configured after the scheme; the user's setting wins.
            s->GetStack().SetQueuePairAttribute("RetryLimit", UintegerValue(3));
            Ptr<MrcClosTopology> f = s->Build();
            s->AssignStreams(1);
            NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 1, "roce: one plane");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(), DataRate("400Gbps"), "of 4 x 100G");
            NS_TEST_ASSERT_MSG_EQ(f->IsEcmp(), true, "routed");
            NS_TEST_ASSERT_MSG_EQ(QueueValue(f, "EcnMinBytes"), 131072, "SONiC's 400G Kmin");
            NS_TEST_ASSERT_MSG_EQ(QueueValue(f, "EcnMaxBytes"), 262144, "and Kmax");
            BooleanValue pfc;
            f->GetT0(0, 0)->GetAttribute("PfcEnabled", pfc);
            NS_TEST_ASSERT_MSG_EQ(pfc.Get(), true, "PFC");
            auto qps = s->GetStack().Connect(0, 5);
            NS_TEST_ASSERT_MSG_EQ(qps.first->GetPathSelector()->GetInstanceTypeId().GetName(),
                                  "ns3::MrcSinglePath",
                                  "one path");
            UintegerValue v;
            qps.first->GetAttribute("AckTimeoutExponent", v);
            NS_TEST_ASSERT_MSG_EQ(v.Get(), 20, "InfiniBand timeout 4.096 us x 2^20");
            qps.first->GetAttribute("RetryLimit", v);
            NS_TEST_ASSERT_MSG_EQ(v.Get(), 3, "the user's retry limit");
            Simulator::Destroy();
        }
        {
            Ptr<MrcSchemeHelper> s = Make("roce-multiplane");
            s->SetAttribute("Pfc", BooleanValue(false));
            Ptr<MrcClosTopology> f = s->Build();
            NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 4, "MRC's planes");
            NS_TEST_ASSERT_MSG_EQ(f->IsEcmp(), true, "routed");
            NS_TEST_ASSERT_MSG_EQ(QueueValue(f, "DataLimit"), dataLimit.Get(), "100G buffers");
            NS_TEST_ASSERT_MSG_EQ(QueueValue(f, "EcnMinBytes"), 32768, "Kmin scaled to 100G");
            BooleanValue pfc;
            f->GetT0(0, 0)->GetAttribute("PfcEnabled", pfc);
            NS_TEST_ASSERT_MSG_EQ(pfc.Get(), false, "lossy");
            Simulator::Destroy();
        }
        // Bad descriptions are one line in attribute terms, not an abort.
        Ptr<MrcSchemeHelper> bad = Make("mrc");
        bad->SetAttribute("HostsPerT0", UintegerValue(5));
        NS_TEST_ASSERT_MSG_NE(bad->Validate().find("HostsPerT0 (5) must divide Hosts (16)"),
                              std::string::npos,
                              bad->Validate());
        bad->SetAttribute("HostsPerT0", UintegerValue(4));
        bad->SetAttribute("Planes", UintegerValue(0));
        NS_TEST_ASSERT_MSG_NE(bad->Validate().find("Planes must be between 1 and 64"),
                              std::string::npos,
                              bad->Validate());
        NS_TEST_ASSERT_MSG_NE(Make("roce-multiplane")->ValidateFluid(), "", "no flow level");
    }
};

/**
 * @ingroup mrc-tests
 * @brief The flow-level network takes its timers from where the packet level keeps them.
 */
class MrcSchemeFluidTestCase : public TestCase
{
public:
    MrcSchemeFluidTestCase()
        : TestCase("BuildFluid uses the same control-plane delays and RoCE timers")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcSchemeHelper> s = Make("roce");
        s->SetControlPlaneAttribute("DetectionDelay", TimeValue(MilliSeconds(300)));
        s->GetStack().SetQueuePairAttribute("AckTimeoutExponent", UintegerValue(10));
        Ptr<MrcFluidNetwork> net = s->BuildFluid();
        TimeValue t;
        net->GetAttribute("DetectionDelay", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MilliSeconds(300), "the control plane's setting");
        net->GetAttribute("ReconvergenceDelay", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), Seconds(2), "the control plane's default");
        net->GetAttribute("AckTimeout", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), NanoSeconds(4096 * 1024), "4.096 us x 2^10");
        NS_TEST_ASSERT_MSG_EQ(net->GetNPlanes(), 1, "one plane");
        StringValue scheme;
        net->GetAttribute("Scheme", scheme);
        NS_TEST_ASSERT_MSG_EQ(scheme.Get(), "baseline", "the flow-level baseline");
        Ptr<MrcFluidNetwork> mrc = Make("mrc")->BuildFluid();
        NS_TEST_ASSERT_MSG_EQ(mrc->GetNPlanes(), 4, "mrc: 4 planes");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The paper's clusters (MrcClusterPreset) as fabrics: Cluster D's racks, spines and
 * rate for MRC and RoCE alike, its 100G uplinks of Fig 19b, and an unknown name refused.
 */
class MrcClusterPresetTestCase : public TestCase
{
public:
    MrcClusterPresetTestCase()
        : TestCase("MrcClusterPreset: Cluster D for both schemes, and a one-line error")
    {
    }

private:
    void DoRun() override
    {
        for (const char* scheme : {"mrc", "roce"})
        {
            Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(MrcClusterPreset::Apply("D", s, err), true, err);
            s->SetAttribute("Scheme", StringValue(scheme));
            s->SetFabricAttribute("UplinkRate", DataRateValue(DataRate("100Gbps")));
            Ptr<MrcClosTopology> f = s->Build();
            NS_TEST_ASSERT_MSG_EQ(f->GetNHosts(), 16, scheme);
            NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 1, "one plane");
            NS_TEST_ASSERT_MSG_EQ(f->GetHostsPerT0(), 4, "racks of 4");
            NS_TEST_ASSERT_MSG_EQ(f->GetNT1(), 4, "4 spines");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(), DataRate("400Gbps"), "400G hosts");
            NS_TEST_ASSERT_MSG_EQ(f->GetUplinkRate(), DataRate("100Gbps"), "100G uplinks");
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(MrcClusterPreset::GetAll().size(), 3, "B, C, D");
        Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(MrcClusterPreset::Apply("E", s, err), false, "unknown");
        NS_TEST_ASSERT_MSG_EQ(err, "unknown cluster 'E' (accepted: B, C, D)", "the message");
    }
};

/** One write's post-to-placement time and its sender's completion time. */
struct OneWrite
{
    Time posted{0};    //!< when posted
    Time placed{0};    //!< when the receiver saw it
    Time completed{0}; //!< when the sender saw it acknowledged

    /** @param c the receiver's completion */
    void Placed(const MrcCompletion& c)
    {
        placed = Simulator::Now();
    }

    /** @param c the sender's completion */
    void Completed(const MrcCompletion& c)
    {
        completed = Simulator::Now();
    }
};

/**
 * @param scheme the builder (built here)
 * @param from sender host
 * @param to receiver host
 * @param bytes the write
 * @return the write's times
 */
OneWrite
TimeOneWrite(Ptr<MrcSchemeHelper> scheme, uint32_t from, uint32_t to, uint64_t bytes)
{
    Ptr<MrcClosTopology> fabric = scheme->Build();
    scheme->AssignStreams(1);
    auto [a, b] = fabric->GetHost(from)->GetObject<MrcL4Protocol>()->ConnectPair(
        fabric->GetHost(to)->GetObject<MrcL4Protocol>());
    OneWrite w;
    b->SetRecvCompletionCallback(MakeCallback(&OneWrite::Placed, &w));
    a->SetSendCompletionCallback(MakeCallback(&OneWrite::Completed, &w));
    w.posted = MicroSeconds(1);
    Simulator::Schedule(w.posted, &MrcQueuePair::PostWrite, a, bytes, 0);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    Simulator::Destroy();
    return w;
}

/**
 * @ingroup mrc-test
 * @brief Cluster B's calibration: a 2-byte write's one-way latency is the paper's 5.09 us
 * within a T0 and 6.54 us across a T1 (P1, P2), and GetBaseRtt counts the NIC latencies.
 */
class MrcClusterBCalibrationTestCase : public TestCase
{
public:
    MrcClusterBCalibrationTestCase()
        : TestCase("MrcClusterPreset: Cluster B's one-way latencies are the paper's P1 and P2")
    {
    }

private:
    void DoRun() override
    {
        for (const auto& [peer, paperUs] : {std::make_pair(1u, 5.09), std::make_pair(8u, 6.54)})
        {
            Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(MrcClusterPreset::Apply("B", s, err), true, err);
            const OneWrite w = TimeOneWrite(s, 0, peer, 2);
            const double us = (w.placed - w.posted).GetNanoSeconds() / 1000.0;
            NS_TEST_ASSERT_MSG_EQ_TOL(us, paperUs, 0.01, "one-way latency to host " << peer);
        }
        // The base RTT the transport plans with includes both NICs' pipelines each way.
        Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
        std::string err;
        MrcClusterPreset::Apply("B", s, err);
        Ptr<MrcClosTopology> fabric = s->Build();
        NS_TEST_ASSERT_MSG_GT(fabric->GetBaseRtt(4212).GetNanoSeconds(),
                              4 * 2070 + 8 * 215 + 6 * 500,
                              "NIC latencies, cables and switches, both ways");
        Simulator::Destroy();
    }
};

/**
 * Cluster B's preset built, its streams assigned, and a queue pair from host 0 to host 8
 * (under another T0, so across a T1).
 * @param fabric set to the fabric
 * @return the sending and the receiving queue pair
 */
std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>
ClusterBPair(Ptr<MrcClosTopology>& fabric)
{
    Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
    std::string err;
    NS_ABORT_MSG_UNLESS(MrcClusterPreset::Apply("B", s, err), err);
    fabric = s->Build();
    s->AssignStreams(1);
    return fabric->GetHost(0)->GetObject<MrcL4Protocol>()->ConnectPair(
        fabric->GetHost(8)->GetObject<MrcL4Protocol>());
}

/**
 * @ingroup mrc-test
 * @brief The OCP API's explicit EV mode, as the paper's Fig 12 runs it: 16 given paths (2 per
 * plane), one of them dropping 20 % of its packets. That EV is retired, the backup of its plane
 * takes over, no packet leaves on a path outside the two lists, and the write completes at
 * nearly the NIC's rate.
 */
class MrcExplicitEvsTestCase : public TestCase
{
public:
    MrcExplicitEvsTestCase()
        : TestCase("MrcPathSelector: explicit EVs with backups; a lossy EV is replaced by its "
                   "plane's backup")
    {
    }

private:
    /** What the sender did. */
    struct Seen
    {
        MrcPathSelector* sel{nullptr};                 //!< the sender's selector
        std::set<std::pair<uint16_t, uint16_t>> paths; //!< (plane, path) of every data packet
        uint64_t onBackup{0};                          //!< data packets on plane 0's backup
        bool lossyRetired{false};                      //!< the EV on 0:0 went ASSUMED_BAD
        uint64_t received{0};                          //!< bytes placed at the receiver
        Time done{0};                                  //!< when the write was placed

        void Tx(Ptr<const Packet>, uint32_t, uint16_t ev, uint8_t cause)
        {
            if (cause == MrcQueuePair::TX_PROBE)
            {
                return;
            }
            const auto& e = sel->GetEv(ev);
            paths.insert({e.plane, e.path});
            onBackup += (e.plane == 0 && e.path == 2) ? 1 : 0;
        }

        void State(uint16_t ev, uint8_t, uint8_t to, uint8_t)
        {
            const auto& e = sel->GetEv(ev);
            if (e.plane == 0 && e.path == 0 && to == MrcPathSelector::ASSUMED_BAD)
            {
                lossyRetired = true;
            }
        }

        void Placed(const MrcCompletion& c)
        {
            received += c.bytes;
            done = Simulator::Now();
        }
    };

    void DoRun() override
    {
        Ptr<MrcClosTopology> fabric;
        auto [a, b] = ClusterBPair(fabric);
        std::string evs;
        std::string backups;
        for (uint32_t p = 0; p < 8; ++p)
        {
            const std::string q = std::to_string(p);
            evs += (p ? "," : "") + q + ":0," + q + ":1";
            backups += (p ? "," : "") + q + ":2";
        }
        a->SetExplicitEvs(evs, backups);
        Seen seen;
        seen.sel = PeekPointer(a->GetPathSelector());
        NS_TEST_ASSERT_MSG_EQ(seen.sel->GetNEvs(), 16u, "the given set");
        a->TraceConnectWithoutContext("Tx", MakeCallback(&Seen::Tx, &seen));
        a->GetPathSelector()->TraceConnectWithoutContext("EvStateChange",
                                                         MakeCallback(&Seen::State, &seen));
        b->SetRecvCompletionCallback(MakeCallback(&Seen::Placed, &seen));
        // Plane 0's uplink from T0 0 to T1 0 (path 0 of plane 0) drops 20 % of its frames.
        fabric->GetUplink(0, 0, 0)->SetLossRate(0.2);
        const uint64_t bytes = 16000000;
        Simulator::Schedule(MicroSeconds(1), &MrcQueuePair::PostWrite, a, bytes, 0);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(seen.received, bytes, "every byte placed");
        NS_TEST_ASSERT_MSG_EQ(seen.lossyRetired, true, "the lossy EV retired");
        NS_TEST_ASSERT_MSG_GT(seen.onBackup, 100u, "plane 0's backup carries traffic");
        for (const auto& [plane, path] : seen.paths)
        {
            const bool listed = path < 2 || (path == 2 && plane == 0);
            NS_TEST_ASSERT_MSG_EQ(listed, true, "a path in neither list: " << plane << ":" << path);
        }
        // 16 MB at 800G is 160 us; the losses cost a few round trips at most.
        const double us = (seen.done - MicroSeconds(1)).GetNanoSeconds() / 1000.0;
        NS_TEST_ASSERT_MSG_LT(us, 1.25 * 160 + 30, "near the NIC's rate");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-test
 * @brief An explicit EV set of one path that loses packets: every resend must go on that one
 * path (there is no other), and the write completes.
 */
class MrcExplicitSingleEvTestCase : public TestCase
{
public:
    MrcExplicitSingleEvTestCase()
        : TestCase("MrcPathSelector: with one explicit EV, a lost packet is resent on it")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcClosTopology> fabric;
        auto [a, b] = ClusterBPair(fabric);
        a->SetExplicitEvs("0:0", "");
        NS_TEST_ASSERT_MSG_EQ(a->GetPathSelector()->GetNEvs(), 1u, "the given set");
        uint64_t received = 0;
        b->SetRecvCompletionCallback(MakeBoundCallback(
            +[](uint64_t* n, const MrcCompletion& c)
            {
                *n += c.bytes;
            },
            &received));
        fabric->GetUplink(0, 0, 0)->SetLossRate(0.05);
        const uint64_t bytes = 2000000;
        Simulator::Schedule(MicroSeconds(1), &MrcQueuePair::PostWrite, a, bytes, 0);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(received, bytes, "every byte placed, through the one lossy path");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-test
 * @brief Cut-through switches: a frame is taken once its first 64 bytes are in, on ports no
 * slower than the switch's others; a one-packet write crosses three switches one full
 * serialization minus a header's sooner each, and the base RTT says so.
 */
class MrcCutThroughTestCase : public TestCase
{
public:
    MrcCutThroughTestCase()
        : TestCase("MrcSwitchNetDevice: cut-through forwarding saves a frame's serialization "
                   "per switch, only where no egress is faster than the ingress")
    {
    }

private:
    static Ptr<MrcSchemeHelper> Fabric(bool cut, const std::string& uplink)
    {
        Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
        s->SetAttribute("Scheme", StringValue("mrc"));
        s->SetAttribute("Hosts", UintegerValue(8));
        s->SetAttribute("Planes", UintegerValue(1));
        s->SetAttribute("HostsPerT0", UintegerValue(4));
        s->SetAttribute("T1sPerPlane", UintegerValue(2));
        s->SetSwitchAttribute("CutThrough", BooleanValue(cut));
        if (!uplink.empty())
        {
            s->SetFabricAttribute("UplinkRate", DataRateValue(DataRate(uplink)));
        }
        return s;
    }

    void DoRun() override
    {
        // One 4096-byte packet from host 0 to host 4, across a T1: three switches.
        const OneWrite saf = TimeOneWrite(Fabric(false, ""), 0, 4, 4096);
        const OneWrite ct = TimeOneWrite(Fabric(true, ""), 0, 4, 4096);
        const Time frame = DataRate("100Gbps").CalculateBytesTxTime(4096 + 40 + MrcHeader::SIZE);
        const Time head = DataRate("100Gbps").CalculateBytesTxTime(64);
        NS_TEST_ASSERT_MSG_EQ((saf.placed - saf.posted) - (ct.placed - ct.posted),
                              3 * (frame - head),
                              "three switches, each a frame's serialization less a header's");
        // The base RTT follows: the same saving each way (the ACK is no longer than 64 bytes
        // beyond its header, so it gains little).
        Ptr<MrcSchemeHelper> a = Fabric(false, "");
        Ptr<MrcSchemeHelper> b = Fabric(true, "");
        const Time rttSaf = a->Build()->GetBaseRtt(4096 + 40 + MrcHeader::SIZE);
        Simulator::Destroy();
        const Time rttCt = b->Build()->GetBaseRtt(4096 + 40 + MrcHeader::SIZE);
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(rttSaf - rttCt, 3 * (frame - head), "base RTT");
        // Slower uplinks: a T0 takes frames cut-through from its hosts (its fastest ports) but
        // stores and forwards those from the T1s; the T1s' ports all run at one rate.
        Ptr<MrcSchemeHelper> slow = Fabric(true, "50Gbps");
        Ptr<MrcClosTopology> t = slow->Build();
        Ptr<MrcSwitchNetDevice> t0 = t->GetT0(0, 0);
        Ptr<MrcSwitchNetDevice> t1 = t->GetT1(0, 0);
        for (uint32_t k = 0; k < t0->GetNPorts(); ++k)
        {
            const bool hostPort = k < 4;
            NS_TEST_ASSERT_MSG_EQ(
                t0->GetPort(k)->GetCutThroughBytes(), hostPort ? 64u : 0u, "T0 port " << k);
        }
        for (uint32_t k = 0; k < t1->GetNPorts(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(t1->GetPort(k)->GetCutThroughBytes(), 64u, "T1 port " << k);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The scheme-builder suite.
 */
class MrcSchemeTestSuite : public TestSuite
{
public:
    MrcSchemeTestSuite()
        : TestSuite("mrc-schemes", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcSchemePacketTestCase);
        AddTestCase(new MrcSchemeFluidTestCase);
        AddTestCase(new MrcClusterPresetTestCase);
        AddTestCase(new MrcClusterBCalibrationTestCase);
        AddTestCase(new MrcCutThroughTestCase);
        AddTestCase(new MrcExplicitEvsTestCase);
        AddTestCase(new MrcExplicitSingleEvTestCase);
    }
};

static MrcSchemeTestSuite g_mrcSchemeTestSuite; //!< static instance

} // namespace
