/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The Python module `mrc._core` (pybind11): a thin binding of the C++ API a program uses
 * to compare schemes (MrcSchemeHelper, MrcTrainingJob, MrcFaultHelper / MrcFaultInjector,
 * MrcResultsDir, MrcRecorder) and of the simulator's run loop. The C++ classes stay the model;
 * the Python package `mrc` (python/mrc/) builds its Experiment and load() on this.
 *
 * Attributes are set as text, as on an ns-3 command line, and checked against the attribute's
 * TypeId first: a bad name or value raises ValueError naming the attribute and what it accepts
 * (the C++ helpers would abort later instead).
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <regex>
#include <sstream>

namespace py = pybind11;
using namespace ns3;

PYBIND11_DECLARE_HOLDER_TYPE(T, ns3::Ptr<T>, true);

namespace pybind11
{
namespace detail
{
/** ns-3's Ptr as a pybind11 holder: its raw pointer is PeekPointer, not get(). */
template<typename T>
struct holder_helper<ns3::Ptr<T>>
{
    /**
     * @param p the holder
     * @return the object
     */
    static T* get(const ns3::Ptr<T>& p)
    {
        return ns3::PeekPointer(p);
    }
};
} // namespace detail
} // namespace pybind11

namespace
{

/**
 * @param v a Python value
 * @return it as an ns-3 attribute's text (True and False as true and false)
 */
std::string
ToText(const py::handle& v)
{
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>() ? "true" : "false";
    }
    return py::str(v).cast<std::string>();
}

/**
 * @param tid a type
 * @return its attributes' names and those of its parents, comma separated
 */
std::string
AttributeNames(TypeId tid)
{
    std::ostringstream os;
    bool first = true;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            os << (first ? "" : ", ") << t.GetAttribute(i).name;
            first = false;
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    return os.str();
}

/**
 * Whether ns-3 can parse the text as the value type without aborting. ns-3's
 * DeserializeFromString aborts (instead of failing) when a number is followed by anything, and
 * Time's parser aborts on an unknown unit, so those are checked here first; other types fail
 * cleanly once the text is one token.
 * @param valueType the checker's value type ("ns3::UintegerValue")
 * @param text the text
 * @return whether DeserializeFromString may be called
 */
bool
Parsable(const std::string& valueType, const std::string& text)
{
    static const std::regex integer("[+-]?[0-9]+");
    static const std::regex real("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?");
    static const std::regex time("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?"
                                 "(y|d|h|min|s|ms|us|ns|ps|fs)?");
    if (valueType == "ns3::StringValue")
    {
        return true;
    }
    if (text.empty() || text.find_first_of(" \t\n\r\f\v") != std::string::npos)
    {
        return false;
    }
    if (valueType == "ns3::UintegerValue" || valueType == "ns3::IntegerValue")
    {
        return std::regex_match(text, integer);
    }
    if (valueType == "ns3::DoubleValue")
    {
        return std::regex_match(text, real);
    }
    if (valueType == "ns3::TimeValue")
    {
        return std::regex_match(text, time);
    }
    return true;
}

/**
 * The value of an attribute of a type, from text, checked.
 * @param typeName the TypeId's name ("ns3::MrcQueuePair")
 * @param name the attribute
 * @param value the Python value (its text is parsed as the attribute's type)
 * @return the value (raises ValueError naming the attribute and what it accepts)
 */
Ptr<AttributeValue>
CheckedValue(const std::string& typeName, const std::string& name, const py::handle& value)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        throw py::value_error("unknown type '" + typeName + "'");
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw py::value_error(typeName + ": no attribute '" + name
                              + "' (accepted: " + AttributeNames(tid) + ")");
    }
    const std::string text = ToText(value);
    Ptr<AttributeValue> v;
    if (Parsable(info.checker->GetValueTypeName(), text))
    {
        v = info.checker->CreateValidValue(StringValue(text));
    }
    if (!v)
    {
        throw py::value_error(typeName + "::" + name + ": cannot take '" + text + "' (expected "
                              + info.checker->GetUnderlyingTypeInformation() + ")");
    }
    return v;
}

/** Raise ValueError(message) unless the message is empty. */
void
ThrowIf(const std::string& message)
{
    if (!message.empty())
    {
        throw py::value_error(message);
    }
}

/**
 * What a run waits for: its jobs' completion. When every job has completed (or failed) the
 * recorder's link sampling is stopped and the simulation with it.
 */
struct RunState
{
    std::size_t pending = 0;       //!< jobs not yet complete
    Ptr<MrcRecorder> recorder;     //!< stopped when the jobs are (or null)
    bool interrupted = false;      //!< a Python signal handler raised
    bool jobsDone = false;         //!< every job completed
    Time watch = MicroSeconds(20); //!< simulated time between looks at Python's signals
    static RunState* current;      //!< the run in progress

    /** A job's JobComplete trace. */
    static void OnJobComplete(uint32_t, uint32_t, uint64_t)
    {
        RunState* s = current;
        if (s == nullptr || s->pending == 0)
        {
            return;
        }
        if (--s->pending == 0)
        {
            s->jobsDone = true;
            if (s->recorder)
            {
                s->recorder->StopSampling();
            }
            Simulator::Stop();
        }
    }

    /**
     * Look at Python's pending signals (Ctrl-C, a notebook's interrupt): the handler that
     * raises stops the simulation. Does nothing observable otherwise, and is not rescheduled
     * once it is the only event left.
     */
    static void Watch()
    {
        RunState* s = current;
        if (s == nullptr)
        {
            return;
        }
        if (PyErr_CheckSignals() != 0)
        {
            s->interrupted = true;
            Simulator::Stop();
            return;
        }
        if (!Simulator::IsFinished())
        {
            Simulator::Schedule(s->watch, &RunState::Watch);
        }
    }
};

RunState* RunState::current = nullptr;

/**
 * Run the simulation until every job given has completed, `until_us` of simulated time, or no
 * event is left, whichever comes first.
 * @param jobs the jobs to wait for
 * @param recorder a recorder whose link sampling stops with the jobs (may be None)
 * @param untilUs simulated time to stop at (negative: none)
 * @param watchUs simulated time between looks at Python's signals
 * @return how the run ended, and the simulated time
 */
py::dict
Run(const std::vector<Ptr<MrcTrainingJob>>& jobs,
    const py::object& recorder,
    double untilUs,
    double watchUs)
{
    if (RunState::current != nullptr)
    {
        throw std::runtime_error("run: a simulation is already running");
    }
    if (!(watchUs > 0))
    {
        throw py::value_error("run: watch_us must be > 0 (got " + std::to_string(watchUs) + ")");
    }
    RunState state;
    if (!recorder.is_none())
    {
        state.recorder = recorder.cast<Ptr<MrcRecorder>>();
    }
    state.watch = MicroSeconds(watchUs);
    for (const auto& j : jobs)
    {
        if (!j->IsComplete() && !j->IsFailed())
        {
            ++state.pending;
            j->TraceConnectWithoutContext("JobComplete", MakeCallback(&RunState::OnJobComplete));
        }
    }
    if (untilUs >= 0)
    {
        Simulator::Stop(MicroSeconds(untilUs));
    }
    RunState::current = &state;
    Simulator::Schedule(state.watch, &RunState::Watch);
    Simulator::Run();
    RunState::current = nullptr;
    for (const auto& j : jobs)
    {
        j->TraceDisconnectWithoutContext("JobComplete", MakeCallback(&RunState::OnJobComplete));
    }
    if (state.interrupted)
    {
        throw py::error_already_set();
    }
    py::dict out;
    out["ended"] = state.jobsDone ? "jobs" : (Simulator::IsFinished() ? "no events" : "until");
    out["now_us"] = Simulator::Now().GetSeconds() * 1e6;
    return out;
}

/**
 * @param r a step record
 * @return it as a dict (times in microseconds)
 */
py::dict
StepDict(const MrcStepRecord& r)
{
    py::dict d;
    d["job"] = r.job;
    d["step"] = r.step;
    d["start_us"] = r.start.GetSeconds() * 1e6;
    d["compute_end_us"] = r.computeEnd.GetSeconds() * 1e6;
    d["end_us"] = r.end.GetSeconds() * 1e6;
    d["duration_us"] = (r.end - r.start).GetSeconds() * 1e6;
    d["slowest_rank"] = r.slowestRank;
    d["transfers"] = r.transfers;
    d["failures"] = r.failures;
    return d;
}

/**
 * @param r a transfer record
 * @return it as a dict (times in microseconds)
 */
py::dict
TransferDict(const MrcTransferRecord& r)
{
    py::dict d;
    d["job"] = r.job;
    d["step"] = r.step;
    d["collective"] = std::string(r.collectiveType);
    d["src"] = r.srcHost;
    d["dst"] = r.dstHost;
    d["src_rank"] = r.srcRank;
    d["dst_rank"] = r.dstRank;
    d["qp"] = r.qp;
    d["bytes"] = r.bytes;
    d["start_us"] = r.start.GetSeconds() * 1e6;
    d["end_us"] = r.end.GetSeconds() * 1e6;
    d["status"] = r.status;
    return d;
}

} // namespace

PYBIND11_MODULE(_core, m)
{
    m.doc() = "The MRC ns-3 module's C++ API for Python (the package mrc builds on it)";
    // The programs' default event scheduler (MrcCommandLine's --scheduler): ns-3's event order,
    // faster; set_global("SchedulerType", ...) chooses another.
    std::string scheduler;
    MrcCommandLine::GetSchedulerType(MrcCommandLine::DEFAULT_SCHEDULER, scheduler);
    GlobalValue::Bind("SchedulerType", StringValue(scheduler));

    m.def(
        "set_seed",
        [](uint32_t seed)
        {
            if (seed == 0)
            {
                throw py::value_error("set_seed: seed must be >= 1 (got 0)");
            }
            RngSeedManager::SetSeed(seed);
        },
        py::arg("seed"),
        "RngSeedManager::SetSeed (before building anything)");
    m.def(
        "set_run",
        [](uint64_t run)
        {
            RngSeedManager::SetRun(run);
        },
        py::arg("run"),
        "RngSeedManager::SetRun");
    m.def(
        "set_default",
        [](const std::string& path, const py::object& value)
        {
            const std::string::size_type sep = path.rfind("::");
            if (sep == std::string::npos)
            {
                throw py::value_error("set_default: expected ns3::Type::Attribute, got '" + path
                                      + "'");
            }
            Ptr<AttributeValue> v = CheckedValue(path.substr(0, sep), path.substr(sep + 2), value);
            Config::SetDefault(path, *v);
        },
        py::arg("path"),
        py::arg("value"),
        "Config::SetDefault(\"ns3::Type::Attribute\", value as text), checked");
    m.def(
        "set_global",
        [](const std::string& name, const py::object& value)
        {
            if (!GlobalValue::BindFailSafe(name, StringValue(ToText(value))))
            {
                throw py::value_error("set_global: no global value '" + name + "' takes '"
                                      + ToText(value) + "'");
            }
        },
        py::arg("name"),
        py::arg("value"),
        "GlobalValue::Bind (e.g. SchedulerType)");
    m.def(
        "now_us",
        []()
        {
            return Simulator::Now().GetSeconds() * 1e6;
        },
        "the simulated time, in microseconds");
    m.def("run",
          &Run,
          py::arg("jobs") = std::vector<Ptr<MrcTrainingJob>>{},
          py::arg("recorder") = py::none(),
          py::arg("until_us") = -1.0,
          py::arg("watch_us") = 20.0,
          "Simulator::Run until the jobs complete (their recorder's link sampling stopped), "
          "until_us, or no event is left; Ctrl-C stops it and raises KeyboardInterrupt");
    m.def(
        "destroy",
        []()
        {
            Simulator::Destroy();
        },
        "Simulator::Destroy: end this simulation (before building the next one)");
    m.def("scheme_names", &MrcSchemeHelper::GetSchemeNames, "the schemes a Scheme can be");
    m.def(
        "load_workload",
        [](const std::string& path, MrcSchemeHelper& scheme, int64_t placementStream)
        {
            Ptr<MrcClosTopology> fabric = scheme.GetFabric();
            if (!fabric)
            {
                throw py::value_error("load_workload: build the scheme first");
            }
            std::vector<MrcJobSpec> specs;
            std::vector<Ptr<MrcTrainingJob>> jobs;
            std::string err;
            MrcWorkloadFile wf;
            wf.AssignStreams(placementStream);
            if (!MrcWorkloadFile::LoadFile(path, specs, err)
                || !wf.CreateJobs(specs, scheme.GetStack(), fabric->GetNHosts(), jobs, err))
            {
                throw py::value_error("workload " + path + ": " + err);
            }
            return jobs;
        },
        py::arg("path"),
        py::arg("scheme"),
        py::arg("placement_stream") = int64_t(1) << 40,
        "the jobs of a workload file (docs/experiments.md), placed, installed and started on "
        "the scheme's fabric (assign their streams next)");

    py::class_<MrcClosTopology, Ptr<MrcClosTopology>>(m, "Fabric", "a built fabric")
        .def_property_readonly("hosts", &MrcClosTopology::GetNHosts)
        .def_property_readonly("planes", &MrcClosTopology::GetNPlanes)
        .def("drops_by_reason",
             &MrcClosTopology::GetDropsByReason,
             "packets lost so far, by where and why (as the programs' 'packets lost' rows)")
        .def(
            "base_rtt_us",
            [](const MrcClosTopology& f, uint32_t bytes, py::object src, py::object dst)
            {
                if (src.is_none() != dst.is_none())
                {
                    throw py::value_error("base_rtt_us: give both src and dst, or neither");
                }
                if (src.is_none())
                {
                    return f.GetBaseRtt(bytes).GetSeconds() * 1e6;
                }
                const uint32_t s = src.cast<uint32_t>();
                const uint32_t d = dst.cast<uint32_t>();
                if (s >= f.GetNHosts() || d >= f.GetNHosts())
                {
                    throw py::value_error("base_rtt_us: hosts are 0.."
                                          + std::to_string(f.GetNHosts() - 1));
                }
                return f.GetBaseRtt(bytes, s, d).GetSeconds() * 1e6;
            },
            py::arg("bytes"),
            py::arg("src") = py::none(),
            py::arg("dst") = py::none(),
            "unloaded round trip of a packet of this size (between two hosts, or the longest)");

    py::class_<MrcSchemeHelper, Ptr<MrcSchemeHelper>>(
        m,
        "Scheme",
        "MrcSchemeHelper: one scheme's fabric and transport with its matching defaults")
        .def(py::init(
                 [](const std::string& name)
                 {
                     if (!MrcSchemeHelper::IsScheme(name))
                     {
                         std::string names;
                         for (const auto& n : MrcSchemeHelper::GetSchemeNames())
                         {
                             names += (names.empty() ? "" : ", ") + n;
                         }
                         throw py::value_error("Scheme: '" + name
                                               + "' is not a scheme (accepted: " + names + ")");
                     }
                     Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
                     s->SetAttribute("Scheme", StringValue(name));
                     return s;
                 }),
             py::arg("name"))
        .def_property_readonly("name", &MrcSchemeHelper::GetScheme)
        .def_property_readonly("is_roce", &MrcSchemeHelper::IsRoce)
        .def(
            "set",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.SetAttribute(name, *CheckedValue("ns3::MrcSchemeHelper", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an MrcSchemeHelper attribute (Hosts, Planes, PlaneRate, HostsPerT0, ...)")
        .def(
            "set_fabric",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.SetFabricAttribute(name, *CheckedValue("ns3::MrcClosHelper", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an MrcClosHelper attribute (wins over the scheme's)")
        .def(
            "set_queue",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.SetQueueAttribute(name, *CheckedValue("ns3::MrcTrimmingQueue", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an attribute of every switch port's MrcTrimmingQueue")
        .def(
            "set_switch",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.SetSwitchAttribute(name, *CheckedValue("ns3::MrcSwitchNetDevice", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an attribute of every MrcSwitchNetDevice")
        .def(
            "set_control_plane",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.SetControlPlaneAttribute(name,
                                           *CheckedValue("ns3::MrcEcmpControlPlane", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an MrcEcmpControlPlane attribute (the routed fabric of the roce schemes)")
        .def(
            "set_queue_pair",
            [](MrcSchemeHelper& s, const std::string& name, const py::object& value)
            {
                s.GetStack().SetQueuePairAttribute(name,
                                                   *CheckedValue("ns3::MrcQueuePair", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an attribute of every MrcQueuePair (after the scheme's choices)")
        .def("validate",
             &MrcSchemeHelper::Validate,
             "'' if the description can be built, else why not")
        .def(
            "build",
            [](MrcSchemeHelper& s)
            {
                ThrowIf(s.Validate());
                return s.Build();
            },
            "build the packet-level fabric and install the scheme's stack")
        .def("assign_streams",
             &MrcSchemeHelper::AssignStreams,
             py::arg("stream"),
             "the fabric's and the stack's random streams, right after build(); returns the "
             "count used")
        .def("assign_nic_streams",
             &MrcSchemeHelper::AssignNicStreams,
             py::arg("stream"),
             "the NIC receive-loss streams (a block of their own)");

    py::class_<MrcTrainingJob, Ptr<MrcTrainingJob>>(m,
                                                    "TrainingJob",
                                                    "MrcTrainingJob: synchronous steps of "
                                                    "collectives over a set of hosts")
        .def(py::init(
                 [](const std::string& name)
                 {
                     Ptr<MrcTrainingJob> j = CreateObject<MrcTrainingJob>();
                     j->SetAttribute("Name", StringValue(name));
                     return j;
                 }),
             py::arg("name") = "job")
        .def(
            "set",
            [](MrcTrainingJob& j, const std::string& name, const py::object& value)
            {
                j.SetAttribute(name, *CheckedValue("ns3::MrcTrainingJob", name, value));
            },
            py::arg("name"),
            py::arg("value"),
            "an MrcTrainingJob attribute (Steps, ComputeTime, ...)")
        .def(
            "set_ranks",
            [](MrcTrainingJob& j, const std::vector<uint32_t>& hosts)
            {
                if (hosts.size() < 2)
                {
                    throw py::value_error("set_ranks: a job needs at least 2 hosts");
                }
                j.SetRanks(hosts);
            },
            py::arg("hosts"),
            "the hosts of ranks 0, 1, ...")
        .def(
            "add_collective",
            [](MrcTrainingJob& j,
               const std::string& kind,
               uint64_t bytes,
               uint32_t chunks,
               uint32_t qpsPerPeer,
               uint32_t groupSize)
            {
                MrcCollective::Type type;
                if (!MrcCollective::ParseType(kind, type))
                {
                    std::string names;
                    for (int t = MrcCollective::RING_ALLREDUCE;
                         t <= MrcCollective::HIERARCHICAL_ALLREDUCE;
                         ++t)
                    {
                        names += std::string(names.empty() ? "" : ", ")
                               + MrcCollective::TypeName(MrcCollective::Type(t));
                    }
                    throw py::value_error("add_collective: unknown collective '" + kind
                                          + "' (accepted: " + names + ")");
                }
                if (bytes == 0 || chunks == 0 || qpsPerPeer == 0)
                {
                    throw py::value_error(
                        "add_collective: bytes, chunks and qps_per_peer must be >= 1");
                }
                j.AddCollective(type, bytes, chunks, qpsPerPeer, groupSize);
            },
            py::arg("kind"),
            py::arg("bytes"),
            py::arg("chunks") = 1,
            py::arg("qps_per_peer") = 1,
            py::arg("group_size") = 0,
            "a collective of every step (ring-allreduce, allgather, reduce-scatter, alltoall, "
            "...)")
        .def(
            "install",
            [](MrcTrainingJob& j, Ptr<MrcClosTopology> fabric)
            {
                for (uint32_t h : j.GetRanks())
                {
                    if (h >= fabric->GetNHosts())
                    {
                        throw py::value_error("install: host " + std::to_string(h)
                                              + " is not in the fabric (hosts 0.."
                                              + std::to_string(fabric->GetNHosts() - 1) + ")");
                    }
                }
                j.Install(fabric);
            },
            py::arg("fabric"),
            "build the step plans and the queue pairs")
        .def("assign_streams", &MrcTrainingJob::AssignStreams, py::arg("stream"))
        .def(
            "start",
            [](MrcTrainingJob& j, double atUs)
            {
                j.Start(MicroSeconds(atUs));
            },
            py::arg("at_us") = 0.0)
        .def_property_readonly("steps_completed", &MrcTrainingJob::GetStepsCompleted)
        .def_property_readonly("is_complete", &MrcTrainingJob::IsComplete)
        .def_property_readonly("is_failed", &MrcTrainingJob::IsFailed)
        .def(
            "step_records",
            [](const MrcTrainingJob& j)
            {
                py::list out;
                for (const auto& r : j.GetStepRecords())
                {
                    out.append(StepDict(r));
                }
                return out;
            },
            "the steps so far, a dict each (times in µs)")
        .def(
            "transfer_records",
            [](const MrcTrainingJob& j)
            {
                py::list out;
                for (const auto& r : j.GetTransferRecords())
                {
                    out.append(TransferDict(r));
                }
                return out;
            },
            "the transfers so far, a dict each (times in µs)");

    py::class_<MrcFaultInjector, Ptr<MrcFaultInjector>>(m,
                                                        "FaultInjector",
                                                        "MrcFaultInjector, from "
                                                        "FaultHelper.install")
        .def(
            "schedule",
            [](MrcFaultInjector& f,
               double atUs,
               const std::string& action,
               const std::string& target,
               double durationUs,
               double rate)
            {
                std::string err;
                if (!f.Schedule(
                        MicroSeconds(atUs), action, target, MicroSeconds(durationUs), err, rate))
                {
                    throw py::value_error("schedule: " + err);
                }
            },
            py::arg("at_us"),
            py::arg("action"),
            py::arg("target"),
            py::arg("duration_us") = 0.0,
            py::arg("rate") = 0.0,
            "one fault, as a fault file's row: link_down/link_flap/switch_reboot/nic_port_down/"
            "nic_rx_loss/... on a target such as plane0/t0-0")
        .def_property_readonly("events",
                               [](const MrcFaultInjector& f)
                               {
                                   return f.GetEvents().size();
                               });

    py::class_<MrcFaultHelper, Ptr<MrcFaultHelper>>(m, "FaultHelper", "MrcFaultHelper")
        .def(py::init(
            []()
            {
                return CreateObject<MrcFaultHelper>();
            }))
        .def("install",
             py::overload_cast<Ptr<MrcClosTopology>>(&MrcFaultHelper::Install),
             py::arg("fabric"))
        .def("assign_streams", &MrcFaultHelper::AssignStreams, py::arg("stream"))
        .def(
            "load_schedule_file",
            [](MrcFaultHelper& h, const std::string& path)
            {
                std::string err;
                if (!h.LoadScheduleFile(path, err))
                {
                    throw py::value_error(err);
                }
            },
            py::arg("path"),
            "a fault file (docs/experiments.md), after install")
        .def(
            "load_schedule",
            [](MrcFaultHelper& h, const std::string& text, const std::string& name)
            {
                std::string err;
                if (!h.LoadSchedule(text, name, err))
                {
                    throw py::value_error(err);
                }
            },
            py::arg("text"),
            py::arg("name") = "faults",
            "a fault file's text, after install");

    py::class_<MrcResultsDir, std::unique_ptr<MrcResultsDir>>(
        m,
        "ResultsDir",
        "MrcResultsDir: a results directory, locked while written, complete only at the end")
        .def(py::init(
                 [](const std::string& path, const std::string& program, bool overwrite)
                 {
                     auto d = std::make_unique<MrcResultsDir>();
                     std::string err;
                     if (!d->Open(path, program, overwrite, err))
                     {
                         throw py::value_error(path + ": " + err);
                     }
                     return d;
                 }),
             py::arg("path"),
             py::arg("program") = "python",
             py::arg("overwrite") = false)
        .def_property_readonly("path", &MrcResultsDir::GetPath)
        .def(
            "set_command_line",
            [](MrcResultsDir& d, std::vector<std::string> args)
            {
                std::vector<char*> argv;
                for (auto& a : args)
                {
                    argv.push_back(a.data());
                }
                argv.push_back(nullptr);
                d.SetCommandLine(static_cast<int>(args.size()), argv.data());
            },
            py::arg("argv"))
        .def(
            "write_file",
            [](MrcResultsDir& d, const std::string& name, const std::string& text)
            {
                std::string err;
                if (!d.WriteFile(name, text, err))
                {
                    throw py::value_error(err);
                }
            },
            py::arg("name"),
            py::arg("text"),
            "a whole file, listed in the manifest")
        .def(
            "copy_input",
            [](MrcResultsDir& d,
               const std::string& kind,
               const std::string& path,
               const std::string& name)
            {
                std::string err;
                if (!d.CopyInput(kind, path, name, err))
                {
                    throw py::value_error(err);
                }
            },
            py::arg("kind"),
            py::arg("path"),
            py::arg("name"),
            "copy an input file into inputs/NAME (run.json's inputs)")
        .def(
            "copy_workload",
            [](MrcResultsDir& d, const std::string& path)
            {
                std::vector<MrcJobSpec> specs;
                std::string err;
                const std::string name = path.substr(path.find_last_of('/') + 1);
                bool ok = MrcWorkloadFile::LoadFile(path, specs, err)
                       && d.CopyInput("workload", path, name, err);
                for (const auto& f : MrcWorkloadFile::InputFiles(path, specs))
                {
                    ok = ok
                      && (f.relative.empty() ? d.RecordInput(
                              f.kind, f.path, "outside the workload file's directory", err)
                                             : d.CopyInput(f.kind, f.path, f.relative, err));
                }
                if (!ok)
                {
                    throw py::value_error("workload " + path + ": " + err);
                }
                return name;
            },
            py::arg("path"),
            "copy a workload file and the files it reads into inputs/, as quickstart does; "
            "returns its name there")
        .def(
            "write_run_json",
            [](MrcResultsDir& d,
               const std::string& program,
               const std::string& version,
               uint32_t seed,
               const std::map<std::string, std::string>& params,
               const std::map<std::string, std::string>& extra,
               bool complete,
               const std::string& reason)
            {
                std::string err;
                if (!d.WriteRunJson(program, version, seed, params, extra, complete, reason, err))
                {
                    throw py::value_error(err);
                }
            },
            py::arg("program"),
            py::arg("version"),
            py::arg("seed"),
            py::arg("params"),
            py::arg("extra") = std::map<std::string, std::string>{},
            py::arg("complete") = true,
            py::arg("reason") = "")
        .def(
            "set_complete",
            [](MrcResultsDir& d)
            {
                std::string err;
                if (!d.SetComplete(err))
                {
                    throw py::value_error(err);
                }
            },
            "mark the manifest complete and release the directory")
        .def("close", &MrcResultsDir::Close, "release the lock (the run stays incomplete)");

    py::class_<MrcRecorder, Ptr<MrcRecorder>>(m,
                                              "Recorder",
                                              "MrcRecorder: flows.csv, steps.csv, events.csv, "
                                              "links.csv of a results directory")
        .def(py::init(
                 [](MrcResultsDir& dir)
                 {
                     Ptr<MrcRecorder> r = CreateObject<MrcRecorder>();
                     std::string err;
                     if (!r->Open(dir, err))
                     {
                         throw py::value_error(err);
                     }
                     return r;
                 }),
             py::arg("dir"),
             py::keep_alive<1, 2>())
        .def("set_scheme", &MrcRecorder::SetScheme, py::arg("scheme"))
        .def(
            "attach_job",
            [](MrcRecorder& r, Ptr<MrcTrainingJob> j)
            {
                r.AttachJob(j);
            },
            py::arg("job"))
        .def("attach_faults", &MrcRecorder::AttachFaults, py::arg("faults"))
        .def(
            "attach_ev_states",
            [](MrcRecorder& r, Ptr<MrcClosTopology> fabric, MrcSchemeHelper& scheme)
            {
                r.AttachEvStates(fabric, scheme.GetStack());
            },
            py::arg("fabric"),
            py::arg("scheme"),
            "EV state changes into events.csv (MRC)")
        .def(
            "sample_links",
            [](MrcRecorder& r, Ptr<MrcClosTopology> fabric, double binUs)
            {
                if (!(binUs > 0))
                {
                    throw py::value_error("sample_links: bin_us must be > 0");
                }
                r.SampleLinks(fabric, MicroSeconds(binUs));
            },
            py::arg("fabric"),
            py::arg("bin_us"),
            "links.csv: utilisation and queues per plane and tier every bin")
        .def("stop_sampling", &MrcRecorder::StopSampling)
        .def_property_readonly("flows_recorded", &MrcRecorder::GetFlowsRecorded)
        .def(
            "close",
            [](MrcRecorder& r)
            {
                std::string err;
                if (!r.Close(err))
                {
                    throw py::value_error(err);
                }
            },
            "flush the files and record them whole in the manifest");
}
