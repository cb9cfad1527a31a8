/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-choice-checker.h"

#include <algorithm>

namespace ns3
{

MrcChoiceChecker::MrcChoiceChecker(std::vector<std::string> choices)
    : m_choices(std::move(choices))
{
}

bool
MrcChoiceChecker::Check(const AttributeValue& value) const
{
    const auto* s = dynamic_cast<const StringValue*>(&value);
    return s != nullptr
        && std::find(m_choices.begin(), m_choices.end(), s->Get()) != m_choices.end();
}

std::string
MrcChoiceChecker::GetValueTypeName() const
{
    return "ns3::StringValue";
}

bool
MrcChoiceChecker::HasUnderlyingTypeInformation() const
{
    return true;
}

std::string
MrcChoiceChecker::GetUnderlyingTypeInformation() const
{
    return "one of: " + GetChoices();
}

Ptr<AttributeValue>
MrcChoiceChecker::Create() const
{
    return ns3::Create<StringValue>();
}

bool
MrcChoiceChecker::Copy(const AttributeValue& source, AttributeValue& destination) const
{
    const auto* src = dynamic_cast<const StringValue*>(&source);
    auto* dst = dynamic_cast<StringValue*>(&destination);
    if (src == nullptr || dst == nullptr)
    {
        return false;
    }
    *dst = *src;
    return true;
}

std::string
MrcChoiceChecker::GetChoices() const
{
    std::string out;
    for (const auto& c : m_choices)
    {
        out += (out.empty() ? "" : "|") + c;
    }
    return out;
}

Ptr<const AttributeChecker>
MakeMrcChoiceChecker(std::vector<std::string> choices)
{
    return Ptr<const AttributeChecker>(new MrcChoiceChecker(std::move(choices)), false);
}

} // namespace ns3
