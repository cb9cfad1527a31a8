/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The fabric on its own: build a multi-plane Clos, spray raw SRv6 packets over every path
 * between permutation partners, take one T0-T1 link down mid-run, and print what every tier
 * forwarded, trimmed, marked and dropped.
 *
 *   ./ns3 run "mrc-fabric-demo --planes=4 --hostsPerT0=4 --t0=4 --t1=4 --pcap=1"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <ctime>
#include <iostream>

using namespace ns3;

namespace
{

/** Counts deliveries. */
class Sink : public MrcFrameReceiver
{
public:
    void ReceiveFrame(uint32_t /* port */, Ptr<Packet> /* p */, MrcIpv6Fields& h) override
    {
        if (MrcDscp::Dscp(h.GetTrafficClass()) == MrcDscp::DATA)
        {
            ++full;
        }
        else
        {
            ++trimmed;
        }
    }

    uint64_t full = 0;    //!< intact packets
    uint64_t trimmed = 0; //!< trimmed headers
};

/**
 * Send one packet from src along a path.
 * @param f fabric
 * @param src source host
 * @param path the path
 * @param size payload bytes
 */
void
Send(Ptr<MrcClosTopology> f, uint32_t src, MrcPath path, uint32_t size)
{
    f->SendRawPacket(src, path, size, MrcDscp::ECN_ECT0);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t planes = 4;
    uint32_t hostsPerT0 = 4;
    uint32_t t0 = 4;
    uint32_t t1 = 4;
    uint32_t packets = 200;
    bool pcap = false;
    std::string out;
    bool overwrite = false;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("planes", "Planes", planes);
    cmd.AddValue("hostsPerT0", "Hosts per T0", hostsPerT0);
    cmd.AddValue("t0", "T0s per plane", t0);
    cmd.AddValue("t1", "T1s per plane", t1);
    cmd.AddValue("packets", "Packets per host", packets);
    cmd.AddValue("pcap",
                 "Write pcap files of every host port (host-H-P.pcap: host H, plane P) into --out",
                 pcap);
    cmd.AddValue("out",
                 "With --pcap=1: the results directory for the pcap files (default "
                 "results/mrc-fabric-demo-<time>)",
                 out);
    cmd.AddValue("overwrite", "With --pcap=1: replace a previous run's files in --out", overwrite);
    if (!MrcCommandLine::Parse(cmd, argc, argv) || !MrcCommandLine::CheckRange("t0", t0, 2, 4096)
        || !MrcCommandLine::CheckRange("packets", packets, 1, 1e6))
    {
        return 1; // (--t0: traffic crosses the T1s only between T0s)
    }

    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(planes));
    clos->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(t0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(t1));
    const std::string err = clos->Validate();
    if (!err.empty())
    {
        std::cerr << "error: "
                  << MrcCommandLine::InOptionTerms(err,
                                                   {{"Planes", "--planes"},
                                                    {"HostsPerT0", "--hostsPerT0"},
                                                    {"T0sPerPlane", "--t0"},
                                                    {"T1sPerPlane", "--t1"}})
                  << std::endl;
        return 1;
    }
    MrcResultsDir dir;
    std::vector<std::string> pcapFiles;
    if (pcap)
    {
        if (out.empty())
        {
            char stamp[32];
            const std::time_t now = std::time(nullptr);
            std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
            out = std::string("results/mrc-fabric-demo-") + stamp;
        }
        std::string e;
        if (!dir.Open(out, "mrc-fabric-demo", overwrite, e))
        {
            std::cerr << "error: --out: " << e << std::endl;
            return 1;
        }
        dir.SetCommandLine(argc, argv);
        if (!dir.WriteRunJson("mrc-fabric-demo", "", 1, cmd.GetValues(), {}, false, "running", e))
        {
            std::cerr << "error: --out: " << e << std::endl;
            return 1;
        }
    }
    Ptr<MrcClosTopology> f = clos->Build();
    f->AssignStreams(1);
    if (pcap)
    {
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            for (uint32_t p = 0; p < planes; ++p)
            {
                pcapFiles.push_back("host-" + std::to_string(h) + "-" + std::to_string(p)
                                    + ".pcap");
                std::string e;
                if (!dir.Begin(pcapFiles.back(), e))
                {
                    std::cerr << "error: --out: " << e << std::endl;
                    return 1;
                }
            }
        }
        clos->EnablePcapHosts(dir.Path("host"));
    }
    Sink sink;
    const uint32_t n = f->GetNHosts();
    for (uint32_t h = 0; h < n; ++h)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            f->GetHostPort(h, p)->SetFrameReceiver(&sink, h);
        }
    }
    // Each host sprays `packets` packets over every path to its partner, one every 100 ns.
    for (uint32_t h = 0; h < n; ++h)
    {
        const uint32_t dst = (h + hostsPerT0) % n;
        const auto paths = f->GetPaths(h, dst);
        for (uint32_t i = 0; i < packets; ++i)
        {
            Simulator::Schedule(
                NanoSeconds(100 * i + h), &Send, f, h, paths[i % paths.size()], 4096);
        }
    }
    // One T0-T1 link goes down for 5 us: packets sprayed onto it are lost and counted.
    Simulator::Schedule(MicroSeconds(5), &MrcChannel::SetUp, f->GetUplink(0, 0, 0), false);
    Simulator::Schedule(MicroSeconds(10), &MrcChannel::SetUp, f->GetUplink(0, 0, 0), true);
    Simulator::Run();

    uint64_t fwd[2] = {0, 0};
    uint64_t drops[2] = {0, 0};
    uint64_t trims[2] = {0, 0};
    uint64_t marks[2] = {0, 0};
    uint64_t qdrops[2] = {0, 0};
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t tier = 0; tier < 2; ++tier)
        {
            const uint32_t count = tier == 0 ? t0 : t1;
            for (uint32_t i = 0; i < count; ++i)
            {
                Ptr<MrcSwitchNetDevice> sw = tier == 0 ? f->GetT0(p, i) : f->GetT1(p, i);
                fwd[tier] += sw->GetForwarded();
                drops[tier] += sw->GetDroppedTotal();
                for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
                {
                    Ptr<MrcTrimmingQueue> q = sw->GetPort(k)->GetQueue();
                    trims[tier] += q->GetTrimmed();
                    marks[tier] += q->GetMarked();
                    qdrops[tier] += q->GetDroppedTotal();
                }
            }
        }
    }
    uint64_t lost = 0;
    for (uint32_t i = 0; i < t0; ++i)
    {
        for (uint32_t j = 0; j < t1; ++j)
        {
            lost += f->GetUplink(0, i, j)->GetLostInFlight();
        }
    }
    std::cout << "fabric: " << planes << " planes, " << n << " hosts, " << f->GetSwitches().GetN()
              << " switches; sent " << uint64_t(n) * packets << " packets" << std::endl;
    for (uint32_t tier = 0; tier < 2; ++tier)
    {
        std::cout << "tier=T" << tier << " forwarded=" << fwd[tier]
                  << " switch_drops=" << drops[tier] << " trimmed=" << trims[tier]
                  << " ecn_marked=" << marks[tier] << " queue_drops=" << qdrops[tier] << std::endl;
    }
    std::cout << "delivered=" << sink.full << " trimmed_headers=" << sink.trimmed
              << " lost_in_flight=" << lost << std::endl;
    Simulator::Destroy();
    if (pcap)
    {
        clos = nullptr; // closes the pcap files
        f = nullptr;
        std::string e;
        for (const auto& name : pcapFiles)
        {
            if (!dir.Finish(name, e))
            {
                std::cerr << "error: --out: " << e << std::endl;
                return 1;
            }
        }
        if (!dir.WriteRunJson("mrc-fabric-demo", "", 1, cmd.GetValues(), {}, true, "", e)
            || !dir.SetComplete(e))
        {
            std::cerr << "error: --out: " << e << std::endl;
            return 1;
        }
        std::cout << "pcap: " << pcapFiles.size() << " files in " << out << std::endl;
    }
    return 0;
}
