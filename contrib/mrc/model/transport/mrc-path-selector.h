/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SELECTOR_H
#define MRC_PATH_SELECTOR_H

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A queue pair's EV set and the policy that picks an EV for each packet.
 *
 * The EV set (EvSetSize entries) is split evenly across planes; within a plane each EV names
 * one path, a random subset of the plane's paths (paths repeat when a plane has fewer paths
 * than EVs). Planes are interleaved in the rotation, so consecutive packets leave on different
 * planes. Each EV has a state: GOOD, SKIP (avoided for SkipRotations passes of the rotation),
 * ASSUMED_BAD (retired; probed in the background) or DENIED (administratively removed).
 *
 * This base class holds the set and the state machine; subclasses decide what feedback does:
 * MrcAdaptiveSpray (MRC), MrcObliviousSpray (ignores feedback), MrcSinglePath (RoCE + ECMP).
 * EVs are identified by their slot index, which is what packets carry.
 */
class MrcPathSelector : public Object
{
public:
    /** EV states. */
    enum EvState : uint8_t
    {
        GOOD = 0,    //!< in use
        SKIP,        //!< temporarily avoided
        ASSUMED_BAD, //!< retired after a suspected failure
        DENIED       //!< administratively removed
    };

    /** Why an EV changed state. */
    enum Cause : uint8_t
    {
        CAUSE_ECN = 0,     //!< ACK echoed an ECN mark
        CAUSE_TRIM,        //!< NACK for a packet trimmed mid-fabric
        CAUSE_TIMEOUT,     //!< retransmission timeout
        CAUSE_SACK_LOSS,   //!< loss inferred from SACK holes
        CAUSE_ROTATION,    //!< a skipped EV's turn came round again
        CAUSE_PROBE,       //!< enough successful probes
        CAUSE_ADMIN,       //!< denied or allowed through the API
        CAUSE_REPLACEMENT, //!< a new EV replacing a retired one in the same plane
        CAUSE_RELEASED,    //!< a replacement EV released after the one it replaced returned
        CAUSE_SHARED_PATH, //!< another EV naming the same path was retired (or held)
        CAUSE_LATE_ARRIVAL //!< the packet a held EV was suspected of losing arrived after all
    };

    /// skipLeft of a SKIP EV held until the verdict on a suspected loss (no rotation count).
    static constexpr uint8_t SKIP_HELD = 0xff;

    /** One EV. */
    struct Ev
    {
        uint16_t plane;      //!< plane
        uint16_t path;       //!< path index within the plane
        uint8_t state;       //!< EvState
        uint8_t skipLeft;    //!< rotations left in SKIP
        uint8_t probeOk;     //!< consecutive successful probes
        bool active;         //!< part of the rotation (false once released)
        bool replacement;    //!< added to replace a retired EV
        bool probePending;   //!< a probe is out
        uint16_t generation; //!< bumped each time the slot is given a new path
        uint32_t probeId;    //!< id of the probe that is out

        /** @return SKIP until the verdict on a suspected loss */
        bool IsHeld() const
        {
            return state == SKIP && skipLeft == SKIP_HELD;
        }
    };

    /**
     * @param s an EvState
     * @return its name
     */
    static const char* StateName(uint32_t s);
    /**
     * @param c a Cause
     * @return its name
     */
    static const char* CauseName(uint32_t c);
    /**
     * Whether an EvStateChange is a hold: SKIP entered on a suspected loss, by the EV itself
     * (CAUSE_SACK_LOSS) or by one naming the same path (CAUSE_SHARED_PATH).
     * @param newState the new EvState
     * @param cause the Cause
     * @return true for a hold
     */
    static bool IsHold(uint8_t newState, uint8_t cause)
    {
        return newState == SKIP && (cause == CAUSE_SACK_LOSS || cause == CAUSE_SHARED_PATH);
    }

    /**
     * Signature of the EvStateChange trace.
     * @param ev EV slot
     * @param oldState old EvState
     * @param newState new EvState
     * @param cause Cause
     */
    typedef void (*EvStateTracedCallback)(uint16_t ev,
                                          uint8_t oldState,
                                          uint8_t newState,
                                          uint8_t cause);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcPathSelector();
    ~MrcPathSelector() override;

    /**
     * A copy of this object as it is (CopyObject), for another queue pair: MrcL4Protocol makes
     * one object from its factory and forks it for each queue pair, which skips ns-3's
     * attribute construction per object (as TcpCongestionOps::Fork gives each socket a copy).
     * Forked only before use (before Init). A subclass forks by overriding this; one that does
     * not gets null here, and the protocol makes each of its objects from the factory.
     * @return the copy, or null
     */
    virtual Ptr<MrcPathSelector> Fork() const;

    /**
     * Build the EV set.
     * @param pathsPerPlane number of paths in each plane toward the peer
     * @param rng random source (owned by the caller; seeded through AssignStreams)
     * @param hash a per-connection hash (used by single-path selection)
     */
    virtual void Init(const std::vector<uint32_t>& pathsPerPlane,
                      Ptr<UniformRandomVariable> rng,
                      uint32_t hash);

    /**
     * Pick the EV for the next new packet.
     * @param planeMask planes usable now (bit p: plane p up at both ends)
     * @return the EV slot, or -1 if none is usable
     */
    virtual int32_t Select(uint64_t planeMask);
    /**
     * Pick an EV for a retransmission: not the one the packet was lost on, unless it is the
     * only one usable (an explicit set of one path): resending there beats never resending.
     * @param planeMask usable planes
     * @param exclude the EV the packet last used
     * @return the EV slot, or -1
     */
    virtual int32_t SelectFresh(uint64_t planeMask, int32_t exclude);

    /**
     * An ACK reflected this EV.
     * @param ev the EV
     * @param ecn the ACK echoed an ECN mark
     */
    virtual void OnAck(uint16_t ev, bool ecn);
    /**
     * A NACK for a trimmed packet reflected this EV.
     * @param ev the EV
     * @param lastHop trimmed on the last hop (incast: not a path problem)
     */
    virtual void OnNack(uint16_t ev, bool lastHop);
    /**
     * A packet sent on this EV was lost without explanation.
     * @param ev the EV
     * @param cause CAUSE_TIMEOUT or CAUSE_SACK_LOSS
     */
    virtual void OnLoss(uint16_t ev, Cause cause);
    /**
     * A packet sent on this EV is presumed lost by the out-of-order rules (enough sent after
     * it acknowledged, or late), which queueing skew between paths can also explain. The base
     * class treats it as a loss (OnLoss with CAUSE_SACK_LOSS); a selector that leaves the EV
     * out of ASSUMED_BAD (held in SKIP, EV::IsHeld, or left GOOD at the EvMinActive floor)
     * gets OnLossVerdict once the queue pair knows whether the packet was lost.
     * @param ev the EV
     */
    virtual void OnSuspectedLoss(uint16_t ev);
    /**
     * The verdict on a loss OnSuspectedLoss reported: the original never arrived (lost: the
     * retransmission was acknowledged and the original was not reported within one more
     * out-of-order deadline), or it arrived after all (acknowledged, or reported by the
     * receiver as a duplicate of the retransmission).
     * @param ev the EV
     * @param lost the original was lost
     */
    virtual void OnLossVerdict(uint16_t ev, bool lost);
    /**
     * A probe on a retired EV was answered (or not).
     * @param ev the EV
     * @param success answered
     */
    virtual void OnProbeResult(uint16_t ev, bool success);
    /**
     * @return true if the selector keeps a queue pair on one NIC port (then the queue pair is
     *         paced at that port's rate, not the whole NIC's)
     */
    virtual bool UsesOnePort() const
    {
        return false;
    }

    /**
     * Feedback about a packet sent on slot ev counts only if the slot still names the path the
     * packet took: a slot reused for another path after the packet left has a new generation.
     * @param ev EV slot
     * @param generation the slot's generation when the packet was sent
     * @return true if the slot still has that generation
     */
    bool IsCurrent(uint16_t ev, uint16_t generation) const
    {
        return ev < m_evs.size() && m_evs[ev].generation == generation;
    }

    /**
     * A probe was answered. Only the answer to the probe that is out counts: a late answer to
     * a probe already counted as failed (or to an older one) is ignored.
     * @param ev the EV
     * @param probeId the id the answer carries
     * @return true if it answered the probe that is out (and was passed to OnProbeResult)
     */
    bool OnProbeAnswer(uint16_t ev, uint32_t probeId);

    /**
     * Deny or allow an EV (the DENIED state).
     * @param ev the EV
     * @param denied true to deny
     */
    void SetDenied(uint16_t ev, bool denied);

    /** @return the number of EV slots (replacements included) */
    uint32_t GetNEvs() const;
    /**
     * Build the EV set again from the attributes (ExplicitEvs, BackupEvs, EvSetSize), with the
     * planes and random source Init was given; before the queue pair sends anything.
     */
    void Reinit();
    /**
     * @param ev EV slot
     * @return the EV
     */
    const Ev& GetEv(uint16_t ev) const;
    /**
     * @param state an EvState
     * @return the number of active EVs in it
     */
    uint32_t CountInState(EvState state) const;
    /** @return the number of active ASSUMED_BAD EVs (constant time) */
    uint32_t GetNAssumedBad() const
    {
        return m_nBad;
    }

    /** @return the active ASSUMED_BAD EVs without a probe out */
    std::vector<uint16_t> GetProbeCandidates() const;
    /**
     * Note that a probe was sent on an EV.
     * @param ev the EV
     * @param probeId the probe's id, echoed by its answer
     */
    void SetProbePending(uint16_t ev, uint32_t probeId = 0);

protected:
    void DoDispose() override;
    /**
     * Change an EV's state and trace it.
     * @param ev the EV
     * @param state new state
     * @param cause why
     */
    void SetState(uint16_t ev, EvState state, Cause cause);
    /**
     * Retire an EV (ASSUMED_BAD) and replace it from the same plane if a path is left. Every
     * other usable EV that names the same path is retired with it (CAUSE_SHARED_PATH): an EV
     * is only a label for a path, and a path that lost a packet is suspect whatever label
     * the next packet on it carries. (Twins exist when a plane has fewer paths than the EV
     * set gives it, as in scaled-down fabrics; on the paper's fabric they are rare.)
     * @param ev the EV
     * @param cause why
     */
    void Retire(uint16_t ev, Cause cause);
    /**
     * Retire one EV and replace it (Retire without the twins).
     * @param ev the EV
     * @param cause why
     * @return true if it was retired
     */
    bool RetireOne(uint16_t ev, Cause cause);
    /** @return active EVs in GOOD or SKIP */
    uint32_t CountUsable() const;
    /**
     * One pass of the rotation: planes in turn from the one after the last used, and within a
     * plane its EVs in turn from the one after the last used there; the first GOOD EV of a
     * usable plane, skipping `exclude`. Each SKIP EV passed over uses up one of its rotations,
     * once per pass. The rotation is kept per plane so that a plane's EVs are used evenly even
     * when only some planes can take a packet (a NIC port with room, MrcL4Protocol).
     * @param planeMask usable planes
     * @param exclude a slot not to return (-1: none)
     * @return the EV slot, a SKIP EV if no GOOD one is usable, or -1
     */
    int32_t Rotate(uint64_t planeMask, int32_t exclude);
    /** Init in explicit EV mode: the set is ExplicitEvs; aborts on a path that does not exist. */
    void InitExplicit();
    /** @param evs the ExplicitEvs attribute */
    void SetExplicitEvs(std::string evs);
    /** @return the ExplicitEvs attribute */
    std::string GetExplicitEvs() const;
    /** @param evs the BackupEvs attribute */
    void SetBackupEvs(std::string evs);
    /** @return the BackupEvs attribute */
    std::string GetBackupEvs() const;

    std::vector<Ev> m_evs;                 //!< the EV set
    std::vector<uint32_t> m_pathsPerPlane; //!< paths per plane
    std::vector<uint32_t> m_quota;         //!< EVs per plane when healthy
    Ptr<UniformRandomVariable> m_rng;      //!< random source
    uint32_t m_cursor;                     //!< rotation position (the last slot chosen)
    uint32_t m_planeCursor;                //!< the plane of the last choice
    std::vector<uint32_t> m_planeCursors;  //!< per plane, the last slot chosen in it
    uint32_t m_setSize;                    //!< EvSetSize attribute
    uint32_t m_minActive;                  //!< EvMinActive attribute
    uint32_t m_skipRotations;              //!< SkipRotations attribute
    uint32_t m_probeSuccesses;             //!< ProbeSuccesses attribute
    uint32_t m_nBad;                       //!< active EVs in ASSUMED_BAD
    std::vector<std::pair<uint16_t, uint16_t>> m_explicit;            //!< ExplicitEvs (plane, path)
    std::vector<std::pair<uint16_t, uint16_t>> m_backups;             //!< BackupEvs (plane, path)
    std::vector<bool> m_backupUsed;                                   //!< backups already taken
    std::string m_explicitText;                                       //!< ExplicitEvs as given
    std::string m_backupText;                                         //!< BackupEvs as given
    TracedCallback<uint16_t, uint8_t, uint8_t, uint8_t> m_stateTrace; //!< state changes
};

} // namespace ns3

#endif /* MRC_PATH_SELECTOR_H */
