/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The smallest comparison: one training job on two schemes of equal host bandwidth (MRC
 * on 4 planes of 100G, RoCE on one 400G plane), a T0 reboot mid-run, results written into a
 * results directory. `./ns3 run mrc-hello`; a template: scratch/mrc-compare-template.cc.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <ctime>
#include <iostream>
#include <numeric>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string out = "results/mrc-hello-" + std::to_string(std::time(nullptr));
    bool overwrite = false;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("out", "Results directory (default results/mrc-hello-<unix time>)", out);
    cmd.AddValue("overwrite", "Replace a previous run's files in --out", overwrite);
    if (!cmd.Parse(argc, argv))
    {
        return 1;
    }
    // The fabric and the transport, with each scheme's defaults (timers at deployed values).
    std::vector<Ptr<MrcSchemeHelper>> schemes;
    std::string err;
    for (const std::string name : {"mrc", "roce"})
    {
        schemes.push_back(CreateObject<MrcSchemeHelper>());
        schemes.back()->SetAttribute("Scheme", StringValue(name));
        schemes.back()->SetAttribute("Hosts", UintegerValue(16));
        schemes.back()->SetAttribute("Planes", UintegerValue(4));
        schemes.back()->SetAttribute("HostsPerT0", UintegerValue(4));
        schemes.back()->SetAttribute("T1sPerPlane", UintegerValue(4));
        if (!(err = schemes.back()->Validate()).empty()) // an --ns3::... it cannot build
        {
            std::cerr << "error: " << err << std::endl;
            return 1;
        }
    }
    MrcResultsDir dir; // locked, listed in manifest.json, complete only at the end
    Ptr<MrcRecorder> rec = CreateObject<MrcRecorder>();
    if (!dir.Open(out, "mrc-hello", overwrite, err) || !rec->Open(dir, err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    for (const auto& scheme : schemes)
    {
        const std::string name = scheme->GetScheme();
        RngSeedManager::SetSeed(1);
        Ptr<MrcClosTopology> fabric = scheme->Build();
        int64_t stream = 1 + scheme->AssignStreams(1); // before any queue pair exists

        // A job: 3 steps of a 16 MiB ring all-reduce over every host.
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("Name", StringValue("hello"));
        job->SetAttribute("Steps", UintegerValue(3));
        std::vector<uint32_t> ranks(16);
        std::iota(ranks.begin(), ranks.end(), 0);
        job->SetRanks(ranks);
        job->AddCollective(MrcCollective::RING_ALLREDUCE, 16 << 20);
        job->Install(fabric);
        stream += job->AssignStreams(stream);
        job->Start(Time(0));

        // One fault: T0 0 of plane 0 (hosts 0-3) reboots at 100 us, down for 200 us.
        Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
        Ptr<MrcFaultInjector> injector = faults->Install(fabric);
        faults->AssignStreams(stream);
        injector->Schedule(
            MicroSeconds(100), "switch_reboot", "plane0/t0-0", MicroSeconds(200), err);

        rec->SetScheme(name);
        rec->AttachJob(job);
        rec->AttachFaults(injector);
        job->TraceConnectWithoutContext("JobComplete",
                                        MakeCallback(+[](uint32_t, uint32_t, uint64_t)
                                                     {
                                                         Simulator::Stop();
                                                     }));
        Simulator::Run();
        double sum = 0;
        for (const auto& s : job->GetStepRecords())
        {
            sum += (s.end - s.start).GetMicroSeconds();
        }
        std::cout << name << ": " << job->GetStepsCompleted() << " steps, mean step "
                  << sum / job->GetStepRecords().size() << " us" << std::endl;
        Simulator::Destroy();
    }
    if (!rec->Close(err)
        || !dir.WriteRunJson("mrc-hello", "1", 1, cmd.GetValues(), {}, true, "", err)
        || !dir.SetComplete(err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    std::cout << "results: " << out << std::endl;
    return 0;
}
