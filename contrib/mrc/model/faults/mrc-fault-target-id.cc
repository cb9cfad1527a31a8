/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fault-target-id.h"

#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-text.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/** Switch tiers' prefixes in names. */
const char* const SWITCH_PREFIX[] = {"t0-", "t1-", "t2-"};

/**
 * Read "<prefix><index>".
 * @param s the text
 * @param prefix the expected prefix
 * @param out set to the index
 * @return false if s is not the prefix followed by a whole number below 2^32
 */
bool
ReadIndexed(const std::string& s, const std::string& prefix, uint32_t& out)
{
    uint64_t v = 0;
    std::string why;
    if (s.compare(0, prefix.size(), prefix) != 0
        || !MrcNumberParser::ParseUnsigned(s.substr(prefix.size()), 0, 0xffffffffULL, v, why))
    {
        return false;
    }
    out = static_cast<uint32_t>(v);
    return true;
}

/**
 * Read a switch, "t<tier>-<index>".
 * @param s the text
 * @param tier set to the tier
 * @param index set to the index
 * @return false if s names no switch
 */
bool
ReadSwitch(const std::string& s, uint32_t& tier, uint32_t& index)
{
    for (uint32_t t = 0; t < 3; ++t)
    {
        if (ReadIndexed(s, SWITCH_PREFIX[t], index))
        {
            tier = t;
            return true;
        }
    }
    return false;
}

} // namespace

MrcFaultTargetId::MrcFaultTargetId()
    : m_kind(Kind::NICS)
    , m_host(0)
    , m_plane(0)
    , m_switchTier(0)
    , m_linkTier(MrcLinkTier::T0_T1)
    , m_index(0)
    , m_peer(0)
{
}

MrcFaultTargetId
MrcFaultTargetId::NicPort(uint32_t host, uint32_t plane)
{
    MrcFaultTargetId id;
    id.m_kind = Kind::NIC_PORT;
    id.m_host = host;
    id.m_plane = plane;
    return id;
}

MrcFaultTargetId
MrcFaultTargetId::Nic(uint32_t host)
{
    MrcFaultTargetId id;
    id.m_kind = Kind::NIC;
    id.m_host = host;
    return id;
}

MrcFaultTargetId
MrcFaultTargetId::Nics()
{
    return MrcFaultTargetId();
}

MrcFaultTargetId
MrcFaultTargetId::Link(uint32_t plane, MrcLinkTier tier, uint32_t lower, uint32_t upper)
{
    NS_ABORT_MSG_UNLESS(tier == MrcLinkTier::T0_T1 || tier == MrcLinkTier::T1_T2,
                        "MrcFaultTargetId::Link: a cable between switches is t0-t1 or t1-t2");
    MrcFaultTargetId id;
    id.m_kind = Kind::LINK;
    id.m_plane = plane;
    id.m_linkTier = tier;
    id.m_index = lower;
    id.m_peer = upper;
    return id;
}

MrcFaultTargetId
MrcFaultTargetId::Switch(uint32_t plane, uint32_t tier, uint32_t index)
{
    NS_ABORT_MSG_UNLESS(tier < 3, "MrcFaultTargetId::Switch: tier 0, 1 or 2");
    MrcFaultTargetId id;
    id.m_kind = Kind::SWITCH;
    id.m_plane = plane;
    id.m_switchTier = tier;
    id.m_index = index;
    return id;
}

std::string
MrcFaultTargetId::GetForms()
{
    return "host<H>/plane<P>, plane<P>/t0-<I>/t1-<J>, plane<P>/t1-<J>/t2-<K>, plane<P>/t0-<I>, "
           "plane<P>/t1-<J>, plane<P>/t2-<K>; for nic_rx_loss also host<H>, hosts";
}

bool
MrcFaultTargetId::Parse(const std::string& name, MrcFaultTargetId& id, std::string& error)
{
    const auto parts = MrcText::Split(name, '/');
    uint32_t a = 0;
    uint32_t b = 0;
    uint32_t c = 0;
    uint32_t tier = 0;
    if (parts.size() == 1 && parts[0] == "hosts")
    {
        id = Nics();
        return true;
    }
    if (parts.size() == 1 && ReadIndexed(parts[0], "host", a))
    {
        id = Nic(a);
        return true;
    }
    if (parts.size() == 2 && ReadIndexed(parts[0], "host", a) && ReadIndexed(parts[1], "plane", b))
    {
        id = NicPort(a, b);
        return true;
    }
    if (parts.size() >= 2 && ReadIndexed(parts[0], "plane", a))
    {
        if (parts.size() == 2 && ReadSwitch(parts[1], tier, b))
        {
            id = Switch(a, tier, b);
            return true;
        }
        if (parts.size() == 3 && ReadIndexed(parts[1], "t0-", b) && ReadIndexed(parts[2], "t1-", c))
        {
            id = Link(a, MrcLinkTier::T0_T1, b, c);
            return true;
        }
        if (parts.size() == 3 && ReadIndexed(parts[1], "t1-", b) && ReadIndexed(parts[2], "t2-", c))
        {
            id = Link(a, MrcLinkTier::T1_T2, b, c);
            return true;
        }
    }
    error = "unknown target '" + name + "': malformed (accepted: " + GetForms() + ")";
    return false;
}

std::string
MrcFaultTargetId::GetName() const
{
    const std::string plane = "plane" + std::to_string(m_plane);
    switch (m_kind)
    {
        case Kind::NIC_PORT:
            return "host" + std::to_string(m_host) + "/" + plane;
        case Kind::NIC:
            return "host" + std::to_string(m_host);
        case Kind::NICS:
            return "hosts";
        case Kind::LINK:
            return m_linkTier == MrcLinkTier::T0_T1
                     ? plane + "/t0-" + std::to_string(m_index) + "/t1-" + std::to_string(m_peer)
                     : plane + "/t1-" + std::to_string(m_index) + "/t2-" + std::to_string(m_peer);
        case Kind::SWITCH:
            return plane + "/" + SWITCH_PREFIX[m_switchTier] + std::to_string(m_index);
    }
    return "";
}

MrcFaultTargetId::Kind
MrcFaultTargetId::GetKind() const
{
    return m_kind;
}

uint32_t
MrcFaultTargetId::GetHost() const
{
    return m_host;
}

uint32_t
MrcFaultTargetId::GetPlane() const
{
    return m_plane;
}

bool
MrcFaultTargetId::HasPlane() const
{
    return m_kind == Kind::NIC_PORT || m_kind == Kind::LINK || m_kind == Kind::SWITCH;
}

MrcFaultTargetId
MrcFaultTargetId::OnPlane(uint32_t plane) const
{
    MrcFaultTargetId id = *this;
    if (HasPlane())
    {
        id.m_plane = plane;
    }
    return id;
}

uint32_t
MrcFaultTargetId::GetSwitchTier() const
{
    return m_switchTier;
}

MrcLinkTier
MrcFaultTargetId::GetLinkTier() const
{
    return m_linkTier;
}

uint32_t
MrcFaultTargetId::GetIndex() const
{
    return m_index;
}

uint32_t
MrcFaultTargetId::GetPeer() const
{
    return m_peer;
}

} // namespace ns3
