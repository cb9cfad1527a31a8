/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * The MRC paper's point-to-point anchors (its Cluster B, ib_write_lat and ib_write_bw) on one of
 * the paper's clusters (MrcClusterPreset): the one-way latency of a small RDMA write, half the
 * time of a ping-pong in which each side writes once it has seen the other's write, within a T0
 * (host 0 and host 1) and across a T1 (host 0 and the first host of the next T0); and the rate of
 * back-to-back writes over several queue pairs, both ways at once.
 *
 *   ./ns3 run "mrc-ib-write"                        # Cluster B, MRC: P1, P2, P3
 *   ./ns3 run "mrc-ib-write --cluster=B --scheme=roce --latSize=2 --bwSize=32768 --qps=4"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/**
 * @param cluster the cluster's preset
 * @param scheme mrc or roce
 * @return the builder of the cluster's fabric
 */
Ptr<MrcSchemeHelper>
MakeCluster(const std::string& cluster, const std::string& scheme)
{
    Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
    std::string err;
    MrcClusterPreset::Apply(cluster, s, err);
    s->SetAttribute("Scheme", StringValue(scheme));
    return s;
}

/** A fabric for one measurement. */
Ptr<MrcClosTopology>
BuildCluster(const std::string& cluster, const std::string& scheme)
{
    Ptr<MrcSchemeHelper> s = MakeCluster(cluster, scheme);
    Ptr<MrcClosTopology> fabric = s->Build();
    s->AssignStreams(1);
    return fabric;
}

/** The ping-pong of ib_write_lat between two hosts. */
struct PingPong
{
    Ptr<MrcQueuePair> a; //!< host a's queue pair
    Ptr<MrcQueuePair> b; //!< host b's queue pair
    uint64_t size;       //!< bytes per write
    uint32_t left;       //!< round trips still to make
    Time start;          //!< when the first write was posted

    /** The first write. */
    void Begin()
    {
        start = Simulator::Now();
        a->PostWrite(size, 0);
    }

    /** Host b saw a's write: it writes back. */
    void AtB(const MrcCompletion&)
    {
        b->PostWrite(size, 0);
    }

    /** Host a saw b's write: the round trip is over. */
    void AtA(const MrcCompletion&)
    {
        if (--left > 0)
        {
            a->PostWrite(size, 0);
        }
        else
        {
            Simulator::Stop();
        }
    }
};

/**
 * @return one-way latency in microseconds: half the mean round trip of @p iters ping-pongs
 */
double
Latency(const std::string& cluster,
        const std::string& scheme,
        uint32_t peer,
        uint64_t size,
        uint32_t iters)
{
    Ptr<MrcClosTopology> fabric = BuildCluster(cluster, scheme);
    Ptr<MrcL4Protocol> la = fabric->GetHost(0)->GetObject<MrcL4Protocol>();
    Ptr<MrcL4Protocol> lb = fabric->GetHost(peer)->GetObject<MrcL4Protocol>();
    PingPong pp;
    std::tie(pp.a, pp.b) = la->ConnectPair(lb);
    pp.size = size;
    pp.left = iters;
    pp.b->SetRecvCompletionCallback(MakeCallback(&PingPong::AtB, &pp));
    pp.a->SetRecvCompletionCallback(MakeCallback(&PingPong::AtA, &pp));
    Simulator::Schedule(MicroSeconds(1), &PingPong::Begin, &pp);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const double us = (Simulator::Now() - pp.start).GetNanoSeconds() / 1000.0;
    const bool done = pp.left == 0;
    Simulator::Destroy();
    return done ? us / (2.0 * iters) : NAN;
}

/** What the receivers of the bandwidth test saw. */
struct Received
{
    uint64_t bytes{0}; //!< bytes of the writes seen
    Time last{0};      //!< when the last one was seen

    /** A write was seen. @param c its completion */
    void Seen(const MrcCompletion& c)
    {
        bytes += c.bytes;
        last = Simulator::Now();
    }
};

/**
 * @return the rate each way, Gb/s: writes of @p size back to back on @p qps queue pairs from
 * each host to the other, bytes received over the time from the first post to the last write
 * seen
 */
double
Bandwidth(const std::string& cluster,
          const std::string& scheme,
          uint32_t peer,
          uint64_t size,
          uint32_t qps,
          uint32_t writes)
{
    Ptr<MrcClosTopology> fabric = BuildCluster(cluster, scheme);
    Ptr<MrcL4Protocol> la = fabric->GetHost(0)->GetObject<MrcL4Protocol>();
    Ptr<MrcL4Protocol> lb = fabric->GetHost(peer)->GetObject<MrcL4Protocol>();
    Received got;
    std::vector<Ptr<MrcQueuePair>> keep;
    for (uint32_t q = 0; q < qps; ++q)
    {
        for (int dir = 0; dir < 2; ++dir)
        {
            auto [s, r] = dir == 0 ? la->ConnectPair(lb) : lb->ConnectPair(la);
            r->SetRecvCompletionCallback(MakeCallback(&Received::Seen, &got));
            for (uint32_t k = 0; k < writes; ++k)
            {
                s->PostWrite(size, 0);
            }
            keep.push_back(s);
            keep.push_back(r);
        }
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Simulator::Destroy();
    const double expected = 2.0 * qps * writes * size;
    if (double(got.bytes) < expected || !got.last.IsStrictlyPositive())
    {
        return NAN;
    }
    return got.bytes / 2.0 * 8 / got.last.GetSeconds() / 1e9;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string cluster = "B";
    std::string scheme = "mrc";
    uint64_t latSize = 2;
    uint64_t bwSize = 32768;
    uint32_t qps = 4;
    uint32_t iters = 100;
    uint32_t writes = 400;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("cluster", "The paper's cluster (MrcClusterPreset): B, C or D", cluster);
    cmd.AddValue("scheme", "mrc or roce", scheme);
    cmd.AddValue("latSize", "Bytes per write of the latency test (ib_write_lat -s)", latSize);
    cmd.AddValue("bwSize", "Bytes per write of the bandwidth test (ib_write_bw -s)", bwSize);
    cmd.AddValue("qps", "Queue pairs each way of the bandwidth test (ib_write_bw -q)", qps);
    cmd.AddValue("iters", "Round trips of the latency test", iters);
    cmd.AddValue("writes", "Writes per queue pair of the bandwidth test", writes);
    if (!cmd.Parse(argc, argv))
    {
        return 1;
    }
    auto bad = [](const std::string& what)
    {
        std::cerr << "error: " << what << std::endl;
        return 1;
    };
    if (MrcClusterPreset::Find(cluster) == nullptr)
    {
        return bad("--cluster must be one of B, C, D (got '" + cluster + "')");
    }
    if (scheme != "mrc" && scheme != "roce")
    {
        return bad("--scheme must be one of mrc, roce (got '" + scheme + "')");
    }
    if (latSize < 1 || bwSize < 1 || latSize > (1u << 30) || bwSize > (1u << 30))
    {
        return bad("--latSize and --bwSize must be 1 to 1073741824 bytes");
    }
    if (qps < 1 || qps > 64 || iters < 1 || iters > 100000 || writes < 1 || writes > 100000)
    {
        return bad("--qps must be 1 to 64, --iters and --writes 1 to 100000");
    }
    if (const std::string err = MakeCluster(cluster, scheme)->Validate(); !err.empty())
    {
        return bad(err); // an --ns3::... value
    }
    const auto* c = MrcClusterPreset::Find(cluster);
    const uint32_t near = 1;
    const uint32_t far = c->hostsPerT0;
    const double p1 = Latency(cluster, scheme, near, latSize, iters);
    const double p2 = Latency(cluster, scheme, far, latSize, iters);
    const double b1 = Bandwidth(cluster, scheme, near, bwSize, qps, writes);
    const double b2 = Bandwidth(cluster, scheme, far, bwSize, qps, writes);
    std::cout << "cluster " << cluster << " (" << c->what << "), " << scheme << std::endl;
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "P1 one-way latency, " << latSize << " B, same T0 (us):    " << p1
              << "   (paper, Cluster B: 5.09)" << std::endl;
    std::cout << "P2 one-way latency, " << latSize << " B, across a T1 (us): " << p2
              << "   (paper, Cluster B: 6.54)" << std::endl;
    std::cout << std::setprecision(1);
    std::cout << "P3 rate each way, " << qps << " QPs x " << bwSize
              << " B, same T0 (Gb/s):    " << b1 << "   (paper, Cluster B: about 770)" << std::endl;
    std::cout << "P3 rate each way, " << qps << " QPs x " << bwSize
              << " B, across a T1 (Gb/s): " << b2 << "   (paper, Cluster B: about 770)"
              << std::endl;
    return 0;
}
