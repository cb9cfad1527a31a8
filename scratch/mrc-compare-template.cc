/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief A template for your own comparison: copy it to scratch/NAME.cc, change the job and the
 * faults, and run `./ns3 run NAME`. Every scheme is built by MrcSchemeHelper from the same
 * description (hosts, planes, plane rate), so the comparison is of equal host bandwidth, with
 * each scheme's deployed timers; placement, job and fault times are the same for every scheme.
 *
 *   ./ns3 run "mrc-compare-template --schemes=mrc,roce,roce-multiplane --hosts=32"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <ctime>
#include <iostream>
#include <numeric>
#include <sstream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string schemes = "mrc,roce";
    uint32_t hosts = 32;
    uint32_t planes = 4;
    uint32_t hostsPerT0 = 8;
    uint64_t bytes = 16 << 20;
    uint32_t steps = 3;
    uint32_t seed = 1;
    std::string out = "results/compare-" + std::to_string(std::time(nullptr));
    bool overwrite = false;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("schemes", "Comma-separated: mrc, roce, roce-multiplane", schemes);
    cmd.AddValue("hosts", "Hosts", hosts);
    cmd.AddValue("planes", "NIC ports (MRC's planes); NIC bandwidth = planes x 100G", planes);
    cmd.AddValue("hostsPerT0", "Hosts per T0", hostsPerT0);
    cmd.AddValue("bytes", "All-reduce size, bytes", bytes);
    cmd.AddValue("steps", "Training steps", steps);
    cmd.AddValue("seed", "Seed", seed);
    cmd.AddValue("out", "Results directory", out);
    cmd.AddValue("overwrite", "Replace a previous run's files in --out", overwrite);
    if (!cmd.Parse(argc, argv) || !MrcCommandLine::CheckSeed(seed)
        || !MrcCommandLine::CheckRange("steps", steps, 1, 100000)
        || !MrcCommandLine::CheckRange("bytes", static_cast<double>(bytes), 1, 1e12))
    {
        return 1;
    }
    // Every scheme's description is checked before the results directory exists: bad input
    // leaves nothing behind.
    const std::vector<std::pair<std::string, std::string>> options
        = {{"Hosts / HostsPerT0", "--hosts / --hostsPerT0"},
           {"Planes", "--planes"},
           {"HostsPerT0", "--hostsPerT0"},
           {"T0sPerPlane", "--hosts / --hostsPerT0"},
           {"T1sPerPlane", "--hostsPerT0"},
           {"Hosts", "--hosts"}}; // the schemes' attributes, in this program's options
    std::vector<Ptr<MrcSchemeHelper>> built;
    std::istringstream list(schemes);
    for (std::string s; std::getline(list, s, ',');)
    {
        if (!MrcSchemeHelper::IsScheme(s))
        {
            std::cerr << "error: --schemes: unknown scheme '" << s
                      << "' (accepted: mrc, roce, roce-multiplane)" << std::endl;
            return 1;
        }
        Ptr<MrcSchemeHelper> scheme = CreateObject<MrcSchemeHelper>();
        scheme->SetAttribute("Scheme", StringValue(s));
        scheme->SetAttribute("Hosts", UintegerValue(hosts));
        scheme->SetAttribute("Planes", UintegerValue(planes));
        scheme->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
        scheme->SetAttribute("T1sPerPlane", UintegerValue(hostsPerT0));
        if (const std::string bad = scheme->Validate(); !bad.empty())
        {
            std::cerr << "error: " << MrcCommandLine::InOptionTerms(bad, options) << std::endl;
            return 1;
        }
        built.push_back(scheme);
    }
    MrcInterrupt::Install(); // Ctrl-C: stop cleanly, results marked incomplete
    MrcResultsDir dir;
    Ptr<MrcRecorder> rec = CreateObject<MrcRecorder>();
    std::string err;
    if (!dir.Open(out, "mrc-compare-template", overwrite, err) || !rec->Open(dir, err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    dir.SetCommandLine(argc, argv);
    try
    {
        for (const auto& scheme : built)
        {
            const std::string name = scheme->GetScheme();
            RngSeedManager::SetSeed(seed);
            Ptr<MrcClosTopology> fabric = scheme->Build();
            int64_t stream = 1 + scheme->AssignStreams(1);

            // The job: change it here (collectives: MrcCollective::Type).
            Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
            job->SetAttribute("Steps", UintegerValue(steps));
            job->SetAttribute("ComputeTime", TimeValue(MicroSeconds(50)));
            std::vector<uint32_t> ranks(hosts);
            std::iota(ranks.begin(), ranks.end(), 0);
            job->SetRanks(ranks);
            const uint32_t qps = name == "roce-multiplane" ? planes : 1; // one QP per NIC port
            job->SetAttribute("QpPerPort", BooleanValue(name == "roce-multiplane"));
            job->AddCollective(MrcCollective::RING_ALLREDUCE, bytes, qps, qps);
            job->Install(fabric);
            stream += job->AssignStreams(stream);
            job->Start(Time(0));

            // The faults: targets named as in docs/workloads.md (plane 0 exists in every scheme).
            Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
            Ptr<MrcFaultInjector> injector = faults->Install(fabric);
            faults->AssignStreams(stream);
            if (!injector->Schedule(
                    MicroSeconds(200), "link_flap", "plane0/t0-0/t1-0", MicroSeconds(50), err))
            {
                std::cerr << "error: " << err << std::endl;
                return 1;
            }

            rec->SetScheme(name);
            rec->AttachJob(job);
            rec->AttachFaults(injector);
            rec->AttachEvStates(fabric, scheme->GetStack());
            rec->SampleLinks(fabric, MicroSeconds(20));
            job->TraceConnectWithoutContext(
                "JobComplete",
                MakeCallback(+[](Ptr<MrcRecorder> r, uint32_t, uint32_t, uint64_t)
                             {
                                 r->StopSampling();
                                 Simulator::Stop();
                             })
                    .Bind(rec));
            MrcInterrupt::Watch();
            Simulator::Run();
            rec->StopSampling();
            MrcInterrupt::Check(name + " run");
            std::cout << name << ": " << job->GetStepsCompleted() << "/" << steps << " steps"
                      << std::endl;
            Simulator::Destroy();
        }
    }
    catch (const MrcInterrupted& e)
    {
        rec->Close(err);
        dir.WriteRunJson(
            "mrc-compare-template", "1", seed, cmd.GetValues(), {}, false, e.what(), err);
        std::cerr << e.what() << std::endl;
        return MrcInterrupt::ExitStatus();
    }
    if (!rec->Close(err)
        || !dir.WriteRunJson("mrc-compare-template", "1", seed, cmd.GetValues(), {}, true, "", err)
        || !dir.SetComplete(err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    std::cout << "results: " << out << " (python3 analysis/make_all.py " << out << ")" << std::endl;
    return 0;
}
