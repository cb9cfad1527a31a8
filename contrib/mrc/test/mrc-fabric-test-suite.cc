/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of the SRv6 switch, trimming queues and the multi-plane Clos helper.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-dscp.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-ipv6-header.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-selective-recovery.h"
#include "ns3/mrc-slot-pool.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/** What a host port received. */
struct Arrival
{
    uint32_t host;  //!< receiving host
    uint32_t plane; //!< receiving plane
    uint64_t uid;   //!< packet uid
    uint8_t dscp;   //!< DSCP on arrival
    uint8_t ecn;    //!< ECN on arrival
    uint32_t size;  //!< IPv6 payload size
};

/** Records what every host port receives. */
class Recorder : public MrcFrameReceiver
{
public:
    /**
     * @param planes planes per host
     */
    explicit Recorder(uint32_t planes)
        : m_planes(planes)
    {
    }

    void ReceiveFrame(uint32_t port, Ptr<Packet> packet, MrcIpv6Fields& header) override
    {
        const uint8_t tc = header.GetTrafficClass();
        arrivals.push_back({port / m_planes,
                            port % m_planes,
                            packet->GetUid(),
                            MrcDscp::Dscp(tc),
                            MrcDscp::Ecn(tc),
                            packet->GetSize()});
    }

    /**
     * Receive on every host port of a fabric.
     * @param f the fabric
     */
    void Attach(Ptr<MrcClosTopology> f)
    {
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
            {
                f->GetHostPort(h, p)->SetFrameReceiver(this, h * m_planes + p);
            }
        }
    }

    std::vector<Arrival> arrivals; //!< in arrival order

private:
    uint32_t m_planes; //!< planes per host
};

/**
 * Send one data packet from a host along a path.
 * @param f fabric
 * @param src source host
 * @param path path (plane and carrier)
 * @param bytes IPv6 payload size
 * @param ecn ECN codepoint
 * @return the packet's uid
 */
uint64_t
SendOne(Ptr<MrcClosTopology> f, uint32_t src, const MrcPath& path, uint32_t bytes, uint8_t ecn)
{
    return f->SendRawPacket(src, path, bytes, ecn)->GetUid();
}

/**
 * Build a small fabric.
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t0 T0s per plane
 * @param t1 T1s per plane
 * @param trim trimming on
 * @return the fabric
 */
Ptr<MrcClosTopology>
MakeFabric(uint32_t planes, uint32_t hostsPerT0, uint32_t t0, uint32_t t1, bool trim)
{
    Ptr<MrcClosHelper> f = CreateObject<MrcClosHelper>();
    f->SetAttribute("Planes", UintegerValue(planes));
    f->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    f->SetAttribute("T0sPerPlane", UintegerValue(t0));
    f->SetAttribute("T1sPerPlane", UintegerValue(t1));
    f->SetQueueAttribute("TrimEnabled", BooleanValue(trim));
    f->SetQueueAttribute("DataLimit", UintegerValue(50000));
    f->SetQueueAttribute("EcnMinBytes", UintegerValue(10000));
    f->SetQueueAttribute("EcnMaxBytes", UintegerValue(30000));
    Ptr<MrcClosTopology> topo = f->Build();
    topo->AssignStreams(1);
    return topo;
}

/**
 * Sum of a counter over every queue of every switch port.
 * @param f fabric
 * @param get the counter
 * @param lastHopOnly only host-facing T0 ports; fabricOnly the others
 * @param which 0: all ports, 1: last-hop ports only, 2: fabric ports only
 * @return the sum
 */
template<typename F>
uint64_t
SumQueues(Ptr<MrcClosTopology> f, F get, int which = 0)
{
    uint64_t s = 0;
    for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
    {
        for (uint32_t i = 0; i < f->GetNT0(); ++i)
        {
            Ptr<MrcSwitchNetDevice> sw = f->GetT0(p, i);
            for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
            {
                const bool lastHop = k < f->GetHostsPerT0();
                if (which == 0 || (which == 1 && lastHop) || (which == 2 && !lastHop))
                {
                    s += get(sw->GetPort(k)->GetQueue());
                }
            }
        }
        for (uint32_t j = 0; j < f->GetNT1(); ++j)
        {
            Ptr<MrcSwitchNetDevice> sw = f->GetT1(p, j);
            for (uint32_t k = 0; k < sw->GetNPorts() && which != 1; ++k)
            {
                s += get(sw->GetPort(k)->GetQueue());
            }
        }
    }
    return s;
}

} // namespace

/**
 * @ingroup mrc-tests
 * @brief Every enumerated path between every host pair delivers to the right host through
 * exactly the expected switches.
 */
class MrcFabricPathsTestCase : public TestCase
{
public:
    MrcFabricPathsTestCase()
        : TestCase("every path of a 2-plane fabric reaches the right host via the right switches")
    {
    }

private:
    /**
     * Record a switch forwarding a packet.
     * @param node switch node id
     * @param packet the packet
     * @param inPort ingress port
     * @param outPort egress port
     */
    void Forwarded(uint32_t node,
                   Ptr<const Packet> packet,
                   uint32_t /* inPort */,
                   uint32_t /* outPort */)
    {
        m_hops[packet->GetUid()].push_back(node);
    }

    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(2, 2, 3, 2, true);
        Recorder rec(f->GetNPlanes());
        rec.Attach(f);
        for (uint32_t n = 0; n < f->GetSwitches().GetN(); ++n)
        {
            Ptr<Node> node = f->GetSwitches().Get(n);
            node->GetDevice(0)->TraceConnectWithoutContext(
                "Forward",
                MakeCallback(&MrcFabricPathsTestCase::Forwarded, this).Bind(node->GetId()));
        }
        struct Expect
        {
            uint32_t dst;
            uint32_t plane;
            std::vector<uint32_t> switches;
        };

        std::map<uint64_t, Expect> expected;
        uint32_t nPaths = 0;
        Time t = MicroSeconds(1);
        for (uint32_t s = 0; s < f->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < f->GetNHosts(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                const auto paths = f->GetPaths(s, d);
                const bool local = f->GetT0Of(s) == f->GetT0Of(d);
                NS_TEST_ASSERT_MSG_EQ(
                    paths.size(), local ? 2u : 4u, "paths per pair: planes x (T1s or 1)");
                for (const auto& path : paths)
                {
                    // The constant-space path set names the same addresses, in the same order.
                    const MrcPathSet set = f->GetPathSet(s, d, path.plane);
                    NS_TEST_ASSERT_MSG_EQ(set.count, local ? 1u : 2u, "paths in the set");
                    NS_TEST_ASSERT_MSG_EQ(set.Get(path.t1 < 0 ? 0 : path.t1),
                                          path.carrier.GetAddress(),
                                          "path set address = the carrier's");
                    // Space the packets out so that the uid is known before the send.
                    Simulator::Schedule(
                        t,
                        [this, f, s, d, path, &expected]()
                        {
                            uint64_t uid = SendOne(f, s, path, 1000, MrcDscp::ECN_ECT0);
                            expected[uid] = {d, path.plane, f->GetSwitchNodeIds(s, d, path)};
                        });
                    t += MicroSeconds(1);
                    ++nPaths;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        NS_TEST_ASSERT_MSG_EQ(rec.arrivals.size(), nPaths, "every packet arrived");
        for (const auto& a : rec.arrivals)
        {
            auto it = expected.find(a.uid);
            NS_TEST_ASSERT_MSG_EQ((it != expected.end()), true, "known packet");
            NS_TEST_ASSERT_MSG_EQ(a.host, it->second.dst, "right host");
            NS_TEST_ASSERT_MSG_EQ(a.plane, it->second.plane, "right plane");
            NS_TEST_ASSERT_MSG_EQ(a.dscp, MrcDscp::DATA, "not trimmed");
            const auto& hops = m_hops[a.uid];
            NS_TEST_ASSERT_MSG_EQ(hops.size(), it->second.switches.size(), "hop count");
            for (std::size_t i = 0; i < hops.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(hops[i], it->second.switches[i], "switch " << i);
            }
        }
        Simulator::Destroy();
    }

    std::map<uint64_t, std::vector<uint32_t>> m_hops; //!< switches each packet crossed
};

/**
 * @ingroup mrc-tests
 * @brief The route hint a switch gives for prefetching (MrcSwitchNetDevice::GetRouteHint)
 * names the port its forwarding takes: following the hints alone, hop by hop, every path of a
 * 2-plane fabric crosses the switches of the path and ends at its host. No hint where the route
 * names no port (an unknown next uSID, the carrier ending at the switch).
 */
class MrcRouteHintTestCase : public TestCase
{
public:
    MrcRouteHintTestCase()
        : TestCase("a switch's route hint names the egress port of every path's every hop")
    {
    }

private:
    /**
     * @param port a port
     * @return the node at the other end of its cable
     */
    static Ptr<Node> FarNode(const MrcNetDevice* port)
    {
        Ptr<Channel> cable = port->GetChannel();
        for (std::size_t i = 0; i < cable->GetNDevices(); ++i)
        {
            if (PeekPointer(cable->GetDevice(i)) != port)
            {
                return cable->GetDevice(i)->GetNode();
            }
        }
        return nullptr;
    }

    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(2, 2, 3, 2, true);
        uint32_t paths = 0;
        for (uint32_t s = 0; s < f->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < f->GetNHosts(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                for (const auto& path : f->GetPaths(s, d))
                {
                    const std::vector<uint32_t> expected = f->GetSwitchNodeIds(s, d, path);
                    std::vector<uint32_t> crossed{expected.at(0)};
                    MrcUsidCarrier carrier = path.carrier;
                    Ptr<Node> node = NodeList::GetNode(expected.at(0));
                    while (true)
                    {
                        auto sw = DynamicCast<MrcSwitchNetDevice>(node->GetDevice(0));
                        NS_TEST_ASSERT_MSG_NE(sw, nullptr, "the hints lead from switch to switch");
                        MrcIpv6Fields h;
                        h.SetDestination(carrier.GetAddress());
                        const MrcNetDevice* port = sw->GetRouteHint(h);
                        NS_TEST_ASSERT_MSG_NE(port, nullptr, "a hint at every hop");
                        node = FarNode(port);
                        carrier.Shift();
                        if (node->GetId() == f->GetHost(d)->GetId())
                        {
                            break;
                        }
                        crossed.push_back(node->GetId());
                        NS_TEST_ASSERT_MSG_EQ((crossed.size() <= expected.size()),
                                              true,
                                              "no more hops than the path's");
                    }
                    NS_TEST_ASSERT_MSG_EQ(crossed.size(), expected.size(), "the path's hops");
                    for (std::size_t i = 0; i < crossed.size(); ++i)
                    {
                        NS_TEST_ASSERT_MSG_EQ(crossed[i], expected[i], "switch " << i);
                    }
                    ++paths;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(
            paths, 6u * 2u + 24u * 4u, "every path walked: local pairs 2, others 4");
        // No hint where forwarding would drop the frame for its route.
        Ptr<MrcSwitchNetDevice> t0 = f->GetT0(0, 0);
        auto hint = [t0](const char* dst)
        {
            MrcIpv6Fields h;
            h.SetDestination(Ipv6Address(dst));
            return t0->GetRouteHint(h);
        };
        NS_TEST_ASSERT_MSG_EQ(hint("fcbb:bbbb:1000:2999::"), nullptr, "unknown next uSID");
        NS_TEST_ASSERT_MSG_EQ(hint("fcbb:bbbb:1000::"), nullptr, "the carrier ends");
        NS_TEST_ASSERT_MSG_EQ(
            FarNode(hint("fcbb:bbbb:1000:101::"))->GetId(), f->GetHost(1)->GetId(), "to host 1");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Incast: trimming delivers a header for every overflowing packet (nothing vanishes);
 * with trimming off, the drops are counted. ECN marks appear on fabric ports, never on last-hop
 * ports.
 */
class MrcFabricIncastTestCase : public TestCase
{
public:
    /**
     * @param trim trimming on
     */
    explicit MrcFabricIncastTestCase(bool trim)
        : TestCase(trim ? "incast with trimming: every packet or its header arrives"
                        : "incast without trimming: overflow drops are counted")
        , m_trim(trim)
    {
    }

private:
    void DoRun() override
    {
        // 1 plane, 4 T0s x 4 hosts, 1 T1: hosts 1..15 all send to host 0. The T0 uplinks and
        // the T1 -> T0(0) port (fabric) congest, and so does T0(0) -> host 0 (last hop), which
        // also carries the three local senders.
        Ptr<MrcClosTopology> f = MakeFabric(1, 4, 4, 1, m_trim);
        Recorder rec(1);
        rec.Attach(f);
        const uint32_t perSender = 60;
        uint32_t sent = 0;
        for (uint32_t s = 1; s < 16; ++s)
        {
            const MrcPath path = f->GetPaths(s, 0).at(0);
            for (uint32_t i = 0; i < perSender; ++i)
            {
                Simulator::Schedule(NanoSeconds(10),
                                    [f, s, path]()
                                    {
                                        SendOne(f, s, path, 4000, MrcDscp::ECN_ECT0);
                                    });
                ++sent;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");

        uint32_t full = 0;
        uint32_t trimmedMid = 0;
        uint32_t trimmedLast = 0;
        for (const auto& a : rec.arrivals)
        {
            NS_TEST_ASSERT_MSG_EQ(a.host, 0u, "only host 0 receives");
            if (a.dscp == MrcDscp::DATA)
            {
                ++full;
                NS_TEST_ASSERT_MSG_EQ(a.size, 4000u, "intact payload");
            }
            else if (a.dscp == MrcDscp::TRIMMED)
            {
                ++trimmedMid;
                NS_TEST_ASSERT_MSG_EQ(a.size, MrcHeader::SIZE, "trimmed to TrimSize");
            }
            else if (a.dscp == MrcDscp::TRIMMED_LAST_HOP)
            {
                ++trimmedLast;
            }
        }
        auto arrivals = [](Ptr<MrcTrimmingQueue> q)
        {
            return q->GetArrivals();
        };
        auto dequeued = [](Ptr<MrcTrimmingQueue> q)
        {
            return q->GetDequeued();
        };
        auto dropped = [](Ptr<MrcTrimmingQueue> q)
        {
            return q->GetDroppedTotal();
        };
        auto trimmed = [](Ptr<MrcTrimmingQueue> q)
        {
            return q->GetTrimmed();
        };
        auto marked = [](Ptr<MrcTrimmingQueue> q)
        {
            return q->GetMarked();
        };
        auto queued = [](Ptr<MrcTrimmingQueue> q)
        {
            return uint64_t(q->GetNPackets());
        };
        // The accounting identity, over every switch queue.
        NS_TEST_ASSERT_MSG_EQ(SumQueues(f, arrivals),
                              SumQueues(f, dequeued) + SumQueues(f, dropped) + SumQueues(f, queued),
                              "arrivals = dequeued + dropped + queued");
        NS_TEST_ASSERT_MSG_EQ(SumQueues(f, queued), 0u, "queues drained");
        if (m_trim)
        {
            NS_TEST_ASSERT_MSG_EQ(full + trimmedMid + trimmedLast, sent, "nothing vanished");
            NS_TEST_ASSERT_MSG_GT(trimmedMid + trimmedLast, 0u, "the incast trimmed");
            NS_TEST_ASSERT_MSG_EQ(SumQueues(f, trimmed),
                                  uint64_t(trimmedMid + trimmedLast),
                                  "trim counters match the trimmed headers received");
            NS_TEST_ASSERT_MSG_EQ(SumQueues(f, dropped), 0u, "no drops with trimming");
            NS_TEST_ASSERT_MSG_EQ(f->GetDropsByReason().empty(), true, "the fabric lost nothing");
            NS_TEST_ASSERT_MSG_GT(trimmedMid, 0u, "mid-fabric trims");
            NS_TEST_ASSERT_MSG_GT(trimmedLast, 0u, "last-hop trims");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(trimmedMid + trimmedLast, 0u, "no trimmed headers");
            NS_TEST_ASSERT_MSG_GT(SumQueues(f, dropped), 0u, "overflow drops");
            NS_TEST_ASSERT_MSG_EQ(full + SumQueues(f, dropped), sent, "delivered + dropped");
            uint64_t overflow = 0;
            for (uint32_t k = 0; k < f->GetT1(0, 0)->GetNPorts(); ++k)
            {
                overflow += f->GetT1(0, 0)->GetPort(k)->GetQueue()->GetDropped(
                    MrcTrimmingQueue::DATA_OVERFLOW);
            }
            NS_TEST_ASSERT_MSG_GT(overflow, 0u, "drops named DataOverflow at the T1");
            // The fabric's summary by reason: every drop, under its queue's reason and nothing
            // else (no link, switch or NIC loss in this run).
            const std::map<std::string, uint64_t> by = f->GetDropsByReason();
            NS_TEST_ASSERT_MSG_EQ(by.size(), 1u, "one reason");
            NS_TEST_ASSERT_MSG_EQ(by.count("switch-queue/DataOverflow"), 1u, "named by reason");
            NS_TEST_ASSERT_MSG_EQ(by.at("switch-queue/DataOverflow"),
                                  SumQueues(f, dropped),
                                  "the summary counts every drop");
        }
        NS_TEST_ASSERT_MSG_GT(SumQueues(f, marked, 2), 0u, "ECN marks on fabric ports");
        NS_TEST_ASSERT_MSG_EQ(SumQueues(f, marked, 1), 0u, "no ECN marks on last-hop ports");
        uint32_t ce = 0;
        for (const auto& a : rec.arrivals)
        {
            ce += (a.ecn == MrcDscp::ECN_CE) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(ce, 0u, "CE marks reach the receiver");
        Simulator::Destroy();
    }

    bool m_trim; //!< trimming on
};

/**
 * @ingroup mrc-tests
 * @brief Static tables are immutable once the simulation runs; bad uSIDs are dropped with a
 * reason.
 */
class MrcStaticTableTestCase : public TestCase
{
public:
    MrcStaticTableTestCase()
        : TestCase("static tables refuse run-time changes; bad packets dropped with a reason")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(1, 2, 2, 2, true);
        Ptr<MrcSwitchNetDevice> t0 = f->GetT0(0, 0);
        NS_TEST_ASSERT_MSG_EQ(t0->AddRoute(0x0777, 0), true, "configuration time: accepted");
        bool late = true;
        bool lateBlock = true;
        bool lateEcmp = true;
        uint16_t before = 0;
        const uint16_t usid = t0->GetUsid();
        Simulator::Schedule(MicroSeconds(1),
                            [&]()
                            {
                                before = t0->GetRoute(MrcClosTopology::HostUsid(0));
                                late = t0->AddRoute(MrcClosTopology::HostUsid(0), 1);
                                t0->SetUsid(0x0999);
                                lateBlock = t0->SetLocatorBlock(Ipv6Address("fcbb:aaaa::"), 32);
                                lateEcmp = t0->SetEcmpRoutes({0, 0}, {{1}});
                            });
        // Bad packets: wrong block, not this switch, unknown next uSID, hop limit.
        Recorder rec(1);
        rec.Attach(f);
        auto send = [&](Ipv6Address dst, uint8_t hopLimit)
        {
            Ptr<Packet> p = Create<Packet>(100);
            MrcIpv6Fields h;
            h.SetSource(f->GetHostAddress(0, 0));
            h.SetDestination(dst);
            h.SetHopLimit(hopLimit);
            h.SetPayloadLength(100);
            h.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, 0));
            f->GetHostPort(0, 0)->SendFrame(p, h);
        };
        Simulator::Schedule(
            MicroSeconds(2),
            [&]()
            {
                send(Ipv6Address("fcbb:aaaa:1000:101::"), 64);  // wrong block
                send(Ipv6Address("fcbb:bbba:1000:101::"), 64);  // wrong in its last byte
                send(Ipv6Address("fcbb:bbbb:1001:101::"), 64);  // T0 1's uSID, arrives at T0 0
                send(Ipv6Address("fcbb:bbbb:1000:2999::"), 64); // unknown next uSID
                send(Ipv6Address("fcbb:bbbb:1000::"), 64);      // carrier ends at the switch
                send(Ipv6Address("fcbb:bbbb:1000:101::"), 1);   // hop limit
                send(Ipv6Address("fcbb:bbbb:1000:101::"), 64);  // fine: to host 1
            });
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        NS_TEST_ASSERT_MSG_EQ(t0->IsFrozen(), true, "frozen once running");
        NS_TEST_ASSERT_MSG_EQ(late, false, "run time: refused");
        NS_TEST_ASSERT_MSG_EQ(t0->GetUsid(), usid, "the uSID too");
        NS_TEST_ASSERT_MSG_EQ(lateBlock,
                              false,
                              "and the locator block (the packets below still "
                              "use the old one)");
        NS_TEST_ASSERT_MSG_EQ(lateEcmp, false, "and ECMP routes on an SRv6 switch");
        NS_TEST_ASSERT_MSG_EQ(t0->GetRoute(MrcClosTopology::HostUsid(0)), before, "unchanged");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDropped(MrcSwitchNetDevice::WRONG_BLOCK), 2u, "wrong block");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDropped(MrcSwitchNetDevice::NOT_MINE), 1u, "not mine");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDropped(MrcSwitchNetDevice::UNKNOWN_USID), 1u, "unknown");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDropped(MrcSwitchNetDevice::END_OF_CARRIER), 1u, "end");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDropped(MrcSwitchNetDevice::HOP_LIMIT), 1u, "hop limit");
        NS_TEST_ASSERT_MSG_EQ(t0->GetReceived(),
                              t0->GetForwarded() + t0->GetDroppedTotal(),
                              "received = forwarded + dropped");
        NS_TEST_ASSERT_MSG_EQ(rec.arrivals.size(), 1u, "only the good packet arrives");
        NS_TEST_ASSERT_MSG_EQ(rec.arrivals.at(0).host, 1u, "at host 1");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief A link that goes down loses what was queued for it and what was in flight on it, and
 * the counters say so; a down egress port drops with PortDown.
 */
class MrcLinkDownTestCase : public TestCase
{
public:
    MrcLinkDownTestCase()
        : TestCase("link down: queued and in-flight frames lost and counted")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(1, 1, 2, 1, true);
        Recorder rec(1);
        rec.Attach(f);
        const MrcPath path = f->GetPaths(0, 1).at(0);
        // 20 x 4 KB at t=0 from host 0: a 100G link serializes one every ~330 ns.
        for (int i = 0; i < 20; ++i)
        {
            Simulator::Schedule(NanoSeconds(1),
                                [f, path]()
                                {
                                    SendOne(f, 0u, path, 4000, MrcDscp::ECN_ECT0);
                                });
        }
        Ptr<MrcChannel> link = f->GetHostLink(0, 0);
        Simulator::Schedule(NanoSeconds(2000), &MrcChannel::SetUp, link, false);
        Simulator::Schedule(MicroSeconds(50), &MrcChannel::SetUp, link, true);
        Simulator::Schedule(MicroSeconds(60),
                            [f, path]()
                            {
                                SendOne(f, 0u, path, 4000, MrcDscp::ECN_ECT0);
                            });
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "the run ends by itself");
        Ptr<MrcTrimmingQueue> q = f->GetHostPort(0, 0)->GetQueue();
        const uint64_t flushed = q->GetDropped(MrcTrimmingQueue::LINK_DOWN);
        const uint64_t inFlight = link->GetLostInFlight();
        NS_TEST_ASSERT_MSG_GT(flushed, 0u, "queued frames lost");
        NS_TEST_ASSERT_MSG_GT(inFlight, 0u, "frames in flight lost");
        NS_TEST_ASSERT_MSG_EQ(rec.arrivals.size() + flushed + inFlight, 21u, "all accounted");
        NS_TEST_ASSERT_MSG_EQ(q->GetArrivals(),
                              q->GetDequeued() + q->GetDroppedTotal() + q->GetNPackets(),
                              "host queue identity");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcLinkMonitor: a burst shows as utilisation on the ports that carried it, a run of idle
 * bins is reported once, and Stop leaves nothing scheduled.
 */
class MrcLinkMonitorTestCase : public TestCase
{
public:
    MrcLinkMonitorTestCase()
        : TestCase("link monitor: utilisation of a burst, one row per idle stretch, stops")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(1, 2, 2, 2, true);
        Ptr<MrcLinkMonitor> m = CreateObject<MrcLinkMonitor>();
        m->AddGroup(0, MrcLinkTier::HOST_T0, {f->GetHostPort(0, 0), f->GetHostPort(1, 0)});
        m->AddGroup(
            0, MrcLinkTier::T0_HOST, {f->GetT0(0, 1)->GetPort(0), f->GetT0(0, 1)->GetPort(1)});
        struct Row
        {
            double at;
            MrcLinkTier tier;
            double util;
        };
        std::vector<Row> rows;
        m->TraceConnectWithoutContext("LinkSample",
                                      MakeBoundCallback(
                                          +[](std::vector<Row>* r,
                                              double at,
                                              uint32_t,
                                              MrcLinkTier tier,
                                              double util,
                                              double,
                                              uint32_t)
                                          {
                                              r->push_back({at, tier, util});
                                          },
                                          &rows));
        // Host 0 sends 20 packets of 4000 bytes to host 2 (under T0 1) back to back at t = 0.
        const MrcPath path = f->GetPaths(0, 2).at(0);
        for (int i = 0; i < 20; ++i)
        {
            SendOne(f, 0, path, 4000, MrcDscp::ECN_ECT0);
        }
        m->Start(MicroSeconds(2), double(f->GetLinkRate().GetBitRate()));
        Simulator::Schedule(MicroSeconds(50), &MrcLinkMonitor::Stop, m);
        NS_TEST_ASSERT_MSG_EQ(mrctest::RunToEnd(), true, "nothing runs after Stop");
        double busiest = 0;
        double lastBusy = 0;
        for (const auto& r : rows)
        {
            NS_TEST_ASSERT_MSG_EQ((r.util >= 0 && r.util <= 1), true, "utilisation in [0, 1]");
            if (r.tier == MrcLinkTier::HOST_T0)
            {
                busiest = std::max(busiest, r.util);
            }
            if (r.util > 0)
            {
                lastBusy = std::max(lastBusy, r.at);
            }
        }
        // One of the two host ports sent at line rate: the group was half busy (a frame counts
        // in the bin it starts in, so a bin can hold one frame more than its length: 0.08).
        NS_TEST_ASSERT_MSG_EQ_TOL(busiest, 0.5, 0.09, "host 0 at line rate, host 1 idle");
        uint32_t idleRows = 0;
        for (const auto& r : rows)
        {
            idleRows += r.at > lastBusy + 2.5 ? 1 : 0; // after the first idle bin
        }
        NS_TEST_ASSERT_MSG_EQ(idleRows, 0u, "an idle stretch is reported once, not every bin");
        NS_TEST_ASSERT_MSG_GT(rows.size(), 4u, "the busy bins are reported");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcLinkMonitor skips the port walk in idle stretches (its ports count what is offered
 * to them) without changing what it reports: a second monitor of the same ports, which cannot
 * count (a port counts for one monitor), reads every port every bin and must report the same
 * rows.
 */
class MrcLinkMonitorIdleSkipTestCase : public TestCase
{
public:
    MrcLinkMonitorIdleSkipTestCase()
        : TestCase("link monitor: skipping idle bins reports what reading every bin reports")
    {
    }

private:
    /** One LinkSample. */
    struct Row
    {
        double at;        //!< time, us
        uint32_t plane;   //!< plane
        MrcLinkTier tier; //!< tier
        double util;      //!< utilisation
        double qmean;     //!< mean backlog
        uint32_t qmax;    //!< largest backlog

        /**
         * @param o another row
         * @return true if equal in every field
         */
        bool operator==(const Row& o) const
        {
            return at == o.at && plane == o.plane && tier == o.tier && util == o.util
                && qmean == o.qmean && qmax == o.qmax;
        }
    };

    /**
     * @param rows where the monitor's samples go
     * @param f the fabric
     * @return a monitor of host 0's and host 1's uplinks and T0 1's host ports
     */
    static Ptr<MrcLinkMonitor> Watch(std::vector<Row>* rows, Ptr<MrcClosTopology> f)
    {
        Ptr<MrcLinkMonitor> m = CreateObject<MrcLinkMonitor>();
        m->AddGroup(0, MrcLinkTier::HOST_T0, {f->GetHostPort(0, 0), f->GetHostPort(1, 0)});
        m->AddGroup(
            0, MrcLinkTier::T0_HOST, {f->GetT0(0, 1)->GetPort(0), f->GetT0(0, 1)->GetPort(1)});
        m->TraceConnectWithoutContext("LinkSample",
                                      MakeBoundCallback(
                                          +[](std::vector<Row>* r,
                                              double at,
                                              uint32_t plane,
                                              MrcLinkTier tier,
                                              double util,
                                              double qmean,
                                              uint32_t qmax)
                                          {
                                              r->push_back({at, plane, tier, util, qmean, qmax});
                                          },
                                          rows));
        return m;
    }

    void DoRun() override
    {
        Ptr<MrcClosTopology> f = MakeFabric(1, 2, 2, 2, true);
        std::vector<Row> skipping;
        std::vector<Row> reading;
        Ptr<MrcLinkMonitor> m1 = Watch(&skipping, f);
        Ptr<MrcLinkMonitor> m2 = Watch(&reading, f);
        const MrcPath path = f->GetPaths(0, 2).at(0);
        // Bursts from hosts 0 and 1 (they queue at T0 1's port toward host 2), with idle
        // stretches of many bins between them; one starts on a bin boundary.
        for (double at : {0.0, 30.0, 30.5, 80.0, 200.0})
        {
            for (uint32_t src : {0u, 1u})
            {
                Simulator::Schedule(NanoSeconds(static_cast<int64_t>(at * 1000)),
                                    [f, src, path]()
                                    {
                                        for (int i = 0; i < 6; ++i)
                                        {
                                            SendOne(f, src, path, 4000, MrcDscp::ECN_ECT0);
                                        }
                                    });
            }
        }
        const double rate = double(f->GetLinkRate().GetBitRate());
        m1->Start(MicroSeconds(2), rate);
        m2->Start(MicroSeconds(2), rate);
        Simulator::Schedule(MicroSeconds(300), &MrcLinkMonitor::Stop, m1);
        Simulator::Schedule(MicroSeconds(300), &MrcLinkMonitor::Stop, m2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(reading.size(), 20u, "the bursts are reported");
        NS_TEST_ASSERT_MSG_EQ(skipping.size(), reading.size(), "as many rows");
        bool same = skipping.size() == reading.size();
        uint32_t queued = 0;
        for (std::size_t i = 0; same && i < reading.size(); ++i)
        {
            same = skipping[i] == reading[i];
            queued += reading[i].qmax > 0 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "the same rows");
        NS_TEST_ASSERT_MSG_GT(queued, 0u, "backlogs were sampled too");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief String attributes that take one of a few words refuse others when set, and the
 * command line's attribute check names what is accepted (without ns-3.37 terminating on a word
 * given to a number).
 */
class MrcChoiceAttributeTestCase : public TestCase
{
public:
    MrcChoiceAttributeTestCase()
        : TestCase("choice attributes refuse other words when set; --ns3:: values checked")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcSelectiveRecovery> r = CreateObject<MrcSelectiveRecovery>();
        NS_TEST_ASSERT_MSG_EQ(r->SetAttributeFailSafe("PathFlush", StringValue("bogus")),
                              false,
                              "an unknown word is refused when set");
        NS_TEST_ASSERT_MSG_EQ(r->SetAttributeFailSafe("PathFlush", StringValue("retired")),
                              true,
                              "an accepted word is taken");
        StringValue v;
        r->GetAttribute("PathFlush", v);
        NS_TEST_ASSERT_MSG_EQ(v.Get(), "retired", "and kept");
        NS_TEST_ASSERT_MSG_EQ(
            Config::SetDefaultFailSafe("ns3::MrcClosHelper::Routing", StringValue("ospf")),
            false,
            "a default is checked too");
        NS_TEST_ASSERT_MSG_EQ(
            Config::SetDefaultFailSafe("ns3::MrcFaultInjector::DownTimeDistribution",
                                       StringValue("uniform")),
            false,
            "DownTimeDistribution");
        Ptr<MrcSwitchNetDevice> f = CreateObject<MrcSwitchNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(f->SetAttributeFailSafe("EcmpHashing", StringValue("modulo")),
                              true,
                              "EcmpHashing modulo");
        NS_TEST_ASSERT_MSG_EQ(f->SetAttributeFailSafe("EcmpHashing", StringValue("random")),
                              false,
                              "EcmpHashing random");
        TypeId::AttributeInformation info;
        MrcSelectiveRecovery::GetTypeId().LookupAttributeByName("PathFlush", &info);
        NS_TEST_ASSERT_MSG_EQ(info.checker->GetUnderlyingTypeInformation(),
                              "one of: held|retired|none",
                              "the accepted words are listed");

        struct Case
        {
            const char* name;
            const char* value;
            bool hasValue;
            bool ok;
            const char* mention;
        };

        const Case cases[] = {
            {"ns3::MrcSelectiveRecovery::PathFlush", "none", true, true, ""},
            {"ns3::MrcSelectiveRecovery::PathFlush", "bogus", true, false, "held|retired|none"},
            {"ns3::MrcSelectiveRecovery::PathFlsh", "none", true, false, "did you mean"},
            {"ns3::MrcSelectiveRecoverys::PathFlush", "none", true, false, "no type"},
            {"ns3::MrcQueuePair::PathFlush",
             "none",
             true,
             false,
             "write --ns3::MrcSelectiveRecovery::PathFlush=value"},
            {"ns3::MrcTrimmingQueue::EcnMinBytes", "abc", true, false, "uint32_t"},
            {"ns3::MrcTrimmingQueue::EcnMinBytes", "-5", true, false, "uint32_t"},
            {"ns3::MrcTrimmingQueue::EcnMinBytes", "1000", true, true, ""},
            {"ns3::MrcTrimmingQueue::EcnMaxProbability", "2", true, false, "0:1"},
            {"ns3::MrcQueuePair::AckTimeoutUnit", "soon", true, false, "Time"},
            {"ns3::MrcQueuePair::AckTimeoutUnit", "+1024ns", true, true, ""},
            {"ns3::MrcClosHelper::Routing", "", false, false, "needs a value"},
            {"ns3::MrcTrainingJob::Steps", "2", true, false, "--ns3::MrcJob::Steps=value"},
            {"ns3::MrcJob::Steps", "2", true, true, ""},
            {"ns3::MrcChannel::Delay", "2us", true, false, "--ns3::MrcClosHelper::LinkDelay"},
            {"ns3::MrcSwitchNetDevice::Latency", "2us", true, true, ""},
        };
        for (const auto& c : cases)
        {
            std::string error;
            const bool ok = MrcCommandLine::CheckAttribute(c.name, c.value, c.hasValue, error);
            NS_TEST_EXPECT_MSG_EQ(ok, c.ok, c.name << "=" << c.value);
            NS_TEST_EXPECT_MSG_EQ((error.find(c.mention) != std::string::npos),
                                  true,
                                  c.name << ": '" << error << "' should mention " << c.mention);
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief Impossible fabrics are rejected with a message naming the parameter.
 */
class MrcFabricValidationTestCase : public TestCase
{
public:
    MrcFabricValidationTestCase()
        : TestCase("bad fabric parameters are rejected, naming the parameter")
    {
    }

private:
    void DoRun() override
    {
        struct Case
        {
            const char* attr;
            uint32_t value;
            const char* mention;
        };

        const Case cases[] = {{"Planes", 0, "Planes"},
                              {"HostsPerT0", 0, "HostsPerT0"},
                              {"T0sPerPlane", 0, "T0sPerPlane"},
                              {"T1sPerPlane", 0, "T1sPerPlane"},
                              {"SwitchRadix", 5, "SwitchRadix"},
                              {"BlockBits", 40, "BlockBits"}};
        for (const auto& c : cases)
        {
            Ptr<MrcClosHelper> f = CreateObject<MrcClosHelper>();
            f->SetAttribute("HostsPerT0", UintegerValue(4));
            f->SetAttribute("T1sPerPlane", UintegerValue(2));
            f->SetAttribute(c.attr, UintegerValue(c.value));
            const std::string msg = f->Validate();
            NS_TEST_ASSERT_MSG_NE(msg.find(c.mention),
                                  std::string::npos,
                                  c.attr << " rejected with a message naming it: '" << msg << "'");
        }
        Ptr<MrcClosHelper> ok = CreateObject<MrcClosHelper>();
        ok->SetAttribute("SwitchRadix", UintegerValue(6));
        NS_TEST_ASSERT_MSG_EQ(ok->Validate(), "", "a valid fabric passes");
        Ptr<MrcClosHelper> small = CreateObject<MrcClosHelper>();
        small->SetQueueAttribute("DataLimit", UintegerValue(100));
        NS_TEST_ASSERT_MSG_NE(small->Validate().find("DataLimit must be at least 9100"),
                              std::string::npos,
                              small->Validate());

        // Queue attributes come from the factory: ns-3's defaults (Config::SetDefault,
        // --ns3::MrcTrimmingQueue::X=...) apply unless the helper is told otherwise.
        Config::SetDefault("ns3::MrcTrimmingQueue::EcnMinBytes", UintegerValue(12345));
        Config::SetDefault("ns3::MrcTrimmingQueue::EcnMaxBytes", UintegerValue(54321));
        Config::SetDefault("ns3::MrcSwitchNetDevice::Latency", TimeValue(NanoSeconds(700)));
        Ptr<MrcClosHelper> d = CreateObject<MrcClosHelper>();
        d->SetAttribute("HostsPerT0", UintegerValue(2));
        d->SetAttribute("T0sPerPlane", UintegerValue(2));
        d->SetAttribute("T1sPerPlane", UintegerValue(2));
        d->SetQueueAttribute("EcnMaxBytes", UintegerValue(60000));
        Ptr<MrcClosTopology> dt = d->Build();
        Config::SetDefault("ns3::MrcTrimmingQueue::EcnMinBytes", UintegerValue(100000));
        Config::SetDefault("ns3::MrcTrimmingQueue::EcnMaxBytes", UintegerValue(400000));
        Config::SetDefault("ns3::MrcSwitchNetDevice::Latency", TimeValue(NanoSeconds(500)));
        TimeValue latency;
        dt->GetT1(0, 1)->GetAttribute("Latency", latency);
        NS_TEST_ASSERT_MSG_EQ(
            latency.Get(), NanoSeconds(700), "the switches' Config default applies");
        NS_TEST_ASSERT_MSG_EQ(dt->GetBaseRtt(1000),
                              2 * 4 * MicroSeconds(1) + 2 * 3 * NanoSeconds(700)
                                  + 4 * DataRate("100Gbps").CalculateBytesTxTime(1000)
                                  + 4
                                        * DataRate("100Gbps").CalculateBytesTxTime(
                                            MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE),
                              "and the base RTT follows it");
        uint32_t checked = 0;
        for (uint32_t i = 0; i < dt->GetT0(0, 0)->GetNPorts(); ++i)
        {
            Ptr<MrcTrimmingQueue> q = dt->GetT0(0, 0)->GetPort(i)->GetQueue();
            UintegerValue lo;
            UintegerValue hi;
            BooleanValue last;
            q->GetAttribute("EcnMinBytes", lo);
            q->GetAttribute("EcnMaxBytes", hi);
            q->GetAttribute("LastHop", last);
            NS_TEST_ASSERT_MSG_EQ(
                lo.Get(), 12345u, "the Config default applies (port " << i << ")");
            NS_TEST_ASSERT_MSG_EQ(hi.Get(), 60000u, "SetQueueAttribute wins over it");
            checked += last.Get() ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(checked, 2u, "the two host-facing ports are last-hop queues");

        // The same for the routed baseline's control plane: Config defaults apply, and
        // SetControlPlaneAttribute wins over them.
        Config::SetDefault("ns3::MrcEcmpControlPlane::DetectionDelay", TimeValue(MicroSeconds(77)));
        Config::SetDefault("ns3::MrcEcmpControlPlane::ReconvergenceDelay",
                           TimeValue(MicroSeconds(88)));
        Ptr<MrcClosHelper> r = CreateObject<MrcClosHelper>();
        r->SetRoutedBaseline();
        r->SetControlPlaneAttribute("ReconvergenceDelay", TimeValue(MicroSeconds(99)));
        r->SetSwitchAttribute("EcmpHashing", StringValue("modulo"));
        Ptr<MrcEcmpControlPlane> cp = r->Build()->GetControlPlane();
        Config::SetDefault("ns3::MrcEcmpControlPlane::DetectionDelay",
                           TimeValue(MilliSeconds(150)));
        Config::SetDefault("ns3::MrcEcmpControlPlane::ReconvergenceDelay", TimeValue(Seconds(2)));
        NS_TEST_ASSERT_MSG_NE(cp, nullptr, "an ecmp fabric has a control plane");
        TimeValue det;
        TimeValue rec;
        cp->GetAttribute("DetectionDelay", det);
        cp->GetAttribute("ReconvergenceDelay", rec);
        NS_TEST_ASSERT_MSG_EQ(det.Get(), MicroSeconds(77), "the Config default applies");
        NS_TEST_ASSERT_MSG_EQ(rec.Get(), MicroSeconds(99), "SetControlPlaneAttribute wins");
        StringValue hashing;
        r->GetTopology()->GetT0(0, 0)->GetAttribute("EcmpHashing", hashing);
        NS_TEST_ASSERT_MSG_EQ(hashing.Get(), "modulo", "SetSwitchAttribute reaches every switch");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcFrame holds exactly one reference and moves it; a queue carries a frame without
 * taking references of its own and sizes it by its header's payload length, which the
 * Ptr<Packet> entry point sets from the packet.
 */
class MrcFrameTestCase : public TestCase
{
public:
    MrcFrameTestCase()
        : TestCase("MrcFrame moves one reference; queues carry frames without new references")
    {
    }

private:
    void DoRun() override
    {
        Ptr<Packet> p = Create<Packet>(100);
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "one reference to start");
        {
            MrcFrame f(p);
            NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "a frame takes one reference");
            MrcFrame g(std::move(f));
            NS_TEST_ASSERT_MSG_EQ(f.IsEmpty(), true, "a moved-from frame is empty");
            NS_TEST_ASSERT_MSG_EQ(g.GetPacket(), PeekPointer(p), "the moved-to frame holds it");
            NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "a move takes no reference");
            MrcFrame h;
            h = std::move(g);
            NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "nor a move-assignment");
            Ptr<Packet> back = h.Release();
            NS_TEST_ASSERT_MSG_EQ(h.IsEmpty(), true, "a released frame is empty");
            NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "Release hands the reference over");
        }
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "every reference given back");

        Ptr<MrcTrimmingQueue> q = CreateObject<MrcTrimmingQueue>();
        MrcIpv6Fields h;
        h.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_NOT_ECT));
        h.SetPayloadLength(100);
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(MrcFrame(p), h), MrcTrimmingQueue::ENQUEUED, "queued");
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "the queue holds the frame's reference");
        NS_TEST_ASSERT_MSG_EQ(q->GetDataBytes(), 140, "sized by payload length + IPv6 header");
        MrcFrame out;
        MrcIpv6Fields outHeader;
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(out, outHeader), true, "dequeued");
        NS_TEST_ASSERT_MSG_EQ(out.GetPacket(), PeekPointer(p), "the same packet");
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "still one reference in flight");
        NS_TEST_ASSERT_MSG_EQ(q->GetDataBytes(), 0, "the queue is empty");
        out.Reset();
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "the frame gave its reference back");

        // The Ptr<Packet> entry point does not trust the caller's payload length.
        MrcIpv6Fields wrong = h;
        wrong.SetPayloadLength(7);
        q->Enqueue(p, wrong);
        NS_TEST_ASSERT_MSG_EQ(wrong.GetPayloadLength(), 100, "payload length set from the packet");
        NS_TEST_ASSERT_MSG_EQ(q->GetDataBytes(), 140, "and used for the size");
        q->Flush();
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "a flush gives the reference back");
    }
};

/**
 * @return an MrcHeader whose every field holds a value whose bytes all differ (so that a field
 * read from the wrong offset or in the wrong byte order shows)
 */
static MrcHeader
DistinctBytesHeader()
{
    MrcHeader h;
    h.SetOpcode(MrcHeader::ACK);
    h.SetFlags(0xa5);
    h.SetEv(0x1234);
    h.SetDstQpn(0x01020304);
    h.SetSrcQpn(0x05060708);
    h.SetPsn(0x090a0b0c);
    h.SetCumAck(0x0d0e0f10);
    h.SetSackBase(0x11121314);
    h.SetSackBitmap(0x15161718191a1b1cULL);
    h.SetOffset(0x1d1e1f2021222324ULL);
    h.SetMsn(0x25262728);
    h.SetMsgLen(0x292a2b2c);
    h.SetTimestamp(0x2d2e2f3031323334ULL);
    h.SetRecvBytes(0x35363738);
    h.SetNackReason(0x39);
    h.SetPlane(0x3a);
    h.SetPath(0x3b3c);
    h.SetPayloadLen(0x3d3e);
    return h;
}

/**
 * @ingroup mrc-tests
 * @brief MrcHeader reads back every field it wrote, both ways a host reads one: Deserialize
 * through a packet's RemoveHeader, and Parse on the bytes Packet::CopyData gives (what
 * MrcL4Protocol does with every arriving packet). Every field holds a value whose bytes all
 * differ, so that a field read from the wrong offset or in the wrong byte order shows.
 */
class MrcHeaderBytesTestCase : public TestCase
{
public:
    MrcHeaderBytesTestCase()
        : TestCase("MrcHeader: every field read back by Deserialize and by Parse")
    {
    }

private:
    /**
     * Check every field of a header read back against the one written.
     * @param a written
     * @param b read back
     * @param how which way it was read
     */
    void Same(const MrcHeader& a, const MrcHeader& b, const std::string& how)
    {
        NS_TEST_ASSERT_MSG_EQ(+b.GetOpcode(), +a.GetOpcode(), how << ": opcode");
        NS_TEST_ASSERT_MSG_EQ(+b.GetFlags(), +a.GetFlags(), how << ": flags");
        NS_TEST_ASSERT_MSG_EQ(b.GetEv(), a.GetEv(), how << ": EV");
        NS_TEST_ASSERT_MSG_EQ(b.GetDstQpn(), a.GetDstQpn(), how << ": destination QPN");
        NS_TEST_ASSERT_MSG_EQ(b.GetSrcQpn(), a.GetSrcQpn(), how << ": source QPN");
        NS_TEST_ASSERT_MSG_EQ(b.GetPsn(), a.GetPsn(), how << ": PSN");
        NS_TEST_ASSERT_MSG_EQ(b.GetCumAck(), a.GetCumAck(), how << ": cumulative ACK");
        NS_TEST_ASSERT_MSG_EQ(b.GetSackBase(), a.GetSackBase(), how << ": SACK base");
        NS_TEST_ASSERT_MSG_EQ(b.GetSackBitmap(), a.GetSackBitmap(), how << ": SACK bitmap");
        NS_TEST_ASSERT_MSG_EQ(b.GetOffset(), a.GetOffset(), how << ": offset");
        NS_TEST_ASSERT_MSG_EQ(b.GetMsn(), a.GetMsn(), how << ": MSN");
        NS_TEST_ASSERT_MSG_EQ(b.GetMsgLen(), a.GetMsgLen(), how << ": message length");
        NS_TEST_ASSERT_MSG_EQ(b.GetTimestamp(), a.GetTimestamp(), how << ": timestamp");
        NS_TEST_ASSERT_MSG_EQ(b.GetRecvBytes(), a.GetRecvBytes(), how << ": received bytes");
        NS_TEST_ASSERT_MSG_EQ(+b.GetNackReason(), +a.GetNackReason(), how << ": NACK reason");
        NS_TEST_ASSERT_MSG_EQ(+b.GetPlane(), +a.GetPlane(), how << ": plane");
        NS_TEST_ASSERT_MSG_EQ(b.GetPath(), a.GetPath(), how << ": path");
        NS_TEST_ASSERT_MSG_EQ(b.GetPayloadLen(), a.GetPayloadLen(), how << ": payload length");
    }

    void DoRun() override
    {
        const MrcHeader h = DistinctBytesHeader();
        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100 + MrcHeader::SIZE, "the header's size");

        uint8_t bytes[MrcHeader::SIZE];
        p->CopyData(bytes, MrcHeader::SIZE);
        MrcHeader parsed;
        parsed.Parse(bytes);
        Same(h, parsed, "Parse");
        NS_TEST_ASSERT_MSG_EQ(MrcHeader::PeekDstQpn(bytes), h.GetDstQpn(), "PeekDstQpn");
        NS_TEST_ASSERT_MSG_EQ(MrcHeader::PeekPsn(bytes), h.GetPsn(), "PeekPsn");
        NS_TEST_ASSERT_MSG_EQ(MrcHeader::PeekMsn(bytes), h.GetMsn(), "PeekMsn");
        NS_TEST_ASSERT_MSG_EQ(+MrcHeader::PeekOpcode(bytes), +h.GetOpcode(), "PeekOpcode");

        MrcHeader removed;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(removed), MrcHeader::SIZE, "removed whole");
        Same(h, removed, "Deserialize");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100u, "the payload left");
    }
};

/**
 * @ingroup mrc-tests
 * @brief A compact MrcFrame (MrcFrame::FromHeader: an MRC header's bytes and a size, no Packet)
 * is what a sender would have made: its header's bytes are Serialize's, its Packet (made only
 * when asked for) has the same bytes and size as `Create<Packet>(payload)` with the header
 * added, and is made once. Trimming cuts it as RemoveAtEnd cuts a packet, also into the header,
 * and a queue carries it without making a Packet unless a trace asks for one.
 */
class MrcCompactFrameTestCase : public TestCase
{
public:
    MrcCompactFrameTestCase()
        : TestCase(
            "MrcFrame::FromHeader: the sender's bytes, a Packet made once and only on demand")
    {
    }

private:
    /**
     * @param p a packet
     * @return all of its bytes
     */
    static std::vector<uint8_t> BytesOf(const Packet& p)
    {
        std::vector<uint8_t> b(p.GetSize());
        p.CopyData(b.data(), p.GetSize());
        return b;
    }

    void DoRun() override
    {
        MrcHeader h = DistinctBytesHeader();
        h.SetPayloadLen(1000);
        Ptr<Packet> sender = Create<Packet>(1000);
        sender->AddHeader(h);
        const std::vector<uint8_t> expected = BytesOf(*sender);

        MrcFrame f = MrcFrame::FromHeader(h, 1000);
        NS_TEST_ASSERT_MSG_EQ(f.IsCompact(), true, "compact");
        NS_TEST_ASSERT_MSG_EQ(f.GetSize(), 1000 + MrcHeader::SIZE, "header and payload");
        const uint8_t* bytes = f.PeekHeaderBytes();
        NS_TEST_ASSERT_MSG_NE(bytes, nullptr, "the header's bytes are at hand");
        NS_TEST_ASSERT_MSG_EQ(
            std::memcmp(bytes, expected.data(), MrcHeader::SIZE), 0, "Serialize's bytes");
        MrcFrame g(std::move(f));
        NS_TEST_ASSERT_MSG_EQ(f.IsEmpty(), true, "a moved-from frame is empty");
        NS_TEST_ASSERT_MSG_EQ(g.PeekHeaderBytes(), bytes, "the block moves, not its bytes");

        Packet* made = g.GetPacket();
        NS_TEST_ASSERT_MSG_EQ(g.IsCompact(), false, "the frame holds the Packet made");
        NS_TEST_ASSERT_MSG_EQ(g.GetPacket(), made, "made once");
        NS_TEST_ASSERT_MSG_EQ(made->GetReferenceCount(), 1, "the frame's reference only");
        NS_TEST_ASSERT_MSG_EQ(made->GetSize(), sender->GetSize(), "the sender's size");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(*made) == expected), true, "the sender's bytes");
        MrcHeader back;
        NS_TEST_ASSERT_MSG_EQ(made->PeekHeader(back), MrcHeader::SIZE, "a header to peek");
        NS_TEST_ASSERT_MSG_EQ(back.GetPsn(), h.GetPsn(), "its fields");
        Ptr<Packet> released = g.Release();
        NS_TEST_ASSERT_MSG_EQ(g.IsEmpty(), true, "released");
        NS_TEST_ASSERT_MSG_EQ(released->GetReferenceCount(), 1, "the reference handed over");

        // Trimmed to the header and a few bytes, then into the header.
        MrcFrame t = MrcFrame::FromHeader(h, 1000);
        t.TrimTo(MrcHeader::SIZE + 8);
        NS_TEST_ASSERT_MSG_EQ(t.GetSize(), MrcHeader::SIZE + 8, "trimmed");
        t.TrimTo(5000);
        NS_TEST_ASSERT_MSG_EQ(t.GetSize(), MrcHeader::SIZE + 8, "never lengthened");
        Ptr<Packet> cut = sender->Copy();
        cut->RemoveAtEnd(cut->GetSize() - (MrcHeader::SIZE + 8));
        NS_TEST_ASSERT_MSG_EQ(
            (BytesOf(*t.GetPacket()) == BytesOf(*cut)), true, "the bytes RemoveAtEnd leaves");
        MrcFrame u = MrcFrame::FromHeader(h, 1000);
        u.TrimTo(40);
        NS_TEST_ASSERT_MSG_EQ(u.PeekHeaderBytes(), nullptr, "shorter than the header");
        cut->RemoveAtEnd(cut->GetSize() - 40);
        NS_TEST_ASSERT_MSG_EQ(
            (BytesOf(*u.GetPacket()) == BytesOf(*cut)), true, "the header's first 40 bytes");

        // Through a queue: no Packet unless a trace asks; trimmed by a full queue.
        Ptr<MrcTrimmingQueue> q = CreateObject<MrcTrimmingQueue>();
        q->SetAttribute("DataLimit", UintegerValue(2000));
        MrcIpv6Fields ip;
        ip.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_NOT_ECT));
        ip.SetPayloadLength(static_cast<uint16_t>(1000 + MrcHeader::SIZE));
        NS_TEST_ASSERT_MSG_EQ(
            q->Enqueue(MrcFrame::FromHeader(h, 1000), ip), MrcTrimmingQueue::ENQUEUED, "queued");
        MrcIpv6Fields trimmedIp = ip;
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(MrcFrame::FromHeader(h, 1000), trimmedIp),
                              MrcTrimmingQueue::TRIMMED,
                              "the second does not fit");
        MrcFrame out;
        MrcIpv6Fields outIp;
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(out, outIp), true, "the trimmed one first");
        NS_TEST_ASSERT_MSG_EQ(out.IsCompact(), true, "still compact");
        NS_TEST_ASSERT_MSG_EQ(out.GetSize(), MrcHeader::SIZE, "cut to the header");
        NS_TEST_ASSERT_MSG_EQ(outIp.GetPayloadLength(), MrcHeader::SIZE, "and so sized");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(out, outIp), true, "then the data");
        NS_TEST_ASSERT_MSG_EQ(out.IsCompact(), true, "no Packet made on the way");
        NS_TEST_ASSERT_MSG_EQ(out.GetSize(), 1000 + MrcHeader::SIZE, "whole");

        std::vector<const Packet*> traced;
        q->TraceConnectWithoutContext(
            "Enqueue",
            MakeCallback(+[](std::vector<const Packet*>* v, Ptr<const Packet> p)
                         {
                             v->push_back(PeekPointer(p));
                         })
                .Bind(&traced));
        q->Enqueue(MrcFrame::FromHeader(h, 1000), ip);
        NS_TEST_ASSERT_MSG_EQ(traced.size(), 1, "traced");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(out, outIp), true, "dequeued");
        NS_TEST_ASSERT_MSG_EQ(out.IsCompact(), false, "the traced frame holds a Packet");
        NS_TEST_ASSERT_MSG_EQ(out.GetPacket(), traced[0], "the one the trace saw");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(*out.GetPacket()) == expected), true, "the bytes");
    }
};

/**
 * @ingroup mrc-tests
 * @brief A queue's ring keeps its frames in order through growth and wrap-around, gives every
 * reference back, and takes its arrays of 1 KiB or more from MrcSlotPool: a destroyed queue's
 * array waits on the pool's free list and the next queue that grows to that size takes it.
 * MrcSlotPool itself: arrays aligned to a cache line, given back and taken again last in, first
 * out, small ones not kept.
 */
class MrcQueueRingTestCase : public TestCase
{
public:
    MrcQueueRingTestCase()
        : TestCase("a queue's ring keeps order through growth; its arrays come from MrcSlotPool")
    {
    }

private:
    /** Slots a ring grows to for 100 packets held at once. */
    static constexpr std::size_t SLOTS = 128;

    /**
     * Queue `count` packets in a fresh queue, with a dequeue after every third enqueue, so that
     * the ring wraps around before it grows; then drain it.
     * @param count packets
     * @param keep the queue, left holding nothing
     * @return false if a packet came out of order or twice
     */
    bool FillAndDrain(uint32_t count, Ptr<MrcTrimmingQueue>& keep)
    {
        keep = CreateObject<MrcTrimmingQueue>();
        keep->SetAttribute("DataLimit", UintegerValue(100000000));
        MrcIpv6Fields h;
        h.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_NOT_ECT));
        std::vector<Ptr<Packet>> sent;
        std::size_t next = 0;
        bool ok = true;
        auto take = [&]()
        {
            MrcFrame out;
            MrcIpv6Fields outHeader;
            ok = ok && keep->Dequeue(out, outHeader) && next < sent.size()
              && out.GetPacket() == PeekPointer(sent[next]);
            ++next;
        };
        for (uint32_t i = 0; i < count; ++i)
        {
            sent.push_back(Create<Packet>(100 + i));
            h.SetPayloadLength(100 + i);
            ok = ok && keep->Enqueue(MrcFrame(sent.back()), h) == MrcTrimmingQueue::ENQUEUED;
            if (i % 3 == 2)
            {
                take();
            }
        }
        while (next < sent.size())
        {
            take();
        }
        for (const auto& p : sent)
        {
            ok = ok && p->GetReferenceCount() == 1;
        }
        return ok && keep->GetDataBytes() == 0;
    }

    void DoRun() override
    {
        // The pool.
        void* a = MrcSlotPool::Take(4096);
        void* b = MrcSlotPool::Take(64);
        NS_TEST_ASSERT_MSG_EQ(reinterpret_cast<uintptr_t>(a) % MrcSlotPool::ALIGN, 0, "aligned");
        NS_TEST_ASSERT_MSG_EQ(reinterpret_cast<uintptr_t>(b) % MrcSlotPool::ALIGN, 0, "aligned");
        // Under AddressSanitizer every array is its own allocation and nothing is kept.
        const bool pooling = MrcSlotPool::IsPooling();
        const std::size_t waiting = MrcSlotPool::GetFreeCount(4096);
        MrcSlotPool::Give(a, 4096);
        MrcSlotPool::Give(b, 64);
        if (pooling)
        {
            NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::GetFreeCount(4096), waiting + 1, "kept");
            NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::Take(4096), a, "taken again");
            NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::GetFreeCount(4096), waiting, "off the list");
            MrcSlotPool::Give(a, 4096);
        }
        const std::size_t reserved = MrcSlotPool::GetReservedBytes();
        void* big = MrcSlotPool::Take(MrcSlotPool::SLAB_BYTES * 2);
        NS_TEST_ASSERT_MSG_EQ(reinterpret_cast<uintptr_t>(big) % MrcSlotPool::ALIGN, 0, "aligned");
        const std::size_t blockBytes = pooling ? MrcSlotPool::SLAB_BYTES * 2 : 0;
        NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::GetReservedBytes() - reserved,
                              blockBytes,
                              "an array larger than a block is a block of its own");
        MrcSlotPool::Give(big, MrcSlotPool::SLAB_BYTES * 2);

        // A queue's ring.
        const std::size_t bytes = SLOTS * 64;
        Ptr<MrcTrimmingQueue> q;
        NS_TEST_ASSERT_MSG_EQ(FillAndDrain(150, q), true, "first in, first out, once each");
        const std::size_t before = MrcSlotPool::GetFreeCount(bytes);
        q->Dispose();
        q = nullptr;
        const std::size_t kept = before + (pooling ? 1 : 0);
        NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::GetFreeCount(bytes),
                              kept,
                              "the destroyed queue's 128-slot array waits in the pool");
        NS_TEST_ASSERT_MSG_EQ(FillAndDrain(150, q), true, "again, in a reused array");
        NS_TEST_ASSERT_MSG_EQ(MrcSlotPool::GetFreeCount(bytes), before, "and the next took it");
        q->Dispose();
    }
};

/**
 * Two 100 Gb/s ports, each with a default MrcTrimmingQueue, attached to the two ends of a cable
 * (no node yet).
 * @param cable the cable
 * @param tx set to the port at its first end
 * @param rx set to the port at its second end
 */
static void
CablePorts(Ptr<MrcChannel> cable, Ptr<MrcNetDevice>& tx, Ptr<MrcNetDevice>& rx)
{
    tx = CreateObject<MrcNetDevice>();
    rx = CreateObject<MrcNetDevice>();
    for (const auto& port : {tx, rx})
    {
        port->SetQueue(CreateObject<MrcTrimmingQueue>());
        port->SetDataRate(DataRate("100Gbps"));
        port->Attach(cable);
    }
}

/**
 * @ingroup mrc-tests
 * @brief MrcIpv6Header writes the RFC 8200 fixed header (version 6, traffic class, a 20-bit
 * flow label, payload length, next header, hop limit, source, destination) and reads it back.
 * A port's Send takes a whole IPv6 packet and refuses anything else; a port with no frame
 * receiver hands the frame to its receive callback with the same 40 bytes in front, and the
 * Sniffer trace sees them too.
 */
class MrcIpv6HeaderTestCase : public TestCase
{
public:
    MrcIpv6HeaderTestCase()
        : TestCase("MrcIpv6Header writes and reads the IPv6 fixed header; Send takes a whole "
                   "IPv6 packet and nothing else")
    {
    }

private:
    /**
     * The receiving port's callback.
     * @param log the packets received
     * @param packet the packet
     * @param protocol its protocol number
     * @return true
     */
    static bool Record(std::vector<Ptr<const Packet>>* log,
                       Ptr<NetDevice>,
                       Ptr<const Packet> packet,
                       uint16_t protocol,
                       const Address&)
    {
        log->push_back(protocol == 0x86DD ? packet : nullptr);
        return true;
    }

    /**
     * The sending port's Sniffer.
     * @param n frames sniffed
     * @param front the last one's first 40 bytes
     * @param packet the frame, IPv6 header in front
     */
    static void Sniff(uint32_t* n, std::vector<uint8_t>* front, Ptr<const Packet> packet)
    {
        ++*n;
        *front = Front(packet);
    }

    /**
     * @param packet a packet
     * @return its first 40 bytes
     */
    static std::vector<uint8_t> Front(Ptr<const Packet> packet)
    {
        std::vector<uint8_t> b(MrcIpv6Header::SIZE);
        packet->CopyData(b.data(), b.size());
        return b;
    }

    void DoRun() override
    {
        MrcIpv6Fields f(
            Ipv6Address("fcbb:bbbb:1:2::"), Ipv6Address("2001:db8::7"), 0xabcde, 0x5e, 1000);
        f.SetHopLimit(63);
        Ptr<Packet> p = Create<Packet>(1000);
        p->AddHeader(MrcIpv6Header(f));
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 1040u, "40 bytes");
        std::vector<uint8_t> b = Front(p);
        const std::vector<uint8_t> head = {0x65, 0xea, 0xbc, 0xde, 0x03, 0xe8, 17, 63};
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint8_t>(b.begin(), b.begin() + 8) == head),
                              true,
                              "version 6, class 0x5e, label 0xabcde, length 1000, UDP, 63 hops");
        uint8_t src[16];
        uint8_t dst[16];
        f.GetSource().GetBytes(src);
        f.GetDestination().GetBytes(dst);
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(b.data() + 8, src, 16), 0, "then the source");
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(b.data() + 24, dst, 16), 0, "then the destination");

        MrcIpv6Header back;
        NS_TEST_ASSERT_MSG_EQ(p->PeekHeader(back), 40u, "read back");
        const MrcIpv6Fields& r = back.GetFields();
        NS_TEST_ASSERT_MSG_EQ((std::memcmp(r.src, f.src, 16) == 0
                               && std::memcmp(r.dst, f.dst, 16) == 0 && r.flowLabel == f.flowLabel
                               && r.payloadLength == f.payloadLength
                               && r.trafficClass == f.trafficClass && r.hopLimit == f.hopLimit
                               && r.nextHeader == f.nextHeader),
                              true,
                              "the same fields");
        // The field has 20 bits: a wider label is cut, not spilled into the traffic class.
        MrcIpv6Fields wide = f;
        wide.SetFlowLabel(0xfffabcde);
        Ptr<Packet> q = Create<Packet>(0);
        q->AddHeader(MrcIpv6Header(wide));
        MrcIpv6Header cut;
        NS_TEST_ASSERT_MSG_EQ(q->PeekHeader(cut), 40u, "still an IPv6 header");
        NS_TEST_ASSERT_MSG_EQ(cut.GetFields().GetFlowLabel(), 0xabcdeu, "20 bits of label");
        NS_TEST_ASSERT_MSG_EQ(unsigned(cut.GetFields().GetTrafficClass()), 0x5eu, "class kept");
        uint8_t v4[40] = {0x45};
        MrcIpv6Header untouched(f);
        NS_TEST_ASSERT_MSG_EQ(Create<Packet>(v4, 40)->PeekHeader(untouched), 0u, "not IPv6");
        std::ostringstream printed;
        back.Print(printed);
        NS_TEST_EXPECT_MSG_EQ(printed.str(),
                              "IPv6 tc=0x5e label=0xabcde length=1000 next=17 hops=63 "
                              "fcbb:bbbb:1:2:: > 2001:db8::7",
                              "printed");

        // Send: a whole IPv6 packet in, its fields and payload out at the far end.
        Ptr<Node> na = CreateObject<Node>();
        Ptr<Node> nb = CreateObject<Node>();
        Ptr<MrcNetDevice> tx;
        Ptr<MrcNetDevice> rx;
        CablePorts(CreateObject<MrcChannel>(), tx, rx);
        na->AddDevice(tx);
        nb->AddDevice(rx);
        std::vector<Ptr<const Packet>> got;
        rx->SetReceiveCallback(MakeBoundCallback(&Record, &got));
        uint32_t sniffed = 0;
        std::vector<uint8_t> sniffedFront;
        tx->TraceConnectWithoutContext("Sniffer",
                                       MakeBoundCallback(&Sniff, &sniffed, &sniffedFront));
        NS_TEST_ASSERT_MSG_EQ(tx->Send(p, Address(), 0x0800), false, "IPv4's protocol number");
        NS_TEST_ASSERT_MSG_EQ(
            tx->Send(Create<Packet>(39), Address(), 0x86DD), false, "shorter than an IPv6 header");
        NS_TEST_ASSERT_MSG_EQ(
            tx->Send(Create<Packet>(v4, 40), Address(), 0x86DD), false, "version 4");
        NS_TEST_ASSERT_MSG_EQ(tx->GetTxPackets(), 0u, "none of them sent");
        NS_TEST_ASSERT_MSG_EQ(tx->Send(p, Address(), 0x86DD), true, "sent");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 1040u, "the caller's packet untouched");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, "one packet arrives");
        NS_TEST_ASSERT_MSG_NE(got[0], nullptr, "as IPv6 (0x86DD)");
        NS_TEST_ASSERT_MSG_EQ(got[0]->GetSize(), 1040u, "header and payload");
        NS_TEST_ASSERT_MSG_EQ((Front(got[0]) == b), true, "the same 40 bytes");
        NS_TEST_ASSERT_MSG_EQ(sniffed, 1u, "sniffed once");
        NS_TEST_ASSERT_MSG_EQ((sniffedFront == b), true, "with the same 40 bytes");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief A cable schedules each arrival with the receiving port's node (the event's context),
 * RxLatency and cut-through bytes as they are when the frame leaves, also when they were set
 * after the port was attached: the cable holds copies of them, which the port's setters
 * refresh. A frame in flight when the cable goes down is lost, also when the cable is up again
 * by the time it would arrive.
 */
class MrcCableEndTestCase : public TestCase
{
public:
    MrcCableEndTestCase()
        : TestCase("a cable uses the receiving port's node, latency and cut-through as last set; a "
                   "flap loses what was in flight")
    {
    }

private:
    /** A frame's arrival. */
    struct Arrival
    {
        Time at;          //!< when
        uint32_t context; //!< the event's context
    };

    /**
     * The receiving port's callback.
     * @param log the arrivals
     * @return true
     */
    static bool Record(
        std::vector<Arrival>* log, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        log->push_back({Simulator::Now(), Simulator::GetContext()});
        return true;
    }

    /**
     * Send a 1000-byte frame.
     * @param port the sending port
     */
    static void Send(Ptr<MrcNetDevice> port)
    {
        MrcIpv6Fields h;
        h.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_NOT_ECT));
        port->SendFrame(Create<Packet>(1000), h);
    }

    void DoRun() override
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        Ptr<MrcChannel> cable = CreateObject<MrcChannel>();
        cable->SetAttribute("Delay", TimeValue(NanoSeconds(1000)));
        Ptr<MrcNetDevice> tx;
        Ptr<MrcNetDevice> rx;
        CablePorts(cable, tx, rx);
        // Node, latency and (later) cut-through set after the cable was attached.
        a->AddDevice(tx);
        b->AddDevice(rx);
        std::vector<Arrival> log;
        rx->SetReceiveCallback(MakeBoundCallback(&Record, &log));
        rx->SetRxLatency(NanoSeconds(300));
        Simulator::Schedule(MicroSeconds(10), &Send, tx);
        Simulator::Schedule(MicroSeconds(15), &MrcNetDevice::SetRxLatency, rx, NanoSeconds(700));
        Simulator::Schedule(MicroSeconds(20), &Send, tx);
        Simulator::Schedule(MicroSeconds(25), &MrcNetDevice::SetCutThroughBytes, rx, 64u);
        Simulator::Schedule(MicroSeconds(30), &Send, tx);
        // A flap shorter than the frame's flight: the cable is up again when it would arrive,
        // but it went down after the frame left, so the frame is lost.
        Simulator::Schedule(MicroSeconds(40), &Send, tx);
        Simulator::Schedule(NanoSeconds(40200), &MrcChannel::SetUp, cable, false);
        Simulator::Schedule(NanoSeconds(40400), &MrcChannel::SetUp, cable, true);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 3u, "three frames arrive");
        NS_TEST_EXPECT_MSG_EQ(cable->GetLostInFlight(), 1u, "the frame sent before the flap");
        for (const auto& arrival : log)
        {
            NS_TEST_EXPECT_MSG_EQ(arrival.context, b->GetId(), "in the receiving node's context");
        }
        // 1040 bytes (IPv6 header included) take 83.2 ns at 100 Gb/s: 83 ns.
        NS_TEST_EXPECT_MSG_EQ(log[0].at - MicroSeconds(10),
                              NanoSeconds(83 + 1000 + 300),
                              "serialization, propagation and the RxLatency set after attaching");
        NS_TEST_EXPECT_MSG_EQ(log[1].at - MicroSeconds(20),
                              NanoSeconds(83 + 1000 + 700),
                              "the RxLatency changed during the run");
        NS_TEST_EXPECT_MSG_EQ(log[2].at - MicroSeconds(30),
                              tx->GetLeadTime(64) + NanoSeconds(1000 + 700),
                              "cut-through: received after its first 64 bytes");
        Simulator::Destroy();
    }
};

/**
 * Every attribute of an object, serialized, by name.
 * @param o the object
 * @return name -> value
 */
std::map<std::string, std::string>
AttributesOf(Ptr<Object> o)
{
    std::map<std::string, std::string> out;
    for (TypeId tid = o->GetInstanceTypeId(); tid != Object::GetTypeId(); tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if ((info.flags & TypeId::ATTR_GET) == 0)
            {
                continue;
            }
            Ptr<AttributeValue> v = info.checker->Create();
            o->GetAttribute(info.name, *v);
            out[tid.GetName() + "::" + info.name] = v->SerializeToString(info.checker);
        }
    }
    return out;
}

/**
 * The attributes in which two objects differ.
 * @param a one
 * @param b the other
 * @return "name: value / value" for each, or empty
 */
std::string
AttributeDiff(Ptr<Object> a, Ptr<Object> b)
{
    const auto x = AttributesOf(a);
    const auto y = AttributesOf(b);
    std::string out;
    for (const auto& [name, value] : x)
    {
        const auto it = y.find(name);
        if (it == y.end() || it->second != value)
        {
            out += name + ": " + value + " / " + (it == y.end() ? "-" : it->second) + "; ";
        }
    }
    return out;
}

/**
 * @ingroup mrc-tests
 * @brief MrcClosHelper copies its ports and queues from the first it makes (CopyObject):
 * every copy has the attributes a port made by CreateObject has (Config defaults included)
 * and its own MAC address, and each queue those of a queue made by the factory.
 */
class MrcPortCopyTestCase : public TestCase
{
public:
    MrcPortCopyTestCase()
        : TestCase("ports and queues copied from a prototype: a fresh object's attributes, "
                   "MAC addresses of their own")
    {
    }

private:
    void DoRun() override
    {
        Config::SetDefault("ns3::MrcNetDevice::Mtu", UintegerValue(4200));
        Config::SetDefault("ns3::MrcTrimmingQueue::EcnMaxProbability", DoubleValue(0.25));
        Ptr<MrcClosTopology> f = MakeFabric(2, 4, 2, 3, true);

        // The reference: a T1 port as CreateObject and the factory make it, with the
        // helper's settings for a fabric port.
        Ptr<MrcNetDevice> ref = CreateObject<MrcNetDevice>();
        ref->SetDataRate(f->GetT1(0, 0)->GetPort(0)->GetDataRate());
        TimeValue latency; // a switch gives its ports its forwarding latency
        f->GetT1(0, 0)->GetAttribute("Latency", latency);
        ref->SetRxLatency(latency.Get());
        ObjectFactory qf;
        qf.SetTypeId("ns3::MrcTrimmingQueue");
        qf.Set("TrimEnabled", BooleanValue(true));
        qf.Set("DataLimit", UintegerValue(50000));
        qf.Set("EcnMinBytes", UintegerValue(10000));
        qf.Set("EcnMaxBytes", UintegerValue(30000));
        qf.Set("LastHop", BooleanValue(false));
        Ptr<MrcTrimmingQueue> refQueue = qf.Create<MrcTrimmingQueue>();
        NS_TEST_ASSERT_MSG_EQ(
            AttributesOf(ref).at("ns3::MrcNetDevice::Mtu"), "4200", "the Config default");

        std::set<std::string> macs;
        uint32_t ports = 0;
        for (uint32_t p = 0; p < 2; ++p)
        {
            for (uint32_t j = 0; j < 3; ++j)
            {
                Ptr<MrcSwitchNetDevice> t1 = f->GetT1(p, j);
                for (uint32_t i = 0; i < t1->GetNPorts(); ++i)
                {
                    Ptr<MrcNetDevice> port = t1->GetPort(i);
                    NS_TEST_ASSERT_MSG_EQ(AttributeDiff(port, ref),
                                          "",
                                          "T1 port " << i << ": the attributes of a fresh one");
                    NS_TEST_ASSERT_MSG_EQ(AttributeDiff(port->GetQueue(), refQueue),
                                          "",
                                          "its queue: the attributes of a fresh one");
                    ++ports;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ports, 2u * 3u * 2u, "every T1 port seen");
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            Ptr<Node> node = NodeList::GetNode(n);
            for (uint32_t d = 0; d < node->GetNDevices(); ++d)
            {
                if (DynamicCast<MrcNetDevice>(node->GetDevice(d)))
                {
                    std::ostringstream a;
                    a << Mac48Address::ConvertFrom(node->GetDevice(d)->GetAddress());
                    NS_TEST_ASSERT_MSG_EQ(macs.insert(a.str()).second, true, "MAC " << a.str());
                }
            }
        }
        // 2 planes x (8 host ports + 8 T0 down + 6 T0 up + 6 T1) ports.
        NS_TEST_ASSERT_MSG_EQ(macs.size(), 2u * (8u + 8u + 6u + 6u), "each port its own MAC");
        Config::Reset();
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The trace sources a port and its queue make when first connected (MrcLazy): each
 * fires once per event its counter counts, by TraceConnectWithoutContext and by a Config path
 * with its context; a disconnected sink hears nothing more; and a port that never saw a PAUSE
 * reports none.
 */
class MrcLazyTraceTestCase : public TestCase
{
public:
    MrcLazyTraceTestCase()
        : TestCase("port and queue trace sources made on connection fire once per counted event")
    {
    }

private:
    /** What the sinks heard. */
    struct Heard
    {
        std::map<std::string, uint64_t> n; //!< calls per source
        std::vector<uint16_t> pauses;      //!< PfcPauseSent quanta
        std::vector<bool> paused;          //!< PfcPaused values
        std::vector<uint32_t> drops;       //!< reasons of the port's and queue's drops
        std::string context;               //!< the context of the last MacRx
    };

    /**
     * Send a frame from a port.
     * @param port the port
     * @param bytes payload bytes
     * @param dscp MrcDscp::DATA or MrcDscp::CONTROL
     */
    static void Send(Ptr<MrcNetDevice> port, uint32_t bytes, uint8_t dscp)
    {
        MrcIpv6Fields h;
        h.SetTrafficClass(MrcDscp::TrafficClass(dscp, MrcDscp::ECN_ECT0));
        port->SendFrame(Create<Packet>(bytes), h);
    }

    void DoRun() override
    {
        Heard heard;
        NodeContainer nodes;
        nodes.Create(2);
        Ptr<MrcChannel> cable = CreateObject<MrcChannel>();
        std::vector<Ptr<MrcNetDevice>> ports;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<MrcNetDevice> d = CreateObject<MrcNetDevice>();
            Ptr<MrcTrimmingQueue> q = CreateObject<MrcTrimmingQueue>();
            q->SetAttribute("DataLimit", UintegerValue(3000));
            q->SetAttribute("ControlLimit", UintegerValue(2500));
            q->SetAttribute("EcnMinBytes", UintegerValue(0));
            q->SetAttribute("EcnMaxBytes", UintegerValue(1));
            q->SetAttribute("EcnMaxProbability", DoubleValue(1.0));
            d->SetQueue(q);
            nodes.Get(i)->AddDevice(d);
            d->Attach(cable);
            ports.push_back(d);
        }
        Ptr<MrcNetDevice> a = ports[0];
        Ptr<MrcNetDevice> b = ports[1];
        Ptr<MrcTrimmingQueue> qa = a->GetQueue();

        auto count = [&heard](const std::string& name)
        {
            return MakeBoundCallback(
                +[](Heard* h, std::string n, Ptr<const Packet>)
                {
                    ++h->n[n];
                },
                &heard,
                name);
        };
        const auto macTx = count("MacTx");
        NS_TEST_ASSERT_MSG_EQ(a->TraceConnectWithoutContext("MacTx", macTx), true, "MacTx");
        NS_TEST_ASSERT_MSG_EQ(
            a->TraceConnectWithoutContext("Sniffer", count("Sniffer")), true, "Sniffer");
        for (const char* q : {"Enqueue", "Dequeue", "Mark"})
        {
            NS_TEST_ASSERT_MSG_EQ(qa->TraceConnectWithoutContext(q, count(q)), true, q);
        }
        NS_TEST_ASSERT_MSG_EQ(
            qa->TraceConnectWithoutContext("Trim",
                                           MakeBoundCallback(
                                               +[](Heard* h, Ptr<const Packet>, bool)
                                               {
                                                   ++h->n["Trim"];
                                               },
                                               &heard)),
            true,
            "Trim");
        auto drop = MakeBoundCallback(
            +[](Heard* h, Ptr<const Packet>, uint32_t reason)
            {
                h->drops.push_back(reason);
            },
            &heard);
        NS_TEST_ASSERT_MSG_EQ(qa->TraceConnectWithoutContext("Drop", drop), true, "queue Drop");
        NS_TEST_ASSERT_MSG_EQ(b->TraceConnectWithoutContext("Drop", drop), true, "port Drop");
        NS_TEST_ASSERT_MSG_EQ(a->TraceConnectWithoutContext("PfcPauseSent",
                                                            MakeBoundCallback(
                                                                +[](Heard* h, uint16_t q)
                                                                {
                                                                    h->pauses.push_back(q);
                                                                },
                                                                &heard)),
                              true,
                              "PfcPauseSent");
        NS_TEST_ASSERT_MSG_EQ(b->TraceConnectWithoutContext("PfcPauseReceived",
                                                            MakeBoundCallback(
                                                                +[](Heard* h, uint16_t)
                                                                {
                                                                    ++h->n["PauseRx"];
                                                                },
                                                                &heard)),
                              true,
                              "PfcPauseReceived");
        NS_TEST_ASSERT_MSG_EQ(b->TraceConnectWithoutContext("PfcPaused",
                                                            MakeBoundCallback(
                                                                +[](Heard* h, bool v)
                                                                {
                                                                    h->paused.push_back(v);
                                                                },
                                                                &heard)),
                              true,
                              "PfcPaused");
        b->AddLinkChangeCallback(MakeBoundCallback(
            +[](Heard* h)
            {
                ++h->n["LinkChange"];
            },
            &heard));
        std::ostringstream path;
        path << "/NodeList/" << nodes.Get(1)->GetId() << "/DeviceList/0/$ns3::MrcNetDevice/MacRx";
        Config::Connect(path.str(),
                        MakeBoundCallback(
                            +[](Heard* h, std::string context, Ptr<const Packet>)
                            {
                                ++h->n["MacRx"];
                                h->context = context;
                            },
                            &heard));
        NS_TEST_ASSERT_MSG_EQ(
            a->TraceConnectWithoutContext("NoSuchSource", count("x")), false, "an unknown source");

        // Six 1000-byte data frames into a 3000-byte data class (some are trimmed, their
        // headers queued as control), then three 1000-byte control frames into a 2500-byte
        // control class already holding the headers (some dropped).
        for (uint32_t i = 0; i < 6; ++i)
        {
            Send(a, 960, MrcDscp::DATA);
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            Send(a, 960, MrcDscp::CONTROL);
        }
        // A PAUSE of 100 quanta (512 ns at 100 Gb/s) from a to b.
        Simulator::Schedule(MicroSeconds(1), &MrcNetDevice::SendPause, a, 100);
        // b drops what it receives from 10 us on; a sends one more frame at 11 us.
        Simulator::Schedule(MicroSeconds(10), &MrcNetDevice::SetRxLossRate, b, 1.0);
        Simulator::Schedule(MicroSeconds(11), &Send, a, 960, MrcDscp::DATA);
        // MacTx disconnected at 20 us: the frame sent at 21 us is not heard.
        Simulator::Schedule(MicroSeconds(20),
                            [a, macTx]()
                            {
                                a->TraceDisconnectWithoutContext("MacTx", macTx);
                            });
        Simulator::Schedule(MicroSeconds(21), &Send, a, 960, MrcDscp::DATA);
        Simulator::Schedule(MicroSeconds(30), &MrcChannel::SetUp, cable, false);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(qa->GetTrimmed(), 0, "trims (the setup works)");
        NS_TEST_ASSERT_MSG_GT(qa->GetDropped(MrcTrimmingQueue::CONTROL_OVERFLOW)
                                  + qa->GetDropped(MrcTrimmingQueue::TRIMMED_OVERFLOW),
                              0,
                              "control frames dropped (the setup works)");
        NS_TEST_ASSERT_MSG_EQ(heard.n["Trim"], qa->GetTrimmed(), "Trim once per trim");
        NS_TEST_ASSERT_MSG_EQ(heard.n["Enqueue"], qa->GetEnqueued(), "Enqueue once per queued");
        NS_TEST_ASSERT_MSG_EQ(heard.n["Dequeue"], qa->GetDequeued(), "Dequeue once per sent");
        NS_TEST_ASSERT_MSG_EQ(heard.n["Mark"], qa->GetMarked(), "Mark once per mark");
        NS_TEST_ASSERT_MSG_GT(qa->GetMarked(), 0, "marks (the setup works)");
        NS_TEST_ASSERT_MSG_EQ(heard.n["Sniffer"], a->GetTxPackets(), "Sniffer once per frame sent");
        NS_TEST_ASSERT_MSG_EQ(heard.n["MacTx"],
                              a->GetTxPackets() - 1,
                              "MacTx once per frame sent before it was disconnected");
        NS_TEST_ASSERT_MSG_EQ(heard.n["MacRx"],
                              a->GetTxPackets() - 2,
                              "MacRx once per frame received before RxLossRate 1");
        NS_TEST_ASSERT_MSG_EQ(heard.context, path.str(), "MacRx by its Config path, with context");
        uint64_t queueDrops = 0;
        for (uint32_t r = 0; r < MrcTrimmingQueue::DROP_REASON_COUNT; ++r)
        {
            queueDrops += qa->GetDropped(r);
        }
        NS_TEST_ASSERT_MSG_EQ(heard.drops.size(),
                              queueDrops + b->GetDropped(MrcNetDevice::RX_LOSS),
                              "Drop once per drop, queue and port");
        NS_TEST_ASSERT_MSG_EQ(b->GetDropped(MrcNetDevice::RX_LOSS), 2, "two frames lost at b");
        NS_TEST_ASSERT_MSG_EQ(heard.pauses.size(), 1, "one PAUSE sent");
        NS_TEST_ASSERT_MSG_EQ(heard.pauses.at(0), 100, "its quanta");
        NS_TEST_ASSERT_MSG_EQ(a->GetPausesSent(), 1, "counted at a");
        NS_TEST_ASSERT_MSG_EQ(heard.n["PauseRx"], 1, "one PAUSE received");
        NS_TEST_ASSERT_MSG_EQ(b->GetPausesReceived(), 1, "counted at b");
        NS_TEST_ASSERT_MSG_EQ(heard.paused.size(), 2, "paused, then resumed");
        NS_TEST_ASSERT_MSG_EQ(heard.paused.at(0), true, "paused first");
        NS_TEST_ASSERT_MSG_EQ(b->GetPausedTime(), NanoSeconds(512), "100 quanta at 100 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(a->GetPausesReceived(), 0, "a received no PAUSE");
        NS_TEST_ASSERT_MSG_EQ(a->GetPausedTime(), Time(0), "nor paused");
        NS_TEST_ASSERT_MSG_EQ(a->GetWatchdogTriggers(), 0, "nor met the watchdog");
        NS_TEST_ASSERT_MSG_EQ(b->GetPausesSent(), 0, "b sent none");
        NS_TEST_ASSERT_MSG_EQ(heard.n["LinkChange"], 1, "the cable went down once");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Fabric test suite.
 */
class MrcFabricTestSuite : public TestSuite
{
public:
    MrcFabricTestSuite()
        : TestSuite("mrc-fabric", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcFabricPathsTestCase);
        AddTestCase(new MrcRouteHintTestCase);
        AddTestCase(new MrcFabricIncastTestCase(true));
        AddTestCase(new MrcFabricIncastTestCase(false));
        AddTestCase(new MrcStaticTableTestCase);
        AddTestCase(new MrcLinkDownTestCase);
        AddTestCase(new MrcCableEndTestCase);
        AddTestCase(new MrcFabricValidationTestCase);
        AddTestCase(new MrcChoiceAttributeTestCase);
        AddTestCase(new MrcLinkMonitorTestCase);
        AddTestCase(new MrcLinkMonitorIdleSkipTestCase);
        AddTestCase(new MrcFrameTestCase);
        AddTestCase(new MrcHeaderBytesTestCase);
        AddTestCase(new MrcCompactFrameTestCase);
        AddTestCase(new MrcQueueRingTestCase);
        AddTestCase(new MrcIpv6HeaderTestCase);
        AddTestCase(new MrcPortCopyTestCase);
        AddTestCase(new MrcLazyTraceTestCase);
    }
};

static MrcFabricTestSuite g_mrcFabricTestSuite; //!< static instance
