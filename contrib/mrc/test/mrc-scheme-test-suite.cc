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
    }
};

static MrcSchemeTestSuite g_mrcSchemeTestSuite; //!< static instance

} // namespace
