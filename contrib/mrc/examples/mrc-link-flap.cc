/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Long transfers across a two-tier fabric in which one T0-T1 link flaps, once with MRC
 * (SRv6 spray over every T1) and once with the routed baseline (ECMP with BFD/BGP-like
 * detection and reconvergence delays, one path per QP, go-back-N, DCQCN). The flapping link
 * is the one the baseline's first flow hashes onto, so the comparison is about the same event.
 * Prints each scheme's delivered throughput per bin and its longest stall, ending with
 *   longest-stall-us mrc: <x>
 *   longest-stall-us baseline: <y>
 *
 *   ./ns3 run "mrc-link-flap --flows=2 --size=20000000 --flapPeriod=400 --flapDown=100"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/** Parameters. */
struct Params
{
    uint32_t flows = 2;           //!< transfers (host i -> host i + hostsPerT0)
    uint32_t hostsPerT0 = 2;      //!< hosts per T0
    uint32_t t1 = 4;              //!< T1s
    uint64_t size = 20000000;     //!< bytes per transfer
    double flapPeriodUs = 400;    //!< time between flaps
    double flapDownUs = 100;      //!< down time of each flap
    double firstFlapUs = 200;     //!< first flap
    double binUs = 10;            //!< timeline bin
    double detectionUs = 50;      //!< baseline BFD delay
    double reconvergenceUs = 500; //!< baseline BGP delay
    std::string rate = "100Gbps"; //!< link rate
    uint32_t seed = 1;            //!< seed
};

/** Samples delivered bytes into bins. */
class Timeline
{
public:
    /**
     * @param rx receiving queue pairs
     * @param bin bin width
     */
    Timeline(std::vector<Ptr<MrcQueuePair>> rx, Time bin)
        : m_rx(std::move(rx))
        , m_bin(bin)
    {
    }

    /** Take a sample and schedule the next while something is unfinished. */
    void Sample()
    {
        uint64_t total = 0;
        for (auto& q : m_rx)
        {
            total += q->GetBytesPlaced();
        }
        bins.push_back(total - m_last);
        m_last = total;
        if (total < target)
        {
            Simulator::Schedule(m_bin, &Timeline::Sample, this);
        }
    }

    std::vector<uint64_t> bins; //!< bytes delivered per bin
    uint64_t target = 0;        //!< bytes expected in all

private:
    std::vector<Ptr<MrcQueuePair>> m_rx; //!< receivers
    Time m_bin;                          //!< bin width
    uint64_t m_last = 0;                 //!< total at the last sample
};

/**
 * Run one scheme.
 * @param prm parameters
 * @param baseline run the routed baseline
 * @param t1 the T1 whose link to T0 0 flaps (set by the baseline run, used by the MRC run)
 * @return the timeline bins
 */
std::vector<uint64_t>
RunScheme(const Params& prm, bool baseline, uint32_t& t1)
{
    RngSeedManager::SetSeed(prm.seed);
    Ptr<MrcClosHelper> fabric = CreateObject<MrcClosHelper>();
    fabric->SetAttribute("Planes", UintegerValue(1));
    fabric->SetAttribute("HostsPerT0", UintegerValue(prm.hostsPerT0));
    fabric->SetAttribute("T0sPerPlane", UintegerValue(2));
    fabric->SetAttribute("T1sPerPlane", UintegerValue(prm.t1));
    fabric->SetAttribute("LinkRate", DataRateValue(DataRate(prm.rate)));
    if (baseline)
    {
        fabric->SetRoutedBaseline();
        fabric->SetAttribute("DetectionDelay",
                             TimeValue(MicroSeconds(static_cast<int64_t>(prm.detectionUs))));
        fabric->SetAttribute("ReconvergenceDelay",
                             TimeValue(MicroSeconds(static_cast<int64_t>(prm.reconvergenceUs))));
    }
    fabric->Build();
    MrcStackHelper stack;
    if (baseline)
    {
        stack.SetRoceBaseline();
    }
    stack.Install(fabric);
    int64_t stream = 1;
    stream += fabric->AssignStreams(stream);
    stream += stack.AssignStreams(stream);

    std::vector<Ptr<MrcQueuePair>> senders;
    std::vector<Ptr<MrcQueuePair>> receivers;
    for (uint32_t f = 0; f < prm.flows; ++f)
    {
        auto qps = stack.Connect(f, f + prm.hostsPerT0);
        senders.push_back(qps.first);
        receivers.push_back(qps.second);
    }
    // The link to flap: where the baseline's first flow leaves T0 0 (read from the routed
    // fabric's hash in the baseline run, which runs first; the MRC run flaps the same link).
    if (baseline)
    {
        const uint16_t port
            = fabric->GetT0(0, 0)->GetEcmpEgress(fabric->GetHostAddress(0, 0),
                                                 fabric->GetHostAddress(prm.hostsPerT0, 0),
                                                 senders[0]->GetFlowLabel(0));
        t1 = port == MrcSwitchNetDevice::NO_PORT ? 0 : port - prm.hostsPerT0;
    }
    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->SetFabric(fabric);
    std::ostringstream target;
    target << "plane0/t0-0/t1-" << t1;
    std::string err;
    for (double t = prm.firstFlapUs; t < 1e6; t += prm.flapPeriodUs)
    {
        faults->Schedule(NanoSeconds(static_cast<int64_t>(t * 1000)),
                         "link_flap",
                         target.str(),
                         NanoSeconds(static_cast<int64_t>(prm.flapDownUs * 1000)),
                         err);
        if (t > prm.firstFlapUs + 20 * prm.flapPeriodUs)
        {
            break;
        }
    }
    for (auto& s : senders)
    {
        s->PostWrite(prm.size, 0);
    }
    Timeline tl(receivers, NanoSeconds(static_cast<int64_t>(prm.binUs * 1000)));
    tl.target = prm.size * prm.flows;
    Simulator::Schedule(
        NanoSeconds(static_cast<int64_t>(prm.binUs * 1000)), &Timeline::Sample, &tl);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    std::cout << (baseline ? "baseline" : "mrc") << ": flapping " << target.str() << " every "
              << prm.flapPeriodUs << " us for " << prm.flapDownUs << " us; "
              << faults->GetEvents().size() << " fault events" << std::endl;
    Simulator::Destroy();
    return tl.bins;
}

/**
 * Print a timeline and return its longest stall.
 * @param name scheme
 * @param bins bytes per bin
 * @param binUs bin width
 * @return longest run of empty bins, in microseconds
 */
double
Report(const std::string& name, const std::vector<uint64_t>& bins, double binUs)
{
    std::cout << name << " throughput (Gbps) per " << binUs << " us bin:";
    uint32_t run = 0;
    uint32_t longest = 0;
    for (std::size_t i = 0; i < bins.size(); ++i)
    {
        if (i % 10 == 0)
        {
            std::cout << "\n  " << std::setw(7) << i * binUs << " us:";
        }
        std::cout << " " << std::setw(5) << std::fixed << std::setprecision(1)
                  << bins[i] * 8 / (binUs * 1e3);
        // A stall: nothing delivered while data is still outstanding (the last bin may be
        // partial and is not a stall).
        if (bins[i] == 0 && i + 1 < bins.size())
        {
            longest = std::max(longest, ++run);
        }
        else
        {
            run = 0;
        }
    }
    std::cout << "\n  completion: " << bins.size() * binUs << " us" << std::endl;
    return longest * binUs;
}

} // namespace

int
main(int argc, char* argv[])
{
    Params prm;
    CommandLine cmd(__FILE__);
    cmd.AddValue("flows", "Transfers, host i to host i + hostsPerT0", prm.flows);
    cmd.AddValue("hostsPerT0", "Hosts per T0 (two T0s)", prm.hostsPerT0);
    cmd.AddValue("t1", "T1 switches", prm.t1);
    cmd.AddValue("size", "Bytes per transfer", prm.size);
    cmd.AddValue("flapPeriod", "Microseconds between flaps", prm.flapPeriodUs);
    cmd.AddValue("flapDown", "Microseconds each flap lasts", prm.flapDownUs);
    cmd.AddValue("firstFlap", "Microseconds before the first flap", prm.firstFlapUs);
    cmd.AddValue("bin", "Timeline bin, microseconds", prm.binUs);
    cmd.AddValue("detection", "Baseline: BFD detection delay, microseconds", prm.detectionUs);
    cmd.AddValue(
        "reconvergence", "Baseline: BGP reconvergence delay, microseconds", prm.reconvergenceUs);
    cmd.AddValue("linkRate", "Link rate", prm.rate);
    cmd.AddValue("seed", "Random seed", prm.seed);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    if (prm.flows < 1 || prm.flows > prm.hostsPerT0 || prm.t1 < 2 || prm.size < 1
        || prm.size > 0xffffffffULL || prm.flapPeriodUs <= prm.flapDownUs || prm.flapDownUs <= 0
        || prm.binUs <= 0)
    {
        std::cerr << "error: need 1 <= --flows <= --hostsPerT0, --t1 >= 2, 1 <= --size < 4 GiB, "
                     "0 < --flapDown < --flapPeriod and --bin > 0"
                  << std::endl;
        return 1;
    }
    uint32_t t1 = 0;
    const auto base = RunScheme(prm, true, t1);
    const auto mrc = RunScheme(prm, false, t1);
    const double a = Report("mrc", mrc, prm.binUs);
    const double b = Report("baseline", base, prm.binUs);
    std::cout << std::fixed << std::setprecision(1) << "longest-stall-us mrc: " << a << "\n"
              << "longest-stall-us baseline: " << b << std::endl;
    return 0;
}
