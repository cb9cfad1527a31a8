/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RESULTS_DIR_H
#define MRC_RESULTS_DIR_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A results directory that a program owns: locked while it writes, listed in a
 * manifest, marked complete only at the end (docs/results.md is the contract).
 *
 * @code
 * MrcResultsDir out;
 * if (!out.Open("results/q1", "quickstart", overwrite, err)) { ... }  // lock, check, clear
 * out.SetCommandLine(argc, argv);
 * out.WriteRunJson(..., false, "running", err);      // run.json, "complete": false
 * out.Begin("flows.csv", err); ...write it...; out.Finish("flows.csv", err);
 * out.WriteRunJson(..., true, "", err);
 * out.SetComplete(err);                              // manifest complete, lock released
 * @endcode
 *
 * Open refuses a directory that holds anything the manifest does not list; with overwrite it
 * removes exactly the listed files (and the directories that become empty), never anything
 * else. A second program opening the same directory while the first holds it fails at once,
 * naming the holder.
 */
class MrcResultsDir
{
public:
    MrcResultsDir();
    ~MrcResultsDir();
    MrcResultsDir(const MrcResultsDir&) = delete;
    MrcResultsDir& operator=(const MrcResultsDir&) = delete;

    /**
     * Create (mkdir -p) and lock the directory, check that it is empty or the program's own,
     * and clear it if overwrite is set (only the files its manifest lists).
     * @param dir the directory
     * @param program the program's name, recorded in the manifest and the lock
     * @param overwrite remove a previous run's files instead of refusing a non-empty directory
     * @param error set to a one-line message (with the OS's reason where there is one)
     * @return false if the directory cannot be used; nothing was deleted then
     */
    bool Open(const std::string& dir,
              const std::string& program,
              bool overwrite,
              std::string& error);
    /** @return the directory, as given to Open */
    const std::string& GetPath() const;
    /**
     * @param name a file in the directory (relative path)
     * @return its path
     */
    std::string Path(const std::string& name) const;
    /**
     * Record the program's command line (for run.json).
     * @param argc argc
     * @param argv argv
     */
    void SetCommandLine(int argc, char* argv[]);

    /**
     * Note that a file is about to be written (its manifest entry is null until Finish).
     * Creates the file's parent directories inside the results directory.
     * @param name the file (relative path)
     * @param error set on failure
     * @return false if the manifest cannot be written
     */
    bool Begin(const std::string& name, std::string& error);
    /**
     * Note that a file is whole: record its size, and its row count if it is a CSV.
     * @param name the file (relative path)
     * @param error set on failure
     * @return false if the file is missing or the manifest cannot be written
     */
    bool Finish(const std::string& name, std::string& error);
    /**
     * Write a whole file (through a temporary name, renamed when complete), with Begin and
     * Finish around it.
     * @param name the file (relative path)
     * @param text its content
     * @param error set on failure, with the OS's reason
     * @return false on failure
     */
    bool WriteFile(const std::string& name, const std::string& text, std::string& error);
    /**
     * Copy an input file into inputs/ (or, for a file over MaxCopyBytes, only record its
     * SHA-256), for run.json's "inputs".
     * @param kind what it is ("workload", "faults", "transfers", "chakra")
     * @param path the file as the run read it
     * @param copyName its name under inputs/ (a relative path)
     * @param error set on failure
     * @return false if the file cannot be read or written
     */
    bool CopyInput(const std::string& kind,
                   const std::string& path,
                   const std::string& copyName,
                   std::string& error);
    /**
     * Note an input file that is not copied (outside the workload's directory), with its
     * SHA-256.
     * @param kind what it is
     * @param path the file
     * @param why why it is not copied
     * @param error set on failure
     * @return false if the file cannot be read
     */
    bool RecordInput(const std::string& kind,
                     const std::string& path,
                     const std::string& why,
                     std::string& error);
    /**
     * Read back files another process (an analysis script run on this directory) added to
     * the manifest, so that the next save keeps them.
     * @param error set on failure
     * @return false if the manifest cannot be read
     */
    bool ReloadManifest(std::string& error);
    /**
     * Write run.json: the program, its version, the seed, the parameters, the extra entries,
     * the completeness, and where the run comes from (command line, code commit, ns-3 library,
     * host, inputs).
     * @param program the program name
     * @param version the program version
     * @param seed the seed
     * @param params every parameter, as text
     * @param extra further top-level entries (name -> JSON text; invalid JSON is kept as text)
     * @param complete whether the run is complete
     * @param reason why not ("running", "interrupted by SIGTERM at ..."), or ""
     * @param error set on failure
     * @return false on failure
     */
    bool WriteRunJson(const std::string& program,
                      const std::string& version,
                      uint32_t seed,
                      const std::map<std::string, std::string>& params,
                      const std::map<std::string, std::string>& extra,
                      bool complete,
                      const std::string& reason,
                      std::string& error);
    /**
     * Mark the manifest complete (every listed file whole) and release the directory.
     * @param error set on failure
     * @return false if the manifest cannot be written
     */
    bool SetComplete(std::string& error);
    /** Release the lock and remove the lock file (the destructor does it too). */
    void Close();

    /** Inputs over this size are not copied, only digested. */
    static constexpr uint64_t MaxCopyBytes = uint64_t(64) << 20;
    /** The manifest's file name. */
    static constexpr const char* MANIFEST = "manifest.json";
    /** The lock file's name. */
    static constexpr const char* LOCK = ".mrc-lock";

    /**
     * @param path a CSV file
     * @return its data rows (lines after the header), or -1 if it cannot be read
     */
    static int64_t CountCsvRows(const std::string& path);
    /**
     * Where the run comes from, for run.json: "code" (commit, dirty, source_dir),
     * "ns3_library" (path and version of the ns-3 core library loaded), "host".
     * @return a JSON object, as text
     */
    static std::string Provenance();

private:
    /** A file of the manifest. */
    struct Entry
    {
        bool whole = false; //!< Finish was called
        uint64_t bytes = 0; //!< size
        int64_t rows = -1;  //!< CSV data rows (-1: not a CSV)
        std::string sha256; //!< digest, if recorded
        bool dir = false;   //!< a directory (a sweep's point)
    };

    /**
     * @param error set on failure
     * @return false if the manifest cannot be written
     */
    bool Save(std::string& error);
    /**
     * Lock the directory.
     * @param error set on failure
     * @return false if another run holds it, or the lock cannot be taken
     */
    bool Lock(std::string& error);
    /**
     * Check what the directory holds; clear it if overwrite.
     * @param overwrite clear a previous run's files
     * @param error set on failure
     * @return false if it holds something that is not a run's, or is not empty without
     *         overwrite
     */
    bool Prepare(bool overwrite, std::string& error);

    std::string m_dir;                    //!< the directory
    std::string m_program;                //!< the program
    int m_lockFd;                         //!< the lock file, or -1
    bool m_complete;                      //!< the manifest's "complete"
    std::map<std::string, Entry> m_files; //!< the manifest's files
    std::vector<std::string> m_argv;      //!< the command line
    std::vector<std::string> m_inputs;    //!< run.json "inputs" entries (JSON text)
};

} // namespace ns3

#endif /* MRC_RESULTS_DIR_H */
