/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The claims suite's scales and the context its claims (and the paper program's
 * figures) run their simulations through.
 */

#include "ns3/mrc-module.h"

#include "claims.h"
#include "ns3/core-module.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <type_traits>

namespace ns3
{
namespace claims
{

namespace
{

/** A worker's exit status when its run's fabric cannot be built (evidence::BadInput). */
constexpr int BAD_INPUT_STATUS = 3;

/**
 * Visit every field of a training result, in one fixed order: the one list that both
 * Encode and Decode follow.
 * @param r the result
 * @param f called with each field
 */
template<class R, class F>
void
Fields(R& r, F&& f)
{
    f(r.stepUs);
    f(r.jobMeanUs);
    f(r.flowGbps);
    f(r.stepsDone);
    f(r.stepsPlanned);
    f(r.failedQps);
    f(r.failedJobs);
    f(r.retx);
    f(r.spurious);
    f(r.retxBytes);
    f(r.timeouts);
    f(r.retirements);
    f(r.pauses);
    f(r.flaps);
    f(r.hostBytes);
    f(r.uplinkBytes);
    f(r.qps);
    f(r.evsTotal);
    f(r.evsRetiredAtEnd);
    f(r.evsRetiredEver);
    f(r.placement);
    f(r.placementDigest);
    f(r.faultDigest);
    f(r.simUs);
    f(r.wall);
}

// A field added to TrainingResult must be added to Fields (this fails to compile until the
// size below is updated as well).
static_assert(sizeof(TrainingResult)
                  == 3 * sizeof(std::vector<double>) + 2 * sizeof(uint32_t) + 15 * sizeof(uint64_t)
                         + sizeof(std::vector<std::vector<uint32_t>>) + 2 * sizeof(std::string)
                         + 2 * sizeof(double),
              "TrainingResult changed: update Fields()");

/** Appends fields to a byte string. */
struct Encoder
{
    std::string out; //!< the bytes

    /** @param v an arithmetic value */
    template<class T>
    typename std::enable_if<std::is_arithmetic<T>::value>::type operator()(const T& v)
    {
        out.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }

    /** @param v a string */
    void operator()(const std::string& v)
    {
        (*this)(static_cast<uint64_t>(v.size()));
        out.append(v);
    }

    /** @param v a vector */
    template<class T>
    void operator()(const std::vector<T>& v)
    {
        (*this)(static_cast<uint64_t>(v.size()));
        for (const auto& x : v)
        {
            (*this)(x);
        }
    }
};

/** Reads fields back from a byte string (ok false once it runs short). */
struct Decoder
{
    const std::string& in; //!< the bytes
    std::size_t at = 0;    //!< read position
    bool ok = true;        //!< everything read so far was there

    /** @param v set to the next arithmetic value */
    template<class T>
    typename std::enable_if<std::is_arithmetic<T>::value>::type operator()(T& v)
    {
        if (!ok || in.size() - at < sizeof(T))
        {
            ok = false;
            return;
        }
        std::memcpy(&v, in.data() + at, sizeof(T));
        at += sizeof(T);
    }

    /** @param v set to the next string */
    void operator()(std::string& v)
    {
        uint64_t n = 0;
        (*this)(n);
        if (!ok || in.size() - at < n)
        {
            ok = false;
            return;
        }
        v.assign(in, at, n);
        at += n;
    }

    /** @param v set to the next vector */
    template<class T>
    void operator()(std::vector<T>& v)
    {
        uint64_t n = 0;
        (*this)(n);
        if (!ok || n > in.size() - at)
        {
            ok = false; // each element takes at least one byte
            return;
        }
        v.assign(n, T());
        for (auto& x : v)
        {
            (*this)(x);
        }
    }
};

/**
 * @param label a run's label
 * @param scheme its scheme
 * @param fab its fabric
 * @param job its job
 * @param faults its faults
 * @return what Prefetch files its result under and Training looks it up by
 */
std::string
PrefetchKey(const std::string& label,
            Scheme scheme,
            const FabricSpec& fab,
            const JobSpec& job,
            const FaultPlan& faults)
{
    std::ostringstream os;
    os << label << "|" << SchemeName(scheme) << "|" << fab.mutants << "|" << fab.hosts << "|"
       << fab.planes << "|" << job.collective << "|" << job.bytes << "|" << job.steps << "|"
       << job.qpsPerPeer << "|" << job.chunks << "|" << faults.faults.size();
    return os.str();
}

} // namespace

bool
GetScale(const std::string& name, Scale& s)
{
    s = Scale();
    s.name = name;
    if (name == "tiny")
    {
        s.fabric.hosts = 16;
        s.fabric.planes = 4;
        s.fabric.hostsPerT0 = 4;
        s.fabric.t1 = 4;
        s.job.bytes = 1 << 20;
        s.job.steps = 3;
        s.bwJob = s.job;
        s.bwJob.bytes = 16 << 20;
        s.bwJob.steps = 2;
        s.permHosts = 16;
        s.permPerT0 = 4;
        s.permBytes = 2000000;
        s.longBytes = 8000000;
        s.flapRuns = 2;
        s.flapsPerRun = 8;
        s.incastSenders = 8;
        s.incastBytes = 1000000;
        return true;
    }
    if (name == "quick")
    {
        s.fabric.hosts = 32;
        s.fabric.planes = 8;
        s.fabric.hostsPerT0 = 8;
        s.fabric.t1 = 8;
        s.job.bytes = 4 << 20;
        s.job.steps = 4;
        s.bwJob = s.job;
        s.bwJob.bytes = 64 << 20;
        s.bwJob.steps = 2;
        s.permHosts = 64;
        s.permPerT0 = 8;
        s.permBytes = 8000000;
        s.longBytes = 40000000;
        s.flapRuns = 3;
        s.flapsPerRun = 12;
        s.incastSenders = 16;
        s.incastBytes = 2000000;
        return true;
    }
    if (name == "full")
    {
        s.fabric.hosts = 1024;
        s.fabric.planes = 8;
        s.fabric.hostsPerT0 = 32;
        s.fabric.t1 = 32;
        // A ring over 1024 ranks has 2046 rounds a step: 4 KiB transfers keep it to about two
        // million packets a step (latency-bound, as the quick job).
        s.job.bytes = 4 << 20;
        s.job.steps = 2;
        // A bandwidth-bound ring at this size would be half a billion packets a step: the
        // bandwidth-bound job is a pairwise exchange of 16 MB (pipeline-parallel traffic).
        s.bwJob = s.job;
        s.bwJob.collective = MrcCollective::SENDRECV;
        s.bwJob.bytes = 16000000;
        s.bwJob.steps = 2;
        s.permHosts = 1024;
        s.permPerT0 = 32;
        s.permBytes = 8000000;
        s.longBytes = 100000000;
        s.flapRuns = 2;
        s.flapsPerRun = 8;
        s.incastSenders = 64;
        s.incastBytes = 2000000;
        return true;
    }
    return false;
}

const TrainingResult&
Context::Training(const std::string& label,
                  Scheme scheme,
                  const FabricSpec& fab,
                  const JobSpec& job,
                  const FaultPlan& faults,
                  bool keep)
{
    const std::string k = keep ? label + "|" + SchemeName(scheme) : "#" + std::to_string(runs);
    auto it = cache.find(k);
    if (it != cache.end())
    {
        return it->second;
    }
    ++runs;
    TrainingResult r;
    auto pf = prefetched.find(PrefetchKey(label, scheme, fab, job, faults));
    if (pf != prefetched.end())
    {
        r = std::move(pf->second.front());
        pf->second.pop_front();
        if (pf->second.empty())
        {
            prefetched.erase(pf);
        }
    }
    else
    {
        r = RunTraining(scheme, fab, job, faults, seed);
    }
    const std::string name = fab.mutants.empty() ? std::string(SchemeName(scheme))
                                                 : SchemeName(scheme) + (" " + fab.mutants);
    pairing.push_back(PairRecord{claim, label, name, r.placementDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": training, " << SchemeName(scheme) << ", " << fab.hosts
              << " GPUs, " << r.stepsDone << "/" << r.stepsPlanned << " steps, " << std::fixed
              << std::setprecision(1) << r.wall << " s" << std::endl;
    return cache.emplace(k, std::move(r)).first->second;
}

void
Context::Prefetch(const std::vector<TrainingRequest>& requests)
{
    if (jobs <= 1)
    {
        return;
    }
    /** A worker process and what it has sent so far. */
    struct Worker
    {
        pid_t pid;        //!< the process
        int fd;           //!< the read end of its pipe
        std::string key;  //!< its run's PrefetchKey
        std::string data; //!< bytes read
        std::string what; //!< its label and scheme, for the progress line
    };

    std::vector<Worker> running;
    // The largest runs first, so that the last ones to finish are short.
    std::vector<std::size_t> order(requests.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(),
                     order.end(),
                     [&requests](std::size_t a, std::size_t b)
                     {
                         return requests[a].job.bytes * requests[a].job.steps
                              > requests[b].job.bytes * requests[b].job.steps;
                     });
    std::size_t next = 0;
    std::size_t done = 0;
    while (next < requests.size() || !running.empty())
    {
        while (running.size() < jobs && next < requests.size() && !MrcInterrupt::Requested())
        {
            const TrainingRequest& q = requests[order[next]];
            int fds[2];
            if (pipe(fds) != 0)
            {
                next = requests.size(); // the rest run in this process
                break;
            }
            std::cout.flush();
            std::cerr.flush();
            std::fflush(nullptr);
            const pid_t pid = fork();
            if (pid < 0)
            {
                close(fds[0]);
                close(fds[1]);
                next = requests.size();
                break;
            }
            if (pid == 0)
            {
                // The parent stops this process (SIGTERM) when it is interrupted.
                MrcInterrupt::ResetInChild();
                close(fds[0]);
                int status = 0;
                try
                {
                    TrainingResult r = RunTraining(q.scheme, q.fab, q.job, q.faults, seed);
                    Encoder e;
                    Fields(r, e);
                    std::size_t done = 0;
                    while (done < e.out.size())
                    {
                        const ssize_t n = write(fds[1], e.out.data() + done, e.out.size() - done);
                        if (n <= 0)
                        {
                            status = 1;
                            break;
                        }
                        done += static_cast<std::size_t>(n);
                    }
                }
                catch (const evidence::BadInput&)
                {
                    status = BAD_INPUT_STATUS; // the parent runs it again and reports it
                }
                catch (...)
                {
                    status = MrcInterrupt::Requested() ? MrcInterrupt::ExitStatus() : 1;
                }
                close(fds[1]);
                std::cout.flush();
                std::cerr.flush();
                _exit(status); // no static destructors or buffered output of the parent's twice
            }
            close(fds[1]);
            MrcInterrupt::AddChild(pid);
            running.push_back(Worker{pid,
                                     fds[0],
                                     PrefetchKey(q.label, q.scheme, q.fab, q.job, q.faults),
                                     {},
                                     q.label + ", " + SchemeName(q.scheme)});
            ++next;
        }
        if (running.empty())
        {
            break;
        }
        std::vector<pollfd> polled;
        for (const auto& w : running)
        {
            polled.push_back(pollfd{w.fd, POLLIN, 0});
        }
        if (poll(polled.data(), polled.size(), -1) < 0)
        {
            continue; // EINTR: a signal (MrcInterrupt forwards SIGTERM to the workers)
        }
        for (std::size_t i = polled.size(); i-- > 0;)
        {
            if (polled[i].revents == 0)
            {
                continue;
            }
            Worker& w = running[i];
            char buf[65536];
            const ssize_t n = read(w.fd, buf, sizeof(buf));
            if (n > 0)
            {
                w.data.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
            {
                continue;
            }
            close(w.fd);
            int status = 0;
            while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR)
            {
            }
            MrcInterrupt::RemoveChild(w.pid);
            TrainingResult r;
            Decoder d{w.data};
            Fields(r, d);
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && d.ok && d.at == w.data.size())
            {
                std::cerr << "  ran ahead " << ++done << "/" << requests.size() << ": " << w.what
                          << ", " << std::fixed << std::setprecision(1) << r.wall << " s"
                          << std::endl;
                prefetched[w.key].push_back(std::move(r));
            }
            else if (!MrcInterrupt::Requested()
                     && !(WIFEXITED(status) && WEXITSTATUS(status) == BAD_INPUT_STATUS))
            {
                std::cerr << "  a worker process failed (status " << status
                          << "); its run will run in this process" << std::endl;
            }
            running.erase(running.begin() + i);
        }
    }
    MrcInterrupt::Check("running simulations in parallel");
}

FlowResult
Context::Flows(const std::string& label,
               Scheme scheme,
               const FabricSpec& fab,
               const FlowRun& run,
               const FaultPlan& faults)
{
    ++runs;
    FlowResult r = RunFlows(scheme, fab, run, faults, seed);
    // A run on a per-run variant (C7's PFC-only baseline) is a scheme of its own here.
    const std::string name = fab.mutants.empty() ? std::string(SchemeName(scheme))
                                                 : SchemeName(scheme) + (" " + fab.mutants);
    pairing.push_back(PairRecord{claim, label, name, r.flowDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": " << run.flows.size() << " flow(s), " << SchemeName(scheme)
              << ", " << std::fixed << std::setprecision(1) << r.wall << " s" << std::endl;
    return r;
}

const TrainingResult&
Context::Reference(Scheme scheme)
{
    return Training("reference", scheme, scale.fabric, scale.job, FaultPlan(), true);
}

FabricSpec
Context::ProductionFabric() const
{
    FabricSpec f;
    f.hosts = productionGpus;
    f.planes = 8;
    f.hostsPerT0 = std::min(256u, productionGpus / 2);
    f.t1 = f.hostsPerT0;
    return f;
}

JobSpec
Context::ProductionJob() const
{
    JobSpec j;
    j.collective = MrcCollective::HIERARCHICAL_ALLREDUCE;
    j.bytes = uint64_t(1) << 30;
    j.steps = 3;
    j.computeUs = 1000;
    j.jitterUs = 0;
    j.placement = "contiguous";
    return j;
}

const TrainingResult&
Context::Production(const std::string& key,
                    const std::string& label,
                    Scheme scheme,
                    const FaultPlan& faults)
{
    const std::string k = key.empty() ? "#" + std::to_string(runs) : "prod-" + key;
    auto it = cache.find(k);
    if (it != cache.end())
    {
        return it->second;
    }
    ++runs;
    TrainingResult r = RunFluidTraining(scheme, ProductionFabric(), ProductionJob(), faults, seed);
    pairing.push_back(
        PairRecord{claim, label, SchemeName(scheme), r.placementDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": training at flow level, " << SchemeName(scheme) << ", "
              << productionGpus << " GPUs, " << r.stepsDone << "/" << r.stepsPlanned << " steps, "
              << std::fixed << std::setprecision(1) << r.wall << " s" << std::endl;
    return cache.emplace(k, std::move(r)).first->second;
}

const TrainingResult&
Context::BandwidthReference(Scheme scheme)
{
    return Training(
        "bandwidth-bound reference", scheme, scale.fabric, scale.bwJob, FaultPlan(), true);
}

std::string
FormatUs(double us)
{
    std::ostringstream os;
    os << std::setprecision(3);
    if (us >= 1e6)
    {
        os << us / 1e6 << " s";
    }
    else if (us >= 1e3)
    {
        os << us / 1e3 << " ms";
    }
    else
    {
        os << us << " us";
    }
    return os.str();
}

std::vector<double>
RateGbps(const std::vector<uint64_t>& bytes, double binUs)
{
    std::vector<double> out;
    out.reserve(bytes.size());
    for (uint64_t b : bytes)
    {
        out.push_back(b * 8.0 / (binUs * 1e3));
    }
    return out;
}

} // namespace claims
} // namespace ns3
