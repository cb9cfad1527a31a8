/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Forwarding speed: the same packets through an MRC SRv6 fabric and through ns-3's own
 * IPv4 routers over point-to-point links on an equal two-tier topology, in one run.
 *
 * Every host sends Packets/Hosts packets to a partner under another T0 (a shifted permutation),
 * paced at half the line rate so that neither fabric drops. The MRC hosts spray over the T1s
 * round-robin; the IPv4 routers use global routing with per-packet random ECMP. Each packet
 * crosses four links. The last line is
 *   forwarding-speedup-vs-ipv4: <ours / stock simulated packet-hops per wall second>
 * Build in Release (./ns3 bench) before reading the figure.
 */

#include "ns3/mrc-module.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/** Benchmark parameters. */
struct Params
{
    uint32_t hostsPerT0 = 8;      //!< hosts per T0
    uint32_t t0 = 8;              //!< T0s
    uint32_t t1 = 8;              //!< T1s
    uint32_t packets = 100000;    //!< packets in all
    uint32_t size = 4000;         //!< IPv6 payload bytes
    std::string rate = "100Gbps"; //!< link rate
};

/** One host's paced sender for the MRC fabric. */
struct MrcSender
{
    Ptr<MrcClosTopology> fabric;          //!< fabric
    uint32_t src;                         //!< source host
    uint32_t dst;                         //!< destination host
    uint32_t left;                        //!< packets still to send
    uint32_t next;                        //!< next T1 to use
    uint32_t size;                        //!< payload bytes
    Time gap;                             //!< pacing gap
    std::vector<MrcUsidCarrier> carriers; //!< one per T1
    Ipv6Address srcAddr;                  //!< source address

    /** Send one packet and schedule the next. */
    void Send()
    {
        Ptr<Packet> p = Create<Packet>(size);
        MrcIpv6Fields h;
        h.SetSource(srcAddr);
        h.SetDestination(carriers[next].GetAddress());
        h.SetNextHeader(17);
        h.SetHopLimit(64);
        h.SetPayloadLength(static_cast<uint16_t>(size));
        h.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_ECT0));
        fabric->GetHostPort(src, 0)->SendFrame(p, h);
        next = (next + 1) % carriers.size();
        if (--left > 0)
        {
            Simulator::Schedule(gap, &MrcSender::Send, this);
        }
    }
};

/** Counts deliveries at hosts. */
class Counter : public MrcFrameReceiver
{
public:
    void ReceiveFrame(uint32_t /* port */,
                      Ptr<Packet> /* packet */,
                      MrcIpv6Fields& /* h */) override
    {
        ++received;
    }

    uint64_t received = 0; //!< frames delivered
};

/** One host's paced UDP sender for the IPv4 fabric. */
struct UdpSender
{
    Ptr<Socket> socket; //!< connected UDP socket
    uint32_t left;      //!< packets still to send
    uint32_t size;      //!< UDP payload bytes
    Time gap;           //!< pacing gap

    /** Send one packet and schedule the next. */
    void Send()
    {
        socket->Send(Create<Packet>(size));
        if (--left > 0)
        {
            Simulator::Schedule(gap, &UdpSender::Send, this);
        }
    }
};

uint64_t g_udpReceived = 0; //!< datagrams delivered in the IPv4 run

/**
 * Drain a UDP socket.
 * @param s the socket
 */
void
UdpReceive(Ptr<Socket> s)
{
    while (s->Recv())
    {
        ++g_udpReceived;
    }
}

/**
 * @param t wall-clock start
 * @return seconds since t
 */
double
Since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/**
 * @param prm parameters
 * @return the builder of the MRC fabric (one plane)
 */
Ptr<MrcClosHelper>
MakeClos(const Params& prm)
{
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(1));
    clos->SetAttribute("HostsPerT0", UintegerValue(prm.hostsPerT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(prm.t0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(prm.t1));
    clos->SetAttribute("LinkRate", DataRateValue(DataRate(prm.rate)));
    clos->SetSwitchAttribute("Latency", TimeValue(Time(0)));
    return clos;
}

/**
 * Run the MRC fabric.
 * @param prm parameters
 * @param hops set to simulated packet-hops
 * @return wall seconds
 */
double
RunMrc(const Params& prm, uint64_t& hops)
{
    Ptr<MrcClosTopology> f = MakeClos(prm)->Build();
    f->AssignStreams(1);
    Counter counter;
    const uint32_t n = f->GetNHosts();
    for (uint32_t h = 0; h < n; ++h)
    {
        f->GetHostPort(h, 0)->SetFrameReceiver(&counter, h);
    }
    const Time gap = DataRate(prm.rate).CalculateBytesTxTime(prm.size + 40) * 2;
    std::vector<MrcSender> senders(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        MrcSender& s = senders[h];
        s.fabric = f;
        s.src = h;
        s.dst = (h + prm.hostsPerT0) % n;
        s.left = prm.packets / n;
        s.next = h % prm.t1;
        s.size = prm.size;
        s.gap = gap;
        s.srcAddr = f->GetHostAddress(h, 0);
        for (const auto& path : f->GetPaths(s.src, s.dst))
        {
            s.carriers.push_back(path.carrier);
        }
        Simulator::Schedule(NanoSeconds(h), &MrcSender::Send, &s);
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall = Since(t0);
    hops = counter.received * 4;
    std::cout << "mrc:  delivered " << counter.received << " packets in " << std::fixed
              << std::setprecision(3) << wall << " s wall" << std::endl;
    Simulator::Destroy();
    return wall;
}

/**
 * Run the stock IPv4 fabric.
 * @param prm parameters
 * @param hops set to simulated packet-hops
 * @return wall seconds
 */
double
RunIpv4(const Params& prm, uint64_t& hops)
{
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
    const uint32_t n = prm.hostsPerT0 * prm.t0;
    NodeContainer hosts;
    NodeContainer t0s;
    NodeContainer t1s;
    hosts.Create(n);
    t0s.Create(prm.t0);
    t1s.Create(prm.t1);
    InternetStackHelper stack;
    stack.Install(hosts);
    stack.Install(t0s);
    stack.Install(t1s);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(prm.rate));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> hostAddr(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        NetDeviceContainer d = p2p.Install(hosts.Get(h), t0s.Get(h / prm.hostsPerT0));
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        hostAddr[h] = ifs.GetAddress(0);
        addr.NewNetwork();
    }
    for (uint32_t i = 0; i < prm.t0; ++i)
    {
        for (uint32_t j = 0; j < prm.t1; ++j)
        {
            addr.Assign(p2p.Install(t0s.Get(i), t1s.Get(j)));
            addr.NewNetwork();
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    const Time gap = DataRate(prm.rate).CalculateBytesTxTime(prm.size + 40) * 2;
    std::vector<UdpSender> senders(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        Ptr<Socket> rx = Socket::CreateSocket(hosts.Get(h), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeCallback(&UdpReceive));
        Ptr<Socket> tx = Socket::CreateSocket(hosts.Get(h), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(hostAddr[(h + prm.hostsPerT0) % n], 9));
        // IPv6 payload of the MRC run = UDP payload + 8, so the two carry equal bytes.
        senders[h] = {tx, prm.packets / n, prm.size - 8, gap};
        Simulator::Schedule(NanoSeconds(h), &UdpSender::Send, &senders[h]);
    }
    g_udpReceived = 0;
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall = Since(t0);
    hops = g_udpReceived * 4;
    std::cout << "ipv4: delivered " << g_udpReceived << " packets in " << std::fixed
              << std::setprecision(3) << wall << " s wall" << std::endl;
    Simulator::Destroy();
    return wall;
}

} // namespace

int
main(int argc, char* argv[])
{
    Params prm;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("hostsPerT0", "Hosts per T0", prm.hostsPerT0);
    cmd.AddValue("t0", "T0 switches", prm.t0);
    cmd.AddValue("t1", "T1 switches", prm.t1);
    cmd.AddValue("packets", "Packets in all", prm.packets);
    cmd.AddValue("size", "IPv6 payload bytes per packet", prm.size);
    cmd.AddValue("linkRate", "Link rate", prm.rate);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    uint64_t bps = 0;
    const uint32_t hosts = prm.t0 * prm.hostsPerT0; // both at most 64: no overflow
    const bool ok = MrcCommandLine::CheckRange("t0", prm.t0, 2, 64)
                 && MrcCommandLine::CheckRange("hostsPerT0", prm.hostsPerT0, 1, 64)
                 && MrcCommandLine::CheckRange("t1", prm.t1, 1, 64)
                 && MrcCommandLine::CheckRange("packets", prm.packets, hosts, 1e9)
                 && MrcCommandLine::CheckRange("size", prm.size, 64, 8000)
                 && MrcCommandLine::ParseRate("linkRate", prm.rate, 1e9, 1.6e12, bps);
    if (!ok)
    {
        return 1; // (--packets: at least one per host, --t0 x --hostsPerT0)
    }
    prm.rate = std::to_string(bps) + "bps";
    if (const std::string bad = MakeClos(prm)->Validate(); !bad.empty())
    {
        std::cerr << "error: " << bad << std::endl; // an --ns3::... value
        return 1;
    }
    uint64_t mrcHops = 0;
    uint64_t ipv4Hops = 0;
    const double mrcWall = RunMrc(prm, mrcHops);
    const double ipv4Wall = RunIpv4(prm, ipv4Hops);
    const double mrcRate = mrcHops / mrcWall;
    const double ipv4Rate = ipv4Hops / ipv4Wall;
    std::cout << std::fixed << std::setprecision(0)
              << "mrc-packet-hops-per-wall-second: " << mrcRate
              << "\nipv4-packet-hops-per-wall-second: " << ipv4Rate << std::endl;
    std::cout << std::setprecision(2) << "forwarding-speedup-vs-ipv4: " << mrcRate / ipv4Rate
              << std::endl;
    return 0;
}
