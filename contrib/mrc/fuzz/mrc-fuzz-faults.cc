/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the fault-schedule reader, on a small two-plane fabric. Any input is
 * accepted or refused with a one-line message; an accepted schedule then runs to its end.
 */

#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-fault-helper.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    Ptr<MrcClosHelper> fabric = CreateObject<MrcClosHelper>();
    fabric->SetAttribute("Planes", UintegerValue(2));
    fabric->SetAttribute("HostsPerT0", UintegerValue(2));
    fabric->SetAttribute("T0sPerPlane", UintegerValue(2));
    fabric->SetAttribute("T1sPerPlane", UintegerValue(2));
    fabric->Build();
    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->SetFabric(fabric);
    faults->AssignStreams(1);
    std::string error;
    const bool ok = faults->LoadSchedule(text, "fuzz", error);
    if (!ok && (error.empty() || error.find('\n') != std::string::npos))
    {
        std::abort(); // refused without a one-line message
    }
    if (ok)
    {
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }
    Simulator::Destroy();
    return 0;
}
