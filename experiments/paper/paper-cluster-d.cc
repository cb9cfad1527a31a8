/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The paper's Cluster D experiments (Figs 18-22): 16 servers in 4 racks of 4, 4 spines,
 * 400G, one plane; incast and victim, uplink failures, a permutation, and DCQCN's profiles.
 */

#include "ns3/core-module.h"
#include "paper.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>

namespace ns3
{
namespace paper
{

namespace
{

/**
 * @param samples bytes per bin
 * @param binUs the bin
 * @param fromUs start of the window
 * @return the lowest bin's rate from the start of the window, Gb/s
 */
double
MinGbps(const std::vector<uint64_t>& samples, double binUs, double fromUs)
{
    double low = NAN;
    for (std::size_t k = 0; k < samples.size(); ++k)
    {
        if (k * binUs >= fromUs)
        {
            const double r = samples[k] * 8.0 / (binUs * 1e3);
            low = std::isnan(low) ? r : std::min(low, r);
        }
    }
    return low;
}

/**
 * @param us how long the flow must last
 * @param qps the queue pairs it is split over
 * @return bytes enough to keep each queue pair busy at 400G (with a tenth to spare) for that
 * long, within a message's 4 GiB limit
 */
uint64_t
LongLivedBytes(double us, uint32_t qps)
{
    const double perQp = std::min(double(0xffffffffu), us * 400e9 / 8e6 * 1.1);
    return static_cast<uint64_t>(perQp) * qps;
}

/** One configuration of a figure. */
struct Setup
{
    std::string panel;               //!< "18a"
    std::string name;                //!< legend and label
    claims::Scheme scheme;           //!< the scheme
    uint32_t qps;                    //!< queue pairs per transfer
    std::string mutants;             //!< "no-dcqcn" for RoCE with PFC only
    std::string profile = "default"; //!< DCQCN profile
};

/**
 * @param s a setup
 * @return Cluster D described for it
 */
FabricSpec
FabricFor(const Setup& s)
{
    FabricSpec f = Cluster("D");
    f.mutants = s.mutants;
    f.dcqcnProfile = s.profile;
    return f;
}

/** The hosts of the incast experiments: target 0, victim 15 -> 1 (rack 0, idle). */
const std::vector<uint32_t> INCAST_SENDERS = {4, 5, 6, 8, 9, 10, 12};

/** What one incast-and-victim run measured. */
struct IncastResult
{
    double victimAlone;               //!< the victim's rate alone, Gb/s
    double victim;                    //!< beside the incast
    double victimMin;                 //!< its lowest bin beside the incast
    std::vector<double> incast;       //!< each incast flow's rate
    std::vector<uint64_t> victimBins; //!< its bins beside the incast
    std::vector<uint64_t> incastBins; //!< the incast's total bins
    uint64_t pauses = 0;              //!< PFC pauses sent beside the incast
    double finished = 0;              //!< flows that finished before the end (must be 0)
};

/**
 * The cross-spine 7 -> 1 incast plus a victim to an idle host in the target's rack, all
 * long-lived (as ib_write_bw), measured over the second half of the run (steady state:
 * the paper's runs last tens of seconds, so a start transient does not weigh in its means).
 * @param ctx context
 * @param scale the scale
 * @param s the setup
 * @return what it measured
 */
IncastResult
Incast(Context& ctx, const Scale& scale, const Setup& s)
{
    const FabricSpec fab = FabricFor(s);
    const double from = 0.5 * scale.runUs;
    const uint64_t bytes = LongLivedBytes(scale.runUs, s.qps);
    IncastResult out;
    for (const bool incast : {false, true})
    {
        FlowRun run;
        run.flows.push_back(FlowSpec{15, 1, bytes, 0, s.qps});
        if (incast)
        {
            for (uint32_t h : INCAST_SENDERS)
            {
                run.flows.push_back(FlowSpec{h, 0, bytes, 0, s.qps});
            }
        }
        for (uint32_t i = 0; i < run.flows.size(); ++i)
        {
            run.watch.push_back(i);
        }
        run.binUs = scale.binUs;
        run.stopUs = scale.runUs;
        const FlowResult r
            = ctx.Flows(s.panel + (incast ? ": victim beside the incast" : ": victim alone"),
                        s.scheme,
                        fab,
                        run,
                        FaultPlan());
        out.finished += Finished(r);
        if (!incast)
        {
            out.victimAlone = MeanGbps(r.samples[0], scale.binUs, from, scale.runUs);
            continue;
        }
        out.victim = MeanGbps(r.samples[0], scale.binUs, from, scale.runUs);
        out.victimMin = MinGbps(r.samples[0], scale.binUs, from);
        out.victimBins = r.samples[0];
        out.pauses = r.pauses;
        for (std::size_t i = 1; i < r.samples.size(); ++i)
        {
            out.incast.push_back(MeanGbps(r.samples[i], scale.binUs, from, scale.runUs));
            out.incastBins = Sum(out.incastBins, r.samples[i]);
        }
    }
    return out;
}

/**
 * @param v values
 * @return Jain's fairness index
 */
double
Jain(const std::vector<double>& v)
{
    return claims::Jain(v);
}

/**
 * The rows and figure panel of one incast setup.
 * @param c the report
 * @param s the setup
 * @param r what it measured
 * @param scale the scale
 */
void
IncastRows(Report& c, const Setup& s, const IncastResult& r, const Scale& scale)
{
    const bool mrc = s.scheme == claims::MRC;
    // A row in the scheme's column.
    auto put = [&](const std::string& what, const std::string& unit, double v)
    {
        c.Info(s.panel + " " + s.name + ": " + what, unit, mrc ? v : NAN, mrc ? NAN : v);
    };
    put("victim alone", "Gb/s", r.victimAlone);
    put("victim beside the incast", "Gb/s", r.victim);
    put("victim beside the incast, lowest bin", "Gb/s", r.victimMin);
    put("victim's throughput lost", "", 1 - r.victim / r.victimAlone);
    put("incast flows, mean rate", "Gb/s", claims::Mean(r.incast));
    put("incast flows, slowest", "Gb/s", claims::Quantile(r.incast, 0));
    put("incast flows, fastest", "Gb/s", claims::Quantile(r.incast, 1));
    put("PFC pauses sent", "", static_cast<double>(r.pauses));
    put("long-lived flows that finished before the end (must be 0)", "", r.finished);
    Figure f;
    f.title = s.panel + ": " + s.name;
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    f.series = {Timeline("victim", r.victimBins, scale.binUs),
                Timeline("incast, 7 flows together", r.incastBins, scale.binUs)};
    c.figures.push_back(f);
}

} // namespace

FabricSpec
Cluster(const std::string& name)
{
    const MrcClusterPreset::Cluster* p = MrcClusterPreset::Find(name);
    NS_ABORT_MSG_UNLESS(p, "paper: unknown cluster " << name);
    FabricSpec f;
    f.hosts = p->hosts;
    f.planes = p->planes;
    f.planeRate = p->planeRate;
    f.hostsPerT0 = p->hostsPerT0;
    f.t1 = p->t1;
    return f;
}

Report
Figure18(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 18: a cross-spine 7->1 incast beside a victim flow to an idle host of the "
              "target's rack (Cluster D): RoCE + DCQCN with 1 QP (a) and 8 QPs (b), MRC (c)";
    c.baselineName = "RoCE with PFC and DCQCN (NVIDIA's defaults)";
    const std::vector<Setup> setups = {
        {"18a", "RoCE, DCQCN, 1 QP", claims::ROCE, 1, ""},
        {"18b", "RoCE, DCQCN, 8 QPs", claims::ROCE, 8, ""},
        {"18c", "MRC, 1 QP", claims::MRC, 1, ""},
    };
    std::vector<IncastResult> r;
    for (const auto& s : setups)
    {
        r.push_back(Incast(ctx, scale, s));
        IncastRows(c, s, r.back(), scale);
    }
    const double lossA = 1 - r[0].victim / r[0].victimAlone;
    const double lossB = 1 - r[1].victim / r[1].victimAlone;
    const double lossM = 1 - r[2].victim / r[2].victimAlone;
    c.Agree("18a",
            "the victim's throughput lost",
            100 * lossA,
            "%",
            "about 25 %",
            "15 to 35 %",
            lossA >= 0.15 && lossA <= 0.35);
    c.Agree("18b",
            "the victim's throughput lost",
            100 * lossB,
            "%",
            "smaller on average than with 1 QP",
            "below 18a's",
            lossB < lossA);
    c.Agree("18b",
            "the victim's lowest bin",
            r[1].victimMin,
            "Gb/s",
            "1 s intervals at 100 Gb/s (75 % below optimal)",
            "at most 150 Gb/s",
            r[1].victimMin <= 150);
    const double fairM = Jain(r[2].incast);
    c.Agree("18c",
            "incast flows' rates",
            claims::Mean(r[2].incast),
            "Gb/s",
            "share the bottleneck almost perfectly, about 57 Gb/s each",
            "every flow within 57 +- 20 %",
            claims::Quantile(r[2].incast, 0) >= 0.8 * 400 / 7
                && claims::Quantile(r[2].incast, 1) <= 1.2 * 400 / 7);
    c.Agree("18c",
            "the victim's throughput lost",
            100 * lossM,
            "%",
            "no impact on the victim",
            "at most 5 %",
            lossM <= 0.05);
    c.Check("MRC: the victim's throughput lost beside the incast",
            "",
            lossM,
            lossA,
            "MRC <= 0.05",
            lossM <= 0.05,
            "paper (Fig 18c): no impact on the victim; ours: 5 %");
    c.Check("MRC: fairness of the 7 incast flows (Jain's index)",
            "",
            fairM,
            Jain(r[0].incast),
            "MRC >= 0.95",
            fairM >= 0.95,
            "paper (Fig 18c): the 7 flows share the bottleneck almost perfectly; ours: 0.95");
    c.notes.push_back(
        "Cluster D: 16 servers in 4 racks of 4, 4 spines, 400G, one plane (MRC and "
        "RoCE alike). Hosts 4, 5, 6, 8, 9, 10 and 12 (three other racks) send to "
        "host 0; the victim, host 15, to host 1 (host 0's rack, idle). Every flow "
        "is long-lived (ib_write_bw) and rates are means over the second half of "
        "the run (steady state). 8 QPs: each transfer on 8 queue pairs, each hashed on its "
        "own.");
    c.scaling.push_back("the paper's runs of tens of seconds become "
                        + std::to_string(static_cast<int>(scale.runUs / 1000))
                        + " ms, its 1 s "
                          "samples "
                        + std::to_string(static_cast<int>(scale.binUs)) + " us bins");
    return c;
}

Report
Figure21(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 21: the same incast and victim: MRC with 8 QPs (a), RoCE with PFC only, 1 QP "
              "(b) and 8 QPs (c)";
    c.baselineName = "RoCE with PFC only (no DCQCN)";
    const std::vector<Setup> setups = {
        {"21a", "MRC, 8 QPs", claims::MRC, 8, ""},
        {"21b", "RoCE, PFC only, 1 QP", claims::ROCE, 1, "no-dcqcn"},
        {"21c", "RoCE, PFC only, 8 QPs", claims::ROCE, 8, "no-dcqcn"},
    };
    std::vector<IncastResult> r;
    for (const auto& s : setups)
    {
        r.push_back(Incast(ctx, scale, s));
        IncastRows(c, s, r.back(), scale);
    }
    const double lossM = 1 - r[0].victim / r[0].victimAlone;
    c.Agree("21a",
            "the victim's throughput lost",
            100 * lossM,
            "%",
            "no impact on the victim",
            "at most 5 %",
            lossM <= 0.05);
    for (std::size_t k = 1; k < 3; ++k)
    {
        c.Agree(setups[k].panel,
                "the victim's mean rate",
                r[k].victim,
                "Gb/s",
                "30 to 100 Gb/s, depending on ECMP path choice and fairness",
                "20 to 120 Gb/s",
                r[k].victim >= 20 && r[k].victim <= 120);
    }
    c.Check("MRC, 8 QPs: the victim's throughput lost beside the incast",
            "",
            lossM,
            NAN,
            "MRC <= 0.05",
            lossM <= 0.05,
            "paper (Fig 21a): no impact on the victim; ours: 5 %");
    c.Check("RoCE, PFC only, 1 QP: the victim's rate beside the incast / alone",
            "",
            NAN,
            r[1].victim / r[1].victimAlone,
            "baseline <= 0.5",
            r[1].victim / r[1].victimAlone <= 0.5,
            "paper (Fig 21b): 30 to 100 Gb/s of 400; ours: half");
    c.notes.push_back("The setup of Fig 18 (Cluster D, 7 -> 1 incast, victim 15 -> 1). PFC "
                      "only: RoCE without DCQCN (MrcFixedWindow), the data class lossless.");
    c.scaling.push_back("the paper's runs of tens of seconds become "
                        + std::to_string(static_cast<int>(scale.runUs / 1000)) + " ms");
    return c;
}

Report
Figure19(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 19: ib_write_bw across racks (Cluster D, MRC) while 3 of the 4 T0-T1 links "
              "fail one after another: no impact at 400G (a); with 100G T0-T1 links the "
              "throughput tracks the capacity left (b), also when two fail at once (c)";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    /** One T0-T1 link of rack 0 out of service. */
    struct Outage
    {
        uint32_t t1;   //!< the spine it goes to
        double fromUs; //!< fails
        double toUs;   //!< restored (0: not restored)
    };

    struct Case
    {
        std::string panel;            //!< 19a
        std::string uplink;           //!< T0-T1 rate
        std::vector<Outage> outages;  //!< the links that fail
        std::vector<double> capacity; //!< Gb/s per phase
    };

    const std::vector<Case> cases = {
        {"19a", "400Gbps", {{0, P, 0}, {1, 2 * P, 0}, {2, 3 * P, 0}}, {400, 400, 400, 400}},
        {"19b",
         "100Gbps",
         {{0, P, 6 * P}, {1, 2 * P, 5 * P}, {2, 3 * P, 4 * P}},
         {400, 300, 200, 100, 200, 300, 400}},
        {"19c", "100Gbps", {{0, P, 2 * P}, {1, P, 2 * P}}, {400, 200, 400}},
    };
    double worst = INFINITY;    // the lowest throughput / capacity of any phase
    double restored = INFINITY; // ... of the last phase of 19b and 19c (every link back)
    double finished = 0;
    for (const auto& k : cases)
    {
        FabricSpec fab = Cluster("D");
        fab.uplinkRate = k.uplink;
        FaultPlan plan;
        for (const auto& o : k.outages)
        {
            const MrcFaultTargetId link = MrcFaultTargetId::Link(0, MrcLinkTier::T0_T1, 0, o.t1);
            plan.faults.push_back(
                o.toUs > 0 ? FaultSpec{o.fromUs, MrcFaultAction::LINK_FLAP, link, o.toUs - o.fromUs}
                           : FaultSpec{o.fromUs, MrcFaultAction::LINK_DOWN, link, 0});
        }
        FlowRun run;
        const double end = P * k.capacity.size();
        run.flows.push_back(FlowSpec{0, 4, LongLivedBytes(end, 1), 0, 1});
        run.watch = {0};
        run.binUs = scale.binUs;
        run.stopUs = end;
        const FlowResult r = ctx.Flows(k.panel, claims::MRC, fab, run, plan);
        finished += Finished(r);
        Figure f;
        f.title = k.panel + ": T0-T1 links at " + k.uplink.substr(0, k.uplink.size() - 4) + "G";
        f.xlabel = "time (ms)";
        f.ylabel = "throughput (Gb/s)";
        Series cap{"capacity left", {}, {}};
        for (std::size_t ph = 0; ph < k.capacity.size(); ++ph)
        {
            // The latter half of each phase: what it settles at.
            const double got = MeanGbps(r.samples[0], scale.binUs, (ph + 0.5) * P, (ph + 1) * P);
            const double want = std::min(400.0, k.capacity[ph]);
            c.Agree(k.panel,
                    "phase " + std::to_string(ph) + ": throughput",
                    got,
                    "Gb/s",
                    k.panel == "19a" ? "no discernible impact (400)"
                                     : "about " + std::to_string(static_cast<int>(want)),
                    "within 10 % of the capacity left",
                    std::abs(got - want) <= 0.1 * want);
            worst = std::min(worst, got / want);
            if (k.panel != "19a" && ph + 1 == k.capacity.size())
            {
                restored = std::min(restored, got / want);
            }
            cap.x.push_back(ph * P / 1000);
            cap.y.push_back(want);
            cap.x.push_back((ph + 1) * P / 1000);
            cap.y.push_back(want);
        }
        f.series = {Timeline("MRC, ib_write_bw", r.samples[0], scale.binUs), cap};
        c.figures.push_back(f);
        c.Info(k.panel + ": retransmissions", "", static_cast<double>(r.retx), NAN);
        c.Info(k.panel + ": trimmed packets", "", static_cast<double>(r.trims), NAN);
        // Why EVs were retired: a loss inferred from SACKs, or another EV of the same path.
        c.Info(k.panel + ": EVs retired on a loss inferred from SACKs",
               "",
               static_cast<double>(r.retireCauses[MrcPathSelector::CAUSE_SACK_LOSS]),
               NAN);
        c.Info(k.panel + ": EVs retired with another EV of their path",
               "",
               static_cast<double>(r.retireCauses[MrcPathSelector::CAUSE_SHARED_PATH]),
               NAN);
    }
    c.Info("long-lived flows that finished before the end (must be 0)", "", finished, NAN);
    c.Check("19b, 19c: throughput / capacity once every link is restored",
            "",
            restored,
            NAN,
            "MRC >= 0.9",
            restored >= 0.9,
            "paper (Fig 19b/c): the throughput comes back with the links; ours: 10 %");
    c.Check("19a-c: throughput / capacity left, the worst phase",
            "",
            worst,
            NAN,
            "MRC >= 0.9",
            worst >= 0.9,
            "paper (Fig 19): no discernible impact at 400G; with 100G links the throughput "
            "tracks the capacity, failing and restored; ours: 10 %");
    c.notes.push_back(
        "One ib_write_bw flow (1 QP), host 0 (rack 0) to host 4 (rack 1); the links that fail "
        "are rack 0's T0 uplinks to spines 0, 1 and 2. Throughput per phase is the mean of its "
        "latter half, after the transient of the change.");
    c.scaling.push_back("the paper's phases of seconds become "
                        + std::to_string(static_cast<int>(P))
                        + " us (more than the probe interval's longest backoff, 1.6 ms, plus "
                          "three probes)");
    return c;
}

Report
Figure20(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 20: a permutation, 2 racks writing one to one to the other 2, filling the T0 "
              "uplinks (Cluster D): RoCE with 1 QP collides (a), 8 QPs with PFC only gain "
              "little (b), with DCQCN more (c); MRC gives every flow line rate";
    c.baselineName = "RoCE with PFC (and DCQCN, or PFC only)";
    const std::vector<Setup> setups = {
        {"20a", "RoCE, DCQCN, 1 QP", claims::ROCE, 1, ""},
        {"20a'", "RoCE, PFC only, 1 QP", claims::ROCE, 1, "no-dcqcn"},
        {"20b", "RoCE, PFC only, 8 QPs", claims::ROCE, 8, "no-dcqcn"},
        {"20c", "RoCE, DCQCN, 8 QPs", claims::ROCE, 8, ""},
        {"20", "MRC, 1 QP", claims::MRC, 1, ""},
        {"20c'", "MRC, 8 QPs", claims::MRC, 8, ""},
    };
    const double from = 0.5 * scale.runUs;
    std::vector<std::vector<double>> rates(setups.size()); // every flow of every seed, Gb/s
    std::vector<std::string> patterns;                     // 20a's per seed
    const uint32_t seed0 = ctx.seed;
    double finishedMrc = 0;
    double finishedRoce = 0;
    Figure f;
    f.kind = "cdf";
    f.title = "Per-flow throughput over " + std::to_string(scale.seeds) + " seeds";
    f.xlabel = "throughput (Gb/s)";
    f.ylabel = "fraction of flows";
    for (uint32_t seed = 0; seed < scale.seeds; ++seed)
    {
        ctx.seed = seed0 + seed;
        for (std::size_t k = 0; k < setups.size(); ++k)
        {
            FlowRun run;
            for (uint32_t h = 0; h < 8; ++h)
            {
                run.flows.push_back(FlowSpec{
                    h, h + 8, LongLivedBytes(scale.runUs, setups[k].qps), 0, setups[k].qps});
                run.watch.push_back(h);
            }
            run.binUs = scale.binUs;
            run.stopUs = scale.runUs;
            const FlowResult r = ctx.Flows(setups[k].panel + ", seed " + std::to_string(ctx.seed),
                                           setups[k].scheme,
                                           FabricFor(setups[k]),
                                           run,
                                           FaultPlan());
            (setups[k].scheme == claims::MRC ? finishedMrc : finishedRoce) += Finished(r);
            std::ostringstream pattern;
            for (const auto& s : r.samples)
            {
                const double g = MeanGbps(s, scale.binUs, from, scale.runUs);
                rates[k].push_back(g);
                pattern << (g >= 0.9 * 400 ? "1" : g >= 0.4 * 400 ? "2" : "3");
            }
            if (k == 0)
            {
                patterns.push_back(pattern.str());
            }
        }
    }
    ctx.seed = seed0;
    auto share = [](const std::vector<double>& v, double lo, double hi)
    {
        return v.empty() ? NAN
                         : double(std::count_if(v.begin(),
                                                v.end(),
                                                [&](double x)
                                                {
                                                    return x >= lo && x < hi;
                                                }))
                               / v.size();
    };
    for (std::size_t k = 0; k < setups.size(); ++k)
    {
        const auto& v = rates[k];
        c.Info(setups[k].panel + " " + setups[k].name + ": flow rate mean, min",
               "Gb/s",
               setups[k].scheme == claims::MRC ? claims::Mean(v) : NAN,
               setups[k].scheme == claims::MRC ? NAN : claims::Mean(v));
        c.Info(setups[k].panel + " " + setups[k].name + ": slowest flow",
               "Gb/s",
               setups[k].scheme == claims::MRC ? claims::Quantile(v, 0) : NAN,
               setups[k].scheme == claims::MRC ? NAN : claims::Quantile(v, 0));
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        Series s{setups[k].panel + " " + setups[k].name, {}, {}};
        for (std::size_t i = 0; i < sorted.size(); ++i)
        {
            s.x.push_back(sorted[i]);
            s.y.push_back(double(i + 1) / sorted.size());
        }
        f.series.push_back(s);
    }
    c.figures.push_back(f);
    c.Info(
        "long-lived flows that finished before the end (must be 0)", "", finishedMrc, finishedRoce);
    // 20a: RoCE with 1 QP, with DCQCN and with PFC only (the paper: the same either way).
    for (std::size_t k : {std::size_t(0), std::size_t(1)})
    {
        const auto& v = rates[k];
        const double full = share(v, 0.9 * 400, 1e9);
        const double half = share(v, 0.4 * 400, 0.6 * 400);
        const double third = share(v, 0.25 * 400, 0.4 * 400);
        const std::string name = setups[k].panel + " " + setups[k].name;
        c.Info(name + ": share of flows at line rate (>= 90 %)", "", NAN, full);
        c.Info(name + ": share of flows at 1/2 of line rate (40-60 %)", "", NAN, half);
        c.Info(name + ": share of flows at 1/3 of line rate (25-40 %)", "", NAN, third);
        c.Agree(setups[k].panel + " (" + setups[k].name + ")",
                "flows at line rate / at 1/2 or 1/3 (shares of all flows, all seeds)",
                full,
                "",
                "some flows at line rate, others at 1/2 or 1/3",
                "both kinds present",
                full > 0 && half + third > 0);
    }
    const bool varies = std::set<std::string>(patterns.begin(), patterns.end()).size() > 1;
    c.Agree("20a",
            "collision pattern across seeds (distinct patterns)",
            double(std::set<std::string>(patterns.begin(), patterns.end()).size()),
            "",
            "the collisions vary run to run",
            "more than one pattern",
            varies);
    c.Agree("20b",
            "mean flow rate / 20a's (PFC only, 1 QP)",
            claims::Mean(rates[2]) / claims::Mean(rates[1]),
            "",
            "marginal gain (the most congested QPs make PFC "
            "throttle the whole NIC)",
            "below 1.15",
            claims::Mean(rates[2]) < 1.15 * claims::Mean(rates[1]));
    c.Agree("20c",
            "mean flow rate, DCQCN 8 QPs / PFC only 8 QPs",
            claims::Mean(rates[3]) / claims::Mean(rates[2]),
            "",
            "DCQCN avoids the NIC-wide throttling: better than "
            "20b",
            "above 1",
            claims::Mean(rates[3]) > claims::Mean(rates[2]));
    c.Agree("20",
            "MRC, 1 QP: slowest flow",
            claims::Quantile(rates[4], 0),
            "Gb/s",
            "390 Gb/s for every flow",
            "at least 370 Gb/s",
            claims::Quantile(rates[4], 0) >= 370);
    c.Agree("20c",
            "MRC, 8 QPs: slowest flow",
            claims::Quantile(rates[5], 0),
            "Gb/s",
            "line rate",
            "at least 370 Gb/s",
            claims::Quantile(rates[5], 0) >= 370);
    c.Check("MRC, 1 QP: slowest flow / line rate",
            "",
            claims::Quantile(rates[4], 0) / 400,
            claims::Quantile(rates[0], 0) / 400,
            "MRC >= 0.9",
            claims::Quantile(rates[4], 0) >= 0.9 * 400,
            "paper (Fig 20): 390 Gb/s for every MRC flow; ours: 0.9");
    c.notes.push_back("Hosts 0-7 (racks 0 and 1) each write to host h + 8 (racks 2 and 3): 8 "
                      "flows over the 8 T0 uplinks of the two sending racks. Long-lived flows; "
                      "each rate is the mean over the second half of the run; "
                      + std::to_string(scale.seeds)
                      + " seeds (the hashes, hence the collisions, change with the seed).");
    c.scaling.push_back("the paper's runs of tens of seconds become "
                        + std::to_string(static_cast<int>(scale.runUs / 1000)) + " ms");
    return c;
}

FabricSpec
CalibrationLeafSpine()
{
    FabricSpec leaf;
    leaf.hosts = 128;
    leaf.planes = 1;
    leaf.hostsPerT0 = 16;
    leaf.t1 = 16;
    leaf.planeRate = "100Gbps";
    return leaf;
}

Report
Figure22(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 22: a 15->1 incast, one new flow every 5 s, under DCQCN's default profile "
              "(a; the queue controlled while fewer than 10 flows, then PFC; the bottleneck "
              "at line rate), a more aggressive one (b, about 10 % lower) and the most "
              "aggressive (c, about 20 % lower)";
    c.baselineName = "RoCE with PFC and DCQCN, by profile";
    const double P = scale.phaseUs;
    const uint32_t n = 15;
    const double end = P * n;
    const std::vector<std::pair<std::string, std::string>> profiles
        = {{"22a", "default"}, {"22b", "aggressive"}, {"22c", "most-aggressive"}};
    std::vector<double> util;
    for (const auto& pr : profiles)
    {
        Setup s{pr.first, "RoCE, DCQCN " + pr.second, claims::ROCE, 1, "", pr.second};
        FlowRun run;
        for (uint32_t i = 0; i < n; ++i)
        {
            run.flows.push_back(FlowSpec{i + 1, 0, LongLivedBytes(end - i * P, 1), i * P, 1});
            run.watch.push_back(i);
        }
        run.binUs = scale.binUs;
        run.stopUs = end;
        run.queueT0 = 0;
        run.queuePort = 0; // T0 0's port to host 0
        const FlowResult r = ctx.Flows(pr.first, claims::ROCE, FabricFor(s), run, FaultPlan());
        c.Info(pr.first + " " + pr.second
                   + ": long-lived flows that finished before the end (must be 0)",
               "",
               NAN,
               Finished(r));
        std::vector<uint64_t> total;
        for (const auto& smp : r.samples)
        {
            total = Sum(total, smp);
        }
        // Bottleneck utilisation over the latter half of each phase (k flows), from 2 flows.
        std::vector<double> perPhase;
        double qLow = 0;
        double qHigh = 0;
        uint32_t nLow = 0;
        uint32_t nHigh = 0;
        for (uint32_t ph = 1; ph < n; ++ph)
        {
            perPhase.push_back(MeanGbps(total, scale.binUs, (ph + 0.5) * P, (ph + 1) * P) / 400);
            for (std::size_t k = 0; k < r.queueSamples.size(); ++k)
            {
                const double t = (k + 1) * scale.binUs;
                if (t >= (ph + 0.5) * P && t < (ph + 1) * P)
                {
                    (ph + 1 < 10 ? qLow : qHigh) += r.queueSamples[k];
                    ++(ph + 1 < 10 ? nLow : nHigh);
                }
            }
        }
        const double u = claims::Mean(perPhase);
        util.push_back(u);
        c.Info(pr.first + " " + pr.second + ": bottleneck utilisation, 2 to 15 flows (min)",
               "",
               NAN,
               claims::Quantile(perPhase, 0));
        c.Info(pr.first + " " + pr.second + ": mean ToR queue to the target, < 10 / >= 10 flows",
               "KB",
               NAN,
               nLow ? qLow / nLow / 1000 : NAN);
        c.Info(pr.first + " " + pr.second + ": mean ToR queue to the target, >= 10 flows",
               "KB",
               NAN,
               nHigh ? qHigh / nHigh / 1000 : NAN);
        c.Info(pr.first + " " + pr.second + ": PFC pauses sent", "", NAN, r.pauses);
        Figure f;
        f.title = pr.first + ": DCQCN " + pr.second;
        f.xlabel = "time (ms)";
        f.ylabel = "throughput (Gb/s)|queue (KB)";
        // ">": drawn against the right axis (plot_claims.py)
        Series q{">ToR queue to the target (KB)", {}, {}};
        for (std::size_t k = 0; k < r.queueSamples.size(); ++k)
        {
            q.x.push_back((k + 1) * scale.binUs / 1000);
            q.y.push_back(r.queueSamples[k] / 1e3);
        }
        f.series = {Timeline("bottleneck throughput", total, scale.binUs), q};
        c.figures.push_back(f);
    }
    c.Agree("22a",
            "bottleneck utilisation",
            100 * util[0],
            "%",
            "line rate",
            "at least 95 %",
            util[0] >= 0.95);
    c.Agree("22b",
            "bottleneck utilisation",
            100 * util[1],
            "%",
            "about 10 % lower",
            "80 to 95 %",
            util[1] >= 0.8 && util[1] <= 0.95);
    c.Agree("22c",
            "bottleneck utilisation",
            100 * util[2],
            "%",
            "about 20 % below line rate",
            "70 to 88 %",
            util[2] >= 0.7 && util[2] <= 0.88);
    c.Check("default profile: bottleneck utilisation",
            "",
            NAN,
            util[0],
            "baseline >= 0.95",
            util[0] >= 0.95,
            "paper (Fig 22a): the bottleneck stays at line rate; ours: 95 %");
    c.Check("the aggressive profiles lose throughput: default - the most aggressive",
            "",
            NAN,
            util[0] - std::min(util[1], util[2]),
            "baseline >= 0.02",
            util[0] - std::min(util[1], util[2]) >= 0.02,
            "paper (Fig 22b/c): about 10 % and 20 % lower; ours: at least 2 points");
    // The calibration run the baseline's description quotes: a 7->1 incast of 2 MB writes on a
    // 128-host leaf-spine of 100G (8 T0s of 16, 16 T1s), per profile.
    FabricSpec leaf = CalibrationLeafSpine();
    for (const auto& pr : profiles)
    {
        leaf.dcqcnProfile = pr.second;
        FlowRun run;
        for (uint32_t i = 1; i <= 7; ++i)
        {
            run.flows.push_back(FlowSpec{i * 16, 0, 2000000, 0, 1});
        }
        const FlowResult r
            = ctx.Flows("7->1 on 128 hosts, " + pr.second, claims::ROCE, leaf, run, FaultPlan());
        const double last = claims::Quantile(r.fctUs, 1);
        c.Info("7->1 incast of 2 MB writes, 128-host 100G leaf-spine, " + pr.second
                   + ": bottleneck utilisation",
               "",
               NAN,
               7 * 2e6 * 8 / (last * 1e3) / 100);
    }
    c.notes.push_back("Hosts 1 to 15 each start a long-lived write to host 0, one every phase "
                      "(the paper: every 5 s); utilisation is the bottleneck's mean over the "
                      "latter half of each phase from 2 flows on. Profiles (MrcDcqcn): default, "
                      "NVIDIA ConnectX's firmware defaults; aggressive, the HPCC simulator's "
                      "vendor-like DCQCN; most aggressive, uet-htsim's. The last rows: the "
                      "synchronized 7 -> 1 incast the calibration was checked on.");
    c.scaling.push_back("a new flow every " + std::to_string(static_cast<int>(P))
                        + " us instead of 5 s (DCQCN's rate timer: 300 us)");
    return c;
}

} // namespace paper
} // namespace ns3
