/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of the input layer: the number, time and rate parser, the CSV reader and the
 * name tables of the module's vocabularies.
 */

#include "ns3/mrc-collective.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-csv-reader.h"
#include "ns3/mrc-fault-action.h"
#include "ns3/mrc-fault-event.h"
#include "ns3/mrc-fault-target-id.h"
#include "ns3/mrc-link-tier.h"
#include "ns3/mrc-name-table.h"
#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-training-job.h"

#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

/**
 * @ingroup mrc-tests
 * @brief MrcNumberParser: what each kind of value accepts, the values read, and the one-line
 * messages naming the range and the text given.
 */
class MrcNumberParserTestCase : public TestCase
{
public:
    MrcNumberParserTestCase()
        : TestCase("number parser: whole numbers, numbers, times, rates; ranges and messages")
    {
    }

private:
    void DoRun() override
    {
        std::string why;
        uint64_t u = 7;
        // Whole numbers: an optional '+', digits; the range is inclusive.
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseUnsigned("42", 0, 100, u, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(u, 42u, "value");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseUnsigned("+007", 0, 100, u, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(u, 7u, "leading zeros and '+'");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseUnsigned("18446744073709551615", 0, UINT64_MAX, u, why),
            true,
            "the largest");
        NS_TEST_EXPECT_MSG_EQ(u, UINT64_MAX, "2^64 - 1");
        for (const char* bad : {"",
                                "-1",
                                "1.5",
                                "abc",
                                " 1",
                                "1 ",
                                "+",
                                "0x10",
                                "1e3",
                                "18446744073709551616",
                                "101"})
        {
            u = 7;
            NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseUnsigned(bad, 0, 100, u, why),
                                  false,
                                  "'" << bad << "' refused");
            NS_TEST_EXPECT_MSG_EQ(u, 7u, "left alone");
        }
        MrcNumberParser::ParseUnsigned("-1", 1, 32, u, why);
        NS_TEST_EXPECT_MSG_EQ(why, "must be a whole number from 1 to 32 (got '-1')", "message");

        int64_t s = 0;
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseSigned("-5", -10, 10, s, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(s, -5, "negative");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseSigned("-9223372036854775808", INT64_MIN, INT64_MAX, s, why),
            true,
            why);
        NS_TEST_EXPECT_MSG_EQ(s, INT64_MIN, "the smallest");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseSigned("9223372036854775808", INT64_MIN, INT64_MAX, s, why),
            false,
            "2^63 does not fit");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseSigned("-11", -10, 10, s, why), false, "range");
        NS_TEST_EXPECT_MSG_EQ(why, "must be a whole number from -10 to 10 (got '-11')", "message");

        // Numbers: decimal, with an exponent; no blanks, inf, nan or hexadecimal.
        const double inf = std::numeric_limits<double>::infinity();
        double x = 0;
        for (const auto& [text, value] : {std::pair<const char*, double>{"1.5", 1.5},
                                          {"-2", -2},
                                          {".5", 0.5},
                                          {"1.", 1},
                                          {"+1e3", 1000},
                                          {"2.5E-1", 0.25}})
        {
            NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseReal(text, -inf, inf, x, why), true, text);
            NS_TEST_EXPECT_MSG_EQ(x, value, text);
        }
        for (const char* bad :
             {"", "nan", "inf", "0x10", " 1", "1 ", "1e", "1e400", ".", "-", "1,5"})
        {
            NS_TEST_EXPECT_MSG_EQ(
                MrcNumberParser::ParseReal(bad, -inf, inf, x, why), false, "'" << bad << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(why, "must be a finite number (got '1,5')", "unbounded message");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseReal("-5", 0, 1e15, x, why), false, "range");
        NS_TEST_EXPECT_MSG_EQ(why, "must be a number from 0 to 1e+15 (got '-5')", "message");

        // Times: a unit, or none (seconds); rounded to the picosecond.
        Time t;
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseTime("1.5us", 0, 1, t, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(t, NanoSeconds(1500), "1.5us");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseTime("2e-6", 0, 1, t, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(t, MicroSeconds(2), "a plain number is seconds");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseTime("3ps", 0, 1, t, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(t, PicoSeconds(3), "ps");
        for (const char* bad : {"-1us", "1 us", "5min", "1e-3ks", "us", "2s"})
        {
            NS_TEST_EXPECT_MSG_EQ(
                MrcNumberParser::ParseTime(bad, 0, 1, t, why), false, "'" << bad << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(why,
                              "must be a time from 0us to 1000000us, written like 500ns or 1.5us "
                              "(units s, ms, us, ns, ps; got '2s')",
                              "message");

        // Rates: a unit, or none (bits per second).
        uint64_t bps = 0;
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseRate("800Gbps", 1e9, 1.6e12, bps, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(bps, 800000000000ULL, "800Gbps");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseRate("12.5Kbps", 0, 1e12, bps, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(bps, 12500u, "12.5Kbps");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::ParseRate("100", 0, 1e12, bps, why), true, why);
        NS_TEST_EXPECT_MSG_EQ(bps, 100u, "a plain number is bits per second");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseRate("1bps", 1e9, 1.6e12, bps, why), false, "below the range");
        NS_TEST_EXPECT_MSG_EQ(why,
                              "must be a rate from 1Gbps to 1600Gbps, written like 800Gbps (units "
                              "bps, Kbps, Mbps, Gbps, Tbps; got '1bps')",
                              "message");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::ParseRate("8GBps", 0, 1e12, bps, why), false, "bytes per second");

        // Ranges of numbers already read.
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::CheckRange(5, 0, 10, " us", why), true, "inside");
        NS_TEST_EXPECT_MSG_EQ(
            MrcNumberParser::CheckRange(std::nan(""), 0, 10, " us", why), false, "nan");
        NS_TEST_EXPECT_MSG_EQ(MrcNumberParser::CheckRange(1e30, 0, 1e9, " us", why), false, "out");
        NS_TEST_EXPECT_MSG_EQ(why, "must be between 0 us and 1000000000 us (got 1e+30)", "message");
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcCsvReader: the comment rule, trimming, the header, field counts, typed fields and
 * the one error format, file:line: field: message.
 */
class MrcCsvReaderTestCase : public TestCase
{
public:
    MrcCsvReaderTestCase()
        : TestCase("CSV reader: comments, blanks, trimming, header, fields, file:line: field: "
                   "message")
    {
    }

private:
    void DoRun() override
    {
        const std::string text = "# a comment line\n"
                                 "\n"
                                 "  a , b,c  # the header, a comment after it\r\n"
                                 "1,2.5,x\r\n"
                                 "   \t\r\n"
                                 "# another\n"
                                 "7 ,  -1 ,#c\n"
                                 "9,8";
        MrcCsvReader csv(text, "in.csv");
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(csv.ReadHeader({{"x"}, {"a", "b", "c"}}, err), true, err);
        NS_TEST_EXPECT_MSG_EQ(csv.GetLine(), 3u, "the header's line");
        NS_TEST_EXPECT_MSG_EQ(csv.GetHeader().size(), 3u, "the second header accepted");
        NS_TEST_ASSERT_MSG_EQ(csv.NextRow(), true, "row 1");
        NS_TEST_EXPECT_MSG_EQ(csv.GetLine(), 4u, "lines count skipped ones");
        uint64_t u = 0;
        double x = 0;
        NS_TEST_EXPECT_MSG_EQ(csv.ReadUnsigned(0, 0, 10, u, err), true, err);
        NS_TEST_EXPECT_MSG_EQ(u, 1u, "a");
        NS_TEST_EXPECT_MSG_EQ(csv.ReadReal(1, 0, 10, x, err), true, err);
        NS_TEST_EXPECT_MSG_EQ(x, 2.5, "b");
        NS_TEST_EXPECT_MSG_EQ(csv.GetField(2), "x", "trimmed of the carriage return");
        NS_TEST_EXPECT_MSG_EQ(csv.ReadUnsigned(2, 0, 10, u, err), false, "not a number");
        NS_TEST_EXPECT_MSG_EQ(err,
                              "in.csv:4: c: must be a whole number from 0 to 10 (got 'x')",
                              "file:line: field: message");
        NS_TEST_ASSERT_MSG_EQ(csv.NextRow(), true, "row 2, after a blank line and a comment");
        NS_TEST_EXPECT_MSG_EQ(csv.GetLine(), 7u, "its line");
        NS_TEST_EXPECT_MSG_EQ(csv.GetNFields(), 3u, "'#' ends the row, the empty field stays");
        NS_TEST_EXPECT_MSG_EQ(csv.GetField(0), "7", "trimmed");
        NS_TEST_EXPECT_MSG_EQ(csv.GetField(2), "", "empty");
        NS_TEST_EXPECT_MSG_EQ(csv.ReadReal(1, 0, 10, x, err), false, "negative");
        NS_TEST_EXPECT_MSG_EQ(
            err, "in.csv:7: b: must be a number from 0 to 10 (got '-1')", "message");
        NS_TEST_ASSERT_MSG_EQ(csv.NextRow(), true, "row 3, without a final newline");
        NS_TEST_EXPECT_MSG_EQ(csv.CheckNFields(3, err), false, "two fields");
        NS_TEST_EXPECT_MSG_EQ(err, "in.csv:8: row: expected 3 fields (a,b,c), got 2", "message");
        NS_TEST_EXPECT_MSG_EQ(csv.CheckNFields(2, err), true, "the last may be left out");
        NS_TEST_EXPECT_MSG_EQ(csv.Fail("a", "bad", err), false, "Fail returns false");
        NS_TEST_EXPECT_MSG_EQ(err, "in.csv:8: a: bad", "Fail's format");
        NS_TEST_EXPECT_MSG_EQ(csv.NextRow(), false, "the end");
        NS_TEST_EXPECT_MSG_EQ(csv.GetNLines(), 8u, "lines");

        // Headers: the first row must be one of those accepted.
        MrcCsvReader wrong("\n  # c\nstep,src\n1,2\n", "w.csv");
        NS_TEST_EXPECT_MSG_EQ(wrong.ReadHeader({{"a", "b"}, {"a"}}, err), false, "wrong");
        NS_TEST_EXPECT_MSG_EQ(err, "w.csv:3: header: expected 'a,b' or 'a' (got 'step,src')", "");
        MrcCsvReader empty("# nothing\n\n", "e.csv");
        NS_TEST_EXPECT_MSG_EQ(empty.ReadHeader({{"a"}}, err), false, "no header");
        NS_TEST_EXPECT_MSG_EQ(err, "e.csv:1: header: missing (expected 'a')", "");

        // A quoted line break cannot split the message.
        MrcCsvReader quoted("a\n1\rx\n", "q.csv");
        NS_TEST_ASSERT_MSG_EQ(quoted.ReadHeader({{"a"}}, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(quoted.NextRow(), true, "row");
        NS_TEST_EXPECT_MSG_EQ(quoted.ReadUnsigned(0, 0, 9, u, err), false, "not a number");
        NS_TEST_EXPECT_MSG_EQ(err.find('\r'), std::string::npos, "one line: " << err);

        std::string content;
        NS_TEST_EXPECT_MSG_EQ(
            MrcCsvReader::ReadFile("/nonexistent/f.csv", content, err), false, "missing");
        NS_TEST_EXPECT_MSG_EQ(err, "/nonexistent/f.csv: cannot read the file", "message");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Every value of each vocabulary round-trips through its one name table: its name parses
 * back to it, names are distinct, and the table holds every value once and nothing else.
 */
class MrcNameTableTestCase : public TestCase
{
public:
    MrcNameTableTestCase()
        : TestCase("name tables: every value of every vocabulary round-trips")
    {
    }

private:
    /**
     * Check one table against the enumeration's values.
     * @tparam E the enumeration
     * @param table its name table
     * @param values every value of the enumeration, listed independently of the table
     * @param names the names they must have, in order
     * @param what the vocabulary, for messages
     */
    template<typename E>
    void Check(const MrcNameTable<E>& table,
               const std::vector<E>& values,
               const std::vector<std::string>& names,
               const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(
            table.GetEntries().size(), values.size(), what << ": every value once");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < values.size(); ++i)
        {
            const std::string& name = table.GetName(values[i]);
            NS_TEST_EXPECT_MSG_EQ(name, names[i], what << " " << i);
            E back = values[(i + 1) % values.size()];
            NS_TEST_EXPECT_MSG_EQ(table.Parse(name, back), true, what << ": '" << name << "'");
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(back),
                                  static_cast<int>(values[i]),
                                  what << ": '" << name << "' parses back");
            seen.insert(name);
        }
        NS_TEST_EXPECT_MSG_EQ(seen.size(), values.size(), what << ": distinct names");
        E v = values[0];
        NS_TEST_EXPECT_MSG_EQ(table.Parse("no-such-name", v), false, what << ": unknown word");
        NS_TEST_EXPECT_MSG_EQ(table.Parse(names[0] + " ", v), false, what << ": exact words");
    }

    void DoRun() override
    {
        Check(MrcLinkTierNames(),
              {MrcLinkTier::HOST_T0,
               MrcLinkTier::T0_HOST,
               MrcLinkTier::T0_T1,
               MrcLinkTier::T1_T0,
               MrcLinkTier::T1_T2,
               MrcLinkTier::T2_T1},
              {"host-t0", "t0-host", "t0-t1", "t1-t0", "t1-t2", "t2-t1"},
              "link tiers");
        NS_TEST_EXPECT_MSG_EQ(MrcLinkTierNames().GetNames(),
                              "host-t0, t0-host, t0-t1, t1-t0, t1-t2, t2-t1",
                              "the list messages give");
        NS_TEST_EXPECT_MSG_EQ(MrcLinkTierNames().GetNamesWhere(MrcIsUpwardTier),
                              "host-t0, t0-t1, t1-t2",
                              "upward tiers (flap processes)");
        Check(MrcFaultActionNames(),
              {MrcFaultAction::LINK_DOWN,
               MrcFaultAction::LINK_UP,
               MrcFaultAction::LINK_FLAP,
               MrcFaultAction::SWITCH_REBOOT,
               MrcFaultAction::BLACKHOLE,
               MrcFaultAction::NIC_PORT_DOWN,
               MrcFaultAction::NIC_RX_LOSS},
              {"link_down",
               "link_up",
               "link_flap",
               "switch_reboot",
               "blackhole",
               "nic_port_down",
               "nic_rx_loss"},
              "fault actions");
        NS_TEST_EXPECT_MSG_EQ(MrcFaultActionNames().GetNames(),
                              "link_down, link_up, link_flap, switch_reboot, blackhole, "
                              "nic_port_down, nic_rx_loss",
                              "the list messages give");
        Check(MrcFaultEvent::KindNames(),
              {MrcFaultEvent::Kind::LINK,
               MrcFaultEvent::Kind::NIC_PORT,
               MrcFaultEvent::Kind::SWITCH_REBOOT,
               MrcFaultEvent::Kind::BLACKHOLE,
               MrcFaultEvent::Kind::NIC_RX_LOSS},
              {"link", "nic_port", "switch_reboot", "blackhole", "nic_rx_loss"},
              "fault event kinds");
        Check(MrcFaultEvent::StateNames(),
              {MrcFaultEvent::State::DOWN,
               MrcFaultEvent::State::UP,
               MrcFaultEvent::State::START,
               MrcFaultEvent::State::END},
              {"down", "up", "start", "end"},
              "fault event states");
        Check(MrcCollective::TypeNames(),
              {MrcCollective::RING_ALLREDUCE,
               MrcCollective::ALLGATHER,
               MrcCollective::REDUCE_SCATTER,
               MrcCollective::ALLTOALL,
               MrcCollective::SENDRECV,
               MrcCollective::BROADCAST,
               MrcCollective::HIERARCHICAL_ALLREDUCE},
              {"ring-allreduce",
               "allgather",
               "reduce-scatter",
               "alltoall",
               "sendrecv",
               "broadcast",
               "hierarchical-allreduce"},
              "collectives");
        Check(MrcTrainingJob::PlacementNames(),
              {MrcTrainingJob::CONTIGUOUS, MrcTrainingJob::INTERLEAVED, MrcTrainingJob::RANDOM},
              {"contiguous", "interleaved", "random"},
              "placements");
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcFaultTargetId: every form of a target name parses to its position and reads back
 * as its canonical name; positions made directly have the same names; malformed names are
 * refused with the accepted forms.
 */
class MrcFaultTargetIdTestCase : public TestCase
{
public:
    MrcFaultTargetIdTestCase()
        : TestCase("fault target names: parse, positions, canonical names, errors")
    {
    }

private:
    void DoRun() override
    {
        using K = MrcFaultTargetId::Kind;
        struct Case
        {
            const char* name;          //!< the name
            MrcFaultTargetId expected; //!< what it says
            K kind;                    //!< its kind
        };

        const Case cases[] = {
            {"host3/plane1", MrcFaultTargetId::NicPort(3, 1), K::NIC_PORT},
            {"host7", MrcFaultTargetId::Nic(7), K::NIC},
            {"hosts", MrcFaultTargetId::Nics(), K::NICS},
            {"plane0/t0-1/t1-2", MrcFaultTargetId::Link(0, MrcLinkTier::T0_T1, 1, 2), K::LINK},
            {"plane2/t1-3/t2-0", MrcFaultTargetId::Link(2, MrcLinkTier::T1_T2, 3, 0), K::LINK},
            {"plane1/t0-4", MrcFaultTargetId::Switch(1, 0, 4), K::SWITCH},
            {"plane1/t1-0", MrcFaultTargetId::Switch(1, 1, 0), K::SWITCH},
            {"plane5/t2-9", MrcFaultTargetId::Switch(5, 2, 9), K::SWITCH},
        };
        for (const auto& c : cases)
        {
            MrcFaultTargetId id;
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(MrcFaultTargetId::Parse(c.name, id, err), true, err);
            NS_TEST_EXPECT_MSG_EQ(id.GetName(), c.name, "reads back");
            NS_TEST_EXPECT_MSG_EQ(c.expected.GetName(), c.name, "made directly");
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(id.GetKind()), static_cast<int>(c.kind), c.name);
            NS_TEST_EXPECT_MSG_EQ(id.GetPlane(), c.expected.GetPlane(), c.name);
            NS_TEST_EXPECT_MSG_EQ(id.GetHost(), c.expected.GetHost(), c.name);
            NS_TEST_EXPECT_MSG_EQ(id.GetIndex(), c.expected.GetIndex(), c.name);
            NS_TEST_EXPECT_MSG_EQ(id.GetPeer(), c.expected.GetPeer(), c.name);
            NS_TEST_EXPECT_MSG_EQ(id.GetSwitchTier(), c.expected.GetSwitchTier(), c.name);
        }
        // The same position in another plane; a target in no plane stays itself.
        const std::vector<std::tuple<MrcFaultTargetId, std::string, bool>> moved{
            {MrcFaultTargetId::NicPort(3, 1), "host3/plane4", true},
            {MrcFaultTargetId::Link(0, MrcLinkTier::T0_T1, 1, 2), "plane4/t0-1/t1-2", true},
            {MrcFaultTargetId::Link(2, MrcLinkTier::T1_T2, 3, 0), "plane4/t1-3/t2-0", true},
            {MrcFaultTargetId::Switch(5, 2, 9), "plane4/t2-9", true},
            {MrcFaultTargetId::Nic(7), "host7", false},
            {MrcFaultTargetId::Nics(), "hosts", false}};
        for (const auto& [from, to, inPlane] : moved)
        {
            NS_TEST_EXPECT_MSG_EQ(from.OnPlane(4).GetName(), to, from.GetName() << " on plane 4");
            NS_TEST_EXPECT_MSG_EQ(from.HasPlane(), inPlane, from.GetName() << ": in a plane");
        }
        MrcFaultTargetId id;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(MrcFaultTargetId::Parse("plane00/t0-01", id, err), true, err);
        NS_TEST_EXPECT_MSG_EQ(id.GetName(), "plane0/t0-1", "the canonical name");
        for (const char* bad : {"",
                                "host",
                                "host-1",
                                "hostx/plane0",
                                "plane0",
                                "plane0/t3-0",
                                "plane0/t0-1/t2-0",
                                "plane0/t1-0/t1-1",
                                "host1/plane0/x",
                                "plane 0/t0-1",
                                "Plane0/t0-1",
                                "host4294967296"})
        {
            NS_TEST_EXPECT_MSG_EQ(MrcFaultTargetId::Parse(bad, id, err), false, "'" << bad << "'");
            NS_TEST_EXPECT_MSG_EQ(err,
                                  "unknown target '" + std::string(bad) + "': malformed (accepted: "
                                      + MrcFaultTargetId::GetForms() + ")",
                                  "message");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief MrcCommandLine's --scheduler: the words and their schedulers, the default, and a
 * parse that binds the chosen one and reports it in GetValues.
 */
class MrcSchedulerOptionTestCase : public TestCase
{
public:
    MrcSchedulerOptionTestCase()
        : TestCase("--scheduler: words, default, parse binds and reports the choice")
    {
    }

private:
    /**
     * Parse an argument list.
     * @param cmd the command line
     * @param args the arguments, the program's name first
     * @return what MrcCommandLine::Parse returns
     */
    static bool Parse(MrcCommandLine& cmd, std::vector<std::string> args)
    {
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        return cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }

    void DoRun() override
    {
        std::string type;
        NS_TEST_EXPECT_MSG_EQ(MrcCommandLine::GetSchedulerType("calendar", type), true, "calendar");
        NS_TEST_EXPECT_MSG_EQ(type, "ns3::MrcCalendarScheduler", "calendar");
        NS_TEST_EXPECT_MSG_EQ(MrcCommandLine::GetSchedulerType("heap", type), true, "heap");
        NS_TEST_EXPECT_MSG_EQ(type, "ns3::MrcHeapScheduler", "heap");
        NS_TEST_EXPECT_MSG_EQ(MrcCommandLine::GetSchedulerType("map", type), true, "map");
        NS_TEST_EXPECT_MSG_EQ(type, "ns3::MapScheduler", "map");
        NS_TEST_EXPECT_MSG_EQ(MrcCommandLine::GetSchedulerType("list", type), false, "list");
        NS_TEST_EXPECT_MSG_EQ(MrcCommandLine::GetSchedulerWords(), "calendar, heap, map", "words");
        NS_TEST_EXPECT_MSG_EQ(
            std::string(MrcCommandLine::DEFAULT_SCHEDULER), "calendar", "default");

        StringValue before;
        GlobalValue::GetValueByName("SchedulerType", before);
        for (const auto& [args, word, bound] :
             {std::tuple<std::vector<std::string>, std::string, std::string>{
                  {"prog"}, "calendar", "ns3::MrcCalendarScheduler"},
              {{"prog", "--scheduler=heap"}, "heap", "ns3::MrcHeapScheduler"},
              {{"prog", "--SchedulerType=ns3::MapScheduler"}, "map", "ns3::MapScheduler"}})
        {
            MrcCommandLine cmd(__FILE__);
            uint32_t n = 1;
            cmd.AddValue("n", "a number", n);
            NS_TEST_ASSERT_MSG_EQ(Parse(cmd, args), true, "parsed");
            NS_TEST_EXPECT_MSG_EQ(cmd.GetValues().at("scheduler"), word, "reported");
            StringValue now;
            GlobalValue::GetValueByName("SchedulerType", now);
            NS_TEST_EXPECT_MSG_EQ(now.Get(), bound, "bound");
        }
        GlobalValue::Bind("SchedulerType", before);

        // The simulator implementation: MrcSimulatorImpl instead of ns-3's default, unless
        // the command line names one or the program chose another before parsing.
        StringValue implBefore;
        GlobalValue::GetValueByName("SimulatorImplementationType", implBefore);
        for (const auto& [preset, args, bound] :
             {std::tuple<std::string, std::vector<std::string>, std::string>{
                  "ns3::DefaultSimulatorImpl", {"prog"}, "ns3::MrcSimulatorImpl"},
              {"ns3::DefaultSimulatorImpl",
               {"prog", "--SimulatorImplementationType=ns3::DefaultSimulatorImpl"},
               "ns3::DefaultSimulatorImpl"},
              {"ns3::RealtimeSimulatorImpl", {"prog"}, "ns3::RealtimeSimulatorImpl"}})
        {
            GlobalValue::Bind("SimulatorImplementationType", StringValue(preset));
            MrcCommandLine cmd(__FILE__);
            NS_TEST_ASSERT_MSG_EQ(Parse(cmd, args), true, "parsed");
            StringValue now;
            GlobalValue::GetValueByName("SimulatorImplementationType", now);
            NS_TEST_EXPECT_MSG_EQ(now.Get(), bound, "implementation bound, preset " << preset);
        }
        GlobalValue::Bind("SimulatorImplementationType", implBefore);
    }
};

/**
 * @ingroup mrc-tests
 * @brief The input layer's test suite.
 */
class MrcInputTestSuite : public TestSuite
{
public:
    MrcInputTestSuite()
        : TestSuite("mrc-input", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcNumberParserTestCase);
        AddTestCase(new MrcCsvReaderTestCase);
        AddTestCase(new MrcNameTableTestCase);
        AddTestCase(new MrcFaultTargetIdTestCase);
        AddTestCase(new MrcSchedulerOptionTestCase);
    }
};

static MrcInputTestSuite g_mrcInputTestSuite; //!< static instance
