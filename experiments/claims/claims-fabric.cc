/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Claims about the fabric: C1 (two tiers reach 131,072 GPUs) and C11 (traffic stays
 * under one T0).
 */

#include "ns3/mrc-fabric-size.h"

#include "claims.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace claims
{

ClaimReport
ClaimC1(Context& ctx)
{
    ClaimReport c;
    c.id = "C1";
    c.claim = "8 planes of 512x100G switches connect about 131,072 GPUs in 2 tiers; 800G needs 3 "
              "to 4 tiers";
    c.baselineName = "single plane of 64x800G switches (the same switch bandwidth)";
    c.kind = "structural";
    MrcFabricSize multi;
    NS_ABORT_UNLESS(MrcFabricSize::Compute("multi-plane", 8, 2, 512, 100, multi));
    MrcFabricSize single;
    Figure f;
    f.title = "NICs a folded Clos reaches, by tiers";
    f.xlabel = "switch tiers";
    f.ylabel = "NICs";
    f.logy = true;
    Series sm{"8 planes of 512x100G", {}, {}};
    Series sb{"1 plane of 64x800G", {}, {}};
    int64_t tiersB = 0;
    for (int64_t t = 1; t <= MrcFabricSize::MAX_TIERS; ++t)
    {
        MrcFabricSize a;
        MrcFabricSize b;
        NS_ABORT_UNLESS(MrcFabricSize::Compute("multi-plane", 8, t, 512, 100, a));
        NS_ABORT_UNLESS(MrcFabricSize::Compute("single-plane", 1, t, 64, 800, b));
        sm.x.push_back(t);
        sm.y.push_back(a.nics);
        sb.x.push_back(t);
        sb.y.push_back(b.nics);
        if (tiersB == 0 && b.nics >= multi.nics)
        {
            tiersB = t;
            single = b;
        }
    }
    f.series = {sm, sb};
    c.figures.push_back(f);
    MrcFabricSize singleAt2;
    NS_ABORT_UNLESS(MrcFabricSize::Compute("single-plane", 1, 2, 64, 800, singleAt2));
    c.Check("NICs reached with 2 tiers",
            "",
            multi.nics,
            singleAt2.nics,
            "MRC >= 131,072",
            multi.nics >= 131072,
            "paper: 131,072 NICs in two tiers (arithmetic: 2 (R/2)^t NICs)");
    c.Check("tiers needed for that many NICs",
            "",
            2,
            tiersB,
            "MRC 2; baseline 3 or 4",
            tiersB >= 3 && tiersB <= 4,
            "paper: an 800G single-plane design needs 3 to 4 tiers");
    c.Info("switches", "", multi.switchesTotal, single.switchesTotal);
    c.Info("switch-to-switch links",
           "",
           multi.links - multi.hostLinks,
           single.links - single.hostLinks);
    c.Info("optics (two per switch-to-switch link)",
           "",
           2.0 * (multi.links - multi.hostLinks),
           2.0 * (single.links - single.hostLinks));
    c.Info("NIC-to-T0 links", "", multi.hostLinks, single.hostLinks);
    // The formula against a fabric the simulator builds: 2 planes of radix-8 switches, 2 tiers.
    MrcFabricSize small;
    NS_ABORT_UNLESS(MrcFabricSize::Compute("multi-plane", 2, 2, 8, 100, small));
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(2));
    clos->SetAttribute("HostsPerT0", UintegerValue(4));
    clos->SetAttribute("T0sPerPlane", UintegerValue(8));
    clos->SetAttribute("T1sPerPlane", UintegerValue(4));
    clos->SetAttribute("SwitchRadix", UintegerValue(8));
    if (const std::string bad = clos->Validate(); !bad.empty())
    {
        throw evidence::BadInput(bad);
    }
    Ptr<MrcClosTopology> built = clos->Build();
    const bool same = built->GetNHosts() == uint64_t(small.nics)
                   && built->GetSwitches().GetN() == uint64_t(small.switchesTotal);
    c.Check("built fabric (2 planes, radix 8) matches the formula's NICs and switches",
            "",
            built->GetSwitches().GetN(),
            small.switchesTotal,
            "equal",
            same,
            "arithmetic: the formula against the fabric MrcClosHelper builds");
    Simulator::Destroy();
    ++ctx.runs;
    c.notes.push_back("Arithmetic (MrcFabricSize, as mrc-fabric-sizing prints it): a folded "
                      "Clos of t tiers of radix-R switches reaches 2 (R/2)^t NICs. The "
                      "single-plane switch has the same bandwidth: 512 x 100G = 64 x 800G. The "
                      "last check builds a small fabric with MrcClosHelper and compares. Optics "
                      "count every switch-to-switch link twice (NIC-to-T0 links are often "
                      "copper); the multi-plane design's are 100G, the single-plane's 800G.");
    return c;
}

FabricSpec
LargeT0Fabric(const FabricSpec& training)
{
    FabricSpec fab = training;
    const uint32_t perT0M = std::min(fab.hosts / 2, 256u);
    fab.hostsPerT0 = perT0M;
    fab.t1 = perT0M;
    fab.baselineHostsPerT0 = std::max(1u, perT0M / fab.planes);
    fab.baselineT1 = fab.baselineHostsPerT0;
    return fab;
}

ClaimReport
ClaimC11(Context& ctx)
{
    ClaimReport c;
    c.id = "C11";
    c.claim = "More traffic stays under one T0 with 512-port T0s";
    c.baselineName = "single plane: T0s of the same switch bandwidth, 1/planes as many (faster) "
                     "ports";
    c.kind = "structural";
    // The same switch bandwidth per T0: MRC's T0 has planes times as many host ports.
    const FabricSpec fab = LargeT0Fabric(ctx.scale.fabric);
    const uint32_t perT0M = fab.hostsPerT0;
    c.Info("hosts per T0", "", perT0M, fab.baselineHostsPerT0);
    // Jobs as a scheduler places them: two jobs on random disjoint halves of the hosts, each
    // running one step of a collective; the share of the bytes the NICs send that the T0s send
    // up to the T1s.
    Figure f;
    f.kind = "bar";
    f.title = "Share of bytes that leave the T0 (two jobs, random placement)";
    f.ylabel = "bytes crossing T1 / bytes sent";
    Series sm{"mrc", {}, {}};
    Series sb{"roce", {}, {}};
    uint32_t x = 0;
    for (const auto type : {MrcCollective::RING_ALLREDUCE, MrcCollective::ALLTOALL})
    {
        JobSpec job = ctx.scale.job;
        job.collective = type;
        job.jobs = 2;
        job.placement = "random";
        job.steps = 1;
        if (type == MrcCollective::ALLTOALL)
        {
            job.bytes = std::max<uint64_t>(job.bytes / 4, 4096ull * fab.hosts);
        }
        const std::string name = MrcCollective::TypeName(type);
        const TrainingResult& m = ctx.Training("two jobs, " + name, MRC, fab, job, FaultPlan());
        const TrainingResult& b = ctx.Training("two jobs, " + name, ROCE, fab, job, FaultPlan());
        const double shareM = double(m.uplinkBytes) / m.hostBytes;
        const double shareB = double(b.uplinkBytes) / b.hostBytes;
        c.Check(name + ": share of bytes crossing T1",
                "",
                shareM,
                shareB,
                "MRC < baseline",
                shareM < shareB,
                "structural: a T0 with planes times as many hosts holds more of a job's ranks");
        f.categories.push_back(name);
        sm.x.push_back(x);
        sm.y.push_back(shareM);
        sb.x.push_back(x);
        sb.y.push_back(shareB);
        ++x;
    }
    // The paper's T0s: 256 hosts per T0 (512 ports, half up) against 32 (64 ports at 800G).
    const double jobRanks = 4096;
    c.Info("paper's T0s: contiguous ring all-reduce, share crossing T1", "", 1.0 / 256, 1.0 / 32);
    c.Info("paper's T0s: all-to-all over 4096 GPUs, share crossing T1",
           "",
           1 - 255.0 / (jobRanks - 1),
           1 - 31.0 / (jobRanks - 1));
    f.series = {sm, sb};
    c.figures.push_back(f);
    c.notes.push_back(
        "Simulated: two jobs of half the hosts each, placed at random (a scheduler filling free "
        "hosts), one step each of a ring all-reduce and of an all-to-all, on T0s of "
        + std::to_string(perT0M) + " hosts (MRC) and " + std::to_string(fab.baselineHostsPerT0)
        + " hosts (single plane at " + std::to_string(fab.planes)
        + "x the rate): bytes the T0s send up over bytes the NICs send. No transport mutant "
          "changes where a job's ranks sit, so this claim's checks are structural. The paper's "
          "T0 rows are arithmetic: a contiguous ring crosses a T0 boundary once per T0; an "
          "all-to-all sends all but (hosts per T0 - 1) / (ranks - 1) of its bytes up.");
    return c;
}

} // namespace claims
} // namespace ns3
