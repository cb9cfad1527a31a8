/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COMMAND_LINE_H
#define MRC_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Strict command-line parsing for the module's programs.
 *
 * ns-3's CommandLine answers an unknown option by printing the whole usage text, and reads
 * numbers leniently (`--steps=1.5` is 1, `--steps=-1` wraps to 4294967295, `--steps=abc` prints
 * the usage). MrcCommandLine is a CommandLine that remembers the type of every value declared
 * with AddValue. Parse() checks every `--name[=value]` before ns-3 sees it: the name against the
 * declared options and ns-3's general ones (`--PrintHelp`, `--PrintAttributes`, ...,
 * `--ns3::Type::Attribute=value`, `--GlobalName=value`), and the value against its type (whole
 * numbers in the type's range, finite numbers, true/false; numbers as MrcNumberParser reads
 * them). Either mistake is one line:
 * @verbatim
   error: unknown option '--gpu' (did you mean '--gpus'? --help lists every option)
   error: --steps must be a whole number from 0 to 4294967295 (got '-1')
   @endverbatim
 * Programs then check ranges of their own (CheckRange, ParseRate, ParseTime).
 */
class MrcCommandLine : public CommandLine
{
public:
    /**
     * @param filename the program's source file (__FILE__), as for CommandLine
     */
    explicit MrcCommandLine(const std::string& filename);

    using CommandLine::AddValue;

    /**
     * Declare an option, as CommandLine::AddValue does, and remember its type for Parse.
     * @tparam T the value's type
     * @param name the option's name
     * @param help its help text
     * @param value where its value goes (its current value is the default)
     */
    template<typename T>
    void AddValue(const std::string& name, const std::string& help, T& value)
    {
        CommandLine::AddValue(name, help, value);
        m_kinds.emplace_back(name, KindOf<T>());
        m_values.emplace_back(name,
                              [&value]()
                              {
                                  return ToText(value);
                              });
    }

    /**
     * Every option declared with AddValue and its current value as text (after Parse: what the
     * run uses), for a results file's metadata: whole numbers in decimal, reals as
     * std::to_string writes them, booleans as true/false, strings as they are.
     * @return option name -> value
     */
    std::map<std::string, std::string> GetValues() const;

    /**
     * Narrow the accepted range of a whole-number option declared with AddValue; Parse then
     * names that range in its message.
     * @param name the option
     * @param lo smallest accepted
     * @param hi largest accepted
     */
    void SetRange(const std::string& name, unsigned long long lo, unsigned long long hi);

    /**
     * Declare --jobs (simulations run at once, 1 to 32) with DefaultJobs's default.
     * @param help the option's help
     * @param jobs the variable (set to the default now, to the option when parsed)
     * @return true; false after printing the one-line error of a bad MRC_JOBS
     */
    bool AddJobs(const std::string& help, uint32_t& jobs);

    /**
     * Check the arguments, then parse them. Every program that parses with it has the option
     * `--scheduler=calendar|heap|map` (listed last in --help, with its default, and in
     * GetValues): the event scheduler, MrcCalendarScheduler (calendar, the default),
     * MrcHeapScheduler (heap) or ns-3's MapScheduler (map). All three run events in the same
     * order, so the choice changes the speed, not the results. ns-3's general option
     * `--SchedulerType=ns3::...` may name any scheduler instead (GetValues then reports its
     * word, or its type name); giving both is an error. The simulator implementation is
     * MrcSimulatorImpl (the same events in the same order as ns-3's DefaultSimulatorImpl,
     * with less work per event) unless `--SimulatorImplementationType=ns3::...` names another
     * or the global value already names one other than ns-3's default.
     * @param argc argument count
     * @param argv arguments
     * @return true if parsed; false after printing the one-line error (the caller exits 1)
     */
    bool Parse(int argc, char* argv[]);

    /**
     * The same for a plain CommandLine (names are checked, values are not; no --scheduler:
     * the event scheduler is ns-3's default unless --SchedulerType names one).
     * @param cmd the program's CommandLine, with every AddValue done
     * @param argc argument count
     * @param argv arguments
     * @return true if parsed; false after printing the one-line error
     */
    static bool Parse(CommandLine& cmd, int argc, char* argv[]);
    /**
     * The same as cmd.Parse(argc, argv).
     * @param cmd the program's MrcCommandLine
     * @param argc argument count
     * @param argv arguments
     * @return true if parsed; false after printing the one-line error
     */
    static bool Parse(MrcCommandLine& cmd, int argc, char* argv[]);

    /**
     * @param cmd a CommandLine
     * @return the option names it accepts (program options, then ns-3's general ones)
     */
    static std::vector<std::string> KnownOptions(const CommandLine& cmd);

    /**
     * @param name an unknown option name
     * @param known the accepted names
     * @return the closest accepted name (edit distance), or "" if none is close
     */
    static std::string Closest(const std::string& name, const std::vector<std::string>& known);

    /**
     * Check an attribute given on the command line, `--ns3::Type::Attribute=value`, the way
     * ns-3 would set it: the type and the attribute must exist, and the value must pass the
     * attribute's checker.
     * @param name "ns3::Type::Attribute"
     * @param value the value (ignored if hasValue is false)
     * @param hasValue whether "=value" was given
     * @param error set to a one-line message naming the attribute and what it accepts
     * @return true if ns-3 would accept it
     */
    static bool CheckAttribute(const std::string& name,
                               const std::string& value,
                               bool hasValue,
                               std::string& error);

    /**
     * ns-3's generator (MRG32k3a) takes seeds from 1 to 4294967086; a value outside (a negative
     * one wraps around when parsed) is reported in one line instead of aborting inside ns-3.
     * @param seed the --seed value
     * @return true if usable; false after printing "error: --seed must be ..."
     */
    static bool CheckSeed(uint64_t seed);

    /**
     * The default of a program's --jobs (simulations run at once in worker processes):
     * MRC_JOBS if set, else the CPU count, at most 32.
     * @param jobs set to it
     * @return true; false after printing "error: MRC_JOBS must be ..." if MRC_JOBS is not a
     *         whole number from 1 to 32
     */
    static bool DefaultJobs(uint32_t& jobs);

    /**
     * Check that a value lies in [lo, hi] (and is finite): MrcNumberParser::CheckRange.
     * @param option the option's name, without dashes
     * @param value its value
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param unit appended to the bounds in the message (e.g. " us"), may be empty
     * @return true if inside; false after printing "error: --option must be between lo and hi"
     */
    static bool CheckRange(const std::string& option,
                           double value,
                           double lo,
                           double hi,
                           const std::string& unit = "");

    /**
     * Parse a rate such as 800Gbps strictly (MrcNumberParser::ParseRate: units bps,
     * kbps/Kbps, Mbps, Gbps, Tbps; a plain number is bits per second, as in ns-3) and check it
     * lies in [lo, hi].
     * @param option the option's name, for the message
     * @param text the value
     * @param lo smallest accepted, bits per second
     * @param hi largest accepted, bits per second
     * @param bps set to the rate
     * @return true if accepted; false after printing a one-line error
     */
    static bool ParseRate(
        const std::string& option, const std::string& text, double lo, double hi, uint64_t& bps);

    /**
     * Parse a time such as 500ns or 1.5us strictly (MrcNumberParser::ParseTime: units s, ms,
     * us, ns, ps; a plain number is seconds, as in ns-3) and check it lies in [lo, hi] seconds.
     * @param option the option's name, for the message
     * @param text the value
     * @param lo smallest accepted, seconds
     * @param hi largest accepted, seconds
     * @param t set to the time
     * @return true if accepted; false after printing a one-line error
     */
    static bool ParseTime(
        const std::string& option, const std::string& text, double lo, double hi, Time& t);

    /**
     * @param word a value of --scheduler
     * @param typeId set to the scheduler's TypeId name, e.g. "ns3::MrcCalendarScheduler"
     * @return false if the word names no scheduler
     */
    static bool GetSchedulerType(const std::string& word, std::string& typeId);
    /** @return the accepted values of --scheduler, for messages: "calendar, heap, map" */
    static std::string GetSchedulerWords();
    /** The default of --scheduler. */
    static constexpr const char* DEFAULT_SCHEDULER = "calendar";

    /**
     * Say a configuration error in the program's terms: a message that starts with an attribute
     * name (as MrcClosHelper::Validate's do) gets the option that sets it instead.
     * @param error the message, e.g. "T1sPerPlane must be between 1 and 4096 (got 0)"
     * @param options attribute name -> option text, e.g. {"T1sPerPlane", "--t1"}
     * @return the message, e.g. "--t1 must be between 1 and 4096 (got 0)"
     */
    static std::string InOptionTerms(
        const std::string& error, const std::vector<std::pair<std::string, std::string>>& options);

private:
    /** What a declared value accepts. */
    enum Kind : uint8_t
    {
        OTHER,    //!< parsed by ns-3 (strings, attribute values)
        BOOLEAN,  //!< true, false, 1, 0
        UNSIGNED, //!< whole numbers from 0
        SIGNED,   //!< whole numbers, either sign
        REAL      //!< finite decimals
    };

    /** A declared value's kind and range. */
    struct KindInfo
    {
        Kind kind = OTHER; //!< kind
        int64_t smin = 0;  //!< smallest signed whole number
        int64_t smax = 0;  //!< largest signed whole number
        uint64_t umin = 0; //!< smallest unsigned whole number
        uint64_t umax = 0; //!< largest unsigned whole number
    };

    /**
     * @tparam T a value type
     * @return what it accepts
     */
    template<typename T>
    static KindInfo KindOf()
    {
        KindInfo k;
        if constexpr (std::is_same_v<T, bool>)
        {
            k.kind = BOOLEAN;
        }
        else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        {
            k.kind = SIGNED;
            k.smin = static_cast<int64_t>(std::numeric_limits<T>::min());
            k.smax = static_cast<int64_t>(std::numeric_limits<T>::max());
        }
        else if constexpr (std::is_integral_v<T>)
        {
            k.kind = UNSIGNED;
            k.umax = static_cast<uint64_t>(std::numeric_limits<T>::max());
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            k.kind = REAL;
        }
        return k;
    }

    /**
     * Check one value against its declared kind.
     * @param name the option
     * @param value its text
     * @param hasValue whether `=value` was given
     * @return true if acceptable; false after printing the one-line error
     */
    bool CheckValue(const std::string& name, const std::string& value, bool hasValue) const;

    /**
     * @tparam T a value type
     * @param v a value
     * @return it as GetValues writes it
     */
    template<typename T>
    static std::string ToText(const T& v)
    {
        if constexpr (std::is_same_v<T, bool>)
        {
            return v ? "true" : "false";
        }
        else if constexpr (std::is_arithmetic_v<T>)
        {
            return std::to_string(v);
        }
        else
        {
            std::ostringstream os;
            os << v;
            return os.str();
        }
    }

    std::vector<std::pair<std::string, KindInfo>> m_kinds;                      //!< declared values
    std::vector<std::pair<std::string, std::function<std::string()>>> m_values; //!< their values
    std::string m_scheduler; //!< --scheduler: calendar, heap or map (or, after Parse, the type)
    bool m_schedulerAdded;   //!< whether --scheduler is declared yet
};

} // namespace ns3

#endif /* MRC_COMMAND_LINE_H */
