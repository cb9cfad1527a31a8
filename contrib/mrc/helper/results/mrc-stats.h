/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_STATS_H
#define MRC_STATS_H

#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Summary statistics of a sample, computed as the analysis scripts compute them (numpy
 * and pandas defaults), so that a program's printed table and analysis/summary.py agree.
 */
class MrcStats
{
public:
    /**
     * @param v values
     * @return the mean (NaN if empty)
     */
    static double Mean(const std::vector<double>& v);
    /**
     * The quantile as numpy.percentile and pandas compute it by default: linear interpolation
     * between closest ranks.
     * @param v values
     * @param q quantile in [0, 1]
     * @return the quantile (NaN if empty)
     */
    static double Quantile(std::vector<double> v, double q);
    /**
     * @param v values
     * @return the coefficient of variation, population standard deviation / mean (NaN if empty
     * or the mean is 0)
     */
    static double Cov(const std::vector<double>& v);
    /**
     * @param v values
     * @return Jain's fairness index, (sum x)^2 / (n sum x^2) (NaN if empty or all zero)
     */
    static double Jain(const std::vector<double>& v);
};

} // namespace ns3

#endif /* MRC_STATS_H */
