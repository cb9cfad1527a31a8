/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

double
MrcStats::Mean(const std::vector<double>& v)
{
    if (v.empty())
    {
        return NAN;
    }
    return std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

double
MrcStats::Quantile(std::vector<double> v, double q)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    const double pos = q * (v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

double
MrcStats::Cov(const std::vector<double>& v)
{
    const double m = Mean(v);
    if (v.empty() || m == 0)
    {
        return NAN;
    }
    double s = 0;
    for (double x : v)
    {
        s += (x - m) * (x - m);
    }
    return std::sqrt(s / v.size()) / m;
}

double
MrcStats::Jain(const std::vector<double>& v)
{
    double s = 0;
    double s2 = 0;
    for (double x : v)
    {
        s += x;
        s2 += x * x;
    }
    return v.empty() || s2 == 0 ? NAN : s * s / (v.size() * s2);
}

} // namespace ns3
