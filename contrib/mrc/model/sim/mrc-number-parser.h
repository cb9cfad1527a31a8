/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NUMBER_PARSER_H
#define MRC_NUMBER_PARSER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The module's one parser of numbers, times and rates written as text: command-line
 * values (MrcCommandLine), fields of the CSV files (MrcCsvReader), indices in fault target
 * names (MrcFaultTargetId) and the programs' lists.
 *
 * What it accepts, everywhere:
 * - a **whole number**: an optional sign, then decimal digits (leading zeros allowed); `-` only
 *   where the range holds negatives;
 * - a **number**: an optional sign, digits with an optional decimal point (`1`, `1.5`, `.5`,
 *   `1.`), an optional exponent (`e` or `E`, an optional sign, digits); no blanks, no `inf`,
 *   `nan` or hexadecimal; its value is what `strtod` reads;
 * - a **time**: a number without sign followed by a unit, `s`, `ms`, `us`, `ns` or `ps`, or by
 *   none (seconds, as in ns-3): `500ns`, `1.5us`, `2e-6`;
 * - a **rate**: a number without sign followed by `bps`, `kbps` or `Kbps`, `Mbps`, `Gbps`,
 *   `Tbps`, or by none (bits per second, as in ns-3): `800Gbps`.
 *
 * Each function checks the value against a range and, on failure, sets `why` to one line that
 * follows the name of what was read ("--steps ", "bytes: "): what is accepted, its range and the
 * text given, e.g. `must be a whole number from 1 to 4294967295 (got '0')`.
 */
class MrcNumberParser
{
public:
    /**
     * Read a whole number.
     * @param text the text
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param out set to the value (left alone on failure)
     * @param why set to "must be a whole number from lo to hi (got 'text')" on failure
     * @return true if accepted
     */
    static bool ParseUnsigned(
        const std::string& text, uint64_t lo, uint64_t hi, uint64_t& out, std::string& why);

    /**
     * Read a whole number that may be negative.
     * @param text the text
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param out set to the value (left alone on failure)
     * @param why set to "must be a whole number from lo to hi (got 'text')" on failure
     * @return true if accepted
     */
    static bool ParseSigned(
        const std::string& text, int64_t lo, int64_t hi, int64_t& out, std::string& why);

    /**
     * Read a number.
     * @param text the text
     * @param lo smallest accepted (-infinity: no lower bound)
     * @param hi largest accepted (+infinity: no upper bound)
     * @param out set to the value (left alone on failure)
     * @param why set to "must be a number from lo to hi (got 'text')", or "must be a finite
     *        number (got 'text')" without bounds, on failure
     * @return true if accepted
     */
    static bool ParseReal(
        const std::string& text, double lo, double hi, double& out, std::string& why);

    /**
     * Read a time.
     * @param text the text
     * @param lo smallest accepted, seconds
     * @param hi largest accepted, seconds
     * @param out set to the time, rounded to the picosecond (left alone on failure)
     * @param why set to "must be a time from ... (units ...; got 'text')" on failure
     * @return true if accepted
     */
    static bool ParseTime(
        const std::string& text, double lo, double hi, Time& out, std::string& why);

    /**
     * Read a rate.
     * @param text the text
     * @param lo smallest accepted, bits per second
     * @param hi largest accepted, bits per second
     * @param bps set to the rate, rounded to a bit per second (left alone on failure)
     * @param why set to "must be a rate from ... (units ...; got 'text')" on failure
     * @return true if accepted
     */
    static bool ParseRate(
        const std::string& text, double lo, double hi, uint64_t& bps, std::string& why);

    /**
     * Check a number already read.
     * @param value the number
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param unit written after each bound in the message (e.g. " us"), may be empty
     * @param why set to "must be between lo and hi (got value)" if it is outside or not finite
     * @return true if finite and inside [lo, hi]
     */
    static bool CheckRange(
        double value, double lo, double hi, const std::string& unit, std::string& why);

    /**
     * Split a quantity into its number and what follows.
     * @param text e.g. "12.5Gbps"
     * @param number set to the number (12.5)
     * @param unit set to the rest ("Gbps")
     * @return false if the text does not start with a number without sign
     */
    static bool SplitQuantity(const std::string& text, double& number, std::string& unit);

    /**
     * @param lo smallest accepted
     * @param hi largest accepted
     * @return "a whole number from lo to hi", as the messages name the accepted values
     */
    static std::string DescribeWhole(uint64_t lo, uint64_t hi);
    /**
     * @param lo smallest accepted (-infinity: none)
     * @param hi largest accepted (+infinity: none)
     * @return "a number from lo to hi", or "a finite number" without bounds
     */
    static std::string DescribeReal(double lo, double hi);

    /**
     * @param x a number
     * @return it as messages write it: the shortest text of up to 15 significant digits
     */
    static std::string Show(double x);

private:
    /**
     * @param text a text
     * @param pos where a number may start; set past it
     * @param sign whether a leading sign is allowed
     * @return true if a number (as the class documents it) starts at pos
     */
    static bool ScanNumber(const std::string& text, std::size_t& pos, bool sign);
};

} // namespace ns3

#endif /* MRC_NUMBER_PARSER_H */
