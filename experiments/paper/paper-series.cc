/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief What the paper's figures share: rates from sampled bins, throughput timelines.
 */

#include "paper.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace paper
{

/**
 * @param samples bytes per bin
 * @param binUs the bin
 * @param fromUs start of the window
 * @param toUs its end
 * @return the mean rate over the bins inside the window, Gb/s (NaN if none)
 */
double
MeanGbps(const std::vector<uint64_t>& samples, double binUs, double fromUs, double toUs)
{
    double bytes = 0;
    uint32_t n = 0;
    for (std::size_t k = 0; k < samples.size(); ++k)
    {
        const double a = k * binUs;
        if (a >= fromUs && a + binUs <= toUs + 1e-9)
        {
            bytes += samples[k];
            ++n;
        }
    }
    return n == 0 ? NAN : bytes * 8 / (n * binUs * 1e3);
}

/**
 * @param samples bytes per bin
 * @param binUs the bin
 * @param name the series' name
 * @return a throughput-over-time series (x: ms, y: Gb/s)
 */
Series
Timeline(const std::string& name, const std::vector<uint64_t>& samples, double binUs)
{
    Series s{name, {}, {}};
    for (std::size_t k = 0; k < samples.size(); ++k)
    {
        s.x.push_back((k + 1) * binUs / 1000);
        s.y.push_back(samples[k] * 8.0 / (binUs * 1e3));
    }
    return s;
}

/**
 * @param a one series of bins
 * @param b another
 * @return their sum, bin by bin
 */
std::vector<uint64_t>
Sum(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b)
{
    std::vector<uint64_t> out(std::max(a.size(), b.size()), 0);
    for (std::size_t k = 0; k < out.size(); ++k)
    {
        out[k] = (k < a.size() ? a[k] : 0) + (k < b.size() ? b[k] : 0);
    }
    return out;
}

/**
 * @param r a run of long-lived flows
 * @return how many finished before the run's end (the rates of those are not a long-lived
 * flow's; must be 0)
 */
double
Finished(const FlowResult& r)
{
    return static_cast<double>(std::count_if(r.fctUs.begin(),
                                             r.fctUs.end(),
                                             [](double x)
                                             {
                                                 return !std::isnan(x);
                                             }));
}

} // namespace paper
} // namespace ns3
