/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Unit tests of results directories (docs/results.md): MrcSha256 against FIPS 180-4's
 * examples, and MrcResultsDir's lock, manifest and --overwrite rules.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

/**
 * @param path a file
 * @param text its new content
 */
void
Write(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

/**
 * @return a fresh, empty scratch directory
 */
fs::path
Scratch()
{
    static int n = 0;
    const fs::path p = fs::temp_directory_path()
                     / ("mrc-results-test-" + std::to_string(getpid()) + "-" + std::to_string(n++));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

/**
 * @ingroup mrc-tests
 * @brief SHA-256 of FIPS 180-4's examples, and of a file.
 */
class MrcSha256TestCase : public TestCase
{
public:
    MrcSha256TestCase()
        : TestCase("SHA-256 matches FIPS 180-4's examples, in one piece or many")
    {
    }

private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(MrcSha256::Hex(""),
                              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                              "empty");
        NS_TEST_ASSERT_MSG_EQ(MrcSha256::Hex("abc"),
                              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                              "abc");
        const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        NS_TEST_ASSERT_MSG_EQ(MrcSha256::Hex(two),
                              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                              "two blocks");
        // A million 'a', fed in uneven pieces across block boundaries.
        MrcSha256 h;
        const std::string piece(997, 'a');
        uint32_t left = 1000000;
        while (left > 0)
        {
            const uint32_t n = std::min<uint32_t>(left, piece.size());
            h.Update(piece.data(), n);
            left -= n;
        }
        NS_TEST_ASSERT_MSG_EQ(h.HexDigest(),
                              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                              "a million a");
        const fs::path dir = Scratch();
        Write(dir / "f", "abc");
        std::string hex;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(MrcSha256::File((dir / "f").string(), hex, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(hex, MrcSha256::Hex("abc"), "file");
        NS_TEST_ASSERT_MSG_EQ(
            MrcSha256::File((dir / "missing").string(), hex, err), false, "missing file");
        NS_TEST_ASSERT_MSG_NE(err.find("No such file"), std::string::npos, "OS reason: " << err);
        fs::remove_all(dir);
    }
};

/**
 * @ingroup mrc-tests
 * @brief The manifest lists what was written, with sizes and CSV rows; complete only at the end.
 */
class MrcResultsManifestTestCase : public TestCase
{
public:
    MrcResultsManifestTestCase()
        : TestCase("A results directory lists its files in manifest.json, complete at the end")
    {
    }

private:
    void DoRun() override
    {
        const fs::path dir = Scratch() / "out";
        std::string err;
        {
            MrcResultsDir out;
            NS_TEST_ASSERT_MSG_EQ(out.Open(dir.string(), "test", false, err), true, err);
            NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / ".mrc-lock"), true, "locked");
            NS_TEST_ASSERT_MSG_EQ(out.Begin("a.csv", err), true, err);
            auto manifest = [&dir]()
            {
                return nlohmann::json::parse(std::ifstream(dir / "manifest.json"));
            };
            NS_TEST_ASSERT_MSG_EQ(manifest()["files"]["a.csv"].is_null(), true, "being written");
            NS_TEST_ASSERT_MSG_EQ(manifest()["complete"], false, "not complete");
            Write(dir / "a.csv", "x,y\n1,2\n3,4\n");
            NS_TEST_ASSERT_MSG_EQ(out.Finish("a.csv", err), true, err);
            NS_TEST_ASSERT_MSG_EQ(manifest()["files"]["a.csv"]["rows"], 2, "two data rows");
            NS_TEST_ASSERT_MSG_EQ(manifest()["files"]["a.csv"]["bytes"], 12, "size");
            NS_TEST_ASSERT_MSG_EQ(out.WriteFile("sub/b.txt", "hello", err), true, err);
            NS_TEST_ASSERT_MSG_EQ(manifest()["files"]["sub/b.txt"]["bytes"], 5, "in a subdir");
            NS_TEST_ASSERT_MSG_EQ(
                out.WriteRunJson(
                    "test", "1", 7, {{"k", "v"}}, {{"x", "[1]"}}, false, "running", err),
                true,
                err);
            auto run = nlohmann::json::parse(std::ifstream(dir / "run.json"));
            NS_TEST_ASSERT_MSG_EQ(run["complete"], false, "run.json incomplete");
            NS_TEST_ASSERT_MSG_EQ(run["incomplete_reason"], "running", "reason");
            NS_TEST_ASSERT_MSG_EQ(run["x"][0], 1, "extra JSON");
            NS_TEST_ASSERT_MSG_EQ(run["code"].contains("commit"), true, "commit recorded");
            NS_TEST_ASSERT_MSG_EQ(run["ns3_library"]["version"].get<std::string>().rfind("3", 0),
                                  0,
                                  "ns-3 version " << run["ns3_library"].dump());
            NS_TEST_ASSERT_MSG_EQ(out.SetComplete(err), true, err);
            NS_TEST_ASSERT_MSG_EQ(manifest()["complete"], true, "complete");
            NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / ".mrc-lock"), false, "lock released");
        }
        fs::remove_all(dir.parent_path());
    }
};

/**
 * @ingroup mrc-tests
 * @brief One writer at a time; --overwrite removes exactly a run's own files.
 */
class MrcResultsOverwriteTestCase : public TestCase
{
public:
    MrcResultsOverwriteTestCase()
        : TestCase("--overwrite removes only a run's own files; a locked directory is refused")
    {
    }

private:
    void DoRun() override
    {
        const fs::path root = Scratch();
        const fs::path dir = root / "out";
        std::string err;
        {
            MrcResultsDir first;
            NS_TEST_ASSERT_MSG_EQ(first.Open(dir.string(), "one", false, err), true, err);
            MrcResultsDir second;
            NS_TEST_ASSERT_MSG_EQ(second.Open(dir.string(), "two", true, err), false, "locked");
            NS_TEST_ASSERT_MSG_NE(
                err.find("in use by another run (one, pid " + std::to_string(getpid()) + ")"),
                std::string::npos,
                err);
            NS_TEST_ASSERT_MSG_EQ(first.WriteFile("r.csv", "h\n1\n", err), true, err);
            NS_TEST_ASSERT_MSG_EQ(first.WriteFile("deep/er/f.txt", "x", err), true, err);
            Write(dir / "r.csv.tmp", "left by a killed run"); // a temporary of a listed file
            // The run is killed here: no SetComplete, the lock dies with it.
        }
        MrcResultsDir again;
        NS_TEST_ASSERT_MSG_EQ(again.Open(dir.string(), "one", false, err), false, "not empty");
        NS_TEST_ASSERT_MSG_NE(err.find("exists and is not empty"), std::string::npos, err);
        // A foreign file anywhere: nothing is deleted.
        Write(dir / "deep" / "notes.txt", "mine");
        NS_TEST_ASSERT_MSG_EQ(again.Open(dir.string(), "one", true, err), false, "foreign");
        NS_TEST_ASSERT_MSG_NE(
            err.find("'deep/notes.txt', which no run wrote"), std::string::npos, err);
        NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / "r.csv"), true, "kept");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / "deep/er/f.txt"), true, "kept");
        fs::remove(dir / "deep" / "notes.txt");
        NS_TEST_ASSERT_MSG_EQ(again.Open(dir.string(), "one", true, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / "r.csv"), false, "removed");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / "r.csv.tmp"), false, "its temporary too");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(dir / "deep"), false, "emptied directories removed");
        again.Close();
        // A directory without a manifest (say, a checkout) is never cleared.
        const fs::path checkout = root / "checkout";
        Write(checkout / ".git" / "HEAD", "ref");
        Write(checkout / "README", "hi");
        MrcResultsDir other;
        NS_TEST_ASSERT_MSG_EQ(other.Open(checkout.string(), "one", true, err), false, "refused");
        NS_TEST_ASSERT_MSG_NE(err.find("has no manifest.json"), std::string::npos, err);
        NS_TEST_ASSERT_MSG_EQ(fs::exists(checkout / ".git" / "HEAD"), true, "untouched");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(checkout / "README"), true, "untouched");
        // A path that cannot be a directory: one line with the OS's reason.
        NS_TEST_ASSERT_MSG_EQ(other.Open((checkout / "README" / "x").string(), "one", false, err),
                              false,
                              "not a directory");
        NS_TEST_ASSERT_MSG_NE(err.find("Not a directory"), std::string::npos, err);
        fs::remove_all(root);
    }
};

/**
 * @ingroup mrc-tests
 * @brief The results-directory suite.
 */
class MrcResultsTestSuite : public TestSuite
{
public:
    MrcResultsTestSuite()
        : TestSuite("mrc-results", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcSha256TestCase);
        AddTestCase(new MrcResultsManifestTestCase);
        AddTestCase(new MrcResultsOverwriteTestCase);
    }
};

static MrcResultsTestSuite g_mrcResultsTestSuite; //!< static instance

} // namespace
