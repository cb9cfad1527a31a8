/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_SIZE_H
#define MRC_FABRIC_SIZE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Sizes of a multi-plane (or single-plane) folded Clos fabric, all planes included.
 *
 * A folded Clos (fat tree) of t tiers built from radix-R switches, where every switch below
 * the top tier uses R/2 ports down and R/2 up and the top tier uses all R ports down, has
 * N = 2 (R/2)^t endpoints, N / (R/2) switches in each tier below the top and N / R at the
 * top, and t levels of N links (host links plus each inter-tier level). A multi-plane design
 * is P such fabrics.
 */
struct MrcFabricSize
{
    /// Largest number of switch tiers supported.
    static constexpr int64_t MAX_TIERS = 4;

    std::string design;               //!< "multi-plane" or "single-plane"
    int64_t planes{0};                //!< number of independent planes
    int64_t tiers{0};                 //!< switch tiers per plane
    int64_t radix{0};                 //!< switch radix (ports per switch)
    int64_t portGbps{0};              //!< switch port speed in Gbps
    int64_t nics{0};                  //!< number of NICs (endpoints)
    int64_t switches[MAX_TIERS] = {}; //!< switches per tier, tier 0 = leaf
    int64_t switchesTotal{0};         //!< switches in all tiers and planes
    int64_t hostLinks{0};             //!< NIC-to-leaf links, all planes
    int64_t links{0};                 //!< all links (host + inter-tier)

    /**
     * Compute the sizes of a design.
     * @param design design name
     * @param planes number of independent planes (>= 1)
     * @param tiers switch tiers per plane (1..MAX_TIERS)
     * @param radix switch radix (even, >= 2)
     * @param portGbps switch port speed in Gbps
     * @param [out] size the computed sizes, valid only if the function returns true
     * @return false if any count does not fit in int64_t
     */
    static bool Compute(const std::string& design,
                        int64_t planes,
                        int64_t tiers,
                        int64_t radix,
                        int64_t portGbps,
                        MrcFabricSize& size);

    /**
     * Format as a single line of key=value pairs.
     * @return the line, without a trailing newline
     */
    std::string Format() const;
};

} // namespace ns3

#endif /* MRC_FABRIC_SIZE_H */
