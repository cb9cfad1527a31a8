/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-workload-file.h"

#include "ns3/mrc-csv-reader.h"
#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-stack-helper.h"
#include "ns3/mrc-text.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcWorkloadFile");

namespace
{

using Json = nlohmann::json;

/** Largest message a queue pair accepts. */
constexpr uint64_t MAX_MESSAGE = 0xffffffffULL;
/** Most ranks a job may have. */
constexpr uint64_t MAX_RANKS = 1U << 24;
/** Most steps a transfer list may name. */
constexpr uint64_t MAX_LIST_STEPS = 1000000;
/** Largest time in a workload file, microseconds (about 11.6 days). */
constexpr double MAX_MICROS = 1e12;

/**
 * Finds the line of every JSON path in a (valid) JSON text: the line of an object key, or of
 * the start of an array element or of the root value. Built only when an error is reported.
 */
class LineIndex
{
public:
    /**
     * Scan a text.
     * @param text JSON text that nlohmann::json accepted (comments allowed)
     */
    explicit LineIndex(const std::string& text)
        : m_text(text)
        , m_pos(0)
        , m_line(1)
    {
        Value("");
    }

    /**
     * @param path a JSON path, e.g. jobs[0].collectives[1].bytes
     * @return its line, or that of its closest enclosing path; 0 if unknown
     */
    uint32_t Find(std::string path) const
    {
        while (true)
        {
            auto it = m_lines.find(path);
            if (it != m_lines.end())
            {
                return it->second;
            }
            if (path.empty())
            {
                return 0;
            }
            const std::size_t cut = path.find_last_of(".[");
            path = cut == std::string::npos ? "" : path.substr(0, cut);
        }
    }

private:
    /** Skip white space and comments, counting lines. */
    void Skip()
    {
        while (m_pos < m_text.size())
        {
            const char c = m_text[m_pos];
            if (c == '\n')
            {
                ++m_line;
                ++m_pos;
            }
            else if (c == ' ' || c == '\t' || c == '\r')
            {
                ++m_pos;
            }
            else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/')
            {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                {
                    ++m_pos;
                }
            }
            else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '*')
            {
                m_pos += 2;
                while (m_pos + 1 < m_text.size()
                       && !(m_text[m_pos] == '*' && m_text[m_pos + 1] == '/'))
                {
                    m_line += m_text[m_pos] == '\n' ? 1 : 0;
                    ++m_pos;
                }
                m_pos += 2;
            }
            else
            {
                return;
            }
        }
    }

    /** @return the string at the cursor (raw, escapes kept), cursor moved past it */
    std::string String()
    {
        std::string s;
        ++m_pos; // opening quote
        while (m_pos < m_text.size() && m_text[m_pos] != '"')
        {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size())
            {
                s += m_text[m_pos++];
            }
            s += m_text[m_pos++];
        }
        ++m_pos; // closing quote
        return s;
    }

    /**
     * Scan a value.
     * @param path its path
     */
    void Value(const std::string& path)
    {
        Skip();
        m_lines.emplace(path, m_line);
        if (m_pos >= m_text.size())
        {
            return;
        }
        const char c = m_text[m_pos];
        if (c == '{')
        {
            ++m_pos;
            while (true)
            {
                Skip();
                if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                {
                    ++m_pos; // '}' (or malformed: stop)
                    return;
                }
                const uint32_t keyLine = m_line;
                const std::string key = String();
                const std::string child = path.empty() ? key : path + "." + key;
                m_lines.emplace(child, keyLine);
                Skip();
                ++m_pos; // ':'
                Value(child);
                Skip();
                if (m_pos < m_text.size() && m_text[m_pos] == ',')
                {
                    ++m_pos;
                }
            }
        }
        else if (c == '[')
        {
            ++m_pos;
            for (uint32_t i = 0;; ++i)
            {
                Skip();
                if (m_pos >= m_text.size() || m_text[m_pos] == ']')
                {
                    ++m_pos;
                    return;
                }
                Value(path + "[" + std::to_string(i) + "]");
                Skip();
                if (m_pos < m_text.size() && m_text[m_pos] == ',')
                {
                    ++m_pos;
                }
            }
        }
        else if (c == '"')
        {
            String();
        }
        else
        {
            const std::size_t start = m_pos;
            while (m_pos < m_text.size()
                   && std::string(",]} \t\r\n/").find(m_text[m_pos]) == std::string::npos)
            {
                ++m_pos;
            }
            // Every value consumes at least one character, so that the loops above end even
            // where this scanner loses step with the JSON (found by fuzzing: a '}' met inside
            // an array was scanned forever, one more element each time).
            m_pos += m_pos == start ? 1 : 0;
        }
    }

    const std::string& m_text;               //!< the text
    std::size_t m_pos;                       //!< cursor
    uint32_t m_line;                         //!< line at the cursor
    std::map<std::string, uint32_t> m_lines; //!< path -> line
};

/**
 * The reader of one JSON workload: one function per section of the format (the document, a
 * job, its collectives, one collective, its pairs, its group size; a transfer-list job; a
 * Chakra job), each reporting the first problem as "file:line: path: message".
 */
class WorkloadReader
{
public:
    /**
     * @param text the JSON text
     * @param name the file's name, for messages
     * @param baseDir directory file names in the workload are relative to ("": the working one)
     * @param error where the message goes
     */
    WorkloadReader(const std::string& text,
                   const std::string& name,
                   const std::string& baseDir,
                   std::string& error)
        : m_text(text)
        , m_name(name)
        , m_baseDir(baseDir)
        , m_error(error)
    {
    }

    /**
     * Read the whole document.
     * @param specs set to the jobs
     * @return false on the first error
     */
    bool Read(std::vector<MrcJobSpec>& specs)
    {
        Json root;
        if (!Syntax(root))
        {
            return false;
        }
        if (!root.is_object())
        {
            return Fail("", "the workload must be a JSON object with a \"jobs\" array");
        }
        if (!Keys(root, "", {"jobs", "description"}))
        {
            return false;
        }
        auto jobs = root.find("jobs");
        if (jobs == root.end() || !jobs->is_array() || jobs->empty())
        {
            return Fail(jobs == root.end() ? "" : "jobs",
                        "\"jobs\" must be a non-empty array of job objects");
        }
        for (std::size_t i = 0; i < jobs->size(); ++i)
        {
            MrcJobSpec s;
            if (!Job((*jobs)[i], i, s))
            {
                return false;
            }
            specs.push_back(std::move(s));
        }
        return true;
    }

private:
    /**
     * Parse the text as JSON (comments allowed).
     * @param root set to the document
     * @return false on a syntax error, reported with its line
     */
    bool Syntax(Json& root)
    {
        try
        {
            root = Json::parse(m_text, nullptr, true, true);
            return true;
        }
        catch (const Json::parse_error& e)
        {
            const std::size_t end
                = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, m_text.size());
            const auto line = 1 + std::count(m_text.begin(), m_text.begin() + end, '\n');
            std::string what = e.what();
            const std::size_t at = what.find("syntax error");
            what = at == std::string::npos ? what : what.substr(at);
            m_error = MrcText::Locate(m_name, static_cast<uint32_t>(line), "", "JSON " + what);
        }
        catch (const Json::exception& e)
        {
            // Not a syntax error: e.g. a number too large for any JSON number type.
            std::string what = e.what();
            const std::size_t at = what.find("] ");
            what = at == std::string::npos ? what : what.substr(at + 2);
            m_error = MrcText::Locate(m_name, 0, "", "JSON: " + what);
        }
        return false;
    }

    /**
     * Read one job: the keys every job has, then its collectives, transfer list or trace.
     * @param j the job's value
     * @param i its index
     * @param s set to the job
     * @return false on error
     */
    bool Job(const Json& j, std::size_t i, MrcJobSpec& s)
    {
        const std::string jp = "jobs[" + std::to_string(i) + "]";
        if (!j.is_object())
        {
            return Fail(jp, "a job must be an object, got " + Show(j));
        }
        if (!Keys(j,
                  jp,
                  {"name",
                   "ranks",
                   "placement",
                   "steps",
                   "compute_us",
                   "jitter_us",
                   "start_us",
                   "collectives",
                   "transfers",
                   "chakra",
                   "chunks",
                   "qps_per_peer"}))
        {
            return false;
        }
        const bool hasColl = j.contains("collectives");
        const bool hasList = j.contains("transfers");
        const bool hasTrace = j.contains("chakra");
        if (int(hasColl) + int(hasList) + int(hasTrace) != 1)
        {
            return Fail(jp,
                        "a job needs exactly one of \"collectives\" (an array), \"transfers\" "
                        "(a CSV file name) and \"chakra\" (a trace prefix)");
        }
        for (const char* key : {"chunks", "qps_per_peer"})
        {
            if (!hasTrace && j.contains(key))
            {
                return Fail(jp + "." + key,
                            "only a \"chakra\" job takes this key here (a collective takes its "
                            "own)");
            }
        }
        s.path = jp;
        s.file = m_name;
        s.name = "job" + std::to_string(i);
        if (!Common(j, jp, hasColl, s))
        {
            return false;
        }
        if (hasTrace)
        {
            return ChakraJob(j, jp, s);
        }
        if (hasList)
        {
            return TransfersJob(j, jp, s);
        }
        return Collectives(j["collectives"], jp + ".collectives", s);
    }

    /**
     * Read the keys every job may have: name (default: as set), ranks, placement, steps and
     * times.
     * @param j the job's value
     * @param jp its path
     * @param ranksRequired whether "ranks" must be given (a job of collectives)
     * @param s the job
     * @return false on error
     */
    bool Common(const Json& j, const std::string& jp, bool ranksRequired, MrcJobSpec& s)
    {
        if (j.contains("name") && !j["name"].is_string())
        {
            return Fail(jp + ".name", "must be a string, got " + Show(j["name"]));
        }
        s.name = j.value("name", s.name);
        uint64_t v = 0;
        if (!Uint(j, jp, "ranks", 1, MAX_RANKS, ranksRequired, v))
        {
            return false;
        }
        s.ranks = static_cast<uint32_t>(v);
        s.ranksLine = Line(jp + (j.contains("ranks") ? ".ranks" : ""));
        if (j.contains("placement")
            && (!j["placement"].is_string()
                || !MrcTrainingJob::ParsePlacement(j["placement"].get<std::string>(), s.placement)))
        {
            return Fail(jp + ".placement",
                        "unknown placement " + Show(j["placement"])
                            + " (accepted: " + MrcTrainingJob::AcceptedPlacements() + ")");
        }
        v = 1;
        if (!Uint(j, jp, "steps", 1, 0xffffffffULL, false, v))
        {
            return false;
        }
        s.steps = static_cast<uint32_t>(v);
        if (!Micros(j, jp, "compute_us", s.compute) || !Micros(j, jp, "jitter_us", s.jitter)
            || !Micros(j, jp, "start_us", s.start))
        {
            return false;
        }
        return true;
    }

    /**
     * Read a job's "chakra" key and its options, and load the trace.
     * @param j the job's value
     * @param jp its path
     * @param s the job
     * @return false on error
     */
    bool ChakraJob(const Json& j, const std::string& jp, MrcJobSpec& s)
    {
        if (!FileName(
                j, jp, "chakra", "a Chakra trace prefix (files PREFIX.<rank>.et)", s.chakraPrefix))
        {
            return false;
        }
        s.chakra = true;
        uint64_t chunks = 1;
        uint64_t qps = 1;
        if (!Uint(j, jp, "chunks", 1, 4096, false, chunks)
            || !Uint(j, jp, "qps_per_peer", 1, 256, false, qps))
        {
            return false;
        }
        s.program.chunks = static_cast<uint32_t>(chunks);
        s.program.qpsPerPeer = static_cast<uint32_t>(qps);
        std::string etError;
        if (!MrcChakraTrace::Load(s.chakraPrefix, s.program, etError))
        {
            return Fail(jp + ".chakra", etError);
        }
        const auto traceRanks = static_cast<uint32_t>(s.program.ranks.size());
        if (s.ranks != 0 && s.ranks != traceRanks)
        {
            return Fail(jp + ".ranks",
                        "the Chakra trace has " + std::to_string(traceRanks)
                            + " ranks (one file each), the job " + std::to_string(s.ranks));
        }
        s.ranks = traceRanks;
        for (const MrcProgramOp& op : s.program.ops)
        {
            const uint64_t biggest
                = op.p2p ? op.bytes
                         : MrcCollective::MaxTransferBytes(
                             op.type, std::max(s.ranks, 2U), op.bytes, s.program.chunks);
            if (biggest > MAX_MESSAGE)
            {
                const uint64_t need
                    = s.program.chunks * ((biggest + MAX_MESSAGE - 1) / MAX_MESSAGE);
                return Fail(jp + ".chunks",
                            "a " + std::string(MrcCollective::TypeName(op.type)) + " of "
                                + std::to_string(op.bytes) + " bytes makes chunks of "
                                + std::to_string(biggest)
                                + " bytes, over the 4 GiB message limit: use at least "
                                + std::to_string(need) + " chunks");
            }
        }
        return true;
    }

    /**
     * Read a job's "transfers" key and load the transfer list.
     * @param j the job's value
     * @param jp its path
     * @param s the job
     * @return false on error
     */
    bool TransfersJob(const Json& j, const std::string& jp, MrcJobSpec& s)
    {
        if (!FileName(j, jp, "transfers", "the name of a CSV transfer list", s.transfersFile))
        {
            return false;
        }
        s.replay = true;
        std::string csvError;
        if (!MrcWorkloadFile::LoadTransferList(s.transfersFile, s.transfers, csvError))
        {
            return Fail(jp + ".transfers", csvError);
        }
        if (s.ranks != 0 && s.transfers.nRanks > s.ranks)
        {
            return Fail(jp + ".ranks",
                        "the transfer list uses " + std::to_string(s.transfers.nRanks)
                            + " ranks, more than the job's " + std::to_string(s.ranks));
        }
        s.ranks = s.ranks == 0 ? s.transfers.nRanks : s.ranks;
        return true;
    }

    /**
     * Read a job's "collectives" array.
     * @param cs its value
     * @param cp0 its path
     * @param s the job
     * @return false on error
     */
    bool Collectives(const Json& cs, const std::string& cp0, MrcJobSpec& s)
    {
        if (!cs.is_array() || cs.empty())
        {
            return Fail(cp0, "must be a non-empty array of collective objects");
        }
        for (std::size_t k = 0; k < cs.size(); ++k)
        {
            MrcCollectiveSpec c;
            if (!Collective(cs[k], cp0 + "[" + std::to_string(k) + "]", s.ranks, c))
            {
                return false;
            }
            s.collectives.push_back(std::move(c));
        }
        return true;
    }

    /**
     * Read one collective.
     * @param c its value
     * @param cp its path
     * @param ranks the job's ranks
     * @param out set to the collective
     * @return false on error
     */
    bool Collective(const Json& c, const std::string& cp, uint32_t ranks, MrcCollectiveSpec& out)
    {
        if (!c.is_object())
        {
            return Fail(cp, "a collective must be an object, got " + Show(c));
        }
        if (!Keys(c, cp, {"type", "bytes", "chunks", "qps_per_peer", "pairs", "group_size"}))
        {
            return false;
        }
        if (!c.contains("type"))
        {
            return Fail(cp, "missing \"type\" (accepted: " + MrcCollective::AcceptedTypes() + ")");
        }
        if (!c["type"].is_string()
            || !MrcCollective::ParseType(c["type"].get<std::string>(), out.type))
        {
            return Fail(cp + ".type",
                        "unknown type " + Show(c["type"])
                            + " (accepted: " + MrcCollective::AcceptedTypes() + ")");
        }
        uint64_t chunks = 1;
        uint64_t qps = 1;
        if (!Uint(c, cp, "bytes", 1, uint64_t(1) << 62, true, out.bytes)
            || !Uint(c, cp, "chunks", 1, 4096, false, chunks)
            || !Uint(c, cp, "qps_per_peer", 1, 256, false, qps))
        {
            return false;
        }
        out.chunks = static_cast<uint32_t>(chunks);
        out.qpsPerPeer = static_cast<uint32_t>(qps);
        if (c.contains("pairs") && !Pairs(c["pairs"], cp + ".pairs", ranks, out))
        {
            return false;
        }
        if ((c.contains("group_size") || out.type == MrcCollective::HIERARCHICAL_ALLREDUCE)
            && !GroupSize(c, cp, ranks, out))
        {
            return false;
        }
        const uint64_t biggest = MrcCollective::MaxTransferBytes(
            out.type, std::max(ranks, 2U), out.bytes, out.chunks, out.groupSize);
        if (biggest > MAX_MESSAGE)
        {
            const uint64_t need = out.chunks * ((biggest + MAX_MESSAGE - 1) / MAX_MESSAGE);
            return Fail(cp + (c.contains("chunks") ? ".chunks" : ".bytes"),
                        "a chunk of " + std::to_string(biggest)
                            + " bytes exceeds the 4 GiB message limit: use at least "
                            + std::to_string(need) + " chunks");
        }
        return true;
    }

    /**
     * Read a sendrecv collective's "pairs".
     * @param ps their value
     * @param pp their path
     * @param ranks the job's ranks
     * @param out the collective
     * @return false on error
     */
    bool Pairs(const Json& ps, const std::string& pp, uint32_t ranks, MrcCollectiveSpec& out)
    {
        if (out.type != MrcCollective::SENDRECV)
        {
            return Fail(pp, "only a sendrecv collective takes pairs");
        }
        if (!ps.is_array() || ps.empty())
        {
            return Fail(pp, "must be a non-empty array of [rank, rank] pairs");
        }
        for (std::size_t q = 0; q < ps.size(); ++q)
        {
            const Json& pr = ps[q];
            if (!pr.is_array() || pr.size() != 2 || !pr[0].is_number_unsigned()
                || !pr[1].is_number_unsigned() || pr[0] == pr[1] || pr[0].get<uint64_t>() >= ranks
                || pr[1].get<uint64_t>() >= ranks)
            {
                return Fail(pp + "[" + std::to_string(q) + "]",
                            "must be [a, b] with two distinct ranks below " + std::to_string(ranks)
                                + ", got " + Show(pr));
            }
            out.pairs.emplace_back(pr[0].get<uint32_t>(), pr[1].get<uint32_t>());
        }
        return true;
    }

    /**
     * Read a hierarchical all-reduce's "group_size".
     * @param c the collective's value
     * @param cp its path
     * @param ranks the job's ranks
     * @param out the collective
     * @return false on error
     */
    bool GroupSize(const Json& c, const std::string& cp, uint32_t ranks, MrcCollectiveSpec& out)
    {
        if (out.type != MrcCollective::HIERARCHICAL_ALLREDUCE)
        {
            return Fail(cp + ".group_size",
                        "only a hierarchical-allreduce collective takes group_size");
        }
        if (!c.contains("group_size"))
        {
            return Fail(cp,
                        "a hierarchical-allreduce needs \"group_size\": the ranks per group (the "
                        "hosts of one T0), dividing the job's "
                            + std::to_string(ranks) + " ranks");
        }
        uint64_t v = 0;
        if (!Uint(c, cp, "group_size", 1, 1U << 30, true, v))
        {
            return false;
        }
        out.groupSize = static_cast<uint32_t>(v);
        const std::string gerr = MrcCollective::CheckGroupSize(std::max(ranks, 1U), out.groupSize);
        return gerr.empty() || Fail(cp + ".group_size", gerr);
    }

    /**
     * Read a file name key, relative to the workload's directory unless absolute.
     * @param j the job's value
     * @param jp its path
     * @param key the key
     * @param what what the name is, for the message
     * @param path set to the file's path
     * @return false on error
     */
    bool FileName(
        const Json& j, const std::string& jp, const char* key, const char* what, std::string& path)
    {
        const Json& f = j[key];
        if (!f.is_string() || f.get<std::string>().empty())
        {
            return Fail(jp + "." + key, std::string("must be ") + what + ", got " + Show(f));
        }
        path = f.get<std::string>();
        if (!m_baseDir.empty() && path[0] != '/')
        {
            path = m_baseDir + "/" + path;
        }
        return true;
    }

    /**
     * Report an error.
     * @param path JSON path of the offending value
     * @param msg what is wrong and what is accepted
     * @return false
     */
    bool Fail(const std::string& path, const std::string& msg)
    {
        m_error = MrcText::Locate(m_name, Line(path), path, msg);
        return false;
    }

    /**
     * @param path a JSON path
     * @return the line of that path (0 if unknown)
     */
    uint32_t Line(const std::string& path)
    {
        if (!m_index)
        {
            m_index = std::make_unique<LineIndex>(m_text);
        }
        return m_index->Find(path);
    }

    /**
     * @param v a value
     * @return a short rendering of it for messages
     */
    static std::string Show(const Json& v)
    {
        std::string s = v.dump();
        if (s.size() > 40)
        {
            s = s.substr(0, 37) + "...";
        }
        return s;
    }

    /**
     * Reject keys outside a list.
     * @param obj an object
     * @param path its path
     * @param accepted accepted keys
     * @return false (and the error set) if an unknown key is present
     */
    bool Keys(const Json& obj, const std::string& path, const std::vector<std::string>& accepted)
    {
        for (auto it = obj.begin(); it != obj.end(); ++it)
        {
            if (std::find(accepted.begin(), accepted.end(), it.key()) == accepted.end())
            {
                std::string list;
                for (const auto& a : accepted)
                {
                    list += (list.empty() ? "" : ", ") + a;
                }
                return Fail(Child(path, it.key()), "unknown key (accepted: " + list + ")");
            }
        }
        return true;
    }

    /**
     * @param path an object's path
     * @param key a key
     * @return the key's path
     */
    static std::string Child(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }

    /**
     * Read a whole-number field.
     * @param obj the object
     * @param path its path
     * @param key the key
     * @param lo smallest accepted
     * @param hi largest accepted
     * @param required whether the key must be present
     * @param out set to the value (left alone if absent and optional)
     * @return false on error
     */
    bool Uint(const Json& obj,
              const std::string& path,
              const std::string& key,
              uint64_t lo,
              uint64_t hi,
              bool required,
              uint64_t& out)
    {
        const std::string range = MrcNumberParser::DescribeWhole(lo, hi);
        auto it = obj.find(key);
        if (it == obj.end())
        {
            return !required || Fail(path, "missing \"" + key + "\" (" + range + ")");
        }
        const Json& v = *it;
        if (!v.is_number_unsigned() || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
        {
            return Fail(Child(path, key), "must be " + range + " (got " + Show(v) + ")");
        }
        out = v.get<uint64_t>();
        return true;
    }

    /**
     * Read an optional time field in microseconds.
     * @param obj the object
     * @param path its path
     * @param key the key
     * @param out set to the value if present
     * @return false on error
     */
    bool Micros(const Json& obj, const std::string& path, const std::string& key, Time& out)
    {
        auto it = obj.find(key);
        if (it == obj.end())
        {
            return true;
        }
        const Json& v = *it;
        if (!v.is_number() || !(v.get<double>() >= 0) || v.get<double>() > MAX_MICROS)
        {
            return Fail(Child(path, key),
                        "must be " + MrcNumberParser::DescribeReal(0, MAX_MICROS)
                            + " (microseconds; got " + Show(v) + ")");
        }
        out = Time::FromDouble(v.get<double>(), Time::US);
        return true;
    }

    const std::string& m_text;          //!< the text
    std::string m_name;                 //!< the file's name
    std::string m_baseDir;              //!< directory of relative file names
    std::string& m_error;               //!< the message
    std::unique_ptr<LineIndex> m_index; //!< line index, built on first use
};

} // namespace

MrcWorkloadFile::MrcWorkloadFile()
{
    m_placementRng = CreateObject<UniformRandomVariable>();
}

int64_t
MrcWorkloadFile::AssignStreams(int64_t stream)
{
    m_placementRng->SetStream(stream);
    return 1;
}

bool
MrcWorkloadFile::Parse(const std::string& text,
                       const std::string& name,
                       std::vector<MrcJobSpec>& specs,
                       std::string& error,
                       const std::string& baseDir)
{
    specs.clear();
    WorkloadReader reader(text, name, baseDir, error);
    if (!reader.Read(specs))
    {
        specs.clear();
        return false;
    }
    return true;
}

bool
MrcWorkloadFile::LoadFile(const std::string& path,
                          std::vector<MrcJobSpec>& specs,
                          std::string& error)
{
    std::string text;
    if (!MrcCsvReader::ReadFile(path, text, error))
    {
        return false;
    }
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
    return Parse(text, path, specs, error, dir);
}

std::vector<MrcWorkloadFile::InputFile>
MrcWorkloadFile::InputFiles(const std::string& workloadPath, const std::vector<MrcJobSpec>& specs)
{
    const std::size_t slash = workloadPath.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : workloadPath.substr(0, slash);
    // LoadFile prefixes relative names with the workload's directory: undo that, unless the
    // name climbs out of it.
    auto relative = [&dir](const std::string& path)
    {
        std::string rel = path;
        if (!dir.empty())
        {
            if (path.rfind(dir + "/", 0) != 0)
            {
                return std::string();
            }
            rel = path.substr(dir.size() + 1);
        }
        if (rel.empty() || rel[0] == '/' || rel == ".." || rel.rfind("../", 0) == 0
            || rel.find("/../") != std::string::npos)
        {
            return std::string();
        }
        return rel;
    };
    std::vector<InputFile> out;
    for (const auto& s : specs)
    {
        if (s.replay)
        {
            out.push_back(InputFile{"transfers", s.transfersFile, relative(s.transfersFile)});
        }
        if (s.chakra)
        {
            for (std::size_t r = 0; r < s.program.ranks.size(); ++r)
            {
                const std::string f = s.chakraPrefix + "." + std::to_string(r) + ".et";
                out.push_back(InputFile{"chakra", f, relative(f)});
            }
        }
    }
    return out;
}

bool
MrcWorkloadFile::ParseTransferList(const std::string& text,
                                   const std::string& name,
                                   MrcTransferList& list,
                                   std::string& error)
{
    list = MrcTransferList();
    MrcCsvReader csv(text, name);
    // The deps column may be left out entirely.
    if (!csv.ReadHeader({{"step", "src", "dst", "bytes", "deps"}, {"step", "src", "dst", "bytes"}},
                        error))
    {
        return false;
    }
    std::vector<uint32_t> stepOf; // per row id
    uint32_t nRanks = 0;
    while (csv.NextRow())
    {
        const auto row = static_cast<uint32_t>(stepOf.size());
        uint64_t step = 0;
        uint64_t src = 0;
        uint64_t dst = 0;
        uint64_t bytes = 0;
        if (!csv.CheckNFields(4, error) || !csv.ReadUnsigned(0, 0, MAX_LIST_STEPS - 1, step, error)
            || !csv.ReadUnsigned(1, 0, MAX_RANKS - 1, src, error)
            || !csv.ReadUnsigned(2, 0, MAX_RANKS - 1, dst, error)
            || !csv.ReadUnsigned(3, 1, MAX_MESSAGE, bytes, error))
        {
            return false;
        }
        if (dst == src)
        {
            return csv.Fail(
                "dst", "must be another rank than src (got '" + csv.GetField(2) + "')", error);
        }
        MrcTransfer t{
            row, static_cast<uint32_t>(src), static_cast<uint32_t>(dst), bytes, 0, 0, 0, {}};
        if (!csv.GetField(4).empty())
        {
            for (std::string d : MrcText::Split(csv.GetField(4), ';'))
            {
                d = MrcText::Trim(d);
                uint64_t dep = 0;
                std::string why;
                if (!MrcNumberParser::ParseUnsigned(d, 0, MAX_MESSAGE, dep, why) || dep >= row)
                {
                    return csv.Fail("deps",
                                    "'" + d
                                        + "' is not an earlier row id (row ids count data lines "
                                          "from 0; this row is "
                                        + std::to_string(row) + ")",
                                    error);
                }
                if (stepOf[dep] > step)
                {
                    return csv.Fail("deps",
                                    "row " + d + " is in step " + std::to_string(stepOf[dep])
                                        + ", after this row's step " + csv.GetField(0),
                                    error);
                }
                if (stepOf[dep] == step
                    && std::find(t.deps.begin(), t.deps.end(), dep) == t.deps.end())
                {
                    t.deps.push_back(static_cast<uint32_t>(dep));
                }
            }
        }
        if (list.steps.size() <= step)
        {
            list.steps.resize(step + 1);
        }
        stepOf.push_back(static_cast<uint32_t>(step));
        nRanks = std::max(nRanks, static_cast<uint32_t>(std::max(src, dst) + 1));
        list.steps[step].push_back(std::move(t));
    }
    if (stepOf.empty())
    {
        return csv.FailAt(csv.GetNLines(), "", "no transfers after the header", error);
    }
    list.nRanks = nRanks;
    return true;
}

bool
MrcWorkloadFile::LoadTransferList(const std::string& path,
                                  MrcTransferList& list,
                                  std::string& error)
{
    std::string text;
    return MrcCsvReader::ReadFile(path, text, error) && ParseTransferList(text, path, list, error);
}

bool
MrcWorkloadFile::PlaceJobs(const std::vector<MrcJobSpec>& specs,
                           uint32_t nHosts,
                           std::vector<std::vector<uint32_t>>& placed,
                           std::string& error)
{
    std::vector<bool> used(nHosts, false);
    placed.clear();
    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        const MrcJobSpec& s = specs[i];
        const std::string field
            = (s.path.empty() ? "jobs[" + std::to_string(i) + "]" : s.path) + ".ranks";
        if (s.replay && s.transfers.nRanks > s.ranks)
        {
            error = MrcText::Locate(s.file,
                                    s.ranksLine,
                                    field,
                                    "the transfer list uses " + std::to_string(s.transfers.nRanks)
                                        + " ranks, more than the job's " + std::to_string(s.ranks));
            return false;
        }
        std::string err;
        placed.push_back(
            MrcTrainingJob::Place(s.placement, s.ranks, nHosts, used, m_placementRng, err));
        if (placed.back().empty())
        {
            error = MrcText::Locate(s.file,
                                    s.ranksLine,
                                    field,
                                    err + " (placement "
                                        + MrcTrainingJob::PlacementName(s.placement) + ")");
            return false;
        }
    }
    return true;
}

bool
MrcWorkloadFile::CreateJobs(const std::vector<MrcJobSpec>& specs,
                            MrcStackHelper& stack,
                            uint32_t nHosts,
                            std::vector<Ptr<MrcTrainingJob>>& jobs,
                            std::string& error,
                            uint32_t firstJobId)
{
    jobs.clear();
    std::vector<std::vector<uint32_t>> placed;
    if (!PlaceJobs(specs, nHosts, placed, error))
    {
        return false;
    }
    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        const MrcJobSpec& s = specs[i];
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("JobId", UintegerValue(firstJobId + i));
        job->SetAttribute("Name", StringValue(s.name));
        job->SetAttribute("Steps", UintegerValue(s.steps));
        job->SetAttribute("ComputeTime", TimeValue(s.compute));
        job->SetAttribute("ComputeJitter", TimeValue(s.jitter));
        job->SetRanks(placed[i]);
        if (s.replay)
        {
            job->SetTransferList(s.transfers);
        }
        if (s.chakra)
        {
            job->SetProgram(s.program);
        }
        for (const auto& c : s.collectives)
        {
            if (c.type == MrcCollective::SENDRECV && !c.pairs.empty())
            {
                job->AddSendRecv(c.pairs, c.bytes, c.chunks, c.qpsPerPeer);
            }
            else
            {
                job->AddCollective(c.type, c.bytes, c.chunks, c.qpsPerPeer, c.groupSize);
            }
        }
        job->Install(stack.GetFabric());
        job->Start(Simulator::Now() + s.start);
        jobs.push_back(job);
    }
    return true;
}

bool
MrcWorkloadFile::CreateFluidJobs(const std::vector<MrcJobSpec>& specs,
                                 Ptr<MrcFluidNetwork> network,
                                 std::vector<Ptr<MrcFluidJob>>& jobs,
                                 std::string& error,
                                 uint32_t firstJobId)
{
    jobs.clear();
    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        const MrcJobSpec& s = specs[i];
        if (s.replay || s.chakra)
        {
            error = MrcText::Locate(
                s.file,
                0,
                (s.path.empty() ? "jobs[" + std::to_string(i) + "]" : s.path)
                    + (s.replay ? ".transfers" : ".chakra"),
                "transfer lists and Chakra traces run at packet level only (accepted with "
                "--model=fluid: jobs of collectives)");
            return false;
        }
    }
    std::vector<std::vector<uint32_t>> placed;
    if (!PlaceJobs(specs, network->GetNHosts(), placed, error))
    {
        return false;
    }
    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        const MrcJobSpec& s = specs[i];
        Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
        job->SetAttribute("JobId", UintegerValue(firstJobId + i));
        job->SetAttribute("Name", StringValue(s.name));
        job->SetAttribute("Steps", UintegerValue(s.steps));
        job->SetAttribute("ComputeTime", TimeValue(s.compute));
        job->SetAttribute("ComputeJitter", TimeValue(s.jitter));
        job->SetRanks(placed[i]);
        for (const auto& c : s.collectives)
        {
            if (c.type == MrcCollective::SENDRECV && !c.pairs.empty())
            {
                job->AddSendRecv(c.pairs, c.bytes);
            }
            else
            {
                job->AddCollective(c.type, c.bytes, c.chunks, c.groupSize);
            }
        }
        job->Install(network);
        job->Start(Simulator::Now() + s.start);
        jobs.push_back(job);
    }
    return true;
}

} // namespace ns3
