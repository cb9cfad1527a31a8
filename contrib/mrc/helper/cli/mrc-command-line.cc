/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-command-line.h"

#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-number-parser.h"

#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <thread>

namespace ns3
{

namespace
{

/** The event schedulers --scheduler names: word, TypeId name. */
const std::pair<const char*, const char*> SCHEDULERS[] = {{"calendar", "ns3::MrcCalendarScheduler"},
                                                          {"heap", "ns3::MrcHeapScheduler"},
                                                          {"map", "ns3::MapScheduler"}};

} // namespace

MrcCommandLine::MrcCommandLine(const std::string& filename)
    : CommandLine(filename)
    , m_scheduler(DEFAULT_SCHEDULER)
    , m_schedulerAdded(false)
{
}

bool
MrcCommandLine::GetSchedulerType(const std::string& word, std::string& typeId)
{
    for (const auto& s : SCHEDULERS)
    {
        if (word == s.first)
        {
            typeId = s.second;
            return true;
        }
    }
    return false;
}

std::string
MrcCommandLine::GetSchedulerWords()
{
    std::string out;
    for (const auto& s : SCHEDULERS)
    {
        out += (out.empty() ? "" : ", ") + std::string(s.first);
    }
    return out;
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
    std::string why;
    if (MrcNumberParser::CheckRange(value, lo, hi, unit, why))
    {
        return true;
    }
    std::cerr << "error: --" << option << " " << why << std::endl;
    return false;
}

bool
MrcCommandLine::AddJobs(const std::string& help, uint32_t& jobs)
{
    if (!DefaultJobs(jobs))
    {
        return false;
    }
    AddValue("jobs", help, jobs);
    SetRange("jobs", 1, 32);
    return true;
}

bool
MrcCommandLine::DefaultJobs(uint32_t& jobs)
{
    const unsigned cpus = std::thread::hardware_concurrency();
    jobs = std::max(1u, std::min(32u, cpus));
    const char* env = std::getenv("MRC_JOBS");
    if (env && *env)
    {
        uint64_t v = 0;
        std::string why;
        if (!MrcNumberParser::ParseUnsigned(env, 1, 32, v, why))
        {
            std::cerr << "error: MRC_JOBS " << why << std::endl;
            return false;
        }
        jobs = static_cast<uint32_t>(v);
    }
    return true;
}

bool
MrcCommandLine::ParseRate(
    const std::string& option, const std::string& text, double lo, double hi, uint64_t& bps)
{
    std::string why;
    if (MrcNumberParser::ParseRate(text, lo, hi, bps, why))
    {
        return true;
    }
    std::cerr << "error: --" << option << " " << why << std::endl;
    return false;
}

bool
MrcCommandLine::ParseTime(
    const std::string& option, const std::string& text, double lo, double hi, Time& t)
{
    std::string why;
    if (MrcNumberParser::ParseTime(text, lo, hi, t, why))
    {
        return true;
    }
    std::cerr << "error: --" << option << " " << why << std::endl;
    return false;
}

void
MrcCommandLine::SetRange(const std::string& name, unsigned long long lo, unsigned long long hi)
{
    for (auto& d : m_kinds)
    {
        if (d.first == name)
        {
            d.second.umin = lo;
            d.second.umax = hi;
            d.second.smin = static_cast<int64_t>(
                std::min<unsigned long long>(lo, std::numeric_limits<int64_t>::max()));
            d.second.smax = static_cast<int64_t>(
                std::min<unsigned long long>(hi, std::numeric_limits<int64_t>::max()));
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
    bool ok = false;
    if (k->kind == BOOLEAN)
    {
        std::string v = value;
        std::transform(v.begin(), v.end(), v.begin(), ::tolower);
        ok = !hasValue || v == "true" || v == "false" || v == "1" || v == "0";
        why = "must be true or false (or 1 or 0) (got '" + value + "')";
    }
    else if (k->kind == REAL)
    {
        double x = 0;
        ok = MrcNumberParser::ParseReal(value,
                                        -std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::infinity(),
                                        x,
                                        why);
    }
    else if (k->kind == SIGNED)
    {
        int64_t x = 0;
        ok = MrcNumberParser::ParseSigned(value, k->smin, k->smax, x, why);
    }
    else
    {
        uint64_t x = 0;
        ok = MrcNumberParser::ParseUnsigned(value, k->umin, k->umax, x, why);
    }
    if (!ok)
    {
        std::cerr << "error: --" << name << " " << why << std::endl;
    }
    return ok;
}

bool
MrcCommandLine::Parse(MrcCommandLine& cmd, int argc, char* argv[])
{
    return cmd.Parse(argc, argv);
}

bool
MrcCommandLine::Parse(int argc, char* argv[])
{
    if (!m_schedulerAdded)
    {
        // Declared here, so that --help lists it after the program's own options.
        AddValue("scheduler",
                 "Event scheduler: calendar (MrcCalendarScheduler), heap (MrcHeapScheduler) or "
                 "map (ns-3's MapScheduler); all run the same events in the same order",
                 m_scheduler);
        m_schedulerAdded = true;
    }
    bool schedulerGiven = false;
    bool typeGiven = false;
    bool implGiven = false;
    std::string word = m_scheduler;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        arg = arg.substr(arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0));
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (argv[i][0] != '-')
        {
            continue;
        }
        if (!CheckValue(name, value, eq != std::string::npos))
        {
            return false;
        }
        std::string type;
        if (name == "scheduler" && !GetSchedulerType(value, type))
        {
            std::cerr << "error: --scheduler must be one of " << GetSchedulerWords() << " (got '"
                      << value << "')" << std::endl;
            return false;
        }
        word = name == "scheduler" ? value : word;
        schedulerGiven = schedulerGiven || name == "scheduler";
        typeGiven = typeGiven || name == "SchedulerType";
        implGiven = implGiven || name == "SimulatorImplementationType";
    }
    if (schedulerGiven && typeGiven)
    {
        std::cerr << "error: --scheduler and --SchedulerType both choose the event scheduler; "
                     "give one"
                  << std::endl;
        return false;
    }
    // Bound before ns-3 parses, so that nothing it does meets another scheduler; with
    // --SchedulerType, ns-3's parse binds that one.
    std::string type;
    if (!typeGiven && GetSchedulerType(word, type))
    {
        GlobalValue::Bind("SchedulerType", StringValue(type));
    }
    // The same events in the same order as ns-3's DefaultSimulatorImpl, with less work per
    // event; --SimulatorImplementationType=ns3::DefaultSimulatorImpl runs ns-3's. A program
    // (or NS_GLOBAL_VALUE) that chose another implementation, a real-time one say, keeps it.
    StringValue impl;
    GlobalValue::GetValueByName("SimulatorImplementationType", impl);
    if (!implGiven && impl.Get() == "ns3::DefaultSimulatorImpl")
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MrcSimulatorImpl"));
    }
    if (!Parse(static_cast<CommandLine&>(*this), argc, argv))
    {
        return false;
    }
    if (typeGiven)
    {
        // ns-3's option chose: report its word (or its type, for another ns-3 scheduler).
        StringValue chosen;
        GlobalValue::GetValueByName("SchedulerType", chosen);
        m_scheduler = chosen.Get();
        for (const auto& s : SCHEDULERS)
        {
            m_scheduler = chosen.Get() == s.second ? s.first : m_scheduler;
        }
    }
    return true;
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
    std::string why;
    if (hasValue && kind == "ns3::UintegerValue")
    {
        uint64_t x = 0;
        number = MrcNumberParser::ParseUnsigned(
            value, 0, std::numeric_limits<uint64_t>::max(), x, why);
    }
    else if (hasValue && kind == "ns3::IntegerValue")
    {
        int64_t x = 0;
        number = MrcNumberParser::ParseSigned(value,
                                              std::numeric_limits<int64_t>::min(),
                                              std::numeric_limits<int64_t>::max(),
                                              x,
                                              why);
    }
    else if (hasValue && kind == "ns3::TimeValue")
    {
        // ns-3 reads a time with any of its units (the value's range is the checker's).
        double t = 0;
        std::string unit;
        const std::string units[] = {"", "y", "d", "h", "min", "s", "ms", "us", "ns", "ps", "fs"};
        number = MrcNumberParser::SplitQuantity(
                     value.substr(!value.empty() && value[0] == '+' ? 1 : 0), t, unit)
              && std::find(std::begin(units), std::end(units), unit) != std::end(units);
    }
    else if (hasValue && kind == "ns3::DoubleValue")
    {
        double x = 0;
        number = MrcNumberParser::ParseReal(value,
                                            -std::numeric_limits<double>::infinity(),
                                            std::numeric_limits<double>::infinity(),
                                            x,
                                            why);
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
