/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Permutation traffic: every host (or every k-th, --senders) writes Size bytes to a random
 * partner at t = 0 over one MRC queue pair, on a two-tier (multi-plane) fabric. Prints the flow
 * completion times against the ideal (size / NIC rate + base RTT less the last packet's first hop),
 * the aggregate goodput and, last, data-packets-per-wall-second: <n>
 *
 *   ./ns3 run "mrc-permutation --hosts=128 --planes=1 --hostsPerT0=16 --t1=16 --size=2000000"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <tuple>

using namespace ns3;

namespace
{

/**
 * @param text a message in attribute terms (MrcSchemeHelper, MrcClosHelper)
 * @return it in this program's option names
 */
std::string
InOptionTerms(const std::string& text)
{
    return MrcCommandLine::InOptionTerms(text,
                                         {{"Planes", "--planes"},
                                          {"HostsPerT0", "--hostsPerT0"},
                                          {"T0sPerPlane", "--hosts / --hostsPerT0"},
                                          {"T1sPerPlane", "--t1"},
                                          {"Hosts", "--hosts"}});
}

/**
 * The scheme's builder: MRC on `planes` planes of `bps`, or (roce) RoCE on the same planes,
 * one single-path queue pair per plane.
 * @param hosts hosts
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t1 T1s per plane
 * @param bps link rate
 * @param delay link delay
 * @param roce RoCE
 * @return the builder
 */
Ptr<MrcSchemeHelper>
MakeScheme(uint32_t hosts,
           uint32_t planes,
           uint32_t hostsPerT0,
           uint32_t t1,
           uint64_t bps,
           Time delay,
           bool roce)
{
    Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
    s->SetAttribute("Scheme", StringValue(roce ? "roce-multiplane" : "mrc"));
    s->SetAttribute("Hosts", UintegerValue(hosts));
    s->SetAttribute("Planes", UintegerValue(planes));
    s->SetAttribute("PlaneRate", DataRateValue(DataRate(bps)));
    s->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    s->SetAttribute("T1sPerPlane", UintegerValue(t1));
    s->SetFabricAttribute("LinkDelay", TimeValue(delay));
    s->SetFluidAttribute("LinkDelay", TimeValue(delay));
    return s;
}

/**
 * @param v sorted values
 * @param q quantile in [0, 1]
 * @return the nearest-rank quantile
 */
double
Quantile(const std::vector<double>& v, double q)
{
    const auto idx = static_cast<std::size_t>(std::ceil(q * v.size()));
    return v[std::min(v.size() - 1, idx == 0 ? 0 : idx - 1)];
}

/** Payload bytes of a full data packet (MrcQueuePair::PayloadSize's default). */
constexpr uint32_t PAYLOAD_BYTES = 4096;

/**
 * @param size bytes per flow
 * @return the bytes on the wire (IPv6 and MRC headers included) of a flow's last data packet,
 *         its smallest
 */
uint32_t
LastFrameBytes(uint64_t size)
{
    const auto rest = static_cast<uint32_t>(size % PAYLOAD_BYTES);
    return MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE + (rest == 0 ? PAYLOAD_BYTES : rest);
}

/**
 * A flow's ideal completion time, the same at packet and at flow level: its bytes at the line
 * rate of its NIC's ports on every plane, then the rest of the way of its last data packet and
 * the ACK back (the packet's base RTT less its serialization at the sending NIC, which the bytes
 * term already holds). No flow completes sooner: the last data byte leaves the NIC no earlier
 * than the bytes term, in a packet no smaller than the last.
 * @param size bytes per flow
 * @param bps link rate (one NIC port)
 * @param planes planes (NIC ports)
 * @param lastRtt the base RTT between the flow's two hosts of a packet of LastFrameBytes(size)
 * @return microseconds
 */
double
IdealFctUs(uint64_t size, uint64_t bps, uint32_t planes, Time lastRtt)
{
    const Time firstHop = DataRate(bps).CalculateBytesTxTime(LastFrameBytes(size));
    return double(size) * 8 / (double(bps) * planes) * 1e6
         + (lastRtt - firstHop).GetNanoSeconds() / 1000.0;
}

/**
 * Print the completion times against each flow's ideal (IdealFctUs: its bytes at the NIC's line
 * rate plus the rest of the unloaded round trip between its two hosts, one T0 or across the
 * T1s); no flow can beat its ideal.
 * @param fct per sender, its completion (us; negative: not completed)
 * @param ideal per sender, its ideal (us)
 * @param size bytes per flow
 * @return the completed flows
 */
uint32_t
PrintFcts(const std::vector<double>& fct, const std::vector<double>& ideal, uint64_t size)
{
    std::vector<double> v;
    std::vector<double> over;
    std::vector<double> ideals(ideal);
    std::sort(ideals.begin(), ideals.end());
    for (std::size_t h = 0; h < fct.size(); ++h)
    {
        if (fct[h] >= 0)
        {
            v.push_back(fct[h]);
            over.push_back(fct[h] / ideal[h]);
        }
    }
    std::sort(v.begin(), v.end());
    std::sort(over.begin(), over.end());
    const auto done = static_cast<uint32_t>(v.size());
    std::cout << std::fixed << std::setprecision(1);
    std::cout << "flows completed: " << done << " / " << fct.size() << std::endl;
    if (!v.empty())
    {
        std::cout << "fct-us min: " << v.front() << " median: " << Quantile(v, 0.5)
                  << " p99: " << Quantile(v, 0.99) << " max: " << v.back() << std::endl;
        std::cout << "ideal-fct-us min: " << ideals.front() << " max: " << ideals.back()
                  << " (per flow: size / NIC rate + its hosts' base RTT less the last packet's "
                     "first hop)"
                  << std::endl;
        std::cout << "median/ideal: " << std::setprecision(3) << Quantile(over, 0.5)
                  << " min/ideal: " << over.front() << std::endl;
        std::cout << std::setprecision(1)
                  << "aggregate goodput: " << double(size) * done * 8 / (v.back() * 1e3) << " Gbps"
                  << std::endl;
    }
    return done;
}

/**
 * The permutation at flow level (--model=fluid): one flow group per host on an MrcFluidNetwork
 * of the same shape; prints the packet run's FCT lines.
 * @param hosts hosts
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t1 T1s per plane
 * @param size bytes per flow
 * @param bps link rate
 * @param delay link delay
 * @param roce the baseline scheme
 * @param stride every stride-th host writes (SenderStride)
 * @return the exit status
 */
int
RunFluid(uint32_t hosts,
         uint32_t planes,
         uint32_t hostsPerT0,
         uint32_t t1,
         uint64_t size,
         uint64_t bps,
         Time delay,
         bool roce,
         uint32_t stride)
{
    if (roce && planes != 1)
    {
        std::cerr << "error: --planes must be 1 with --model=fluid --roce (the flow-level "
                     "baseline runs one plane)"
                  << std::endl;
        return 1;
    }
    Ptr<MrcSchemeHelper> scheme = MakeScheme(hosts, planes, hostsPerT0, t1, bps, delay, false);
    scheme->SetAttribute("Scheme", StringValue(roce ? "roce" : "mrc"));
    const std::string err = scheme->ValidateFluid();
    if (!err.empty())
    {
        std::cerr << "error: " << InOptionTerms(err) << std::endl;
        return 1;
    }
    Ptr<MrcFluidNetwork> net = scheme->BuildFluid();

    // The same kind of derangement as at packet level (its own stream: the draws differ).
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(1);
    std::vector<uint32_t> partner(hosts);
    std::iota(partner.begin(), partner.end(), 0);
    for (uint32_t i = hosts - 1; i > 0; --i)
    {
        std::swap(partner[i], partner[rng->GetInteger(0, i - 1)]);
    }
    std::vector<double> fct(hosts, -1);
    for (uint32_t h = 0; h < hosts; h += stride)
    {
        // Send completion: the last byte out, one way to the receiver, the ACK back.
        const Time rtt = 2 * net->GetOneWayLatency(h, partner[h]);
        net->AddGroup(
            {{h, partner[h]}},
            double(size),
            rtt,
            MakeCallback(+[](std::vector<double>* out, uint32_t host, uint32_t /* id */, bool ok)
                         {
                             if (ok)
                             {
                                 (*out)[host] = Simulator::Now().GetNanoSeconds() / 1000.0;
                             }
                         })
                .Bind(&fct, h));
    }
    Simulator::Stop(Seconds(10));
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> sent;
    std::vector<double> ideal;
    for (uint32_t h = 0; h < hosts; h += stride)
    {
        // The packet level's definition (its base RTT: a data frame out, an ACK back).
        sent.push_back(fct[h]);
        ideal.push_back(
            IdealFctUs(size, bps, planes, scheme->GetBaseRtt(LastFrameBytes(size), h, partner[h])));
    }
    const uint32_t done = PrintFcts(sent, ideal, size);
    std::cout << "fluid: rate computations " << net->GetRecomputations() << " events "
              << Simulator::GetEventCount() << " wall: " << std::setprecision(3) << wall << " s"
              << std::endl;
    Simulator::Destroy();
    if (done != sent.size())
    {
        std::cerr << "error: " << sent.size() - done
                  << " flows did not complete within 10 s of simulated time" << std::endl;
        return 2;
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    // Fix the time resolution (ns, ns-3's default) now: until it is fixed, ns-3 records every
    // Time object built in a global set so that it could convert them, which costs a tree
    // insertion per Time member of the millions of objects a large fabric builds.
    Time::SetResolution(Time::NS);
    uint32_t hosts = 128;
    uint32_t planes = 1;
    uint32_t hostsPerT0 = 16;
    uint32_t t1 = 16;
    uint64_t size = 2000000;
    std::string linkRate = "100Gbps";
    std::string linkDelay = "1us";
    std::string selector = "adaptive";
    std::string cc = "nscc";
    uint32_t evSetSize = 128;
    uint32_t seed = 1;
    bool trim = true;
    bool roce = false;
    bool pfc = true;
    std::string pcap;
    uint32_t nSenders = 0;

    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("hosts", "Number of hosts", hosts);
    cmd.AddValue("planes", "Planes (NIC ports per host)", planes);
    cmd.AddValue("hostsPerT0", "Hosts per T0 switch", hostsPerT0);
    cmd.AddValue("t1", "T1 switches per plane", t1);
    cmd.AddValue("size", "Bytes each host writes", size);
    cmd.AddValue("senders",
                 "Hosts that write: every (hosts / senders)-th host, each to its partner in "
                 "the permutation (the same fabric with fewer flows at once); 0: all",
                 nSenders);
    cmd.AddValue("linkRate", "Rate of every link", linkRate);
    cmd.AddValue("linkDelay", "Delay of every link", linkDelay);
    cmd.AddValue("pathSelector", "adaptive | oblivious | single", selector);
    cmd.AddValue("cc", "nscc | fixed", cc);
    cmd.AddValue("evSetSize", "EVs per queue pair", evSetSize);
    cmd.AddValue("trim", "Switches trim (1) or drop (0)", trim);
    cmd.AddValue("seed", "Random seed", seed);
    cmd.SetRange("seed", 1, 4294967086); // MRG32k3a's seeds
    cmd.AddValue("pcap", "Write pcap files of every host port with this prefix", pcap);
    cmd.AddValue(
        "roce",
        "Run the RoCE baseline instead: ECMP-routed fabric with PFC, no trimming, one path "
        "per QP, go-back-N, DCQCN",
        roce);
    cmd.AddValue("pfc", "With --roce: PFC on the routed fabric (0: lossy, drops are real)", pfc);
    std::string model = "packet";
    cmd.AddValue("model",
                 "packet (the module's devices and transport) or fluid (flow level: max-min fair "
                 "rates, MrcFluidNetwork; --pathSelector, --cc, --evSetSize, --trim, --pcap and "
                 "--pfc do not apply)",
                 model);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }

    const std::map<std::string, std::string> selectors = {{"adaptive", "ns3::MrcAdaptiveSpray"},
                                                          {"oblivious", "ns3::MrcObliviousSpray"},
                                                          {"single", "ns3::MrcSinglePath"}};
    const std::map<std::string, std::string> ccs
        = {{"nscc", "ns3::MrcNscc"}, {"fixed", "ns3::MrcFixedWindow"}};
    if (selectors.count(selector) == 0)
    {
        std::cerr << "error: --pathSelector must be adaptive, oblivious or single (got '"
                  << selector << "')" << std::endl;
        return 1;
    }
    if (ccs.count(cc) == 0)
    {
        std::cerr << "error: --cc must be nscc or fixed (got '" << cc << "')" << std::endl;
        return 1;
    }
    if (hosts < 2 || hostsPerT0 == 0 || hosts % hostsPerT0 != 0)
    {
        std::cerr << "error: --hosts must be at least 2 and a multiple of --hostsPerT0 (got "
                  << hosts << " and " << hostsPerT0 << ")" << std::endl;
        return 1;
    }
    if (nSenders > hosts || (nSenders != 0 && hosts % nSenders != 0))
    {
        std::cerr << "error: --senders must be 0 (all hosts) or a divisor of --hosts up to "
                  << hosts << " (got " << nSenders << ")" << std::endl;
        return 1;
    }
    // Every stride-th host writes.
    const uint32_t stride = nSenders == 0 ? 1 : hosts / nSenders;
    if (size == 0 || size > 0xffffffffULL)
    {
        std::cerr << "error: --size must be between 1 and 4294967295 bytes (got " << size << ")"
                  << std::endl;
        return 1;
    }
    uint64_t bps = 0;
    Time delay;
    if (!MrcCommandLine::CheckSeed(seed)
        || !MrcCommandLine::ParseRate("linkRate", linkRate, 1e9, 1.6e12, bps)
        || !MrcCommandLine::ParseTime("linkDelay", linkDelay, 0, 1e-3, delay)
        || !MrcCommandLine::CheckRange("evSetSize", evSetSize, 1, 4096))
    {
        return 1;
    }
    if (model != "packet" && model != "fluid")
    {
        std::cerr << "error: --model must be packet or fluid (got '" << model << "')" << std::endl;
        return 1;
    }
    RngSeedManager::SetSeed(seed);
    if (model == "fluid")
    {
        return RunFluid(hosts, planes, hostsPerT0, t1, size, bps, delay, roce, stride);
    }

    // MRC, or RoCE on the same planes (one single-path queue pair per plane): MrcSchemeHelper.
    Ptr<MrcSchemeHelper> scheme = MakeScheme(hosts, planes, hostsPerT0, t1, bps, delay, roce);
    scheme->SetAttribute("Trim", BooleanValue(trim));
    scheme->SetAttribute("Pfc", BooleanValue(pfc));
    const std::string err = scheme->Validate();
    if (!err.empty())
    {
        std::cerr << "error: " << InOptionTerms(err) << std::endl;
        return 1;
    }
    MrcStackHelper& stack = scheme->GetStack();
    if (!roce)
    {
        stack.SetPathSelector(selectors.at(selector), "EvSetSize", UintegerValue(evSetSize));
        stack.SetCongestionControl(ccs.at(cc));
    }
    Ptr<MrcClosTopology> fabric = scheme->Build();
    if (!pcap.empty())
    {
        scheme->GetClosHelper()->EnablePcapHosts(pcap);
    }
    int64_t stream = 1;
    stream += scheme->AssignStreams(stream);

    // A random derangement: nobody writes to itself.
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream++);
    std::vector<uint32_t> partner(hosts);
    std::iota(partner.begin(), partner.end(), 0);
    for (uint32_t i = hosts - 1; i > 0; --i)
    {
        std::swap(partner[i], partner[rng->GetInteger(0, i - 1)]); // Sattolo: one cycle
    }

    // A RoCE NIC's QP is bound to one port: on a multi-plane fabric the baseline gives each
    // flow one QP per port and splits the bytes over them, as NCCL does with its rails. A flow
    // completes when its last QP does.
    const uint32_t qpsPerFlow = (roce || selector == "single") ? planes : 1;
    std::vector<Ptr<MrcQueuePair>> senders;
    std::vector<uint32_t> flowOf;
    std::vector<double> fct(hosts, -1);
    std::vector<uint32_t> pending(hosts, qpsPerFlow);
    // The run stops once the last flow is done: what is left then (the RoCE baseline's DCQCN
    // timers, climbing back to line rate for about a second of simulated time) changes nothing
    // the program prints but its event count and wall time.
    uint32_t flowsLeft = hosts / stride;
    auto flowDone = [&flowsLeft]()
    {
        if (--flowsLeft == 0)
        {
            Simulator::Stop();
        }
    };
    for (uint32_t h = 0; h < hosts; h += stride)
    {
        for (uint32_t k = 0; k < qpsPerFlow; ++k)
        {
            auto qps = stack.Connect(h, partner[h], qpsPerFlow > 1 ? int32_t(k) : -1);
            Ptr<MrcQueuePair> qp = qps.first;
            qp->SetSendCompletionCallback(
                MakeCallback(+[](std::vector<double>* out,
                                 std::vector<uint32_t>* left,
                                 decltype(flowDone)* done,
                                 uint32_t host,
                                 const MrcCompletion& c)
                             {
                                 if (c.status != MrcQueuePair::SUCCESS)
                                 {
                                     return; // a failed flow has no completion time
                                 }
                                 if (--(*left)[host] == 0)
                                 {
                                     (*out)[host] = c.completed.GetNanoSeconds() / 1000.0;
                                     (*done)();
                                 }
                             })
                    .Bind(&fct, &pending, &flowDone, h));
            senders.push_back(qp);
            flowOf.push_back(h);
        }
    }
    // EV transitions: to ASSUMED_BAD; held in SKIP on a suspected loss (with the EVs naming the
    // same path); released because the packet arrived after all.
    std::array<uint64_t, 3> evCounts{0, 0, 0};
    for (auto& qp : senders)
    {
        qp->GetPathSelector()->TraceConnectWithoutContext(
            "EvStateChange",
            MakeBoundCallback(
                +[](std::array<uint64_t, 3>* n, uint16_t, uint8_t, uint8_t to, uint8_t cause)
                {
                    (*n)[0] += (to == MrcPathSelector::ASSUMED_BAD) ? 1 : 0;
                    (*n)[1] += MrcPathSelector::IsHold(to, cause) ? 1 : 0;
                    (*n)[2] += (cause == MrcPathSelector::CAUSE_LATE_ARRIVAL) ? 1 : 0;
                },
                &evCounts));
    }
    for (std::size_t i = 0; i < senders.size(); ++i)
    {
        Ptr<MrcQueuePair> qp = senders[i];
        const uint32_t k = static_cast<uint32_t>(i % qpsPerFlow);
        // Split the flow's bytes over its QPs (the first ones take the remainder).
        const uint64_t part = size / qpsPerFlow + (k < size % qpsPerFlow ? 1 : 0);
        if (part == 0)
        {
            if (--pending[flowOf[i]] == 0)
            {
                flowDone(); // a flow with no bytes: nothing to wait for
            }
            continue;
        }
        Simulator::Schedule(Time(0),
                            [qp, part]()
                            {
                                qp->PostWrite(part, 0);
                            });
    }

    // A watchdog, not a deadline: a permutation ends in milliseconds of simulated time, and a
    // run still busy after 10 s (something re-arming forever) reports its unfinished flows.
    Simulator::Stop(Seconds(10));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    uint64_t dataPackets = 0;
    uint64_t retx = 0;
    uint64_t acks = 0;
    uint64_t sackLosses = 0;
    uint64_t timeouts = 0;
    uint64_t spurious = 0;
    uint32_t done = 0;
    std::vector<double> v;
    for (std::size_t i = 0; i < senders.size(); ++i)
    {
        dataPackets += senders[i]->GetDataPacketsSent();
        retx += senders[i]->GetRetransmissions();
        sackLosses += senders[i]->GetSackLosses();
        timeouts += senders[i]->GetTimeouts();
        spurious += senders[i]->GetSpuriousRetransmissions();
        Ptr<MrcL4Protocol> peer = stack.GetL4(partner[flowOf[i]]);
        acks += peer->GetQueuePair(senders[i]->GetRemoteQpn())->GetAcksSent();
    }
    uint64_t congestionDrops = 0;
    uint64_t pauses = 0;
    const NodeContainer switches = fabric->GetSwitches();
    for (uint32_t n = 0; n < switches.GetN(); ++n)
    {
        Ptr<MrcSwitchNetDevice> sw = DynamicCast<MrcSwitchNetDevice>(switches.Get(n)->GetDevice(0));
        congestionDrops += sw->GetDropped(MrcSwitchNetDevice::PFC_HEADROOM);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<MrcTrimmingQueue> q = sw->GetPort(p)->GetQueue();
            congestionDrops += q->GetDropped(MrcTrimmingQueue::DATA_OVERFLOW)
                             + q->GetDropped(MrcTrimmingQueue::CONTROL_OVERFLOW)
                             + q->GetDropped(MrcTrimmingQueue::TRIMMED_OVERFLOW);
            pauses += sw->GetPort(p)->GetPausesSent();
        }
    }
    // On the routed fabric: how many QPs share the busiest link of each QP's hashed path (its
    // T0 uplink or the T1's downlink to the destination T0), so that slow flows can be told
    // apart: collided on a link, or slowed by something else.
    std::vector<uint32_t> collision(hosts, 1);
    if (roce && fabric->GetNTiers() == 2)
    {
        std::map<std::tuple<uint32_t, uint32_t, uint32_t, bool>, uint32_t> load;
        std::vector<std::vector<std::tuple<uint32_t, uint32_t, uint32_t, bool>>> links(
            senders.size());
        for (std::size_t i = 0; i < senders.size(); ++i)
        {
            const uint32_t src = flowOf[i];
            const uint32_t dst = partner[src];
            const uint32_t plane = senders[i]->GetPathSelector()->GetEv(0).plane;
            const uint32_t a = fabric->GetT0Of(src);
            const uint32_t b = fabric->GetT0Of(dst);
            if (a == b)
            {
                continue;
            }
            const uint16_t port
                = fabric->GetT0(plane, a)->GetEcmpEgress(fabric->GetHostAddress(src, plane),
                                                         fabric->GetHostAddress(dst, plane),
                                                         senders[i]->GetFlowLabel(0));
            const uint32_t t1 = port - hostsPerT0;
            links[i] = {{plane, a, t1, true}, {plane, b, t1, false}};
            for (const auto& l : links[i])
            {
                ++load[l];
            }
        }
        for (std::size_t i = 0; i < senders.size(); ++i)
        {
            for (const auto& l : links[i])
            {
                collision[flowOf[i]] = std::max(collision[flowOf[i]], load[l]);
            }
        }
    }
    std::vector<uint32_t> flows; // the writing hosts
    std::vector<double> sent;    // their completion times
    std::vector<double> ideal;   // and ideals
    for (uint32_t h = 0; h < hosts; h += stride)
    {
        flows.push_back(h);
        sent.push_back(fct[h]);
        ideal.push_back(
            IdealFctUs(size, bps, planes, fabric->GetBaseRtt(LastFrameBytes(size), h, partner[h])));
    }
    const uint64_t trims = fabric->GetTrimmedTotal();
    done = PrintFcts(sent, ideal, size);
    for (double f : fct)
    {
        if (f >= 0)
        {
            v.push_back(f);
        }
    }
    std::sort(v.begin(), v.end());
    if (roce && fabric->GetNTiers() == 2 && !v.empty())
    {
        // The slowest flows against their collision bound: k QPs on one link get 1/k of it.
        std::vector<uint32_t> order(flows);
        std::sort(order.begin(),
                  order.end(),
                  [&fct](uint32_t x, uint32_t y)
                  {
                      return fct[x] > fct[y];
                  });
        std::map<uint32_t, uint32_t> hist;
        for (uint32_t h : flows)
        {
            ++hist[collision[h]];
        }
        std::cout << "ecmp collisions (flows by the most QPs on one link of their path):";
        for (const auto& kv : hist)
        {
            std::cout << " " << kv.first << "x:" << kv.second;
        }
        std::cout << std::endl << "slowest flows (fct/ideal, collision):";
        for (uint32_t r = 0; r < std::min<uint32_t>(5, order.size()); ++r)
        {
            const uint32_t h = order[r];
            std::cout << " " << std::setprecision(2) << fct[h] / ideal[h / stride] << "x/"
                      << collision[h];
        }
        std::cout << std::setprecision(1) << std::endl;
    }
    std::cout << "qps per flow: " << qpsPerFlow << " congestion drops: " << congestionDrops
              << " pfc pauses: " << pauses << std::endl;
    std::cout << "data packets: " << dataPackets << " acks: " << acks
              << " retransmissions: " << retx << " trims: " << trims
              << " events: " << Simulator::GetEventCount() << " wall: " << std::setprecision(3)
              << wall << " s" << std::endl;
    std::cout << "loss detection: out-of-order " << sackLosses << " timeouts " << timeouts
              << " spurious " << spurious << " ev-retirements " << evCounts[0] << " ev-holds "
              << evCounts[1] << " released " << evCounts[2] << std::endl;
    std::cout << std::setprecision(0) << "data-packets-per-wall-second: " << dataPackets / wall
              << std::endl;
    Simulator::Destroy();
    if (done != flows.size())
    {
        std::cerr << "error: " << flows.size() - done
                  << " flows did not complete within 10 s of simulated time" << std::endl;
        return 2;
    }
    return 0;
}
