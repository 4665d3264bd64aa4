#include "core/parameters/LogMasking.h"
#include "core/parameters/SecretMasking.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <algorithm>

using namespace jobdeck;
using Strings = std::vector<std::string>;

namespace {

// A part of `log` as the log route reads it: from `offset`, `limit` bytes, with the margin either side.
MaskedLogPart partOf(const std::string& log, std::int64_t offset, std::int64_t limit, bool growing,
                     const Strings& secrets) {
    const std::int64_t size = static_cast<std::int64_t>(log.size());
    const std::int64_t margin = logMaskingMargin(secrets);
    const std::int64_t rawStart = std::max<std::int64_t>(0, offset - margin);
    const std::int64_t rawEnd = std::min(size, offset + limit + margin);
    const std::string raw =
        log.substr(static_cast<std::size_t>(rawStart), static_cast<std::size_t>(rawEnd - rawStart));
    return maskLogPart(raw, rawStart, offset, offset + limit, growing && rawEnd == size, secrets);
}

// The whole log read part after part, each of `limit` bytes, as a client pages through it.
std::string readInParts(const std::string& log, std::int64_t limit, const Strings& secrets) {
    std::string text;
    for (std::int64_t offset = 0; offset < static_cast<std::int64_t>(log.size());) {
        const MaskedLogPart part = partOf(log, offset, limit, false, secrets);
        if (part.end <= offset)
            return "no progress at " + std::to_string(offset);
        text += part.text;
        offset = part.end;
    }
    return text;
}

} // namespace

class TestLogMasking final : public QObject {
    Q_OBJECT
private slots:
    void secretsAreMaskedWherever() {
        const Strings secrets{"hunter2"};
        const std::string log = "connecting as bob with hunter2\nhunter2hunter2 done\n";
        const MaskedLogPart part = partOf(log, 0, 1 << 20, false, secrets);
        QCOMPARE(part.text, std::string("connecting as bob with ****\n******** done\n"));
        QCOMPARE(part.end, std::int64_t(log.size()));
    }

    // Whatever the size of the parts, reading part after part gives the masked log: no secret is split
    // over two parts, and every part moves on.
    void pagingNeverSplitsASecret() {
        const Strings secrets{"abc123xyz", "s3cr3t"};
        const std::string log = "a abc123xyz b s3cr3ts3cr3t\nabc123xy s3cr3 abc123xyz";
        const std::string whole = partOf(log, 0, 1 << 20, false, secrets).text;
        QCOMPARE(whole, std::string("a **** b ********\nabc123xy s3cr3 ****"));
        for (std::int64_t limit = 1; limit <= static_cast<std::int64_t>(log.size()); ++limit)
            QCOMPARE(readInParts(log, limit, secrets), whole);
    }

    // While the run writes its log, the bytes at its end that could start a secret wait for the next read.
    void theStartOfASecretBeingWrittenWaits() {
        const Strings secrets{"hunter2"};
        const MaskedLogPart first = partOf("password: hunt", 0, 1 << 20, true, secrets);
        QCOMPARE(first.text, std::string("password: "));
        QCOMPARE(first.end, std::int64_t(10));
        const MaskedLogPart next = partOf("password: hunter2 ok", first.end, 1 << 20, true, secrets);
        QCOMPARE(next.text, std::string("**** ok"));
        // Once the run has ended, the end of the log is what it is.
        QCOMPARE(partOf("password: hunt", 0, 1 << 20, false, secrets).text, std::string("password: hunt"));
        // Nothing that could start one: all of it.
        QCOMPARE(partOf("password: xyz", 0, 1 << 20, true, secrets).end, std::int64_t(13));
    }

    void aPartStartingInsideASecretShowsItMasked() {
        const Strings secrets{"hunter2"};
        QCOMPARE(partOf("pw hunter2 ok", 5, 1 << 20, false, secrets).text, std::string("**** ok"));
    }

    void theLongestSecretIsMaskedWhole() {
        QCOMPARE(partOf("abc123 abc", 0, 100, false, {"abc123", "abc"}).text, std::string("**** ****"));
    }

    void noSecretsLeavesTheLogAsItIs() {
        const std::string log = "plain output\n";
        const MaskedLogPart part = partOf(log, 3, 4, true, {});
        QCOMPARE(part.text, std::string("in o"));
        QCOMPARE(part.end, std::int64_t(7));
    }

    void aRunsSecretValues() {
        const Strings secrets = runSecretValues(
            {"--conf", "spark.db.password=p4ss", "--conf", "spark.security.credentials.hive.enabled=false",
             "app.jar", "--token", "t0k3n", "--api-token=xyz", "--token", "t0k3n"},
            {"--token", "t0k3n", "--db-password", "hunter2"},
            {{"spark.hadoop.fs.s3a.secret.key", "s3cr3t"}, {"spark.executor.memory", "4g"}});
        QCOMPARE(secrets, (Strings{"hunter2", "s3cr3t", "t0k3n", "p4ss", "xyz"}));
        // Secrets inside values: a JDBC URL's, a URL's user info, a JSON member, a cluster's URL.
        QCOMPARE(runSecretValues({"--conf", "spark.jdbc.url=jdbc:postgresql://h/db?password=jdbc1&x=1",
                                  "https://u:path1@h/app.jar"},
                                 {"{\"token\": \"json1\"}"},
                                 {{"spark.jars.repositories", "https://u:repo1@h/m2"}}),
                 (Strings{"jdbc1", "json1", "path1", "repo1"}));
    }

    // A run's values as started and as its Job gives them now: longest first (so "hunter22" is not
    // masked as "****2"), each once, none empty or ****.
    void aRunsSecretValuesMerged() {
        QCOMPARE(mergeSecretValues({"t0k3n", "hunter2"}, {"hunter22", "t0k3n", "", "****", "xyz"}),
                 (Strings{"hunter22", "hunter2", "t0k3n", "xyz"}));
        QCOMPARE(mergeSecretValues({}, {"b", "a"}), (Strings{"a", "b"}));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestLogMasking)
#include "tst_logmasking.moc"
