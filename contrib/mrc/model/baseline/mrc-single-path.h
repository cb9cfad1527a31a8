/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SINGLE_PATH_H
#define MRC_SINGLE_PATH_H

#include "ns3/mrc-path-selector.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Single path per queue pair, as RoCE over an ECMP fabric: one EV, picked by a hash of
 * the connection, used for every packet and every retransmission, whatever happens to it. The
 * queue pair stays on one NIC port (the plane the hash picks, or its Port attribute), as a verbs
 * QP is bound to one port.
 */
class MrcSinglePath : public MrcPathSelector
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSinglePath();
    ~MrcSinglePath() override;

    /**
     * @copydoc MrcPathSelector::Fork
     */
    Ptr<MrcPathSelector> Fork() const override;

    void Init(const std::vector<uint32_t>& pathsPerPlane,
              Ptr<UniformRandomVariable> rng,
              uint32_t hash) override;
    int32_t Select(uint64_t planeMask) override;
    int32_t SelectFresh(uint64_t planeMask, int32_t exclude) override;

    bool UsesOnePort() const override
    {
        return true;
    }
};

} // namespace ns3

#endif /* MRC_SINGLE_PATH_H */
