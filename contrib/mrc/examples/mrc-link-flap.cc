/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Long transfers across a two-tier fabric in which one T0-T1 link flaps, once with MRC
 * (SRv6 spray over every T1) and once with the routed baseline (ECMP with BFD/BGP-like
 * detection and reconvergence delays, one path per QP, go-back-N, DCQCN). The flapping link
 * is the one the baseline's first flow hashes onto, so the comparison is about the same event.
 * MRC runs on --planes planes of --linkRate (a host has planes x linkRate); the baseline on one
 * plane of planes x linkRate, the same host bandwidth. Prints each scheme's delivered
 * throughput per bin and its longest stall, ending with
 *   longest-stall-us mrc: <x>
 *   longest-stall-us baseline: <y>
 *   base-rtt-us mrc: <r>
 *   bypass-us mrc: <b>      (failure to the last retransmission of a packet lost to it, worst flap)
 *   rto-expiries mrc: <n>   (retransmission timeouts; 0 when SACK detection finds every loss)
 *   rto-expiries baseline: <n>   (local ACK timeouts of 4.3 s each)
 *
 *   ./ns3 run "mrc-link-flap --flows=2 --size=60000000 --flapPeriod=400 --flapDown=100"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/** Parameters. */
struct Params
{
    uint32_t flows = 2;           //!< transfers (host i -> host i + hostsPerT0)
    uint32_t planes = 8;          //!< MRC planes (NIC ports per host)
    uint32_t hostsPerT0 = 2;      //!< hosts per T0
    uint32_t t1 = 4;              //!< T1s
    uint64_t size = 60000000;     //!< bytes per transfer
    double flapPeriodUs = 400;    //!< time between flaps
    double flapDownUs = 100;      //!< down time of each flap
    double firstFlapUs = 200;     //!< first flap
    double binUs = 10;            //!< timeline bin
    double detectionUs = 150000;  //!< baseline BFD delay (deployed)
    double reconvergenceUs = 2e6; //!< baseline BGP delay (deployed)
    std::string rate = "100Gbps"; //!< link rate
    uint64_t bps = 0;             //!< rate in bits per second, once checked
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

/** What one scheme's run produced. */
struct Result
{
    std::vector<uint64_t> bins; //!< bytes delivered per bin
    uint64_t timeouts = 0;      //!< retransmission timeouts
    double bypassUs = 0;        //!< worst flap: failure to its last loss retransmission
    double baseRttUs = 0;       //!< base RTT of the first flow
};

/** Every data transmission of one sending QP, with the path it took. */
struct TxLog
{
    /** One transmission. */
    struct Tx
    {
        Time at;        //!< when
        uint32_t psn;   //!< PSN
        uint8_t cause;  //!< TxCause
        uint16_t plane; //!< plane
        uint16_t path;  //!< path index in the plane (= the T1 crossed)
    };

    std::vector<Tx> txs;      //!< in order
    Ptr<MrcPathSelector> sel; //!< the QP's selector

    /**
     * Tx trace sink.
     * @param psn PSN
     * @param ev EV
     * @param cause the TxCause
     */
    void Record(Ptr<const Packet>, uint32_t psn, uint16_t ev, uint8_t cause)
    {
        if (cause != MrcQueuePair::TX_PROBE)
        {
            const auto& e = sel->GetEv(ev);
            txs.push_back({Simulator::Now(), psn, cause, e.plane, e.path});
        }
    }
};

/**
 * MRC on the planes, or the RoCE baseline on one plane of the same host bandwidth.
 * @param prm parameters
 * @param baseline the baseline
 * @return the scheme's builder
 */
Ptr<MrcSchemeHelper>
MakeScheme(const Params& prm, bool baseline)
{
    Ptr<MrcSchemeHelper> scheme = CreateObject<MrcSchemeHelper>();
    scheme->SetAttribute("Scheme", StringValue(baseline ? "roce" : "mrc"));
    scheme->SetAttribute("Hosts", UintegerValue(2 * prm.hostsPerT0));
    scheme->SetAttribute("Planes", UintegerValue(prm.planes));
    scheme->SetAttribute("PlaneRate", DataRateValue(DataRate(prm.bps)));
    scheme->SetAttribute("HostsPerT0", UintegerValue(prm.hostsPerT0));
    scheme->SetAttribute("T1sPerPlane", UintegerValue(prm.t1));
    if (baseline)
    {
        scheme->SetControlPlaneAttribute(
            "DetectionDelay", TimeValue(MicroSeconds(static_cast<int64_t>(prm.detectionUs))));
        scheme->SetControlPlaneAttribute(
            "ReconvergenceDelay",
            TimeValue(MicroSeconds(static_cast<int64_t>(prm.reconvergenceUs))));
    }
    return scheme;
}

/**
 * Run one scheme.
 * @param prm parameters
 * @param baseline run the routed baseline
 * @param t1 the T1 whose link to T0 0 flaps (set by the baseline run, used by the MRC run)
 * @return what the run produced
 */
Result
RunScheme(const Params& prm, bool baseline, uint32_t& t1)
{
    RngSeedManager::SetSeed(prm.seed);
    Ptr<MrcSchemeHelper> scheme = MakeScheme(prm, baseline);
    Ptr<MrcClosTopology> fabric = scheme->Build();
    MrcStackHelper& stack = scheme->GetStack();
    int64_t stream = 1;
    stream += scheme->AssignStreams(stream);

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
    faults->Install(fabric);
    const MrcFaultTargetId target = MrcFaultTargetId::Link(0, MrcLinkTier::T0_T1, 0, t1);
    std::string err;
    for (double t = prm.firstFlapUs; t < 1e6; t += prm.flapPeriodUs)
    {
        faults->GetInjector()->Schedule(NanoSeconds(static_cast<int64_t>(t * 1000)),
                                        MrcFaultAction::LINK_FLAP,
                                        target,
                                        NanoSeconds(static_cast<int64_t>(prm.flapDownUs * 1000)),
                                        err);
        if (t > prm.firstFlapUs + 20 * prm.flapPeriodUs)
        {
            break;
        }
    }
    std::vector<TxLog> logs(senders.size());
    for (std::size_t i = 0; i < senders.size(); ++i)
    {
        logs[i].sel = senders[i]->GetPathSelector();
        senders[i]->TraceConnectWithoutContext("Tx", MakeCallback(&TxLog::Record, &logs[i]));
        senders[i]->PostWrite(prm.size, 0);
    }
    Timeline tl(receivers, NanoSeconds(static_cast<int64_t>(prm.binUs * 1000)));
    tl.target = prm.size * prm.flows;
    Simulator::Schedule(
        NanoSeconds(static_cast<int64_t>(prm.binUs * 1000)), &Timeline::Sample, &tl);
    // Beyond the baseline's local ACK timeout (4.096 us x 2^20 = 4.3 s): a lost tail waits for it.
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    std::cout << (baseline ? "baseline" : "mrc") << ": flapping " << target.GetName() << " every "
              << prm.flapPeriodUs << " us for " << prm.flapDownUs << " us; "
              << faults->GetInjector()->GetEvents().size() << " fault events" << std::endl;
    Result r;
    r.bins = tl.bins;
    r.baseRttUs = senders[0]->GetBaseRtt().GetNanoSeconds() / 1000.0;
    for (auto& s : senders)
    {
        r.timeouts += s->GetTimeouts();
    }
    // Bypass: for every packet sent on the flapping path (plane 0, T1 t1) while it was down,
    // or up to a base RTT before (still in flight), the first later retransmission of it, if
    // any; the worst, from its flap's start, over all flaps.
    const double rttUs = r.baseRttUs;
    for (const auto& log : logs)
    {
        for (std::size_t i = 0; i < log.txs.size(); ++i)
        {
            const auto& t = log.txs[i];
            const double us = t.at.GetNanoSeconds() / 1000.0;
            if (baseline || t.plane != 0 || t.path != t1 || us < prm.firstFlapUs - rttUs)
            {
                continue;
            }
            const double k = std::floor((us - prm.firstFlapUs + rttUs) / prm.flapPeriodUs);
            const double flapStart = prm.firstFlapUs + k * prm.flapPeriodUs;
            if (us > flapStart + prm.flapDownUs)
            {
                continue; // sent while the link was up
            }
            for (std::size_t j = i + 1; j < log.txs.size(); ++j)
            {
                if (log.txs[j].psn == t.psn)
                {
                    if (log.txs[j].cause != MrcQueuePair::TX_NEW)
                    {
                        r.bypassUs = std::max(r.bypassUs,
                                              log.txs[j].at.GetNanoSeconds() / 1000.0 - flapStart);
                    }
                    break;
                }
            }
        }
    }
    Simulator::Destroy();
    return r;
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
    std::size_t idleFrom = SIZE_MAX; // first row of a stretch of empty rows
    for (std::size_t row = 0; row * 10 < bins.size(); ++row)
    {
        const std::size_t first = row * 10;
        const std::size_t end = std::min(bins.size(), first + 10);
        bool empty = end - first == 10;
        for (std::size_t i = first; i < end; ++i)
        {
            empty = empty && bins[i] == 0;
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
        if (empty && end < bins.size())
        {
            idleFrom = std::min(idleFrom, row);
            continue; // long stalls (a baseline waiting seconds for its timeout) fold into a line
        }
        if (idleFrom != SIZE_MAX)
        {
            std::cout << "\n  " << std::setw(7) << idleFrom * 10 * binUs << " us to "
                      << row * 10 * binUs << " us: nothing delivered";
            idleFrom = SIZE_MAX;
        }
        std::cout << "\n  " << std::setw(7) << first * binUs << " us:";
        for (std::size_t i = first; i < end; ++i)
        {
            std::cout << " " << std::setw(5) << std::fixed << std::setprecision(1)
                      << bins[i] * 8 / (binUs * 1e3);
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
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("flows", "Transfers, host i to host i + hostsPerT0", prm.flows);
    cmd.AddValue("planes",
                 "MRC planes (NIC ports per host); the baseline has one plane of planes x "
                 "linkRate",
                 prm.planes);
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
    cmd.SetRange("seed", 1, 4294967086); // MRG32k3a's seeds
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    auto check = [](bool ok, const char* option, const char* accepted)
    {
        if (!ok)
        {
            std::cerr << "error: --" << option << " must be " << accepted << std::endl;
        }
        return ok;
    };
    // Times in microseconds: up to 1e9 us (1000 s), so that every one is exact in ns-3's Time.
    const double maxUs = 1e9;
    const bool ok
        = check(prm.hostsPerT0 >= 1 && prm.hostsPerT0 <= 3840, "hostsPerT0", "between 1 and 3840")
       && check(
              prm.flows >= 1 && prm.flows <= prm.hostsPerT0, "flows", "between 1 and --hostsPerT0")
       && check(prm.planes >= 1 && prm.planes <= 64, "planes", "between 1 and 64")
       && check(prm.t1 >= 2 && prm.t1 <= 4096, "t1", "between 2 and 4096")
       && check(
              prm.size >= 1 && prm.size <= 0xffffffffULL, "size", "between 1 and 4294967295 bytes")
       && MrcCommandLine::CheckRange("flapDown", prm.flapDownUs, 0.001, maxUs, " us")
       && MrcCommandLine::CheckRange("flapPeriod", prm.flapPeriodUs, 0.001, maxUs, " us")
       && check(prm.flapPeriodUs > prm.flapDownUs, "flapPeriod", "above --flapDown")
       && MrcCommandLine::CheckRange("firstFlap", prm.firstFlapUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("bin", prm.binUs, 0.1, maxUs, " us")
       && MrcCommandLine::CheckRange("detection", prm.detectionUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("reconvergence", prm.reconvergenceUs, 0, maxUs, " us")
       && MrcCommandLine::ParseRate("linkRate", prm.rate, 1e9, 1.6e12, prm.bps);
    if (!ok || !MrcCommandLine::CheckSeed(prm.seed))
    {
        return 1;
    }
    for (const bool baseline : {true, false})
    {
        if (const std::string bad = MakeScheme(prm, baseline)->Validate(); !bad.empty())
        {
            std::cerr << "error: " << bad << std::endl; // an --ns3::... value
            return 1;
        }
    }
    uint32_t t1 = 0;
    const Result base = RunScheme(prm, true, t1);
    const Result mrc = RunScheme(prm, false, t1);
    const double a = Report("mrc", mrc.bins, prm.binUs);
    const double b = Report("baseline", base.bins, prm.binUs);
    std::cout << std::fixed << std::setprecision(1) << "longest-stall-us mrc: " << a << "\n"
              << "longest-stall-us baseline: " << b << "\n"
              << "base-rtt-us mrc: " << mrc.baseRttUs << "\n"
              << "bypass-us mrc: " << mrc.bypassUs << "\n"
              << "rto-expiries mrc: " << mrc.timeouts << "\n"
              << "rto-expiries baseline: " << base.timeouts << std::endl;
    return 0;
}
