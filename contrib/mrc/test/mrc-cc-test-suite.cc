/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Unit tests of the congestion controllers, driven by synthetic ACK / NACK / ECN / delay
 * sequences and checked against the formulas written in the module documentation.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <cmath>
#include <functional>

using namespace ns3;

namespace
{

constexpr uint32_t MSS = 4096;          //!< payload per packet
constexpr uint32_t BDP = 150000;        //!< 100 Gb/s x 12 us: the UEC reference network, a = 1
const Time BASE_RTT = MicroSeconds(12); //!< base RTT

/**
 * Run f at time t (relative to now) and let the simulator get there.
 * @param t when
 * @param f what
 */
void
At(Time t, std::function<void()> f)
{
    Simulator::Schedule(t,
                        [f]()
                        {
                            f();
                        });
}

/** @return an NSCC initialised at time 0 on the reference network */
Ptr<MrcNscc>
MakeNscc()
{
    Ptr<MrcNscc> cc = CreateObject<MrcNscc>();
    cc->Init(BDP, BASE_RTT, MSS);
    return cc;
}

} // namespace

/**
 * @ingroup mrc-tests
 * @brief NSCC's four quadrants and fulfil adjustment.
 */
class MrcNsccQuadrantsTestCase : public TestCase
{
public:
    MrcNsccQuadrantsTestCase()
        : TestCase("NSCC: proportional and fair increase, MD on the average delay once per RTT")
    {
    }

private:
    void DoRun() override
    {
        // Scaling on the reference network: a = 1, T = 0.75 x 12 us = 9 us, b = 0.75.
        Ptr<MrcNscc> cc = MakeNscc();
        const double T = 9e-6;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTarget().GetSeconds(), T, 1e-12, "T = 0.75 base RTT");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 4.0 * MSS * 0.75 / T, 1e-3, "alpha");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetFairIncrease(), 5.0 * MSS, 1e-9, "fi");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetEta(), 0.15 * MSS, 1e-9, "eta");
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), BDP, "initial window: one BDP");

        // Proportional increase: d = 3 us < T, 9 packets acknowledged (> 8 mss: fulfil now).
        double expect = BDP;
        At(MicroSeconds(1),
           [&]()
           {
               const uint32_t bytes = 9 * MSS;
               cc->OnAck(bytes, BASE_RTT + MicroSeconds(3), false);
               expect += cc->GetAlpha() * bytes * (T - 3e-6) / expect;
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetCwnd()), expect, 1.0, "cwnd += alpha b (T-d)/cwnd");

        // Fair increase: d = 10 us >= T.
        At(MicroSeconds(1),
           [&]()
           {
               const double before = cc->GetCwnd();
               cc->OnAck(9 * MSS, BASE_RTT + MicroSeconds(10), false);
               expect = before + cc->GetFairIncrease() * 9 * MSS / before;
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetCwnd()), expect, 1.0, "cwnd += fi b / cwnd");

        // ECN with d < T: no change.
        At(MicroSeconds(1),
           [&]()
           {
               expect = cc->GetCwnd();
               cc->OnAck(MSS, BASE_RTT + MicroSeconds(2), true);
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetCwnd()), expect, 1.0, "ECN, d < T: no change");

        // ECN with d >= T: MD uses the *average* delay. Drive the average up first with marked
        // samples of 20 us (under 4 T, so quick adapt stays out) (each moves it 1.25% of the way,
        // and each may cut once per RTT).
        Ptr<MrcNscc> md = MakeNscc();
        double avgBefore = 0;
        double cwndBefore = 0;
        At(MicroSeconds(100),
           [&]()
           {
               for (int i = 0; i < 200; ++i)
               {
                   md->OnAck(0, BASE_RTT + MicroSeconds(20), true); // marks, no bytes
               }
               avgBefore = md->GetAvgDelay().GetSeconds();
               cwndBefore = md->GetCwnd();
           });
        At(MicroSeconds(120),
           [&]()
           {
               md->OnAck(MSS, BASE_RTT + MicroSeconds(20), true);
               const double avg = md->GetAvgDelay().GetSeconds();
               // ... and the fulfil adjustment due after a base RTT adds eta.
               expect = cwndBefore * std::max(1 - 0.8 * (avg - T) / avg, 0.5) + md->GetEta();
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(avgBefore, T, "the average delay rose above T");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(md->GetCwnd()),
                                  std::max(expect, 4096.0),
                                  1.0,
                                  "cwnd *= max(1 - gamma (avg - T) / avg, 1 - MaxMd)");
        // A second mark within the same base RTT does not cut again.
        At(MicroSeconds(5),
           [&]()
           {
               expect = md->GetCwnd();
               md->OnAck(MSS, BASE_RTT + MicroSeconds(20), true);
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(md->GetCwnd()), expect, 1.0, "at most once per RTT");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief NSCC's NACK decrease and quick adapt, including across an outage with no ACKs.
 */
class MrcNsccQuickAdaptTestCase : public TestCase
{
public:
    MrcNsccQuickAdaptTestCase()
        : TestCase("NSCC: NACK removes the trimmed bytes; quick adapt rolls across an outage")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcNscc> cc = MakeNscc();
        double expect = 0;
        // Within the first epoch a NACK only removes the trimmed bytes.
        At(MicroSeconds(1),
           [&]()
           {
               expect = cc->GetCwnd() - MSS;
               cc->OnNack(MSS, true);
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetCwnd()), expect, 1.0, "cwnd -= trimmed bytes");

        // A busy epoch (a whole window acknowledged) does not trigger quick adapt.
        At(MicroSeconds(10),
           [&]()
           {
               for (int i = 0; i < 40; ++i)
               {
                   cc->OnAck(MSS, BASE_RTT + MicroSeconds(10), false);
               }
           });
        At(MicroSeconds(32),
           [&]()
           {
               expect = cc->GetCwnd() - MSS;
               cc->OnNack(MSS, true); // epoch over, but 40 packets made it: no quick adapt
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc->GetCwnd()), expect, 1.0, "no quick adapt when busy");

        // An outage: nothing acknowledged for many epochs, then a timeout. The epochs rolled
        // on, so the last one achieved nothing and the window falls to the minimum.
        At(MicroSeconds(500),
           [&]()
           {
               cc->OnTimeout();
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 4096u, "quick adapt: cwnd = max(achieved, MinCwnd)");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Window bounds and the fixed window.
 */
class MrcCcBoundsTestCase : public TestCase
{
public:
    MrcCcBoundsTestCase()
        : TestCase("window bounds: NSCC stays in [MinCwnd, 1.5 BDP]; the fixed window is fixed")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcNscc> cc = MakeNscc();
        NS_TEST_ASSERT_MSG_EQ(cc->GetMaxCwnd(), uint32_t(1.5 * BDP), "max 1.5 BDP");
        At(MicroSeconds(1),
           [&]()
           {
               for (int i = 0; i < 100000; ++i)
               {
                   cc->OnAck(MSS, BASE_RTT, false); // empty network: fast increase
               }
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), cc->GetMaxCwnd(), "capped");
        At(MicroSeconds(1),
           [&]()
           {
               for (int i = 0; i < 1000; ++i)
               {
                   cc->OnNack(MSS, false);
               }
           });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 4096u, "floored at MinCwnd");

        Ptr<MrcFixedWindow> fw = CreateObject<MrcFixedWindow>();
        fw->Init(BDP, BASE_RTT, MSS);
        const uint32_t w = fw->GetCwnd();
        fw->OnAck(MSS, BASE_RTT, true);
        fw->OnNack(MSS, false);
        fw->OnTimeout();
        NS_TEST_ASSERT_MSG_EQ(fw->GetCwnd(), w, "the fixed window never moves");
        Simulator::Destroy();
    }
};

/**
 * @param cc a DCQCN reaction point
 * @param profile a profile (MrcDcqcn::GetProfile)
 */
void
ApplyProfile(Ptr<MrcDcqcn> cc, const std::string& profile)
{
    std::vector<MrcDcqcn::Setting> settings;
    NS_ABORT_UNLESS(MrcDcqcn::GetProfile(profile, DataRate("100Gbps"), settings));
    const std::string prefix = "ns3::MrcDcqcn::";
    for (const auto& s : settings)
    {
        if (s.attribute.rfind(prefix, 0) == 0)
        {
            cc->SetAttribute(s.attribute.substr(prefix.size()), StringValue(s.value));
        }
    }
}

/**
 * @ingroup mrc-tests
 * @brief DCQCN's reaction point with the DCQCN paper's profile, against the paper's formulas:
 * rate cuts and alpha on CNPs, alpha decay, fast recovery, additive and hyper increase from the
 * timer and the byte counter, and no timer once the line rate is back.
 */
class MrcDcqcnTestCase : public TestCase
{
public:
    MrcDcqcnTestCase()
        : TestCase("DCQCN, the paper's profile: CNP cuts, alpha, fast recovery, additive and "
                   "hyper increase")
    {
    }

private:
    void DoRun() override
    {
        Cuts();
        Increases();
        Quiesces();
    }

    /** Two CNPs, then the timers alone. */
    void Cuts()
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        ApplyProfile(cc, "paper");
        cc->Init(BDP, BASE_RTT, MSS); // 100 Gb/s
        const double g = 1.0 / 256;
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), 100000000000u, "starts at line rate");
        At(MicroSeconds(1),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(1) + NanoSeconds(1),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), 50000000000u, "Rc (1 - alpha / 2), alpha 1");
               NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), 100000000000u, "Rt = old Rc");
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-12, "(1 - g) 1 + g = 1");
           });
        At(MicroSeconds(2),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(3),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), 25000000000u, "cut again");
               NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), 50000000000u, "Rt = Rc before");
           });
        // The rate timer restarted at 2 us: increase events at 57, 112, 167, 222, 277 us (fast
        // recovery, T = 1..5), then 332 us (T = 6: additive). Alpha periods of 55 us from 0:
        // the first had the CNPs (no decay), those ending at 110 and 165 us decay it.
        At(MicroSeconds(170),
           [this, cc, g]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 3u, "three timer events");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetRate()), 50e9 - 25e9 / 8, 2.0, "three halvings of the gap to Rt");
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                         (1 - g) * (1 - g),
                                         1e-12,
                                         "two decays, none in the period with CNPs");
           });
        At(MicroSeconds(280),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetRate()), 50e9 - 25e9 / 32, 2.0, "F = 5 rounds of fast recovery");
               NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), 50000000000u, "Rt unchanged so far");
           });
        At(MicroSeconds(335),
           [this, cc]()
           {
               const double rt = 50e9 + 40e6;
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetTargetRate()), rt, 2.0, "additive: + R_AI");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetRate()), (rt + 50e9 - 25e9 / 32) / 2, 2.0, "Rc = (Rt + Rc) / 2");
           });
        Simulator::Stop(MicroSeconds(340));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCuts(), 2u, "two cuts");
        Simulator::Destroy();
    }

    /** The byte counter and the timer together reach hyper increase. */
    void Increases()
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        ApplyProfile(cc, "paper");
        cc->Init(BDP, BASE_RTT, MSS);
        At(MicroSeconds(1),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(2),
           [cc]()
           {
               cc->OnCnp();
           }); // Rc 25, Rt 50 Gb/s
        // 60 MB sent: BC = 1..6 (five fast recovery events, then an additive one).
        At(MicroSeconds(3),
           [cc]()
           {
               cc->OnSent(60000000);
           });
        At(MicroSeconds(4),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetByteCount(), 6u, "six byte-counter events");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), 50e9 + 40e6, 2.0, "BC = 6: additive");
           });
        // Timer events T = 1..5 (57..277 us): max(T, BC) >= F, min <= F: additive each.
        At(MicroSeconds(330),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 5u, "five timer events");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), 50e9 + 6 * 40e6, 2.0, "six additive steps");
           });
        // T = 6 at 332 us: min(T, BC) = 6 > F: hyper increase by (6 - 5) R_HAI.
        At(MicroSeconds(335),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), 50e9 + 6 * 40e6 + 400e6, 2.0, "hyper: + R_HAI");
           });
        Simulator::Stop(MicroSeconds(340));
        Simulator::Run();
        Simulator::Destroy();
    }

    /** After one CNP the rate returns to line rate and the timers stop by themselves. */
    void Quiesces()
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        ApplyProfile(cc, "paper");
        cc->Init(BDP, BASE_RTT, MSS);
        At(MicroSeconds(1),
           [cc]()
           {
               cc->OnCnp();
           });
        Simulator::Run(); // no stop time: it must end on its own
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), 100000000000u, "back at line rate");
        NS_TEST_ASSERT_MSG_LT(cc->GetAlpha(), 1.0, "alpha decays (computed, no timer)");
        NS_TEST_ASSERT_MSG_LT(Simulator::Now(), MilliSeconds(200), "and then no more events");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief DCQCN with NVIDIA ConnectX's defaults (the attribute defaults, profile "default"):
 * alpha updated once per 1 us period, at most one cut per 4 us, the target kept unless the rate
 * was increased since the last cut, fast recovery for one event, 300 us timer, 32767-byte
 * counter.
 */
class MrcDcqcnDefaultTestCase : public TestCase
{
public:
    MrcDcqcnDefaultTestCase()
        : TestCase("DCQCN, NVIDIA's defaults: per-period alpha, 4 us between cuts, target clamp")
    {
    }

private:
    void DoRun() override
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        cc->Init(BDP, BASE_RTT, MSS); // 100 Gb/s
        const double g = 5.0 / 1024;
        const double a0 = 1023.0 / 1024;
        // Period [0, 1 us) had no CNP: at 1 us alpha = (1 - g) a0, and the cut uses it.
        const double a1 = (1 - g) * a0;
        const double rc1 = 100e9 * (1 - a1 / 2);
        At(MicroSeconds(1),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(1) + NanoSeconds(1),
           [this, cc, rc1]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc1, 2.0, "Rc (1 - alpha / 2)");
               NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), 100000000000u, "Rt kept (no clamp)");
           });
        // 2 us: within the 4 us monitor period, no cut, but the CNP counts for alpha.
        At(MicroSeconds(2),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(3) + NanoSeconds(500),
           [this, cc, rc1, g, a1]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc1, 2.0, "no second cut");
               NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 1u, "one cut");
               // [1, 2) and [2, 3) each had a CNP.
               const double a3 = (1 - g) * ((1 - g) * a1 + g) + g;
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), a3, 1e-12, "per-period updates");
           });
        // 6 us: 5 us after the first cut: cut again, the target still kept (no increase yet).
        At(MicroSeconds(6),
           [cc]()
           {
               cc->OnCnp();
           });
        double rc2 = 0;
        At(MicroSeconds(6) + NanoSeconds(1),
           [this, cc, rc1, &rc2]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 2u, "second cut");
               NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), 100000000000u, "Rt still kept");
               rc2 = double(cc->GetRate());
               NS_TEST_EXPECT_MSG_LT(rc2, rc1, "lower");
           });
        // 306 us: the 300 us timer: fast recovery (F = 1), halfway back to Rt.
        At(MicroSeconds(306) + NanoSeconds(1),
           [this, cc, &rc2]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 1u, "one timer event");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetRate()), (100e9 + rc2) / 2, 2.0, "Rc = (Rt + Rc) / 2");
           });
        // 32767 bytes sent: a byte-counter event; T = 1 = F, BC = 1: additive, + 5 Mb/s.
        At(MicroSeconds(307),
           [cc]()
           {
               cc->OnSent(32767);
           });
        At(MicroSeconds(307) + NanoSeconds(1),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetByteCount(), 1u, "one byte-counter event");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), 100e9, 2.0, "Rt capped at the line rate");
           });
        // A cut after an increase: the target becomes the current rate.
        double before = 0;
        At(MicroSeconds(310) - NanoSeconds(1),
           [cc, &before]()
           {
               before = double(cc->GetRate());
           });
        At(MicroSeconds(310),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(310) + NanoSeconds(1),
           [this, cc, &before]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), before, 2.0, "clamp after an increase");
           });
        Simulator::Stop(MicroSeconds(311));
        Simulator::Run();
        Simulator::Destroy();
        // Every profile is known and sets the notification point's spacing too.
        for (const char* name : {"default", "aggressive", "most-aggressive", "paper"})
        {
            std::vector<MrcDcqcn::Setting> settings;
            NS_TEST_ASSERT_MSG_EQ(
                MrcDcqcn::GetProfile(name, DataRate("400Gbps"), settings), true, name);
            bool np = false;
            for (const auto& st : settings)
            {
                np = np || st.attribute == "ns3::MrcQueuePair::CnpInterval";
                Ptr<MrcDcqcn> probe = CreateObject<MrcDcqcn>();
                if (st.attribute.rfind("ns3::MrcDcqcn::", 0) == 0)
                {
                    probe->SetAttribute(st.attribute.substr(15), StringValue(st.value));
                }
            }
            NS_TEST_ASSERT_MSG_EQ(np, true, name);
        }
        std::vector<MrcDcqcn::Setting> none;
        NS_TEST_ASSERT_MSG_EQ(
            MrcDcqcn::GetProfile("gentle", DataRate("1Gbps"), none), false, "unknown profile");
    }
};

/**
 * @ingroup mrc-tests
 * @brief DCQCN's two aggressive profiles (MrcDcqcn::GetProfile), each against the formulas of
 * the module documentation with its own parameters: "aggressive" (HPCC's simulator: per-period
 * alpha with g = 1/256, no byte counter, increase steps scaled with the line rate) and
 * "most-aggressive" (uet-htsim: alpha per CNP, every CNP cuts with the target clamped, F = 5,
 * R_AI = line / 20, R_HAI = line / 10, 55 us timers, 10 MB byte counter).
 */
class MrcDcqcnProfilesTestCase : public TestCase
{
public:
    MrcDcqcnProfilesTestCase()
        : TestCase("DCQCN, the aggressive and most-aggressive profiles against the formulas")
    {
    }

private:
    void DoRun() override
    {
        Aggressive();
        MostAggressive();
    }

    /** "aggressive" at 100 Gb/s: R_AI 20 Mb/s, no byte counter. */
    void Aggressive()
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        ApplyProfile(cc, "aggressive");
        cc->Init(BDP, BASE_RTT, MSS); // 100 Gb/s
        const double g = 1.0 / 256;
        At(NanoSeconds(500),
           [cc]()
           {
               cc->OnCnp(); // alpha 1: half the rate; the target kept (no clamp, no increase)
           });
        At(MicroSeconds(300) + NanoSeconds(501),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 1u, "aggressive: one timer event");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), 75e9, 2.0, "fast recovery");
               cc->OnSent(1000000000);
               NS_TEST_EXPECT_MSG_EQ(cc->GetByteCount(), 0u, "aggressive: no byte counter");
           });
        // 301 us: alpha went to 1 in the first period (a CNP) and decayed for 300 more.
        const double a = std::pow(1 - g, 300);
        const double rc1 = 75e9 * (1 - a / 2);
        At(MicroSeconds(301),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(301) + NanoSeconds(1),
           [this, cc, a, rc1]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), a, 1e-9, "aggressive: per-period alpha");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetTargetRate()),
                                         75e9,
                                         2.0,
                                         "aggressive: the target clamped after an increase");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc1, 2.0, "Rc (1 - alpha / 2)");
           });
        // 601 us: fast recovery; 901 us: additive, R_AI = 5 Mb/s per 25 Gb/s of line rate.
        const double rc2 = (75e9 + rc1) / 2;
        const double rt3 = 75e9 + 20e6;
        const double rc3 = (rt3 + rc2) / 2;
        At(MicroSeconds(901) + NanoSeconds(1),
           [this, cc, rt3, rc3]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 2u, "two timer events");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetTargetRate()), rt3, 2.0, "Rt += R_AI");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc3, 2.0, "Rc = (Rt + Rc) / 2");
           });
        Simulator::Stop(MicroSeconds(902));
        Simulator::Run();
        Simulator::Destroy();
    }

    /** "most-aggressive" at 100 Gb/s: R_AI 5 Gb/s, R_HAI 10 Gb/s. */
    void MostAggressive()
    {
        Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();
        ApplyProfile(cc, "most-aggressive");
        cc->Init(BDP, BASE_RTT, MSS);
        const double g = 1.0 / 256;
        // Two CNPs 1 us apart: both cut (no monitor period), each clamping the target.
        At(MicroSeconds(1),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(2),
           [cc]()
           {
               cc->OnCnp();
           });
        At(MicroSeconds(2) + NanoSeconds(1),
           [this, cc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 2u, "most-aggressive: every CNP cuts");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetTargetRate()), 50e9, 2.0, "Rt = Rc");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), 25e9, 2.0, "halved twice");
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-12, "alpha + g per CNP");
           });
        // [0, 55 us) had CNPs; [55, 110) none: alpha decays once.
        At(MicroSeconds(112),
           [this, cc, g]()
           {
               NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1 - g, 1e-12, "decay per period");
           });
        // Five 55 us timer events of fast recovery (F = 5), then additive increase.
        double rc = 25e9;
        for (int k = 0; k < 5; ++k)
        {
            rc = (50e9 + rc) / 2;
        }
        double rt = 55e9;
        rc = (rt + rc) / 2;
        At(MicroSeconds(332) + NanoSeconds(1),
           [this, cc, rt, rc]()
           {
               NS_TEST_EXPECT_MSG_EQ(cc->GetTimerCount(), 6u, "six timer events");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetTargetRate()), rt, 2.0, "R_AI = line / 20");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc, 2.0, "after fast recovery");
           });
        // Six 10 MB byte-counter events: additive while BC <= F, then hyper (T = 6, BC = 6).
        for (int bc = 1; bc <= 6; ++bc)
        {
            rt += bc <= 5 ? 5e9 : (bc - 5) * 10e9;
            rc = (rt + rc) / 2;
        }
        At(MicroSeconds(333),
           [this, cc, rt, rc]()
           {
               cc->OnSent(60000000);
               NS_TEST_EXPECT_MSG_EQ(cc->GetByteCount(), 6u, "six byte-counter events");
               NS_TEST_EXPECT_MSG_EQ_TOL(
                   double(cc->GetTargetRate()), rt, 2.0, "hyper increase: R_HAI = line / 10");
               NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate()), rc, 2.0, "Rc = (Rt + Rc) / 2");
           });
        Simulator::Stop(MicroSeconds(334));
        Simulator::Run();
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The congestion-control suite.
 */
class MrcCcTestSuite : public TestSuite
{
public:
    MrcCcTestSuite()
        : TestSuite("mrc-cc", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcNsccQuadrantsTestCase);
        AddTestCase(new MrcNsccQuickAdaptTestCase);
        AddTestCase(new MrcCcBoundsTestCase);
        AddTestCase(new MrcDcqcnTestCase);
        AddTestCase(new MrcDcqcnDefaultTestCase);
        AddTestCase(new MrcDcqcnProfilesTestCase);
    }
};

static MrcCcTestSuite g_mrcCcTestSuite; //!< static instance
