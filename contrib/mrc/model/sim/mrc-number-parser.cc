/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-number-parser.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/**
 * @param c a character
 * @return whether it is a decimal digit
 */
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * Read decimal digits as a magnitude.
 * @param text the text
 * @param pos the first digit
 * @param mag set to their value
 * @return false if there is no digit, something else follows them, or they exceed 2^64 - 1
 */
bool
ReadDigits(const std::string& text, std::size_t pos, uint64_t& mag)
{
    if (pos >= text.size())
    {
        return false;
    }
    mag = 0;
    for (; pos < text.size(); ++pos)
    {
        if (!IsDigit(text[pos]))
        {
            return false;
        }
        const auto d = static_cast<uint64_t>(text[pos] - '0');
        if (mag > (std::numeric_limits<uint64_t>::max() - d) / 10)
        {
            return false;
        }
        mag = mag * 10 + d;
    }
    return true;
}

/**
 * @param unit a unit
 * @param units accepted units and their scales
 * @param scale set to the unit's scale
 * @return whether the unit is accepted
 */
template<std::size_t N>
bool
FindUnit(const std::string& unit, const std::pair<const char*, double> (&units)[N], double& scale)
{
    for (const auto& u : units)
    {
        if (unit == u.first)
        {
            scale = u.second;
            return true;
        }
    }
    return false;
}

/** Units of a time, in seconds ("": a plain number is seconds). */
const std::pair<const char*, double> TIME_UNITS[]
    = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};

/** Units of a rate, in bits per second ("": a plain number is bits per second). */
const std::pair<const char*, double> RATE_UNITS[] = {{"", 1},
                                                     {"bps", 1},
                                                     {"kbps", 1e3},
                                                     {"Kbps", 1e3},
                                                     {"Mbps", 1e6},
                                                     {"Gbps", 1e9},
                                                     {"Tbps", 1e12}};

} // namespace

bool
MrcNumberParser::ScanNumber(const std::string& text, std::size_t& pos, bool sign)
{
    std::size_t p = pos;
    if (sign && p < text.size() && (text[p] == '+' || text[p] == '-'))
    {
        ++p;
    }
    std::size_t digits = 0;
    while (p < text.size() && IsDigit(text[p]))
    {
        ++p;
        ++digits;
    }
    if (p < text.size() && text[p] == '.')
    {
        ++p;
        while (p < text.size() && IsDigit(text[p]))
        {
            ++p;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return false;
    }
    // An exponent only if digits follow it ("5e" is 5 followed by "e").
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E'))
    {
        std::size_t q = p + 1;
        if (q < text.size() && (text[q] == '+' || text[q] == '-'))
        {
            ++q;
        }
        if (q < text.size() && IsDigit(text[q]))
        {
            while (q < text.size() && IsDigit(text[q]))
            {
                ++q;
            }
            p = q;
        }
    }
    pos = p;
    return true;
}

std::string
MrcNumberParser::Show(double x)
{
    std::ostringstream os;
    os << std::setprecision(15) << x;
    return os.str();
}

std::string
MrcNumberParser::DescribeWhole(uint64_t lo, uint64_t hi)
{
    return "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}

std::string
MrcNumberParser::DescribeReal(double lo, double hi)
{
    return std::isfinite(lo) || std::isfinite(hi) ? "a number from " + Show(lo) + " to " + Show(hi)
                                                  : std::string("a finite number");
}

bool
MrcNumberParser::ParseUnsigned(
    const std::string& text, uint64_t lo, uint64_t hi, uint64_t& out, std::string& why)
{
    uint64_t v = 0;
    if (ReadDigits(text, !text.empty() && text[0] == '+' ? 1 : 0, v) && v >= lo && v <= hi)
    {
        out = v;
        return true;
    }
    why = "must be " + DescribeWhole(lo, hi) + " (got '" + text + "')";
    return false;
}

bool
MrcNumberParser::ParseSigned(
    const std::string& text, int64_t lo, int64_t hi, int64_t& out, std::string& why)
{
    const bool negative = !text.empty() && text[0] == '-';
    uint64_t mag = 0;
    bool ok = ReadDigits(text, !text.empty() && (text[0] == '+' || negative) ? 1 : 0, mag);
    // |INT64_MIN| = INT64_MAX + 1.
    const auto limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    ok = ok && mag <= limit + (negative ? 1 : 0);
    int64_t v = 0;
    if (ok)
    {
        v = negative ? (mag == limit + 1 ? std::numeric_limits<int64_t>::min()
                                         : -static_cast<int64_t>(mag))
                     : static_cast<int64_t>(mag);
        ok = v >= lo && v <= hi;
    }
    if (ok)
    {
        out = v;
        return true;
    }
    why = "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi)
        + " (got '" + text + "')";
    return false;
}

bool
MrcNumberParser::ParseReal(
    const std::string& text, double lo, double hi, double& out, std::string& why)
{
    std::size_t end = 0;
    if (ScanNumber(text, end, true) && end == text.size())
    {
        errno = 0;
        const double x = std::strtod(text.c_str(), nullptr);
        if (errno != ERANGE && std::isfinite(x) && x >= lo && x <= hi)
        {
            out = x;
            return true;
        }
    }
    why = "must be " + DescribeReal(lo, hi) + " (got '" + text + "')";
    return false;
}

bool
MrcNumberParser::SplitQuantity(const std::string& text, double& number, std::string& unit)
{
    std::size_t end = 0;
    if (!ScanNumber(text, end, false))
    {
        return false;
    }
    errno = 0;
    const double x = std::strtod(text.substr(0, end).c_str(), nullptr);
    if (errno == ERANGE || !std::isfinite(x))
    {
        return false;
    }
    number = x;
    unit = text.substr(end);
    return true;
}

bool
MrcNumberParser::ParseTime(
    const std::string& text, double lo, double hi, Time& out, std::string& why)
{
    double x = 0;
    std::string unit;
    double scale = 0;
    if (SplitQuantity(text, x, unit) && FindUnit(unit, TIME_UNITS, scale))
    {
        const double seconds = x * scale;
        if (seconds >= lo && seconds <= hi)
        {
            out = PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
            return true;
        }
    }
    why = "must be a time from " + Show(lo * 1e6) + "us to " + Show(hi * 1e6)
        + "us, written like 500ns or 1.5us (units s, ms, us, ns, ps; got '" + text + "')";
    return false;
}

bool
MrcNumberParser::ParseRate(
    const std::string& text, double lo, double hi, uint64_t& bps, std::string& why)
{
    double x = 0;
    std::string unit;
    double scale = 0;
    if (SplitQuantity(text, x, unit) && FindUnit(unit, RATE_UNITS, scale))
    {
        const double rate = x * scale;
        if (rate >= lo && rate <= hi)
        {
            bps = static_cast<uint64_t>(std::llround(rate));
            return true;
        }
    }
    why = "must be a rate from " + Show(lo / 1e9) + "Gbps to " + Show(hi / 1e9)
        + "Gbps, written like 800Gbps (units bps, Kbps, Mbps, Gbps, Tbps; got '" + text + "')";
    return false;
}

bool
MrcNumberParser::CheckRange(
    double value, double lo, double hi, const std::string& unit, std::string& why)
{
    if (std::isfinite(value) && value >= lo && value <= hi)
    {
        return true;
    }
    why = "must be between " + Show(lo) + unit + " and " + Show(hi) + unit + " (got " + Show(value)
        + ")";
    return false;
}

} // namespace ns3
