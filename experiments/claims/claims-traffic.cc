/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Claims about traffic: C6 (ECMP collisions), C7 (incast and job isolation), C9
 * (trimming), C10 (throughput variance), C12 (multi-plane RoCE).
 */

#include "claims.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace ns3
{
namespace claims
{

namespace
{

/**
 * @param fab fabric
 * @return a host's NIC rate, Gb/s
 */
double
NicGbps(const FabricSpec& fab)
{
    return DataRate(fab.planeRate).GetBitRate() * 1e-9 * fab.planes;
}

/**
 * A CDF series of values.
 * @param name legend
 * @param v values
 * @return the series (x: value, y: fraction at or below)
 */
Series
Cdf(const std::string& name, std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    Series s{name, {}, {}};
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        s.x.push_back(v[i]);
        s.y.push_back(double(i + 1) / v.size());
    }
    return s;
}

/**
 * @param fcts completion times, us
 * @param bytes bytes per flow
 * @param nicGbps NIC rate
 * @return throughput / NIC rate per completed flow
 */
std::vector<double>
Normalised(const std::vector<double>& fcts, uint64_t bytes, double nicGbps)
{
    std::vector<double> out;
    for (double us : fcts)
    {
        if (!std::isnan(us) && us > 0)
        {
            out.push_back(bytes * 8.0 / (us * 1e3) / nicGbps);
        }
    }
    return out;
}

} // namespace

ClaimReport
ClaimC6(Context& ctx)
{
    ClaimReport c;
    c.id = "C6";
    c.claim = "Single-path flows collide (ECMP) and get 1/2 to 1/3 of line rate; spraying gives "
              "every flow line rate";
    c.baselineName = "RoCE: one path per flow (ECMP hash), one plane";
    const Scale& s = ctx.scale;
    FabricSpec fab = s.fabric;
    fab.hosts = s.permHosts;
    fab.hostsPerT0 = s.permPerT0;
    fab.t1 = s.permPerT0; // non-blocking
    // A random permutation in which every host sends to a host under another T0.
    std::mt19937 rng(ctx.seed);
    std::vector<uint32_t> dst(fab.hosts);
    for (uint32_t tries = 0;; ++tries)
    {
        std::iota(dst.begin(), dst.end(), 0);
        std::shuffle(dst.begin(), dst.end(), rng);
        bool ok = true;
        for (uint32_t h = 0; h < fab.hosts && ok; ++h)
        {
            ok = dst[h] / fab.hostsPerT0 != h / fab.hostsPerT0;
        }
        if (ok || tries > 10000)
        {
            break;
        }
    }
    FlowRun run;
    for (uint32_t h = 0; h < fab.hosts; ++h)
    {
        run.flows.push_back(FlowSpec{h, dst[h], s.permBytes, 0});
    }
    const FlowResult m = ctx.Flows(MRC, fab, run, FaultPlan());
    const FlowResult b = ctx.Flows(ROCE, fab, run, FaultPlan());
    const double nic = NicGbps(fab);
    const auto nm = Normalised(m.fctUs, s.permBytes, nic);
    const auto nb = Normalised(b.fctUs, s.permBytes, nic);
    // The permutation's best case: every flow alone on its path.
    FlowRun alone;
    alone.flows.push_back(run.flows[0]);
    const FlowResult a = ctx.Flows(MRC, fab, alone, FaultPlan());
    const double ideal = s.permBytes * 8.0 / (a.fctUs[0] * 1e3) / nic;
    auto below = [](const std::vector<double>& v, double x)
    {
        return v.empty() ? NAN
                         : double(std::count_if(v.begin(),
                                                v.end(),
                                                [x](double y)
                                                {
                                                    return y < x;
                                                }))
                               / v.size();
    };
    std::vector<double> collided;
    for (double x : nb)
    {
        if (x < 0.75 * ideal)
        {
            collided.push_back(x);
        }
    }
    c.Info("a flow alone: throughput / line rate", "", ideal, NAN);
    c.Info("median flow / line rate", "", Quantile(nm, 0.5), Quantile(nb, 0.5));
    c.Check("share of flows below 0.6 x line rate",
            "",
            below(nm, 0.6),
            below(nb, 0.6),
            "baseline >= 0.1 (collisions happen)",
            below(nb, 0.6) >= 0.1);
    c.Check("median collided flow (below 0.75 x alone) / line rate",
            "",
            NAN,
            Quantile(collided, 0.5),
            "baseline in [0.25, 0.6] (1/2 to 1/3)",
            Quantile(collided, 0.5) >= 0.25 && Quantile(collided, 0.5) <= 0.6);
    c.Check("slowest flow / line rate",
            "",
            Quantile(nm, 0),
            Quantile(nb, 0),
            "MRC >= 0.8 x a flow alone",
            Quantile(nm, 0) >= 0.8 * ideal);
    c.Info("PFC pauses", "", m.pauses, b.pauses);
    Figure f;
    f.kind = "cdf";
    f.title = "Permutation: per-flow throughput";
    f.xlabel = "throughput / line rate";
    f.ylabel = "fraction of flows";
    f.series = {Cdf("mrc", nm), Cdf("roce", nb)};
    c.figures.push_back(f);
    c.notes.push_back("Permutation: " + std::to_string(fab.hosts) + " hosts, "
                      + std::to_string(fab.hostsPerT0)
                      + " per T0, as many T1s (non-blocking), "
                        "each sending "
                      + std::to_string(s.permBytes)
                      + " bytes to a host under "
                        "another T0 (a random permutation). MRC sprays over "
                      + std::to_string(fab.planes)
                      + " planes; the baseline hashes each flow onto "
                        "one path of its single plane. Throughput: bytes x 8 / completion time.");
    return c;
}

ClaimReport
ClaimC7(Context& ctx)
{
    ClaimReport c;
    c.id = "C7";
    c.claim = "Unavoidable incast does not slow unrelated flows; jobs sharing the cluster do not "
              "disturb each other";
    c.baselineName = "RoCE with PFC";
    const FabricSpec& fab = ctx.scale.fabric;
    const uint32_t k = fab.hostsPerT0;
    // Two T0s joined by one T1 per plane, so that the victim shares its T1 -> T0 0 link with
    // the incast's remote burst whatever the hashing (as in the mrc-baseline victim test).
    // T0 0: host 0 receives the incast, host 1 the victim; T0 1: the remote sender, the
    // victim's source.
    FabricSpec incastFab = fab;
    incastFab.hosts = 2 * k;
    incastFab.t1 = 1;
    auto victim = [&](Scheme scheme, bool incast)
    {
        FlowRun run;
        run.flows.push_back(FlowSpec{k + 1, 1, 1000000, 40});
        if (incast)
        {
            for (uint32_t h = 2; h < k; ++h)
            {
                run.flows.push_back(FlowSpec{h, 0, 6000000, 0});
            }
            // One remote burst: it crosses the T1 -> T0 0 link the victim needs, and is done
            // with it before the victim starts.
            run.flows.push_back(FlowSpec{k, 0, 300000ull * fab.planes, 0});
        }
        const FlowResult r = ctx.Flows(scheme, incastFab, run, FaultPlan());
        return r.fctUs[0];
    };
    const double aloneM = victim(MRC, false);
    const double withM = victim(MRC, true);
    const double aloneB = victim(ROCE, false);
    const double withB = victim(ROCE, true);
    c.Info("victim alone", "us", aloneM, aloneB);
    c.Info("victim beside the incast", "us", withM, withB);
    c.Check("victim slowdown from the incast",
            "",
            withM / aloneM,
            withB / aloneB,
            "MRC <= 1.1",
            withM / aloneM <= 1.1);
    // Two jobs on interleaved halves of the cluster.
    JobSpec two = ctx.scale.job;
    two.jobs = 2;
    two.placement = "random";
    JobSpec first = two;
    first.onlyJob = 0;
    const TrainingResult& togetherM = ctx.Training("", MRC, fab, two, FaultPlan());
    const TrainingResult& aloneJM = ctx.Training("", MRC, fab, first, FaultPlan());
    const TrainingResult& togetherB = ctx.Training("", ROCE, fab, two, FaultPlan());
    const TrainingResult& aloneJB = ctx.Training("", ROCE, fab, first, FaultPlan());
    const double rM = togetherM.jobMeanUs[0] / aloneJM.jobMeanUs[0];
    const double rB = togetherB.jobMeanUs[0] / aloneJB.jobMeanUs[0];
    c.Info("job 0 mean step alone", "us", aloneJM.jobMeanUs[0], aloneJB.jobMeanUs[0]);
    c.Check("job 0 mean step beside job 1 / alone", "", rM, rB, "MRC <= 1.1", rM <= 1.1);
    Figure f;
    f.kind = "bar";
    f.title = "Slowdown of an unrelated flow (incast) and of a job (a second job)";
    f.ylabel = "with / alone";
    f.categories = {"victim flow", "job 0 step"};
    f.series = {Series{"mrc", {0, 1}, {withM / aloneM, rM}},
                Series{"roce", {0, 1}, {withB / aloneB, rB}}};
    c.figures.push_back(f);
    c.notes.push_back(
        "Incast: hosts 2.." + std::to_string(k - 1) + " of T0 0 send 6 MB each to host 0, and host "
        + std::to_string(k)
        + " (T0 1) a burst of 300 kB x planes (as long as 300 kB at 100G); the victim, host "
        + std::to_string(k + 1)
        + " to host 1 (1 MB at 40 us), shares no congested port with them, only the T1 -> T0 0 "
          "link the burst crossed before it started (a fabric of two T0s and one T1 per plane, "
          "so that this holds whatever the hashing, as in the mrc-baseline victim test). Jobs: "
          "two copies of the training job on random disjoint halves of the hosts.");
    return c;
}

ClaimReport
ClaimC9(Context& ctx)
{
    ClaimReport c;
    c.id = "C9";
    c.claim = "Trimming keeps congestion from being mistaken for failure";
    c.baselineName = "MRC on drop-only switches (no trimming)";
    FabricSpec fab = ctx.scale.fabric;
    FlowRun run;
    for (uint32_t h = 1; h <= ctx.scale.incastSenders; ++h)
    {
        run.flows.push_back(FlowSpec{h, 0, ctx.scale.incastBytes, 0});
    }
    const FlowResult t = ctx.Flows(MRC, fab, run, FaultPlan());
    fab.trim = false;
    const FlowResult d = ctx.Flows(MRC, fab, run, FaultPlan());
    c.Check("EV retirements (congestion taken for failure)",
            "",
            t.retirements,
            d.retirements,
            "trimming: 0, and fewer than drop-only",
            t.retirements == 0 && t.retirements < d.retirements);
    for (uint8_t cause : {MrcPathSelector::CAUSE_TIMEOUT, MrcPathSelector::CAUSE_SACK_LOSS})
    {
        c.Info(std::string("EV retirements caused by ") + MrcPathSelector::CauseName(cause),
               "",
               t.retireCauses[cause],
               d.retireCauses[cause]);
    }
    c.Info("RTO expiries", "", t.timeouts, d.timeouts);
    c.Info("trimmed packets", "", t.trims, d.trims);
    c.Info("retransmissions", "", t.retx, d.retx);
    c.Check("incast completion (last flow)",
            "us",
            Quantile(t.fctUs, 1),
            Quantile(d.fctUs, 1),
            "trimming <= drop-only",
            Quantile(t.fctUs, 1) <= Quantile(d.fctUs, 1));
    Figure f;
    f.kind = "bar";
    f.title = "Incast: EVs retired and timeouts";
    f.ylabel = "count";
    f.categories = {"EV retirements", "RTO expiries"};
    f.series = {Series{"trimming", {0, 1}, {double(t.retirements), double(t.timeouts)}},
                Series{"drop-only", {0, 1}, {double(d.retirements), double(d.timeouts)}}};
    c.figures.push_back(f);
    c.notes.push_back(std::to_string(ctx.scale.incastSenders) + " hosts send "
                      + std::to_string(ctx.scale.incastBytes) + " bytes each to host 0 at once.");
    return c;
}

ClaimReport
ClaimC10(Context& ctx)
{
    ClaimReport c;
    c.id = "C10";
    c.claim = "Spraying sharply lowers throughput variance across the flows of a synchronous "
              "job";
    c.baselineName = "RoCE: one plane, ECMP, PFC";
    const TrainingResult& m = ctx.BandwidthReference(MRC);
    const TrainingResult& b = ctx.BandwidthReference(ROCE);
    c.Check("per-transfer throughput CoV",
            "",
            Cov(m.flowGbps),
            Cov(b.flowGbps),
            "MRC <= 0.5 x baseline",
            Cov(m.flowGbps) <= 0.5 * Cov(b.flowGbps));
    c.Check("Jain's index",
            "",
            Jain(m.flowGbps),
            Jain(b.flowGbps),
            "MRC >= baseline",
            Jain(m.flowGbps) >= Jain(b.flowGbps));
    c.Info("min / max transfer throughput",
           "",
           Quantile(m.flowGbps, 0) / Quantile(m.flowGbps, 1),
           Quantile(b.flowGbps, 0) / Quantile(b.flowGbps, 1));
    c.Info("step-time CoV", "", Cov(m.stepUs), Cov(b.stepUs));
    c.Info("mean step", "us", Mean(m.stepUs), Mean(b.stepUs));
    const double nic = NicGbps(ctx.scale.fabric);
    std::vector<double> nm;
    std::vector<double> nb;
    for (double x : m.flowGbps)
    {
        nm.push_back(x / nic);
    }
    for (double x : b.flowGbps)
    {
        nb.push_back(x / nic);
    }
    Figure f;
    f.kind = "cdf";
    f.title = "Training job (fault-free): per-transfer throughput";
    f.xlabel = "throughput / NIC rate";
    f.ylabel = "fraction of transfers";
    f.series = {Cdf("mrc", nm), Cdf("roce", nb)};
    c.figures.push_back(f);
    c.notes.push_back("The bandwidth-bound training job of this scale (ring all-reduce of "
                      + std::to_string(ctx.scale.bwJob.bytes)
                      + " bytes, ranks placed at random, "
                        "as a scheduler scatters them), fault-free, every transfer of every step. "
                        "A transfer's throughput is bytes x 8 / (send completion - post): it "
                        "includes waiting for the receiver, as NCCL's would.");
    return c;
}

ClaimReport
ClaimC12(Context& ctx)
{
    ClaimReport c;
    c.id = "C12";
    c.claim = "A multi-plane fabric without a multipath transport congests badly and performs "
              "poorly";
    c.baselineName = "RoCE on MRC's planes: one single-path QP per NIC port";
    const FabricSpec& fab = ctx.scale.fabric;
    const TrainingResult& m = ctx.BandwidthReference(MRC);
    const TrainingResult& single = ctx.BandwidthReference(ROCE);
    const TrainingResult& multi = ctx.BandwidthReference(ROCE_MULTIPLANE);
    c.Check("mean step",
            "us",
            Mean(m.stepUs),
            Mean(multi.stepUs),
            "baseline >= 1.1 x MRC",
            Mean(multi.stepUs) >= 1.1 * Mean(m.stepUs));
    c.Info("mean step, single-plane RoCE", "us", NAN, Mean(single.stepUs));
    c.Check("per-transfer throughput CoV",
            "",
            Cov(m.flowGbps),
            Cov(multi.flowGbps),
            "baseline > MRC",
            Cov(multi.flowGbps) > Cov(m.flowGbps));
    c.Info("PFC pauses sent", "", m.pauses, multi.pauses);
    c.Info("PFC pauses sent, single-plane RoCE", "", NAN, single.pauses);
    Figure f;
    f.kind = "bar";
    f.title = "Mean step time, same job and host bandwidth";
    f.ylabel = "mean step (us)";
    f.categories = {"mrc", "roce multi-plane", "roce single-plane"};
    f.series = {
        Series{"mean step", {0, 1, 2}, {Mean(m.stepUs), Mean(multi.stepUs), Mean(single.stepUs)}}};
    c.figures.push_back(f);
    c.notes.push_back("The bandwidth-bound training job (as C10) on " + std::to_string(fab.planes)
                      + " planes: MRC sprays; multi-plane RoCE gives each NIC port its own QP "
                        "(NCCL's rails), each hashed onto one path of its plane, the message split "
                        "evenly; single-plane RoCE is the usual baseline.");
    return c;
}

} // namespace claims
} // namespace ns3
