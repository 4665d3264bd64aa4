#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace jobdeck {

// Maps a Job's application path to a file on this machine when a driver starts (so a run always
// picks up the latest version): a local path, file://<path>, or s3://<bucket>/<key> (also s3a://,
// s3n://) through a bucket -> directory table; buckets not in the table live under
// <dataDir>/s3/<bucket>.
class ApplicationPathResolver final {
public:
    struct Result {
        std::string localPath; // set when the path could be mapped (the file may still be missing)
        std::string error;     // the run's FAILED message otherwise
    };

    ApplicationPathResolver(std::string dataDir, std::map<std::string, std::string> bucketDirs);

    // "bucket=dir" from --s3-map; nullopt when malformed (no '=', empty bucket or directory).
    static std::optional<std::pair<std::string, std::string>> parseMapping(std::string_view text);

    Result map(const std::string& applicationPath) const;
    // map() plus an existence check: error "Application file <path> does not exist" when missing (the
    // path's secrets masked: core's message).
    Result resolve(const std::string& applicationPath) const;

private:
    std::string m_dataDir;
    std::map<std::string, std::string> m_bucketDirs;
};

} // namespace jobdeck
