/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-command-line.h"

#include "ns3/mrc-clos-helper.h"

#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Split "12.5Gbps" into a finite number and a unit.
 * @param text the text
 * @param number set to the number
 * @param unit set to what follows it
 * @return false if it does not start with a finite, non-negative number
 */
bool
SplitNumber(const std::string& text, double& number, std::string& unit)
{
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    number = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || errno == ERANGE || !std::isfinite(number))
    {
        return false;
    }
    unit = std::string(end);
    return true;
}

/**
 * Read "12.5Gbps" as its number times its unit's scale.
 * @param text the text
 * @param units accepted units and their scales ("" for a plain number)
 * @param value set to number x scale
 * @return false if the number or the unit is not accepted
 */
bool
ReadQuantity(const std::string& text,
             std::initializer_list<std::pair<const char*, double>> units,
             double& value)
{
    double x = 0;
    std::string unit;
    if (!SplitNumber(text, x, unit))
    {
        return false;
    }
    for (const auto& u : units)
    {
        if (unit == u.first)
        {
            value = x * u.second;
            return true;
        }
    }
    return false;
}

/**
 * @param x a number
 * @return it as the shortest text that reads back the same
 */
std::string
Show(double x)
{
    std::ostringstream os;
    os << std::setprecision(15) << x;
    return os.str();
}

} // namespace

MrcCommandLine::MrcCommandLine(const std::string& filename)
    : CommandLine(filename)
{
}

std::vector<std::string>
MrcCommandLine::KnownOptions(const CommandLine& cmd)
{
    // CommandLine keeps its options private; its help text lists each as "    --name...:".
    std::ostringstream help;
    cmd.PrintHelp(help);
    std::istringstream in(help.str());
    std::vector<std::string> names;
    std::string line;
    while (std::getline(in, line))
    {
        const std::size_t start = line.find_first_not_of(' ');
        if (start == std::string::npos || line.compare(start, 2, "--") != 0)
        {
            continue;
        }
        const std::size_t end = line.find_first_of(":=[ ", start + 2);
        names.push_back(line.substr(start + 2, end - start - 2));
    }
    for (const char* n : {"help",
                          "PrintHelp",
                          "PrintVersion",
                          "version",
                          "PrintGlobals",
                          "PrintGroups",
                          "PrintGroup",
                          "PrintTypeIds",
                          "PrintAttributes"})
    {
        if (std::find(names.begin(), names.end(), n) == names.end())
        {
            names.emplace_back(n);
        }
    }
    return names;
}

std::string
MrcCommandLine::Closest(const std::string& name, const std::vector<std::string>& known)
{
    auto lower = [](std::string s)
    {
        std::transform(s.begin(),
                       s.end(),
                       s.begin(),
                       [](unsigned char c)
                       {
                           return std::tolower(c);
                       });
        return s;
    };
    const std::string a = lower(name);
    std::string best;
    std::size_t bestDist = std::max<std::size_t>(2, a.size() / 3) + 1;
    for (const auto& k : known)
    {
        const std::string b = lower(k);
        // Levenshtein distance, two rows.
        std::vector<std::size_t> prev(b.size() + 1);
        std::vector<std::size_t> cur(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
        {
            prev[j] = j;
        }
        for (std::size_t i = 1; i <= a.size(); ++i)
        {
            cur[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j)
            {
                cur[j] = std::min(
                    {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            }
            std::swap(prev, cur);
        }
        std::size_t d = prev[b.size()];
        if (b.rfind(a, 0) == 0 && a.size() >= 3)
        {
            d = std::min<std::size_t>(d, 1); // a prefix of a known option
        }
        if (d < bestDist)
        {
            bestDist = d;
            best = k;
        }
    }
    return best;
}

bool
MrcCommandLine::CheckSeed(uint64_t seed)
{
    if (seed >= 1 && seed <= 4294967086ULL)
    {
        return true;
    }
    std::cerr << "error: --seed must be between 1 and 4294967086" << std::endl;
    return false;
}

bool
MrcCommandLine::CheckRange(
    const std::string& option, double value, double lo, double hi, const std::string& unit)
{
    if (std::isfinite(value) && value >= lo && value <= hi)
    {
        return true;
    }
    std::cerr << "error: --" << option << " must be between " << Show(lo) << unit << " and "
              << Show(hi) << unit << " (got " << Show(value) << ")" << std::endl;
    return false;
}

bool
MrcCommandLine::ParseRate(
    const std::string& option, const std::string& text, double lo, double hi, uint64_t& bps)
{
    double rate = 0;
    const bool read = ReadQuantity(text,
                                   {{"", 1},
                                    {"bps", 1},
                                    {"kbps", 1e3},
                                    {"Kbps", 1e3},
                                    {"Mbps", 1e6},
                                    {"Gbps", 1e9},
                                    {"Tbps", 1e12}},
                                   rate);
    if (!read || rate < lo || rate > hi)
    {
        std::cerr << "error: --" << option << " must be a rate from " << Show(lo / 1e9)
                  << "Gbps to " << Show(hi / 1e9)
                  << "Gbps, written like 800Gbps (units bps, Kbps, Mbps, Gbps, Tbps; got '" << text
                  << "')" << std::endl;
        return false;
    }
    bps = static_cast<uint64_t>(std::llround(rate));
    return true;
}

bool
MrcCommandLine::ParseTime(
    const std::string& option, const std::string& text, double lo, double hi, Time& t)
{
    double seconds = 0;
    const bool read
        = ReadQuantity(text,
                       {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}},
                       seconds);
    if (!read || seconds < lo || seconds > hi)
    {
        std::cerr << "error: --" << option << " must be a time from " << Show(lo * 1e6) << "us to "
                  << Show(hi * 1e6)
                  << "us, written like 500ns or 1.5us (units s, ms, us, ns, ps; got '" << text
                  << "')" << std::endl;
        return false;
    }
    t = PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
    return true;
}

void
MrcCommandLine::SetRange(const std::string& name, unsigned long long lo, unsigned long long hi)
{
    for (auto& d : m_kinds)
    {
        if (d.first == name)
        {
            d.second.lo = 0;
            d.second.min = lo;
            d.second.hi = hi;
        }
    }
}

std::string
MrcCommandLine::InOptionTerms(const std::string& error,
                              const std::vector<std::pair<std::string, std::string>>& options)
{
    for (const auto& o : options)
    {
        if (error.rfind(o.first + " ", 0) == 0)
        {
            return o.second + error.substr(o.first.size());
        }
    }
    return error;
}

bool
MrcCommandLine::CheckValue(const std::string& name, const std::string& value, bool hasValue) const
{
    const KindInfo* k = nullptr;
    for (const auto& d : m_kinds)
    {
        k = d.first == name ? &d.second : k;
    }
    if (k == nullptr || k->kind == OTHER)
    {
        return true;
    }
    std::string why;
    if (k->kind == BOOLEAN)
    {
        std::string v = value;
        std::transform(v.begin(), v.end(), v.begin(), ::tolower);
        if (!hasValue || v == "true" || v == "false" || v == "1" || v == "0")
        {
            return true;
        }
        why = "true or false (or 1 or 0)";
    }
    else if (k->kind == REAL)
    {
        char* end = nullptr;
        errno = 0;
        const double x = std::strtod(value.c_str(), &end);
        if (!value.empty() && *end == '\0' && errno != ERANGE && std::isfinite(x)
            && !std::isspace(static_cast<unsigned char>(value[0])))
        {
            return true;
        }
        why = "a finite number";
    }
    else
    {
        const bool neg = !value.empty() && value[0] == '-';
        const std::string digits = value.empty() || value[0] == '-' || value[0] == '+'
                                     ? value.substr(value.empty() ? 0 : 1)
                                     : value;
        bool ok = !digits.empty() && digits.size() <= 20
               && std::all_of(digits.begin(),
                              digits.end(),
                              [](char c)
                              {
                                  return c >= '0' && c <= '9';
                              });
        if (ok)
        {
            errno = 0;
            const unsigned long long mag = std::strtoull(digits.c_str(), nullptr, 10);
            ok = errno != ERANGE
              && (neg ? mag <= k->lo && (mag == 0 || k->min == 0) : mag >= k->min && mag <= k->hi);
        }
        if (ok)
        {
            return true;
        }
        why = "a whole number from "
            + (k->lo > 0 ? "-" + std::to_string(k->lo) : std::to_string(k->min)) + " to "
            + std::to_string(k->hi);
    }
    std::cerr << "error: --" << name << " must be " << why << " (got '" << value << "')"
              << std::endl;
    return false;
}

bool
MrcCommandLine::Parse(MrcCommandLine& cmd, int argc, char* argv[])
{
    return cmd.Parse(argc, argv);
}

bool
MrcCommandLine::Parse(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        arg = arg.substr(arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0));
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (argv[i][0] == '-' && !CheckValue(name, value, eq != std::string::npos))
        {
            return false;
        }
    }
    return Parse(static_cast<CommandLine&>(*this), argc, argv);
}

bool
MrcCommandLine::CheckAttribute(const std::string& name,
                               const std::string& value,
                               bool hasValue,
                               std::string& error)
{
    const auto sep = name.rfind("::");
    const std::string type = sep == std::string::npos ? name : name.substr(0, sep);
    const std::string attribute = sep == std::string::npos ? "" : name.substr(sep + 2);
    TypeId tid;
    if (sep == std::string::npos || sep < 5 || !TypeId::LookupByNameFailSafe(type, &tid))
    {
        error = "unknown attribute '--" + name + "': no type '" + type
              + "' (attributes are written --ns3::Type::Attribute=value; --PrintTypeIds lists "
                "the types)";
        return false;
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        std::vector<std::string> names;
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                names.push_back(t.GetAttribute(i).name);
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
        // The same attribute on another of the module's types (it lives where the mechanism
        // does: e.g. the loss detector's on MrcSelectiveRecovery, not on MrcQueuePair).
        std::string elsewhere;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN() && elsewhere.empty(); ++i)
        {
            const TypeId t = TypeId::GetRegistered(i);
            if (t.GetName().rfind("ns3::Mrc", 0) != 0)
            {
                continue;
            }
            for (std::size_t j = 0; j < t.GetAttributeN(); ++j)
            {
                if (t.GetAttribute(j).name == attribute)
                {
                    elsewhere = t.GetName();
                    break;
                }
            }
        }
        if (!elsewhere.empty())
        {
            error = "unknown attribute '--" + name + "': " + attribute + " is an attribute of "
                  + elsewhere + "; write --" + elsewhere + "::" + attribute + "=value";
            return false;
        }
        const std::string hint = Closest(attribute, names);
        error = "unknown attribute '--" + name + "' ("
              + (hint.empty() ? std::string() : "did you mean '--" + type + "::" + hint + "'? ")
              + "--PrintAttributes=" + type + " lists them)";
        return false;
    }
    // ns-3 sets a default only under the type that declares the attribute.
    TypeId owner = tid;
    while (true)
    {
        bool own = false;
        for (std::size_t i = 0; i < owner.GetAttributeN(); ++i)
        {
            own = own || owner.GetAttribute(i).name == attribute;
        }
        if (own || owner == owner.GetParent())
        {
            break;
        }
        owner = owner.GetParent();
    }
    if (owner != tid)
    {
        error = "--" + name + ": " + attribute + " is an attribute of " + owner.GetName()
              + ", which " + type + " inherits; write --" + owner.GetName() + "::" + attribute
              + "=value (it applies to every " + owner.GetName() + ")";
        return false;
    }
    for (const auto& [component, setter] : MrcClosHelper::GetAttributesItSets())
    {
        if (owner.GetName() + "::" + attribute == component)
        {
            error = "--" + name + " would do nothing: MrcClosHelper sets it on every object it "
                  + "builds (" + setter + ")";
            return false;
        }
    }
    const std::string kind = info.checker->GetValueTypeName();
    const std::string accepted = info.checker->HasUnderlyingTypeInformation()
                                   ? info.checker->GetUnderlyingTypeInformation()
                                   : kind;
    if (!hasValue && kind != "ns3::BooleanValue")
    {
        error = "--" + name + " needs a value (--" + name + "=value; " + accepted + ")";
        return false;
    }
    // ns-3.37's number attributes terminate the process on a word that is not a number
    // (UintegerValue::DeserializeFromString), so numbers are read here first.
    bool number = true;
    if (hasValue && (kind == "ns3::UintegerValue" || kind == "ns3::IntegerValue"))
    {
        const std::size_t start
            = (kind == "ns3::IntegerValue" && !value.empty() && value[0] == '-');
        number = value.size() > start && value.size() - start <= 20
              && std::all_of(value.begin() + start,
                             value.end(),
                             [](char c)
                             {
                                 return c >= '0' && c <= '9';
                             });
    }
    else if (hasValue && kind == "ns3::TimeValue")
    {
        double t = 0;
        number = ReadQuantity(value.substr(!value.empty() && value[0] == '+' ? 1 : 0),
                              {{"", 1},
                               {"y", 1},
                               {"d", 1},
                               {"h", 1},
                               {"min", 1},
                               {"s", 1},
                               {"ms", 1},
                               {"us", 1},
                               {"ns", 1},
                               {"ps", 1},
                               {"fs", 1}},
                              t);
    }
    else if (hasValue && kind == "ns3::DoubleValue")
    {
        char* end = nullptr;
        errno = 0;
        std::strtod(value.c_str(), &end);
        number = !value.empty() && end != nullptr && *end == '\0' && errno == 0;
    }
    if (hasValue && (!number || !info.checker->CreateValidValue(StringValue(value))))
    {
        error = "--" + name + ": '" + value + "' is not accepted (" + accepted + ")";
        return false;
    }
    return true;
}

bool
MrcCommandLine::Parse(CommandLine& cmd, int argc, char* argv[])
{
    const std::vector<std::string> known = KnownOptions(cmd);
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0)
        {
            arg = arg.substr(2);
        }
        else if (arg.rfind('-', 0) == 0)
        {
            arg = arg.substr(1);
        }
        else
        {
            std::cerr << "error: unexpected argument '" << argv[i]
                      << "' (options are written --name=value; --help lists them)" << std::endl;
            return false;
        }
        const std::string name = arg.substr(0, arg.find('='));
        if (name.rfind("ns3::", 0) == 0)
        {
            const bool hasValue = arg.find('=') != std::string::npos;
            std::string error;
            if (!CheckAttribute(
                    name, hasValue ? arg.substr(arg.find('=') + 1) : "", hasValue, error))
            {
                std::cerr << "error: " << error << std::endl;
                return false;
            }
            continue;
        }
        if (std::find(known.begin(), known.end(), name) != known.end())
        {
            if (arg.size() == name.size() + 1) // "--name=": ns-3 would print the whole help
            {
                std::cerr << "error: --" << name << " needs a value (--" << name
                          << "=value), or leave it out for its default (--help lists them)"
                          << std::endl;
                return false;
            }
            continue; // its value is checked by CheckValue, or by the program
        }
        bool global = false;
        for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
        {
            global = global || (*g)->GetName() == name;
        }
        if (global)
        {
            continue;
        }
        const std::string hint = Closest(name, known);
        std::cerr << "error: unknown option '--" << name << "' ("
                  << (hint.empty() ? std::string() : "did you mean '--" + hint + "'? ")
                  << "--help lists every option)" << std::endl;
        return false;
    }
    // The fabric's scheduler by default (the same event order as ns-3's, faster);
    // --SchedulerType on the command line still chooses another.
    GlobalValue::Bind("SchedulerType", StringValue("ns3::MrcCalendarScheduler"));
    cmd.Parse(argc, argv);
    return true;
}

std::map<std::string, std::string>
MrcCommandLine::GetValues() const
{
    std::map<std::string, std::string> out;
    for (const auto& [name, get] : m_values)
    {
        out[name] = get();
    }
    return out;
}

} // namespace ns3
