/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The paper's Cluster B experiments (Figs 9-12, 14): one pair of 800G NICs (8 x 100G
 * ports on 8 planes, two tiers) running ib_write_bw with 4 QPs while NIC ports, T0-T1 links,
 * a T0 or a T1 fail; a lossy EV with a fixed EV set; ECN moving a flow off a shared EV.
 */

#include "ns3/core-module.h"
#include "paper.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{
namespace paper
{

namespace
{

/** ib_write_bw's queue pairs in the paper's runs. */
constexpr uint32_t IB_QPS = 4;

/** The NIC's rate, Gb/s (8 x 100G). */
constexpr double NIC_GBPS = 800;

/**
 * @return Cluster B with its calibrated cables, switches and NICs (docs/calibration.md)
 */
FabricSpec
ClusterB()
{
    FabricSpec f = Cluster("B");
    f.latencies = "B";
    return f;
}

/**
 * @param us how long the flow must last
 * @param gbps the rate it may reach
 * @param qps the queue pairs it is split over
 * @return bytes enough to keep it busy at that rate (with a tenth to spare) for that long, within
 * a message's 4 GiB limit per queue pair
 */
uint64_t
BusyBytes(double us, double gbps, uint32_t qps)
{
    const double perQp = std::min(double(0xffffffffu), us * gbps * 1e3 / 8 / qps * 1.1);
    return static_cast<uint64_t>(perQp) * qps;
}

/**
 * @param src sender
 * @param dst receiver
 * @param us how long it must last
 * @return an ib_write_bw flow: 4 QPs writing back to back
 */
FlowSpec
IbWriteBw(uint32_t src, uint32_t dst, double us)
{
    return FlowSpec{src, dst, BusyBytes(us, NIC_GBPS, IB_QPS), 0, IB_QPS};
}

/**
 * @param flows the flows, every one watched
 * @param scale the scale (its sampling bin)
 * @param endUs when the run stops
 * @return a run of long-lived flows sampled every bin
 */
FlowRun
WatchedRun(const std::vector<FlowSpec>& flows, const Scale& scale, double endUs)
{
    FlowRun run;
    run.flows = flows;
    for (uint32_t k = 0; k < flows.size(); ++k)
    {
        run.watch.push_back(k);
    }
    run.binUs = scale.binUs;
    run.stopUs = endUs;
    return run;
}

/**
 * @param phaseUs the scale's phase
 * @return the time compression of a figure whose events are a phase apart
 */
std::string
PhaseScaling(double phaseUs)
{
    return "the paper's seconds between events become " + std::to_string(static_cast<int>(phaseUs))
         + " us phases";
}

/** One panel whose capacity changes in phases of equal length. */
struct Phased
{
    std::string panel;             //!< "9a"
    std::string what;              //!< title
    std::vector<double> capacity;  //!< per phase, the share of the NIC left (1: all)
    std::vector<std::string> flow; //!< the watched flows' names
};

/**
 * Throughput per phase against the capacity left: the latter half of each phase (after the
 * change's transient), against phase 0's rate times the share left.
 * @param c the report
 * @param k the panel
 * @param r its run
 * @param scale the scale
 * @param worst lowered to the lowest throughput / capacity of any phase and flow
 */
void
PhaseRows(Report& c, const Phased& k, const FlowResult& r, const Scale& scale, double& worst)
{
    const double P = scale.phaseUs;
    Figure f;
    f.title = k.panel + ": " + k.what;
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    for (std::size_t w = 0; w < k.flow.size(); ++w)
    {
        const double full = MeanGbps(r.samples[w], scale.binUs, 0.5 * P, P);
        Series cap{"capacity left, " + k.flow[w], {}, {}};
        for (std::size_t ph = 0; ph < k.capacity.size(); ++ph)
        {
            const double got = MeanGbps(r.samples[w], scale.binUs, (ph + 0.5) * P, (ph + 1) * P);
            const double want = full * k.capacity[ph];
            if (ph > 0)
            {
                std::ostringstream paper;
                paper << "about " << static_cast<int>(std::lround(8 * k.capacity[ph]))
                      << "/8 of the NIC";
                c.Agree(k.panel,
                        k.flow[w] + ", phase " + std::to_string(ph) + ": throughput",
                        got,
                        "Gb/s",
                        paper.str(),
                        "within 10 % of phase 0's rate times the share left",
                        std::abs(got - want) <= 0.1 * want);
            }
            worst = std::min(worst, got / want);
            cap.x.push_back(ph * P / 1000);
            cap.y.push_back(want);
            cap.x.push_back((ph + 1) * P / 1000);
            cap.y.push_back(want);
        }
        c.Info(k.panel + ", " + k.flow[w] + ": rate before any failure", "Gb/s", full, NAN);
        f.series.push_back(Timeline(k.flow[w], r.samples[w], scale.binUs));
        f.series.push_back(cap);
    }
    c.figures.push_back(f);
    c.Info(k.panel + ": retransmissions", "", static_cast<double>(r.retx), NAN);
    c.Info(k.panel + ": EV retirements", "", static_cast<double>(r.retirements), NAN);
}

/**
 * @param samples bytes per bin
 * @param binUs the bin
 * @param fromUs start
 * @param toUs end
 * @param stepUs window
 * @return the lowest mean rate over consecutive windows of stepUs in [fromUs, toUs), Gb/s
 */
double
WorstWindow(
    const std::vector<uint64_t>& samples, double binUs, double fromUs, double toUs, double stepUs)
{
    double low = INFINITY;
    for (double t = fromUs; t + stepUs <= toUs + 1e-9; t += stepUs)
    {
        low = std::min(low, MeanGbps(samples, binUs, t, t + stepUs));
    }
    return low;
}

} // namespace

Report
Figure9(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 9: ib_write_bw with 4 QPs between two 800G NICs (Cluster B, MRC): NIC-T0 "
              "links down one at a time and restored (a: about 1/8 per link), 4 of 8 together "
              "(b: about half), 20 T0-T1 links disabled one after another (c) and 8 flapping at "
              "once (d): minimal impact";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    const FabricSpec fab = ClusterB();
    double worstNic = INFINITY;
    double remote = NAN;
    double baseRtt = NAN;
    // 9a and 9b: same T0, both directions. Flow 0 is host 1 -> host 0, the remote side of host
    // 0's ports; flow 1 is host 0 -> host 1, the side that loses them.
    const std::vector<std::pair<Phased, std::vector<std::pair<uint32_t, double>>>> nic = {
        // Ports 0, 1, 2 down at P, 2P, 3P; back at 6P, 5P, 4P (port, duration).
        {{"9a",
          "host 0's NIC-T0 links down one at a time, then restored",
          {1, 7.0 / 8, 6.0 / 8, 5.0 / 8, 6.0 / 8, 7.0 / 8, 1},
          {"host 1 -> host 0 (remote side)", "host 0 -> host 1"}},
         {{0, 5 * P}, {1, 3 * P}, {2, P}}},
        // Ports 0-3 down together at P (a shared transceiver), back at 2P.
        {{"9b",
          "4 of host 0's 8 NIC-T0 links down together, then restored",
          {1, 0.5, 1},
          {"host 1 -> host 0 (remote side)", "host 0 -> host 1"}},
         {{0, P}, {1, P}, {2, P}, {3, P}}},
    };
    for (const auto& n : nic)
    {
        const Phased& k = n.first;
        const double end = P * k.capacity.size();
        FaultPlan plan;
        for (std::size_t i = 0; i < n.second.size(); ++i)
        {
            const double at = k.panel == "9a" ? (i + 1) * P : P;
            plan.faults.push_back(FaultSpec{at,
                                            MrcFaultAction::NIC_PORT_DOWN,
                                            MrcFaultTargetId::NicPort(0, n.second[i].first),
                                            n.second[i].second});
        }
        FlowRun run = WatchedRun({IbWriteBw(1, 0, end), IbWriteBw(0, 1, end)}, scale, end);
        // The remote sender's last packet onto plane 0 after host 0's port 0 goes down.
        run.watchSendsFromUs = P;
        run.watchSendsUntilUs = 2 * P;
        run.traceAllQps = true;
        const FlowResult r = ctx.Flows(k.panel, claims::MRC, fab, run, plan);
        PhaseRows(c, k, r, scale, worstNic);
        if (k.panel == "9a")
        {
            baseRtt = r.baseRttUs;
            remote = r.lastUsePerPlaneUs.empty() || std::isnan(r.lastUsePerPlaneUs[0])
                       ? 0
                       : std::max(0.0, r.lastUsePerPlaneUs[0] - P);
        }
        c.Info(k.panel + ": long-lived flows that finished before the end (must be 0)",
               "",
               Finished(r),
               NAN);
    }
    c.Check("9a, 9b: throughput / capacity left, the worst phase and direction",
            "",
            worstNic,
            NAN,
            "MRC >= 0.9",
            worstNic >= 0.9,
            "paper (Fig 9a/b): the throughput steps down by about 1/8 per lost link and back up; "
            "ours: 10 %");
    c.Check("9a: remote sender, host 0's port loss to its last packet onto that plane",
            "us",
            remote,
            NAN,
            "MRC < 2 base RTTs",
            remote < 2 * baseRtt,
            "paper (Fig 9a): the remote side learns of the lost port from the SACK port bitmap; "
            "physical: host 0's next ACK carries it, within about one base RTT");
    c.Info("base RTT (a full frame, across a T1)", "us", baseRtt, NAN);
    // 9c and 9d: across a T1, host 0 -> host 8. T0 0's uplinks spread over the planes, so that
    // no plane loses all of its (each plane has 8 of 100G for a 100G NIC port).
    double worstT1 = INFINITY;
    {
        const double step = P / 4;
        const double end = 2 * P + 20 * step;
        FaultPlan plan;
        for (uint32_t k = 0; k < 20; ++k)
        {
            plan.faults.push_back(
                FaultSpec{P + k * step,
                          MrcFaultAction::LINK_DOWN,
                          MrcFaultTargetId::Link(k % 8, MrcLinkTier::T0_T1, 0, k / 8),
                          0});
        }
        FlowRun run = WatchedRun({IbWriteBw(0, 8, end)}, scale, end);
        const FlowResult r = ctx.Flows("9c", claims::MRC, fab, run, plan);
        const double before = MeanGbps(r.samples[0], scale.binUs, 0.5 * P, P);
        const double low = WorstWindow(r.samples[0], scale.binUs, P, end, step);
        const double after = MeanGbps(r.samples[0], scale.binUs, end - 0.5 * P, end);
        worstT1 = std::min(worstT1, low / before);
        c.Agree("9c",
                "the worst interval between two link failures / before",
                low / before,
                "",
                "minimal impact",
                "at least 0.9",
                low / before >= 0.9);
        c.Agree("9c",
                "after the 20 failures / before",
                after / before,
                "",
                "minimal impact",
                "at least 0.9",
                after / before >= 0.9);
        Figure f;
        f.title = "9c: 20 of host 0's T0's 64 uplinks disabled one after another";
        f.xlabel = "time (ms)";
        f.ylabel = "throughput (Gb/s)";
        Series marks{"|marks", {}, {}};
        for (const auto& x : plan.faults)
        {
            marks.x.push_back(x.atUs / 1000);
            marks.y.push_back(0);
        }
        f.series = {Timeline("host 0 -> host 8", r.samples[0], scale.binUs), marks};
        c.figures.push_back(f);
        c.Info("9c: retransmissions", "", static_cast<double>(r.retx), NAN);
        c.Info("9c: EV retirements", "", static_cast<double>(r.retirements), NAN);
    }
    {
        const double end = 3 * P;
        FaultPlan plan;
        for (uint32_t p = 0; p < 8; ++p)
        {
            plan.faults.push_back(FaultSpec{P,
                                            MrcFaultAction::LINK_FLAP,
                                            MrcFaultTargetId::Link(p, MrcLinkTier::T0_T1, 0, 0),
                                            P});
        }
        FlowRun run = WatchedRun({IbWriteBw(0, 8, end)}, scale, end);
        const FlowResult r = ctx.Flows("9d", claims::MRC, fab, run, plan);
        const double before = MeanGbps(r.samples[0], scale.binUs, 0.5 * P, P);
        const double during = MeanGbps(r.samples[0], scale.binUs, P, 2 * P);
        const double after = MeanGbps(r.samples[0], scale.binUs, 2 * P, end);
        worstT1 = std::min({worstT1, during / before, after / before});
        c.Agree("9d",
                "8 links down / before",
                during / before,
                "",
                "negligible impact",
                "at least 0.9",
                during / before >= 0.9);
        c.Agree("9d",
                "restored / before",
                after / before,
                "",
                "negligible impact",
                "at least 0.9",
                after / before >= 0.9);
        Figure f;
        f.title = "9d: 8 T0-T1 links (one per plane) flapping at once";
        f.xlabel = "time (ms)";
        f.ylabel = "throughput (Gb/s)";
        f.series = {Timeline("host 0 -> host 8", r.samples[0], scale.binUs),
                    Series{"|marks", {P / 1000, 2 * P / 1000}, {0, 0}}};
        c.figures.push_back(f);
        c.Info("9d: retransmissions", "", static_cast<double>(r.retx), NAN);
    }
    c.Check("9c, 9d: throughput / before, the worst interval",
            "",
            worstT1,
            NAN,
            "MRC >= 0.9",
            worstT1 >= 0.9,
            "paper (Fig 9c/d): minimal, negligible impact; ours: 10 %");
    c.notes.push_back(
        "ib_write_bw as 4 queue pairs each writing one long message (the 32 KB writes of the "
        "paper's runs, back to back, at their rate: mrc-ib-write measures P3). 9a/9b: host 0 "
        "and host 1 under one T0, both directions; host 0's ports of planes 0, 1, 2 go down "
        "one phase apart and return in reverse order (9a), or its ports 0-3 together (9b). The "
        "capacity left is phase 0's rate times the share of ports left. 9c/9d: host 0 to host "
        "8, across a T1; 9c disables 20 of its T0's 64 uplinks a quarter phase apart, spread "
        "over the planes (plane k mod 8, T1 k div 8: at most 3 of a plane's 8, so capacity "
        "stays 100G per plane); 9d flaps T1 0's uplink of every plane for one phase.");
    c.scaling.push_back(PhaseScaling(P) + " (9c: a quarter phase between failures)");
    return c;
}

Report
Figure10(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 10: ib_write_bw with 4 QPs under one T0 (Cluster B, MRC); plane 0's T0 goes "
              "down: the steady state is about 100 Gb/s (one plane) lower";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    const double end = 3 * P;
    FaultPlan plan;
    plan.faults.push_back(
        FaultSpec{P, MrcFaultAction::SWITCH_REBOOT, MrcFaultTargetId::Switch(0, 0, 0), 0});
    FlowRun run = WatchedRun({IbWriteBw(0, 1, end), IbWriteBw(1, 0, end)}, scale, end);
    const FlowResult r = ctx.Flows("10", claims::MRC, ClusterB(), run, plan);
    double worst = INFINITY;
    Figure f;
    f.title = "10: plane 0's T0 down at the dashed time";
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    for (uint32_t w = 0; w < 2; ++w)
    {
        const std::string name = w == 0 ? "host 0 -> host 1" : "host 1 -> host 0";
        const double before = MeanGbps(r.samples[w], scale.binUs, 0.5 * P, P);
        const double down = MeanGbps(r.samples[w], scale.binUs, 2 * P, end);
        c.Agree("10",
                name + ": steady-state drop with the T0 down",
                before - down,
                "Gb/s",
                "about 100 Gb/s (one plane)",
                "1/8 of the rate before, within 10 % of that rate",
                std::abs((before - down) - before / 8) <= 0.1 * before);
        worst = std::min(worst, down / (before * 7 / 8));
        f.series.push_back(Timeline(name, r.samples[w], scale.binUs));
    }
    f.series.push_back(Series{"|marks", {P / 1000}, {0}});
    c.figures.push_back(f);
    // Information, not a check: every mutant keeps 7/8 here (each side sees its own port to
    // the dead T0 go down), so this row cannot tell a broken model from MRC.
    c.Info("throughput with the T0 down / 7/8 of before, the worse direction", "", worst, NAN);
    c.Info("retransmissions", "", static_cast<double>(r.retx), NAN);
    c.Info("EV retirements", "", static_cast<double>(r.retirements), NAN);
    c.notes.push_back("Host 0 and host 1 under T0 0, both directions; T0 0 of plane 0 (both "
                      "hosts' port 0) stops forwarding at one phase and stays down; the steady "
                      "state is the last two phases.");
    c.scaling.push_back(PhaseScaling(P));
    return c;
}

Report
Figure11(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 11: ib_write_bw with 4 QPs across a T1 (Cluster B, MRC); one T1 goes down "
              "and is restored: no steady-state loss, a transient when it returns";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    const double end = 4 * P;
    FaultPlan plan;
    plan.faults.push_back(
        FaultSpec{P, MrcFaultAction::SWITCH_REBOOT, MrcFaultTargetId::Switch(0, 1, 0), P});
    FlowRun run = WatchedRun({IbWriteBw(0, 8, end)}, scale, end);
    run.traceAllQps = true;
    const FlowResult r = ctx.Flows("11", claims::MRC, ClusterB(), run, plan);
    const double before = MeanGbps(r.samples[0], scale.binUs, 0.5 * P, P);
    const double down = MeanGbps(r.samples[0], scale.binUs, 1.5 * P, 2 * P);
    const double back = MeanGbps(r.samples[0], scale.binUs, 3 * P, end);
    c.Agree("11",
            "T1 down, steady state / before",
            down / before,
            "",
            "no steady-state loss",
            "at least 0.9",
            down / before >= 0.9);
    c.Agree("11",
            "T1 back, steady state / before",
            back / before,
            "",
            "no steady-state loss",
            "at least 0.9",
            back / before >= 0.9);
    // The EVs through the T1: retired when it fails, returned by probes once it is back.
    uint32_t retired = 0;
    uint32_t returned = 0;
    for (const auto& e : r.badEvs)
    {
        retired += (e.plane == 0 && e.path == 0) ? 1 : 0;
    }
    for (const auto& e : r.goodEvs)
    {
        returned += (e.plane == 0 && e.path == 0 && e.us >= 2 * P) ? 1 : 0;
    }
    const double share = retired == 0 ? NAN : double(returned) / retired;
    c.Info("EVs through the T1 retired (flow 0's 4 QPs)", "", retired, NAN);
    c.Info("EV retirements, every QP", "", static_cast<double>(r.retirements), NAN);
    c.Info("RTO expiries", "", static_cast<double>(r.timeouts), NAN);
    // Information: 7 of the plane's 8 T1s carry its 100G under every mutant.
    c.Info("T1 down: steady-state throughput / before", "", down / before, NAN);
    c.Check("retired EVs through the T1 back in service after it returns (flow 0's 4 QPs)",
            "",
            share,
            NAN,
            "MRC >= 0.9 (none retired: NaN, a fail)",
            share >= 0.9,
            "paper (Fig 11): the T1 returns into service by itself (the transient at its "
            "return); ours: 0.9 for probes still under way");
    Figure f;
    f.title = "11: plane 0's T1 0 down between the dashed times";
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    f.series = {Timeline("host 0 -> host 8", r.samples[0], scale.binUs),
                Series{"|marks", {P / 1000, 2 * P / 1000}, {0, 0}}};
    c.figures.push_back(f);
    c.Info("retransmissions", "", static_cast<double>(r.retx), NAN);
    c.notes.push_back("Host 0 (T0 0) to host 8 (T0 1); plane 0's T1 0 stops forwarding at one "
                      "phase and returns one phase later; steady states are the latter half of "
                      "the outage and the last phase.");
    c.scaling.push_back(PhaseScaling(P));
    return c;
}

Report
Figure12(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Figs 12/13: ib_write_bw across a T1 with the EV set fixed at 16 paths (2 per "
              "plane; Cluster B, MRC); one EV's path drops 20 % of its packets (and other "
              "rates): that EV goes inactive at once, a backup EV takes over, line rate holds";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    const double end = 3 * P;
    // The OCP API's explicit EV mode: paths 0 and 1 of every plane, backups 2 and 3.
    std::string evs;
    std::string backups;
    for (uint32_t p = 0; p < 8; ++p)
    {
        for (uint32_t j = 0; j < 2; ++j)
        {
            evs += (evs.empty() ? "" : ",") + std::to_string(p) + ":" + std::to_string(j);
            backups
                += (backups.empty() ? "" : ",") + std::to_string(p) + ":" + std::to_string(j + 2);
        }
    }
    double worstInactive = 0;
    // The lossy EV's first retirement after the cable's first lost data frame (us; NaN: none).
    auto retiredAfter = [](const FlowResult& r)
    {
        for (const auto& e : r.badEvs)
        {
            if (e.plane == 0 && static_cast<int32_t>(e.path) == r.downedT1 && e.us >= r.firstLossUs)
            {
                return e.us - r.firstLossUs;
            }
        }
        return static_cast<double>(NAN);
    };
    // The lossy EV's first hold or retirement (out of use) after that frame (us; NaN: none).
    auto outOfUseAfter = [&retiredAfter](const FlowResult& r)
    {
        double held = NAN;
        for (const auto& e : r.heldEvs)
        {
            if (e.plane == 0 && static_cast<int32_t>(e.path) == r.downedT1 && e.us >= r.firstLossUs)
            {
                held = e.us - r.firstLossUs;
                break;
            }
        }
        const double retired = retiredAfter(r);
        return std::isnan(held) ? retired : std::isnan(retired) ? held : std::min(held, retired);
    };
    double worstRate = INFINITY;
    uint32_t backupsInUse = 0;
    uint32_t unlisted = 0;
    uint32_t lossyRuns = 0;
    Figure f;
    f.title = "12: one of 16 EVs lossy from the dashed time";
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    for (double loss : {0.2, 0.05, 0.5})
    {
        std::ostringstream pct;
        pct << loss * 100 << " %";
        FlowSpec fwd = IbWriteBw(0, 8, end);
        fwd.evs = evs;
        fwd.backupEvs = backups;
        FlowSpec rev = IbWriteBw(8, 0, end);
        rev.evs = evs;
        rev.backupEvs = backups;
        FlowRun run = WatchedRun({fwd, rev}, scale, end);
        // The busier of plane 0's two uplinks in use turns lossy at P, until the end.
        run.busyUplinkAtUs = P;
        run.busyAction = "lossy";
        run.traceAllQps = true;
        FaultPlan plan;
        plan.lossy.rate = loss;
        plan.lossy.fromUs = P;
        plan.lossy.toUs = end;
        const FlowResult r = ctx.Flows(pct.str() + " lossy EV", claims::MRC, ClusterB(), run, plan);
        const double retire = retiredAfter(r);
        // A backup of the lossy plane put in a retired EV's place (any of flow 0's QPs), and
        // no path outside the lists in its first QP's final set.
        bool backupIn = false;
        for (const auto& e : r.goodEvs)
        {
            backupIn = backupIn
                    || (e.cause == MrcPathSelector::CAUSE_REPLACEMENT && e.plane == 0
                        && (e.path == 2 || e.path == 3));
        }
        for (const auto& e : r.evs0)
        {
            unlisted += e.path < 4 ? 0 : 1;
        }
        backupsInUse += backupIn ? 1 : 0;
        ++lossyRuns;
        const double inactive = outOfUseAfter(r);
        if (loss == 0.2)
        {
            worstInactive = std::isnan(inactive) ? INFINITY : inactive;
        }
        const double before = MeanGbps(r.samples[0], scale.binUs, 0.5 * P, P);
        const double during = MeanGbps(r.samples[0], scale.binUs, 1.5 * P, end);
        worstRate = std::min(worstRate, during / before);
        c.Agree("12",
                pct.str()
                    + " loss: the lossy EV out of use (held or retired) after its first "
                      "lost data frame",
                inactive,
                "us",
                "inactive immediately",
                "within 50 us (a few RTTs)",
                inactive < 50);
        c.Agree("12",
                pct.str() + " loss: throughput / before",
                during / before,
                "",
                "line rate holds",
                "at least 0.9",
                during / before >= 0.9);
        c.Info(pct.str() + " loss: the lossy EV retired after its first lost data frame",
               "us",
               retire,
               NAN);
        c.Info(pct.str() + " loss: retransmissions", "", static_cast<double>(r.retx), NAN);
        c.Info(pct.str() + " loss: EV retirements (both flows)",
               "",
               static_cast<double>(r.retirements),
               NAN);
        if (loss == 0.2)
        {
            f.series = {Timeline("host 0 -> host 8", r.samples[0], scale.binUs),
                        Timeline("host 8 -> host 0", r.samples[1], scale.binUs),
                        Series{"|marks", {P / 1000}, {0}}};
        }
    }
    c.figures.push_back(f);
    c.Check("20 % loss: the lossy EV out of use (held or retired) after the cable's first lost "
            "data frame",
            "us",
            worstInactive,
            NAN,
            "MRC < 50 us",
            worstInactive < 50,
            "paper (Fig 12): the EV goes inactive immediately (at 20 %); ours: 50 us, a few "
            "RTTs. Held (SKIP, no new data) is inactive; retirement waits for the verdict");
    c.Check("runs in which a backup EV of the lossy plane replaced a retired one",
            "",
            backupsInUse,
            lossyRuns,
            "MRC: every run",
            backupsInUse == lossyRuns,
            "paper (Fig 13): a backup EV becomes active in place of the lossy one");
    // Information: the explicit mode's own property (the unit test MrcExplicitEvsTestCase
    // asserts it); no mutant changes it.
    c.Info("paths outside the explicit and backup lists in flow 0's final EV set (its first QP)",
           "",
           unlisted,
           NAN);
    c.Info("throughput / before, the worst loss rate", "", worstRate, NAN);
    c.notes.push_back("Host 0 (T0 0) to host 8 (T0 1) and back, 4 QPs each, every QP given the "
                      "same explicit EV set (paths 0 and 1 of each plane; backups 2 and 3). At "
                      "one phase the busier of T0 0's plane-0 uplinks in use (to T1 0 or 1) "
                      "drops that share of its frames, both ways, until the end. The retirement is "
                      "timed from the cable's first lost data frame, which may be the other "
                      "direction's. Out of use is the first hold (a suspected loss: no new data "
                      "on it) or retirement; the check is on the paper's 20 %, the other rates "
                      "are rows.");
    c.scaling.push_back(PhaseScaling(P));
    return c;
}

Report
Figure14(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 14: two client-server pairs on two EVs A and B of one plane (Cluster B, "
              "MRC); flow 1 runs alone, then flow 2 is forced onto A: ECN moves flow 1 to B, "
              "both stay near peak";
    c.baselineName = "(MRC only, as in the paper)";
    const double P = scale.phaseUs;
    const double end = 3 * P;
    // Clients under T0 0, servers under T0 1: EV A (plane 0, T1 0) is one shared uplink.
    FlowSpec one = FlowSpec{0, 8, BusyBytes(end, 100, 1), 0, 1};
    one.evs = "0:0,0:1";
    FlowSpec two = FlowSpec{1, 9, BusyBytes(end, 100, 1), P, 1};
    two.evs = "0:0";
    const FlowRun run = WatchedRun({one, two}, scale, end);
    // The OCP API's examples set ev_min_active to a quarter of the EVs: none of two. The
    // model's floor keeps at least one EV GOOD, so that B can take all of flow 1.
    FabricSpec fab = ClusterB();
    fab.evMinActive = 1;
    const FlowResult r = ctx.Flows("14", claims::MRC, fab, run, FaultPlan());
    const double alone = MeanGbps(r.samples[0], scale.binUs, 0.5 * P, P);
    const double one2 = MeanGbps(r.samples[0], scale.binUs, 2 * P, end);
    const double two2 = MeanGbps(r.samples[1], scale.binUs, 2 * P, end);
    const double worst = std::min(one2, two2) / alone;
    c.Info("flow 1 alone (the plane's 100G port)", "Gb/s", alone, NAN);
    c.Agree("14",
            "flow 1 beside flow 2 / alone",
            one2 / alone,
            "",
            "near peak",
            "at least 0.9",
            one2 / alone >= 0.9);
    c.Agree("14",
            "flow 2 (on A only) / flow 1 alone",
            two2 / alone,
            "",
            "near peak",
            "at least 0.9",
            two2 / alone >= 0.9);
    c.Check("both flows after flow 2 joins / flow 1 alone, the slower",
            "",
            worst,
            NAN,
            "MRC >= 0.9",
            worst >= 0.9,
            "paper (Fig 14): ECN-driven rebalancing moves flow 1 to B, both near peak, no "
            "visible degradation; ours: 10 %");
    c.Info("trimmed packets", "", static_cast<double>(r.trims), NAN);
    c.Info("retransmissions", "", static_cast<double>(r.retx), NAN);
    c.Info("RTO expiries", "", static_cast<double>(r.timeouts), NAN);
    c.Info("QPs in error", "", static_cast<double>(r.failedQps), NAN);
    Figure f;
    f.title = "14: flow 2 joins on EV A at the dashed time";
    f.xlabel = "time (ms)";
    f.ylabel = "throughput (Gb/s)";
    f.series = {Timeline("flow 1 (EVs A, B)", r.samples[0], scale.binUs),
                Timeline("flow 2 (EV A)", r.samples[1], scale.binUs),
                Series{"|marks", {P / 1000}, {0}}};
    c.figures.push_back(f);
    c.notes.push_back("Flow 1: host 0 to host 8, one QP with the explicit EVs A (plane 0, T1 0) "
                      "and B (plane 0, T1 1); flow 2: host 1 to host 9 from one phase, EV A only. "
                      "Both are limited to the plane's 100G NIC port; the shared uplink of A "
                      "would carry 150G if flow 1 kept half its packets on it.");
    c.scaling.push_back(PhaseScaling(P));
    return c;
}

FabricSpec
SendrecvFluidFabric(const Scale& scale)
{
    FabricSpec big;
    big.hosts = scale.sendrecvFluidHosts;
    big.planes = 8;
    big.hostsPerT0 = std::min(256u, big.hosts / 2);
    big.t1 = big.hostsPerT0;
    big.latencies = "B";
    return big;
}

Report
Figure15(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 15: NCCL sendrecv, every NIC exchanging with one other, per-NIC throughput "
              "against message size (64 MB to 2 GB): up to 92 GB/s per 800G NIC (736 Gb/s, 92 %) "
              "at large messages; at flow level on a 42K-GPU fabric, at packet level on Cluster "
              "B, and the two models against each other";
    c.baselineName = "(MRC only, as in the paper)";
    auto job = [&](uint64_t bytes)
    {
        claims::JobSpec j;
        j.collective = MrcCollective::SENDRECV;
        j.bytes = bytes;
        j.steps = scale.iterations;
        j.computeUs = 0;
        j.jitterUs = 0;
        j.placement = "random";
        return j;
    };
    // Per-NIC throughput of the timed iterations (the first is a warm-up), Gb/s.
    auto perNic = [&](const claims::TrainingResult& r, uint32_t ranks, uint64_t bytes)
    {
        std::vector<double> bw;
        for (std::size_t k = scale.iterations > 1 ? 1 : 0; k < r.stepUs.size(); ++k)
        {
            double b = 0;
            MrcCollective::AlgorithmBandwidth(
                MrcCollective::SENDRECV, ranks, bytes, r.stepUs[k] * 1e-6, b);
            bw.push_back(b / 1e9);
        }
        return r.stepsDone < scale.iterations ? NAN : claims::Mean(bw);
    };
    auto label = [](uint64_t bytes)
    {
        return bytes >= 1000000000 ? std::to_string(bytes / 1000000000) + " GB"
                                   : std::to_string(bytes / 1000000) + " MB";
    };
    // The paper's scale at flow level: 8 planes of 100G, 256 hosts per T0 (512-port T0s, half
    // down), 256 T1s per plane, Cluster B's latencies.
    const FabricSpec big = SendrecvFluidFabric(scale);
    const FabricSpec small = ClusterB();
    Figure f;
    f.title = "15: sendrecv, per-NIC throughput against message size";
    f.xlabel = "message size (bytes)";
    f.ylabel = "per-NIC throughput (Gb/s)";
    f.logx = true;
    Series sBig{"flow level, " + std::to_string(big.hosts) + " GPUs", {}, {}};
    Series sPkt{"packet level, Cluster B (" + std::to_string(small.hosts) + " GPUs)", {}, {}};
    Series sFlu{"flow level, Cluster B (" + std::to_string(small.hosts) + " GPUs)", {}, {}};
    // A mutant acts at packet level only (MrcSchemeHelper refuses it at flow level): under one,
    // the flow-level rows are left out.
    StringValue mutants;
    CreateObject<MrcSchemeHelper>()->GetAttribute("Mutants", mutants);
    const bool fluid = mutants.Get().empty();
    double largest = NAN;
    for (uint64_t bytes : fluid ? scale.sendrecvSizes : std::vector<uint64_t>())
    {
        ++ctx.runs;
        const auto r = claims::RunFluidTraining(claims::MRC, big, job(bytes), {}, ctx.seed);
        const double g = perNic(r, big.hosts, bytes);
        c.Info(label(bytes) + ": per-NIC throughput, flow level, " + std::to_string(big.hosts)
                   + " GPUs",
               "Gb/s",
               g,
               NAN);
        sBig.x.push_back(double(bytes));
        sBig.y.push_back(g);
        largest = g;
    }
    c.Agree("15",
            label(scale.sendrecvSizes.back()) + ", flow level, " + std::to_string(big.hosts)
                + " GPUs: per-NIC throughput / 800G",
            largest / NIC_GBPS,
            "",
            "up to 92 % (92 GB/s) at large messages",
            "87 to 97 %",
            largest / NIC_GBPS >= 0.87 && largest / NIC_GBPS <= 0.97);
    double worstCross = 0;
    double pktLargest = NAN;
    for (uint64_t bytes : scale.sendrecvPacketSizes)
    {
        const auto& p
            = ctx.Training("sendrecv " + label(bytes), claims::MRC, small, job(bytes), {});
        ctx.runs += fluid ? 1 : 0;
        const auto q = fluid
                         ? claims::RunFluidTraining(claims::MRC, small, job(bytes), {}, ctx.seed)
                         : claims::TrainingResult();
        const double gp = perNic(p, small.hosts, bytes);
        const double gq = perNic(q, small.hosts, bytes);
        c.Info(
            label(bytes) + ": per-NIC throughput, packet / flow level, Cluster B", "Gb/s", gp, gq);
        c.Info(label(bytes) + ", packet level: retransmissions, RTO expiries",
               "",
               static_cast<double>(p.retx),
               static_cast<double>(p.timeouts));
        c.Info(label(bytes) + ", packet level: spurious retransmissions (the original arrived)",
               "",
               static_cast<double>(p.spurious),
               NAN);
        c.Info(label(bytes) + ", packet level: EV retirements, QPs in error",
               "",
               static_cast<double>(p.retirements),
               static_cast<double>(p.failedQps));
        sPkt.x.push_back(double(bytes));
        sPkt.y.push_back(gp);
        sFlu.x.push_back(double(bytes));
        sFlu.y.push_back(gq);
        worstCross = fluid ? std::max(worstCross, std::abs(gp / gq - 1)) : NAN;
        pktLargest = gp;
    }
    c.Agree("15",
            label(scale.sendrecvPacketSizes.back()) + ", packet level, Cluster B: per-NIC "
                + "throughput / 800G",
            pktLargest / NIC_GBPS,
            "",
            "up to 92 % at large messages",
            "87 to 97 %",
            pktLargest / NIC_GBPS >= 0.87 && pktLargest / NIC_GBPS <= 0.97);
    c.Check("packet level, Cluster B, the largest size: per-NIC throughput / 800G",
            "",
            pktLargest / NIC_GBPS,
            NAN,
            "MRC >= 0.85",
            pktLargest / NIC_GBPS >= 0.85,
            "paper (Fig 15): 92 % at large messages; ours: 0.85, 7 points for the packet "
            "headers and sampling");
    c.Info("packet against flow level on Cluster B, the largest difference", "", worstCross, NAN);
    f.series = {sBig, sPkt, sFlu};
    c.figures.push_back(f);
    c.notes.push_back(
        "sendrecv is the pairwise exchange of MrcCollective (rank r with rank r xor 1, both "
        "ways), ranks placed at random; per-NIC throughput is the bytes a rank sends over the "
        "iteration (NCCL-tests' algorithm bandwidth; its bus bandwidth factor is 1), the mean "
        "of the iterations after a warm-up. Flow level: MrcFluidNetwork on "
        + std::to_string(big.hosts) + " hosts in T0s of " + std::to_string(big.hostsPerT0)
        + " with as many T1s per plane, 8 planes of 100G, Cluster B's latencies; the same "
          "sizes on Cluster B at packet and at flow level cross-check the two models.");
    c.scaling.push_back("the paper's 42K GPUs at flow level only; packet level on Cluster B's "
                        + std::to_string(small.hosts) + " hosts; "
                        + std::to_string(scale.iterations)
                        + " iterations per size, the first a warm-up (NCCL-tests runs 20)");
    return c;
}

} // namespace paper
} // namespace ns3
