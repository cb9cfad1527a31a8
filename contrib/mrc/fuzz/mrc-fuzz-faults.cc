/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the fault-schedule reader, on a small two-plane fabric. Any input is
 * accepted or refused with a one-line message; an accepted schedule then runs to its end.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-fault-helper.h"

#include "ns3/simulator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    // The tests' two-plane fabric: 2 T0s of 2 hosts, 2 T1s per plane.
    mrctest::Net n = mrctest::MakeNet(2, 2, 2, 2);
    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->Install(n.fabric);
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
