/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fixed-window.h"

#include "ns3/mrc-fork.h"

#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcFixedWindow);

TypeId
MrcFixedWindow::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcFixedWindow")
              .SetParent<MrcCongestionOps>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcFixedWindow>()
              .AddAttribute("Window",
                            "Window in bytes (0: WindowBdps x the bandwidth-delay product)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcFixedWindow::m_window),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("WindowBdps",
                            "Window in bandwidth-delay products, when Window is 0",
                            DoubleValue(1.5),
                            MakeDoubleAccessor(&MrcFixedWindow::m_bdps),
                            MakeDoubleChecker<double>(0.01));
    return tid;
}

MrcFixedWindow::MrcFixedWindow()
    : m_window(0)
    , m_bdps(1.5)
    , m_cwnd(65536)
{
}

MrcFixedWindow::~MrcFixedWindow() = default;

void
MrcFixedWindow::Init(uint32_t bdp, Time /* baseRtt */, uint32_t mss)
{
    m_cwnd = m_window > 0 ? m_window : static_cast<uint32_t>(m_bdps * bdp);
    m_cwnd = std::max(m_cwnd, mss);
}

uint32_t
MrcFixedWindow::GetCwnd() const
{
    return m_cwnd;
}

void
MrcFixedWindow::OnAck(uint32_t /* bytes */, Time /* rtt */, bool /* ecn */)
{
}

void
MrcFixedWindow::OnNack(uint32_t /* bytes */, bool /* lastHop */)
{
}

void
MrcFixedWindow::OnTimeout()
{
}

std::string
MrcFixedWindow::GetName() const
{
    return "fixed";
}

Ptr<MrcCongestionOps>
MrcFixedWindow::Fork() const
{
    return MrcForkAs<MrcCongestionOps>(this);
}

} // namespace ns3
