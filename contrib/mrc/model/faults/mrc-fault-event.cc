/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fault-event.h"

namespace ns3
{

const MrcNameTable<MrcFaultEvent::Kind>&
MrcFaultEvent::KindNames()
{
    static const MrcNameTable<Kind> names{{Kind::LINK, "link"},
                                          {Kind::NIC_PORT, "nic_port"},
                                          {Kind::SWITCH_REBOOT, "switch_reboot"},
                                          {Kind::BLACKHOLE, "blackhole"},
                                          {Kind::NIC_RX_LOSS, "nic_rx_loss"}};
    return names;
}

const MrcNameTable<MrcFaultEvent::State>&
MrcFaultEvent::StateNames()
{
    static const MrcNameTable<State> names{
        {State::DOWN, "down"}, {State::UP, "up"}, {State::START, "start"}, {State::END, "end"}};
    return names;
}

} // namespace ns3
