/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SHA256_H
#define MRC_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief SHA-256 (FIPS 180-4), for the digests results directories record of their inputs.
 *
 * @code
 * MrcSha256 h;
 * h.Update(data, size);
 * std::string hex = h.HexDigest();
 * @endcode
 */
class MrcSha256
{
public:
    MrcSha256();
    /**
     * Hash more bytes.
     * @param data the bytes
     * @param size how many
     */
    void Update(const void* data, std::size_t size);
    /**
     * Finish (the object cannot be updated afterwards).
     * @return the digest, 64 lower-case hex digits
     */
    std::string HexDigest();
    /**
     * @param text bytes
     * @return their digest in hex
     */
    static std::string Hex(const std::string& text);
    /**
     * Hash a file.
     * @param path the file
     * @param hex set to the digest
     * @param error set to a one-line message (with the OS's reason) on failure
     * @return false if the file cannot be read
     */
    static bool File(const std::string& path, std::string& hex, std::string& error);

private:
    /** Process the 64-byte block in m_block. */
    void Block();

    std::array<uint32_t, 8> m_h;     //!< state
    std::array<uint8_t, 64> m_block; //!< the block being filled
    std::size_t m_fill;              //!< bytes in m_block
    uint64_t m_bytes;                //!< bytes hashed
};

} // namespace ns3

#endif /* MRC_SHA256_H */
