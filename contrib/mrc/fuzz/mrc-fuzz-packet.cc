/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: MRC headers from the wire. A forged or corrupted packet (any opcode,
 * PSN, SACK, QPN, EV, offset, length, plane, DSCP) reaches a live queue pair on either side of
 * a connection that is moving data both ways; the transport must drop or answer it, never
 * crash, assert or misbehave in memory.
 *
 * Input: records of 79 bytes: control (bit 0: which host receives it; bit 1: carry as many
 * payload bytes as the header says, up to 4096), arrival time in microseconds, IPv6 Traffic
 * Class, then the 76-byte MRC header as serialized. At most 64 records are used.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-queue-pair.h"

#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace ns3;

namespace
{

/** Record length: control, time, traffic class, header. */
constexpr std::size_t RECORD = 3 + MrcHeader::SIZE;

/**
 * Hand a frame to a host's MRC protocol, as its NIC port would.
 * @param l4 the protocol
 * @param bytes the frame's IPv6 payload
 * @param tc the IPv6 Traffic Class
 */
void
Inject(Ptr<MrcL4Protocol> l4, std::vector<uint8_t> bytes, uint8_t tc)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    MrcIpv6Fields f;
    f.trafficClass = tc;
    f.payloadLength = static_cast<uint16_t>(bytes.size());
    l4->ReceiveFrame(0, p, f);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < RECORD)
    {
        return 0;
    }
    // Two hosts under one T0, one plane; the tests' fabric with 8 EVs per QP.
    mrctest::Net n = mrctest::MakeNet(1, 2, 1, 1, "ns3::MrcAdaptiveSpray", 8);
    auto qps = n.stack.Connect(0, 1);
    qps.first->PostWrite(40000, 0);
    qps.first->PostWriteImm(5000, 1 << 20, 7);
    qps.second->PostWrite(9000, 0);
    const std::size_t records = std::min<std::size_t>(size / RECORD, 64);
    for (std::size_t r = 0; r < records; ++r)
    {
        const uint8_t* rec = data + r * RECORD;
        std::vector<uint8_t> bytes(rec + 3, rec + RECORD);
        if (rec[0] & 2)
        {
            const uint16_t len = static_cast<uint16_t>((rec[3 + 72] << 8) | rec[3 + 73]);
            bytes.resize(bytes.size() + std::min<uint16_t>(len, 4096), 0);
        }
        Simulator::Schedule(
            MicroSeconds(rec[1]), &Inject, n.stack.GetL4((rec[0] & 1) ? 1 : 0), bytes, rec[2]);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
