/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The paper's Cluster C experiments (Figs 16-17): collectives over message size on 64
 * GPUs, MRC on 4 x 100G planes with one queue pair against RoCE on one 400G plane with 1 to 16
 * queue pairs, with 0, 0.1 % and 1 % random loss at every NIC's receive side.
 */

#include "ns3/core-module.h"
#include "paper.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace paper
{

namespace
{

/** NCCL's pipelining step: NCCL_BUFFSIZE (4 MiB) / NCCL_STEPS (8), NCCL's defaults. */
constexpr uint64_t NCCL_STEP_BYTES = 512 * 1024;
/** NCCL_STEPS: the steps in flight on a connection. */
constexpr uint32_t NCCL_STEPS = 8;

/** One curve of a figure: a scheme with a queue-pair count. */
struct Curve
{
    std::string name;      //!< legend ("RoCE, 4 QPs")
    claims::Scheme scheme; //!< MRC or ROCE
    uint32_t qps;          //!< queue pairs per peer
};

/** What one collective measured. */
struct Point
{
    double busGbps = NAN;     //!< mean bus bandwidth over the timed iterations (NaN: not done)
    double spread = NAN;      //!< (max - min) / mean of the iterations' bus bandwidth
    uint64_t failedQps = 0;   //!< queue pairs in error
    uint64_t retx = 0;        //!< retransmissions
    uint64_t retirements = 0; //!< EV retirements (MRC)
    uint64_t timeouts = 0;    //!< retransmission timeouts
};

/**
 * @return Cluster C as run: MRC on 4 x 100G planes, RoCE on one 400G plane; every queue pair
 * of MRC sprays over 256 EVs (the paper: "1 QP over 256 paths"), with EvMinActive a quarter of
 * them (the OCP MRC API's examples)
 */
FabricSpec
ClusterC()
{
    FabricSpec f = Cluster("C");
    f.evSetSize = 256;
    f.evMinActive = 64;
    return f;
}

/**
 * @param r a result
 * @param type the collective
 * @param ranks ranks
 * @param bytes its size
 * @param iterations planned iterations (the first is a warm-up when there are more than one)
 * @return the point
 */
Point
ToPoint(const claims::TrainingResult& r,
        MrcCollective::Type type,
        uint32_t ranks,
        uint64_t bytes,
        uint32_t iterations)
{
    Point p;
    p.failedQps = r.failedQps;
    p.retx = r.retx;
    p.retirements = r.retirements;
    p.timeouts = r.timeouts;
    if (r.stepsDone < iterations || r.stepUs.size() < iterations)
    {
        return p; // did not complete: no bandwidth
    }
    std::vector<double> bw;
    for (std::size_t k = iterations > 1 ? 1 : 0; k < r.stepUs.size(); ++k)
    {
        double busbw = 0;
        MrcCollective::AlgorithmBandwidth(type, ranks, bytes, r.stepUs[k] * 1e-6, busbw);
        bw.push_back(busbw / 1e9);
    }
    p.busGbps = claims::Mean(bw);
    p.spread = (claims::Quantile(bw, 1) - claims::Quantile(bw, 0)) / p.busGbps;
    return p;
}

/**
 * @param bytes a size
 * @return it for a label ("4 MB", "1 GB")
 */
std::string
SizeLabel(uint64_t bytes)
{
    std::ostringstream os;
    if (bytes >= 1000000000ULL)
    {
        os << bytes / 1000000000ULL << " GB";
    }
    else
    {
        os << bytes / 1000000ULL << " MB";
    }
    return os.str();
}

/**
 * @param loss a loss probability
 * @return it for a label ("0", "0.1 %")
 */
std::string
LossLabel(double loss)
{
    std::ostringstream os;
    if (loss == 0)
    {
        os << "no loss";
    }
    else
    {
        os << loss * 100 << " % loss";
    }
    return os.str();
}

/**
 * Run one collective over every size and curve without loss, and over every size and the
 * lossy curves with each loss.
 * @param ctx context
 * @param scale the scale
 * @param type the collective
 * @param curves the curves
 * @param lossy the names of the curves that also run with loss
 * @return per loss, per curve, per size, the point
 */
std::map<double, std::map<std::string, std::vector<Point>>>
Sweep(Context& ctx,
      const Scale& scale,
      MrcCollective::Type type,
      const std::vector<Curve>& curves,
      const std::set<std::string>& lossy)
{
    const FabricSpec fab = ClusterC();
    // Every run of the sweep, in the order they are reported; they are independent, so they
    // run ahead in parallel (--jobs) and are then taken in this order.
    std::vector<claims::TrainingRequest> runs;
    for (double loss : scale.losses)
    {
        FaultPlan plan;
        if (loss > 0)
        {
            FaultSpec f{0, MrcFaultAction::NIC_RX_LOSS, MrcFaultTargetId::Nics(), 0};
            f.rate = loss;
            plan.faults.push_back(f);
        }
        for (const auto& c : curves)
        {
            if (loss > 0 && !lossy.count(c.name))
            {
                continue;
            }
            for (uint64_t bytes : scale.sizes)
            {
                claims::JobSpec job;
                job.collective = type;
                job.bytes = bytes;
                job.steps = scale.iterations;
                job.computeUs = 0;
                job.jitterUs = 0;
                job.placement = "random";
                job.qpsPerPeer = c.qps;
                // NCCL's Simple protocol moves a transfer in steps of at most 512 KiB
                // (NCCL_BUFFSIZE 4 MiB over NCCL_STEPS 8) with NCCL_STEPS of them in flight:
                // every curve pipelines its transfers in at least 8 chunks, at most 512 KiB
                // each, and at least one per queue pair (so the curves differ in their queue
                // pairs, not in their pipelining).
                const uint64_t segment = bytes / fab.hosts;
                job.chunks = std::max<uint32_t>(
                    {NCCL_STEPS,
                     c.qps,
                     static_cast<uint32_t>((segment + NCCL_STEP_BYTES - 1) / NCCL_STEP_BYTES)});
                job.stopUs = scale.collectiveStopUs;
                runs.push_back({std::string(MrcCollective::TypeName(type)) + " " + SizeLabel(bytes)
                                    + ", " + LossLabel(loss) + ", " + std::to_string(c.qps)
                                    + " QP(s)",
                                c.scheme,
                                fab,
                                job,
                                plan});
            }
        }
    }
    ctx.Prefetch(runs);
    std::map<double, std::map<std::string, std::vector<Point>>> out;
    std::size_t k = 0;
    for (double loss : scale.losses)
    {
        for (const auto& c : curves)
        {
            if (loss > 0 && !lossy.count(c.name))
            {
                continue;
            }
            for (uint64_t bytes : scale.sizes)
            {
                const auto& q = runs[k++];
                const auto& r = ctx.Training(q.label, q.scheme, q.fab, q.job, q.faults);
                out[loss][c.name].push_back(ToPoint(r, type, fab.hosts, bytes, scale.iterations));
            }
        }
    }
    return out;
}

/**
 * @param v points over sizes
 * @return the last (largest size) point's bus bandwidth
 */
double
Large(const std::vector<Point>& v)
{
    return v.empty() ? NAN : v.back().busGbps;
}

/**
 * @param v points over sizes
 * @return the first (smallest size) point's bus bandwidth
 */
double
Small(const std::vector<Point>& v)
{
    return v.empty() ? NAN : v.front().busGbps;
}

/**
 * The figure: bus bandwidth against size, a panel per loss, a curve per scheme and QP count.
 * @param c the report
 * @param scale the scale
 * @param panel the figure's name ("16")
 * @param what the collective's name
 * @param res the sweep
 * @param curves the curves
 */
void
Draw(Report& c,
     const Scale& scale,
     const std::string& panel,
     const std::string& what,
     const std::map<double, std::map<std::string, std::vector<Point>>>& res,
     const std::vector<Curve>& curves)
{
    for (const auto& [loss, byCurve] : res)
    {
        Figure f;
        f.title = panel + ": " + what + ", " + LossLabel(loss);
        f.xlabel = "message size (bytes)";
        f.ylabel = "bus bandwidth (Gb/s)";
        f.logx = true;
        for (const auto& cv : curves)
        {
            if (!byCurve.count(cv.name))
            {
                continue; // not run with this loss
            }
            Series s{cv.name, {}, {}};
            const auto& pts = byCurve.at(cv.name);
            for (std::size_t k = 0; k < pts.size(); ++k)
            {
                s.x.push_back(double(scale.sizes[k]));
                s.y.push_back(std::isnan(pts[k].busGbps) ? 0 : pts[k].busGbps);
            }
            f.series.push_back(s);
        }
        c.figures.push_back(f);
    }
    for (const auto& [loss, byCurve] : res)
    {
        for (const auto& cv : curves)
        {
            if (!byCurve.count(cv.name))
            {
                continue;
            }
            const auto& pts = byCurve.at(cv.name);
            for (std::size_t k = 0; k < pts.size(); ++k)
            {
                const std::string m = panel + " " + LossLabel(loss) + ", " + cv.name + ", "
                                    + SizeLabel(scale.sizes[k]) + ": bus bandwidth";
                const bool mrc = cv.scheme == claims::MRC;
                c.Info(m, "Gb/s", mrc ? pts[k].busGbps : NAN, mrc ? NAN : pts[k].busGbps);
                if (loss > 0 || k + 1 == pts.size())
                {
                    const std::string n = panel + " " + LossLabel(loss) + ", " + cv.name + ", "
                                        + SizeLabel(scale.sizes[k]);
                    c.Info(
                        n + ": spread of the timed iterations' bus bandwidth, (max - min) / mean",
                        "",
                        mrc ? pts[k].spread : NAN,
                        mrc ? NAN : pts[k].spread);
                    c.Info(n + ": retransmissions",
                           "",
                           mrc ? double(pts[k].retx) : NAN,
                           mrc ? NAN : double(pts[k].retx));
                    c.Info(n + ": queue pairs in error",
                           "",
                           mrc ? double(pts[k].failedQps) : NAN,
                           mrc ? NAN : double(pts[k].failedQps));
                    c.Info(n + ": retransmission timeouts",
                           "",
                           mrc ? double(pts[k].timeouts) : NAN,
                           mrc ? NAN : double(pts[k].timeouts));
                    if (mrc)
                    {
                        c.Info(n + ": EV retirements", "", double(pts[k].retirements), NAN);
                    }
                }
            }
        }
    }
}

/** The achievable bus bandwidth of a 400G NIC: its line rate times 4096 / (4096 + 116). */
const double LINE_GBPS = 400.0 * 4096 / (4096 + 76 + 40);

} // namespace

Report
Figure16(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 16: ring all-reduce bus bandwidth against message size on 64 GPUs (Cluster C): "
              "RoCE with 1 QP at about half of what is possible (ECMP collisions), more QPs help "
              "little beyond 8, one MRC QP above 16 RoCE QPs; 0.1 % loss barely moves MRC and "
              "hurts RoCE; at 1 % RoCE is unusable and MRC keeps about 1/3";
    c.baselineName = "RoCE on one 400G plane (ECMP, PFC, DCQCN), 1 to 16 QPs";
    std::vector<Curve> curves;
    for (uint32_t q : scale.roceQps)
    {
        curves.push_back(
            {"RoCE, " + std::to_string(q) + (q == 1 ? " QP" : " QPs"), claims::ROCE, q});
    }
    for (uint32_t q : scale.mrcQps)
    {
        curves.push_back({"MRC, " + std::to_string(q) + (q == 1 ? " QP" : " QPs"), claims::MRC, q});
    }
    const std::string roce1 = curves.front().name;
    const std::string roceMax = curves[scale.roceQps.size() - 1].name;
    const std::string mrc1 = curves[scale.roceQps.size()].name;
    // With loss, the paper's curves: RoCE with 1 and 16 QPs, MRC with 1.
    const auto res
        = Sweep(ctx, scale, MrcCollective::RING_ALLREDUCE, curves, {roce1, roceMax, mrc1});
    Draw(c, scale, "16", "ring all-reduce", res, curves);
    const auto& clean = res.at(0.0);
    const double r1 = Large(clean.at(roce1));
    const double rMax = Large(clean.at(roceMax));
    const double m1 = Large(clean.at(mrc1));
    const std::string big = SizeLabel(scale.sizes.back());
    c.Agree("16, " + big,
            "RoCE 1 QP / what a 400G NIC can carry",
            r1 / LINE_GBPS,
            "",
            "about half of the possible throughput (ECMP collisions)",
            "0.35 to 0.65",
            r1 / LINE_GBPS >= 0.35 && r1 / LINE_GBPS <= 0.65);
    // More QPs help, but little beyond 8.
    double r8 = NAN;
    for (std::size_t k = 0; k < scale.roceQps.size(); ++k)
    {
        if (scale.roceQps[k] == 8)
        {
            r8 = Large(clean.at(curves[k].name));
        }
    }
    if (!std::isnan(r8) && scale.roceQps.back() == 16)
    {
        c.Agree("16, " + big,
                "RoCE 16 QPs / RoCE 8 QPs",
                rMax / r8,
                "",
                "more QPs help but little beyond 8",
                "below 1.1",
                rMax / r8 < 1.1);
    }
    c.Agree("16, " + big,
            "MRC 1 QP / RoCE " + std::to_string(scale.roceQps.back()) + " QPs",
            m1 / rMax,
            "",
            "one MRC QP beats 16 RoCE QPs",
            "above 1",
            m1 > rMax);
    if (scale.sizes.size() > 1)
    {
        const std::string small = SizeLabel(scale.sizes.front());
        const double sm = Small(clean.at(mrc1));
        const double sr = Small(clean.at(roce1));
        c.Agree("16, " + small,
                "MRC 1 QP / RoCE 1 QP",
                sm / sr,
                "",
                "small messages latency-bound, little difference",
                "0.8 to 1.25",
                sm / sr >= 0.8 && sm / sr <= 1.25);
    }
    if (res.count(0.001))
    {
        const double m01 = Large(res.at(0.001).at(mrc1));
        const double r01 = Large(res.at(0.001).at(roceMax));
        c.Agree("16, 0.1 % loss, " + big,
                "MRC 1 QP with / without loss",
                m01 / m1,
                "",
                "MRC barely moves at large messages",
                "at least 0.9",
                m01 / m1 >= 0.9);
        c.Agree("16, 0.1 % loss, " + big,
                "RoCE " + std::to_string(scale.roceQps.back()) + " QPs with / without loss",
                std::isnan(r01) ? 0 : r01 / rMax,
                "",
                "RoCE does poorly",
                "below 0.5",
                (std::isnan(r01) ? 0 : r01 / rMax) < 0.5);
        c.Check("0.1 % loss: MRC 1 QP's bus bandwidth / RoCE "
                    + std::to_string(scale.roceQps.back()) + " QPs', " + big,
                "",
                m01,
                std::isnan(r01) ? 0 : r01,
                "MRC >= 2 x baseline",
                m01 >= 2 * (std::isnan(r01) ? 0 : r01),
                "paper (Fig 16): at 0.1 % loss MRC barely moves and RoCE does poorly; ours: 2x");
    }
    if (res.count(0.01))
    {
        const double m1l = Large(res.at(0.01).at(mrc1));
        const double r1l = Large(res.at(0.01).at(roceMax));
        c.Agree("16, 1 % loss, " + big,
                "MRC 1 QP with / without loss",
                std::isnan(m1l) ? 0 : m1l / m1,
                "",
                "MRC keeps about 1/3",
                "0.2 to 0.5",
                !std::isnan(m1l) && m1l / m1 >= 0.2 && m1l / m1 <= 0.5);
        c.Agree("16, 1 % loss, " + big,
                "RoCE " + std::to_string(scale.roceQps.back()) + " QPs with / without loss",
                std::isnan(r1l) ? 0 : r1l / rMax,
                "",
                "practically unusable",
                "below 0.1",
                (std::isnan(r1l) ? 0 : r1l / rMax) < 0.1);
    }
    c.Check("no loss: MRC 1 QP's bus bandwidth / RoCE " + std::to_string(scale.roceQps.back())
                + " QPs', " + big,
            "",
            m1,
            rMax,
            "MRC > baseline",
            m1 > rMax,
            "paper (Fig 16): one MRC QP beats 16 RoCE QPs");
    c.notes.push_back(
        "Cluster C (MrcClusterPreset C): 64 hosts (one GPU and NIC each), 8 per T0 and 8 T1s "
        "(ours); MRC on 4 planes of 100G with 256 EVs per queue pair and EvMinActive 64 (a "
        "quarter, as the OCP MRC API's examples), RoCE on one 400G plane with ECMP, PFC and "
        "DCQCN (NVIDIA's defaults). Ranks placed at random. Each size runs "
        + std::to_string(scale.iterations)
        + " iterations back to back (no compute), the first a warm-up; bus bandwidth as "
          "NCCL-tests computes it: bytes / time x 2 (N - 1) / N. Loss: every NIC port drops each "
          "arriving frame, data or control, with the probability (nic_rx_loss); with loss, the "
          "paper's curves run (RoCE with 1 and "
        + std::to_string(scale.roceQps.back())
        + " QPs, MRC with 1). A size that did not finish within the run's limit is drawn at 0.");
    c.scaling.push_back("message sizes up to " + big + " (the paper: up to 16 GB)");
    return c;
}

Report
Figure17(Context& ctx, const Scale& scale)
{
    Report c;
    c.claim = "Fig 17: all-to-all bus bandwidth against message size on 64 GPUs (Cluster C): 16 "
              "RoCE QPs per destination slightly worse than 1; MRC above RoCE at every size";
    c.baselineName = "RoCE on one 400G plane (ECMP, PFC, DCQCN), 1 or 16 QPs per destination";
    std::vector<Curve> curves = {{"RoCE, 1 QP", claims::ROCE, 1},
                                 {"RoCE, " + std::to_string(scale.roceQps.back()) + " QPs",
                                  claims::ROCE,
                                  scale.roceQps.back()},
                                 {"MRC, 1 QP", claims::MRC, 1}};
    Scale s = scale;
    s.losses = {0};
    const auto res = Sweep(ctx, s, MrcCollective::ALLTOALL, curves, {});
    Draw(c, s, "17", "all-to-all", res, curves);
    const auto& clean = res.at(0.0);
    const auto& r1 = clean.at(curves[0].name);
    const auto& r16 = clean.at(curves[1].name);
    const auto& m1 = clean.at(curves[2].name);
    bool everywhere = true;
    double worst = INFINITY;
    for (std::size_t k = 0; k < s.sizes.size(); ++k)
    {
        const double best = std::max(r1[k].busGbps, r16[k].busGbps);
        everywhere = everywhere && m1[k].busGbps > best;
        worst = std::min(worst, m1[k].busGbps / best);
    }
    const std::string big = SizeLabel(s.sizes.back());
    c.Agree("17, " + big,
            "RoCE 16 QPs / 1 QP",
            Large(r16) / Large(r1),
            "",
            "16 QPs per destination slightly worse than 1",
            "0.8 to 1.0",
            Large(r16) / Large(r1) >= 0.8 && Large(r16) / Large(r1) <= 1.0);
    c.Agree("17, every size",
            "MRC 1 QP / the better RoCE, the worst size",
            worst,
            "",
            "MRC wins at every size",
            "above 1",
            everywhere);
    c.Check("MRC 1 QP / the better RoCE, the worst size",
            "",
            worst,
            NAN,
            "MRC > 1 at every size",
            everywhere,
            "paper (Fig 17): MRC wins at every size");
    c.notes.push_back("The setup of Fig 16, all-to-all (NCCL's pairwise exchange: every rank "
                      "sends a block to every other, in shifted order), no loss.");
    c.scaling.push_back("message sizes up to " + big + " (the paper: up to 16 GB)");
    return c;
}

} // namespace paper
} // namespace ns3
