/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-path-selector.h"

#include "ns3/mrc-fork.h"
#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-text.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPathSelector");
NS_OBJECT_ENSURE_REGISTERED(MrcPathSelector);

const char*
MrcPathSelector::StateName(uint32_t s)
{
    static const char* names[] = {"GOOD", "SKIP", "ASSUMED_BAD", "DENIED"};
    return s < 4 ? names[s] : "?";
}

const char*
MrcPathSelector::CauseName(uint32_t c)
{
    static const char* names[] = {"ecn",
                                  "trim",
                                  "timeout",
                                  "sack-loss",
                                  "rotation",
                                  "probe",
                                  "admin",
                                  "replacement",
                                  "released",
                                  "shared-path",
                                  "late-arrival"};
    return c < 11 ? names[c] : "?";
}

TypeId
MrcPathSelector::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcPathSelector")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddAttribute("EvSetSize",
                            "EVs per queue pair, split evenly across planes",
                            UintegerValue(128),
                            MakeUintegerAccessor(&MrcPathSelector::m_setSize),
                            MakeUintegerChecker<uint32_t>(1, 4096))
              .AddAttribute("EvMinActive",
                            "Floor of GOOD EVs (ev_min_active): an EV is not skipped, nor retired "
                            "without a replacement, if that would leave fewer GOOD EVs",
                            UintegerValue(4),
                            MakeUintegerAccessor(&MrcPathSelector::m_minActive),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("SkipRotations",
                            "Passes of the rotation a SKIP EV sits out",
                            UintegerValue(1),
                            MakeUintegerAccessor(&MrcPathSelector::m_skipRotations),
                            MakeUintegerChecker<uint32_t>(1, SKIP_HELD - 1))
              .AddAttribute("ExplicitEvs",
                            "The OCP API's explicit EV mode: the EV set as plane:path pairs "
                            "('0:0,0:1,1:0'), used as given instead of a random subset of "
                            "EvSetSize paths (empty: random)",
                            StringValue(""),
                            MakeStringAccessor(&MrcPathSelector::SetExplicitEvs,
                                               &MrcPathSelector::GetExplicitEvs),
                            MakeStringChecker())
              .AddAttribute("BackupEvs",
                            "Explicit EV mode: the paths that replace a retired EV, as "
                            "plane:path pairs, each used once, the first of the retired EV's "
                            "plane that is not in the set and not retired; with none left the "
                            "EV is not replaced (random mode replaces it with a random path of "
                            "its plane)",
                            StringValue(""),
                            MakeStringAccessor(&MrcPathSelector::SetBackupEvs,
                                               &MrcPathSelector::GetBackupEvs),
                            MakeStringChecker())
              .AddAttribute("ProbeSuccesses",
                            "Consecutive answered probes that return a retired EV to GOOD",
                            UintegerValue(3),
                            MakeUintegerAccessor(&MrcPathSelector::m_probeSuccesses),
                            MakeUintegerChecker<uint32_t>(1, 255))
              .AddTraceSource("EvStateChange",
                              "An EV changed state (ev, old, new, cause)",
                              MakeTraceSourceAccessor(&MrcPathSelector::m_stateTrace),
                              "ns3::MrcPathSelector::EvStateTracedCallback");
    return tid;
}

MrcPathSelector::MrcPathSelector()
    : m_cursor(0)
    , m_planeCursor(0)
    , m_setSize(128)
    , m_minActive(4)
    , m_skipRotations(1)
    , m_probeSuccesses(3)
    , m_nBad(0)
{
}

MrcPathSelector::~MrcPathSelector() = default;

void
MrcPathSelector::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

namespace
{
/**
 * @param name the attribute
 * @param text plane:path pairs, comma-separated
 * @return the pairs; aborts with a one-line message on bad syntax
 */
std::vector<std::pair<uint16_t, uint16_t>>
ParseEvList(const char* name, const std::string& text)
{
    std::vector<std::pair<uint16_t, uint16_t>> out;
    if (text.empty())
    {
        return out;
    }
    for (const std::string& item : MrcText::Split(text, ','))
    {
        const std::vector<std::string> two = MrcText::Split(item, ':');
        uint64_t plane = 0;
        uint64_t path = 0;
        std::string why;
        const bool ok = two.size() == 2
                     && MrcNumberParser::ParseUnsigned(MrcText::Trim(two[0]), 0, 0xfffe, plane, why)
                     && MrcNumberParser::ParseUnsigned(MrcText::Trim(two[1]), 0, 0xfffe, path, why);
        NS_ABORT_MSG_IF(!ok,
                        "MrcPathSelector::" << name << ": '" << item
                                            << "' is not plane:path (e.g. 0:3,1:0)");
        out.emplace_back(static_cast<uint16_t>(plane), static_cast<uint16_t>(path));
    }
    return out;
}
} // namespace

void
MrcPathSelector::SetExplicitEvs(std::string evs)
{
    m_explicit = ParseEvList("ExplicitEvs", evs);
    m_explicitText = evs;
}

std::string
MrcPathSelector::GetExplicitEvs() const
{
    return m_explicitText;
}

void
MrcPathSelector::SetBackupEvs(std::string evs)
{
    m_backups = ParseEvList("BackupEvs", evs);
    m_backupText = evs;
}

std::string
MrcPathSelector::GetBackupEvs() const
{
    return m_backupText;
}

void
MrcPathSelector::Init(const std::vector<uint32_t>& pathsPerPlane,
                      Ptr<UniformRandomVariable> rng,
                      uint32_t /* hash */)
{
    NS_ABORT_MSG_IF(pathsPerPlane.empty(), "MrcPathSelector: no planes");
    m_rng = rng;
    m_pathsPerPlane = pathsPerPlane;
    const auto planes = static_cast<uint32_t>(pathsPerPlane.size());
    if (!m_explicit.empty())
    {
        InitExplicit();
        return;
    }
    const uint32_t perPlane = std::max<uint32_t>(1, m_setSize / planes);
    m_quota.assign(planes, perPlane);
    // A random subset of each plane's paths: a shuffled list, repeated if the plane has fewer
    // paths than EVs.
    std::vector<std::vector<uint16_t>> chosen(planes);
    for (uint32_t p = 0; p < planes; ++p)
    {
        std::vector<uint16_t> order(pathsPerPlane[p]);
        std::iota(order.begin(), order.end(), 0);
        for (uint32_t i = order.size(); i > 1; --i)
        {
            std::swap(order[i - 1], order[m_rng->GetInteger(0, i - 1)]);
        }
        for (uint32_t i = 0; i < perPlane; ++i)
        {
            chosen[p].push_back(order[i % order.size()]);
        }
    }
    m_evs.clear();
    m_evs.reserve(perPlane * planes);
    for (uint32_t i = 0; i < perPlane; ++i)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            m_evs.push_back(
                {static_cast<uint16_t>(p), chosen[p][i], GOOD, 0, 0, true, false, false, 0, 0});
        }
    }
    m_cursor = m_rng->GetInteger(0, m_evs.size() - 1);
    m_planeCursor = m_evs[m_cursor].plane;
    m_planeCursors.assign(planes, m_cursor);
}

void
MrcPathSelector::Reinit()
{
    NS_ABORT_MSG_IF(!m_rng, "MrcPathSelector::Reinit before Init");
    const std::vector<uint32_t> planes = m_pathsPerPlane;
    m_nBad = 0;
    Init(planes, m_rng, 0);
}

void
MrcPathSelector::InitExplicit()
{
    const auto planes = static_cast<uint32_t>(m_pathsPerPlane.size());
    for (const auto* list : {&m_explicit, &m_backups})
    {
        for (const auto& [plane, path] : *list)
        {
            NS_ABORT_MSG_IF(plane >= planes || path >= m_pathsPerPlane[plane],
                            "MrcPathSelector::"
                                << (list == &m_explicit ? "ExplicitEvs" : "BackupEvs") << ": "
                                << plane << ":" << path
                                << " is not a path of this queue pair (planes 0 to " << planes - 1
                                << ")");
        }
    }
    m_quota.assign(planes, 0);
    m_evs.clear();
    for (const auto& [plane, path] : m_explicit)
    {
        m_evs.push_back({plane, path, GOOD, 0, 0, true, false, false, 0, 0});
        ++m_quota[plane];
    }
    m_backupUsed.assign(m_backups.size(), false);
    m_cursor = m_rng->GetInteger(0, m_evs.size() - 1);
    m_planeCursor = m_evs[m_cursor].plane;
    m_planeCursors.assign(planes, m_cursor);
}

int32_t
MrcPathSelector::Rotate(uint64_t planeMask, int32_t exclude)
{
    const auto n = static_cast<uint32_t>(m_evs.size());
    const auto planes = static_cast<uint32_t>(m_planeCursors.size());
    int32_t fallback = -1;
    for (uint32_t k = 1; k <= planes; ++k)
    {
        const uint32_t p = (m_planeCursor + k) % planes;
        if (!(planeMask & (uint64_t(1) << p)))
        {
            continue;
        }
        uint32_t c = m_planeCursors[p];
        for (uint32_t tries = 0; tries < n; ++tries)
        {
            c = (c + 1 == n) ? 0 : c + 1;
            Ev& e = m_evs[c];
            if (!e.active || e.plane != p || static_cast<int32_t>(c) == exclude)
            {
                continue;
            }
            if (e.state == GOOD)
            {
                m_planeCursors[p] = c;
                m_planeCursor = p;
                m_cursor = c;
                return static_cast<int32_t>(c);
            }
            if (e.state == SKIP)
            {
                if (fallback < 0)
                {
                    fallback = static_cast<int32_t>(c);
                }
                if (e.skipLeft != SKIP_HELD && --e.skipLeft == 0)
                {
                    SetState(c, GOOD, CAUSE_ROTATION);
                }
            }
        }
    }
    // Nothing GOOD in a usable plane: a skipped EV is better than not sending at all.
    return fallback;
}

int32_t
MrcPathSelector::Select(uint64_t planeMask)
{
    return Rotate(planeMask, -1);
}

int32_t
MrcPathSelector::SelectFresh(uint64_t planeMask, int32_t exclude)
{
    // One pass, like Select: a SKIP EV loses one rotation per pass, not one per attempt.
    const int32_t ev = Rotate(planeMask, exclude);
    // The excluded EV when it is the only one usable (an explicit set of one path, or every
    // other EV of the usable planes retired): resending on it beats never resending.
    return ev >= 0 || exclude < 0 ? ev : Rotate(planeMask, -1);
}

void
MrcPathSelector::OnAck(uint16_t /* ev */, bool /* ecn */)
{
}

void
MrcPathSelector::OnNack(uint16_t /* ev */, bool /* lastHop */)
{
}

void
MrcPathSelector::OnLoss(uint16_t /* ev */, Cause /* cause */)
{
}

void
MrcPathSelector::OnSuspectedLoss(uint16_t ev)
{
    OnLoss(ev, CAUSE_SACK_LOSS); // without holds, a late packet is a lost one
}

void
MrcPathSelector::OnLossVerdict(uint16_t /* ev */, bool /* lost */)
{
}

void
MrcPathSelector::OnProbeResult(uint16_t ev, bool /* success */)
{
    m_evs.at(ev).probePending = false;
}

void
MrcPathSelector::SetDenied(uint16_t ev, bool denied)
{
    Ev& e = m_evs.at(ev);
    if (denied && e.state != DENIED)
    {
        SetState(ev, DENIED, CAUSE_ADMIN);
    }
    else if (!denied && e.state == DENIED)
    {
        SetState(ev, GOOD, CAUSE_ADMIN);
    }
}

uint32_t
MrcPathSelector::GetNEvs() const
{
    return static_cast<uint32_t>(m_evs.size());
}

const MrcPathSelector::Ev&
MrcPathSelector::GetEv(uint16_t ev) const
{
    return m_evs.at(ev);
}

uint32_t
MrcPathSelector::CountInState(EvState state) const
{
    uint32_t n = 0;
    for (const auto& e : m_evs)
    {
        n += (e.active && e.state == state) ? 1 : 0;
    }
    return n;
}

uint32_t
MrcPathSelector::CountUsable() const
{
    return CountInState(GOOD) + CountInState(SKIP);
}

std::vector<uint16_t>
MrcPathSelector::GetProbeCandidates() const
{
    std::vector<uint16_t> out;
    for (uint32_t i = 0; i < m_evs.size(); ++i)
    {
        const Ev& e = m_evs[i];
        if (e.active && e.state == ASSUMED_BAD && !e.probePending)
        {
            out.push_back(static_cast<uint16_t>(i));
        }
    }
    return out;
}

void
MrcPathSelector::SetProbePending(uint16_t ev, uint32_t probeId)
{
    Ev& e = m_evs.at(ev);
    e.probePending = true;
    e.probeId = probeId;
}

bool
MrcPathSelector::OnProbeAnswer(uint16_t ev, uint32_t probeId)
{
    if (ev >= m_evs.size() || !m_evs[ev].probePending || m_evs[ev].probeId != probeId)
    {
        return false;
    }
    OnProbeResult(ev, true);
    return true;
}

void
MrcPathSelector::SetState(uint16_t ev, EvState state, Cause cause)
{
    Ev& e = m_evs[ev];
    const uint8_t old = e.state;
    e.state = state;
    if (e.active)
    {
        m_nBad += (state == ASSUMED_BAD) - (old == ASSUMED_BAD);
    }
    if (state == SKIP)
    {
        // SKIP for a suspected loss (the EV or one naming its path) is a hold, set before the
        // trace so that a trace sink sees Ev::IsHeld().
        e.skipLeft = IsHold(state, cause) ? SKIP_HELD : static_cast<uint8_t>(m_skipRotations);
    }
    if (state == ASSUMED_BAD)
    {
        e.probeOk = 0;
    }
    NS_LOG_LOGIC("ev " << ev << " " << StateName(old) << " -> " << StateName(state) << " ("
                       << CauseName(cause) << ")");
    m_stateTrace(ev, old, state, cause);
}

void
MrcPathSelector::Retire(uint16_t ev, Cause cause)
{
    if (!RetireOne(ev, cause))
    {
        return;
    }
    const uint16_t plane = m_evs[ev].plane;
    const uint16_t path = m_evs[ev].path;
    // Replacements go to other paths, so the loop never visits one it added.
    const auto n = static_cast<uint32_t>(m_evs.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        const Ev& o = m_evs[i];
        if (i != ev && o.active && o.plane == plane && o.path == path
            && (o.state == GOOD || o.state == SKIP))
        {
            RetireOne(static_cast<uint16_t>(i), CAUSE_SHARED_PATH);
        }
    }
}

bool
MrcPathSelector::RetireOne(uint16_t ev, Cause cause)
{
    Ev& e = m_evs[ev];
    if (e.state == ASSUMED_BAD || e.state == DENIED || !e.active)
    {
        return false;
    }
    // Replace from the same plane, avoiding paths already suspected.
    const uint16_t plane = e.plane;
    std::vector<bool> suspect(m_pathsPerPlane[plane], false);
    suspect[e.path] = true;
    for (const auto& o : m_evs)
    {
        if (o.active && o.plane == plane && o.state == ASSUMED_BAD)
        {
            suspect[o.path] = true;
        }
    }
    std::vector<uint16_t> candidates;
    int32_t backup = -1;
    if (!m_explicit.empty())
    {
        // Explicit mode: the first unused backup of this plane on a path not in use or retired.
        std::vector<bool> inUse(m_pathsPerPlane[plane], false);
        for (const auto& o : m_evs)
        {
            if (o.active && o.plane == plane)
            {
                inUse[o.path] = true;
            }
        }
        for (uint32_t b = 0; b < m_backups.size() && backup < 0; ++b)
        {
            const auto& [bp, bpath] = m_backups[b];
            if (!m_backupUsed[b] && bp == plane && !suspect[bpath] && !inUse[bpath])
            {
                backup = static_cast<int32_t>(b);
                candidates.push_back(bpath);
            }
        }
    }
    else
    {
        for (uint32_t p = 0; p < suspect.size(); ++p)
        {
            if (!suspect[p])
            {
                candidates.push_back(static_cast<uint16_t>(p));
            }
        }
    }
    if (candidates.empty() && CountInState(GOOD) <= m_minActive)
    {
        return false; // the floor: keep using it rather than drop below ev_min_active
    }
    SetState(ev, ASSUMED_BAD, cause);
    if (!candidates.empty())
    {
        uint16_t path = candidates[0];
        if (backup >= 0)
        {
            m_backupUsed[backup] = true;
        }
        else
        {
            path = candidates[m_rng->GetInteger(0, candidates.size() - 1)];
        }
        // Reuse a released slot if there is one, so the set stays bounded under many flaps.
        uint32_t slot = 0;
        while (slot < m_evs.size() && m_evs[slot].active)
        {
            ++slot;
        }
        if (slot == m_evs.size())
        {
            NS_ABORT_MSG_IF(m_evs.size() >= 0xffff, "MrcPathSelector: EV slots exhausted");
            m_evs.push_back({});
        }
        const uint16_t generation = m_evs[slot].generation + 1;
        m_evs[slot] = {plane, path, GOOD, 0, 0, true, true, false, generation, 0};
        // A new EV is traced as a transition from ASSUMED_BAD (the one it replaces) to GOOD.
        m_stateTrace(static_cast<uint16_t>(slot), ASSUMED_BAD, GOOD, CAUSE_REPLACEMENT);
    }
    return true;
}

Ptr<MrcPathSelector>
MrcPathSelector::Fork() const
{
    return MrcForkAs<MrcPathSelector>(this);
}

} // namespace ns3
