/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_TARGET_ID_H
#define MRC_FAULT_TARGET_ID_H

#include "ns3/mrc-link-tier.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief What a fault acts on, by position: what a target name says, as values.
 *
 * The names (the target column of a fault file, events.csv's target) are
 * - `host<H>/plane<P>`: host H's NIC port on plane P and its cable;
 * - `host<H>`, `hosts`: every NIC port of host H, of every host (nic_rx_loss only);
 * - `plane<P>/t0-<I>/t1-<J>`: the cable between T0 I and its J-th T1 (J within the T0's pod);
 * - `plane<P>/t1-<J>/t2-<K>`: the cable between T1 J and T2 K (three tiers);
 * - `plane<P>/t0-<I>`, `plane<P>/t1-<J>`, `plane<P>/t2-<K>`: a switch.
 *
 * Parse reads a name (the syntax only; MrcFaultInjector::Resolve checks the indices against a
 * fabric), GetName writes one, and code that knows the position makes the value directly
 * (NicPort, Link, Switch, ...), so that no name is formatted only to be parsed again. Indices
 * are read by MrcNumberParser and written in decimal: a parsed name reads back as its canonical
 * form (`plane0`, not `plane00`).
 */
class MrcFaultTargetId
{
public:
    /** The kinds of target. */
    enum class Kind : uint8_t
    {
        NIC_PORT, //!< host<H>/plane<P>
        NIC,      //!< host<H>
        NICS,     //!< hosts
        LINK,     //!< a cable between switches
        SWITCH,   //!< a switch
    };

    MrcFaultTargetId();

    /**
     * @param host the host
     * @param plane the plane
     * @return host<H>/plane<P>
     */
    static MrcFaultTargetId NicPort(uint32_t host, uint32_t plane);
    /**
     * @param host the host
     * @return host<H>
     */
    static MrcFaultTargetId Nic(uint32_t host);
    /** @return hosts */
    static MrcFaultTargetId Nics();
    /**
     * @param plane the plane
     * @param tier MrcLinkTier::T0_T1 or MrcLinkTier::T1_T2 (the cable's upward tier)
     * @param lower the lower switch (a T0, or a T1)
     * @param upper the upper one (the T0's J-th T1, or a T2)
     * @return plane<P>/t0-<I>/t1-<J> or plane<P>/t1-<J>/t2-<K>
     */
    static MrcFaultTargetId Link(uint32_t plane, MrcLinkTier tier, uint32_t lower, uint32_t upper);
    /**
     * @param plane the plane
     * @param tier 0 (a T0), 1 (a T1) or 2 (a T2)
     * @param index the switch's index within its tier
     * @return plane<P>/t<tier>-<index>
     */
    static MrcFaultTargetId Switch(uint32_t plane, uint32_t tier, uint32_t index);

    /**
     * Read a target name.
     * @param name the name
     * @param id set to the target (left alone on failure)
     * @param error set to "unknown target 'name': malformed (accepted: ...)" on failure
     * @return false if the name has none of the forms
     */
    static bool Parse(const std::string& name, MrcFaultTargetId& id, std::string& error);
    /** @return the accepted forms of a name, for messages */
    static std::string GetForms();

    /** @return the target's name */
    std::string GetName() const;

    /** @return the kind */
    Kind GetKind() const;
    /** @return the host (NIC_PORT, NIC) */
    uint32_t GetHost() const;
    /** @return the plane (NIC_PORT, LINK, SWITCH) */
    uint32_t GetPlane() const;
    /**
     * @return whether the target is in one plane (NIC_PORT, LINK, SWITCH)
     */
    bool HasPlane() const;
    /**
     * The same position in another plane: a host's port of that plane, the same cable or
     * switch of that plane.
     * @param plane the plane
     * @return the target there (itself for a target in no plane)
     */
    MrcFaultTargetId OnPlane(uint32_t plane) const;
    /** @return a switch's tier: 0, 1 or 2 (SWITCH) */
    uint32_t GetSwitchTier() const;
    /** @return a link's upward tier: MrcLinkTier::T0_T1 or MrcLinkTier::T1_T2 (LINK) */
    MrcLinkTier GetLinkTier() const;
    /** @return a switch's index (SWITCH), a link's lower switch (LINK) */
    uint32_t GetIndex() const;
    /** @return a link's upper switch (LINK) */
    uint32_t GetPeer() const;

private:
    Kind m_kind;            //!< the kind
    uint32_t m_host;        //!< host
    uint32_t m_plane;       //!< plane
    uint32_t m_switchTier;  //!< switch tier
    MrcLinkTier m_linkTier; //!< link tier
    uint32_t m_index;       //!< switch, or lower switch
    uint32_t m_peer;        //!< upper switch
};

} // namespace ns3

#endif /* MRC_FAULT_TARGET_ID_H */
